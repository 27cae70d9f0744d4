/* wb-ui-input.c — real input for the ui tests through the X server's XTEST extension (wb-ui-input.h)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-ui-input.h"

#include <string.h>

#include "wb-ui-common.h"

#if defined(WB_HAVE_XTEST) && defined(GDK_WINDOWING_X11)
#include <X11/XKBlib.h>
#include <X11/Xlib.h>
#include <X11/extensions/XTest.h>
#include <gdk/x11/gdkx.h>
#define WB_UI_INPUT_X11 1
#endif

struct _WbUiInput
{
  GtkWindow *window;
#ifdef WB_UI_INPUT_X11
  Display *dpy; /* our own connection: the events come from it, as from another client (xdotool) */
  Window   xid;
#endif
  guint painted; /* the window's frames drawn since the connection was made */
};

static void
after_paint_cb (GdkFrameClock *clock, WbUiInput *self)
{
  self->painted++;
}

void
wb_ui_input_free (WbUiInput *self)
{
  GdkFrameClock *clock;

  if (self == NULL)
    return;
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (self->window));
  if (clock != NULL)
    g_signal_handlers_disconnect_by_func (clock, after_paint_cb, self);
#ifdef WB_UI_INPUT_X11
  XCloseDisplay (self->dpy);
#endif
  g_object_unref (self->window);
  g_free (self);
}

WbUiInput *
wb_ui_input_new (GtkWindow *window, char **why)
{
#ifdef WB_UI_INPUT_X11
  GdkDisplay *display = gtk_widget_get_display (GTK_WIDGET (window));
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (window));
  WbUiInput  *self;
  Display    *dpy;
  int         event_base, error_base, major, minor;

  if (!GDK_IS_X11_DISPLAY (display))
    {
      *why = g_strdup_printf ("the display is not X11 (%s): no XTEST to make real input with", G_OBJECT_TYPE_NAME (display));
      return NULL;
    }
  g_return_val_if_fail (surface != NULL, NULL);
  dpy = XOpenDisplay (gdk_display_get_name (display));
  if (dpy == NULL)
    {
      *why = g_strdup_printf ("cannot open a second connection to X display %s", gdk_display_get_name (display));
      return NULL;
    }
  if (!XTestQueryExtension (dpy, &event_base, &error_base, &major, &minor))
    {
      XCloseDisplay (dpy);
      *why = g_strdup_printf ("X display %s has no XTEST extension", gdk_display_get_name (display));
      return NULL;
    }
  self = g_new0 (WbUiInput, 1);
  self->window = g_object_ref (window);
  self->dpy = dpy;
  self->xid = gdk_x11_surface_get_xid (surface);
  g_signal_connect (gtk_widget_get_frame_clock (GTK_WIDGET (window)), "after-paint", G_CALLBACK (after_paint_cb), self);
  return self;
#else
  *why = g_strdup ("built without libXtst (Debian: libxtst-dev; tools/setup.sh installs it)");
  return NULL;
#endif
}

#ifdef WB_UI_INPUT_X11

/* after events sent on our connection: the server has taken them (XSync), GTK's connection has
 * received what they caused (its own round trip), GTK has handled it and drawn a frame after it */
static void
flush (WbUiInput *self)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self->window));
  guint          painted = self->painted;
  gint64         end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  XSync (self->dpy, False);
  XSync (gdk_x11_display_get_xdisplay (gtk_widget_get_display (GTK_WIDGET (self->window))), False);
  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);
  gdk_frame_clock_request_phase (clock, GDK_FRAME_CLOCK_PHASE_AFTER_PAINT);
  while (self->painted == painted && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (self->painted, >, painted);
  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);
}

/* flush without waiting for idle work: the frame after the events' handlers, no more (events come before
 * the frame clock's idle, which comes before GtkTextView's background layout) */
static void
flush_frame (WbUiInput *self)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self->window));
  guint          painted = self->painted;
  gint64         end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  XSync (self->dpy, False);
  XSync (gdk_x11_display_get_xdisplay (gtk_widget_get_display (GTK_WIDGET (self->window))), False);
  while (g_main_context_iteration (NULL, FALSE) && self->painted == painted)
    ;
  gdk_frame_clock_request_phase (clock, GDK_FRAME_CLOCK_PHASE_AFTER_PAINT);
  while (self->painted == painted && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (self->painted, >, painted);
}

void
wb_ui_input_sync (WbUiInput *self)
{
  flush (self);
}

static gboolean
is_active (gpointer data)
{
  return gtk_window_is_active (data);
}

gboolean
wb_ui_input_focus (WbUiInput *self)
{
  gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  XSetInputFocus (self->dpy, self->xid, RevertToParent, CurrentTime);
  flush (self);
  while (!is_active (self->window) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  return is_active (self->window);
}

static KeyCode
keycode (WbUiInput *self, guint keyval, gboolean *shift)
{
  KeyCode code = XKeysymToKeycode (self->dpy, keyval);

  if (code == 0)
    g_error ("the X keyboard map has no key for %s", gdk_keyval_name (keyval));
  /* a symbol on the shifted level only ("plus", "A", "_") needs Shift held */
  *shift = XkbKeycodeToKeysym (self->dpy, code, 0, 0) != keyval && XkbKeycodeToKeysym (self->dpy, code, 0, 1) == keyval;
  return code;
}

static void
key_event (WbUiInput *self, KeySym sym, gboolean press)
{
  XTestFakeKeyEvent (self->dpy, XKeysymToKeycode (self->dpy, sym), press, CurrentTime);
}

static void
send_keyval (WbUiInput *self, guint keyval, GdkModifierType mods)
{
  gboolean shift;
  KeyCode  code = keycode (self, keyval, &shift);

  if (mods & GDK_CONTROL_MASK)
    key_event (self, XK_Control_L, TRUE);
  if (mods & GDK_ALT_MASK)
    key_event (self, XK_Alt_L, TRUE);
  if ((mods & GDK_SHIFT_MASK) || shift)
    key_event (self, XK_Shift_L, TRUE);
  XTestFakeKeyEvent (self->dpy, code, True, CurrentTime);
  XTestFakeKeyEvent (self->dpy, code, False, CurrentTime);
  if ((mods & GDK_SHIFT_MASK) || shift)
    key_event (self, XK_Shift_L, FALSE);
  if (mods & GDK_ALT_MASK)
    key_event (self, XK_Alt_L, FALSE);
  if (mods & GDK_CONTROL_MASK)
    key_event (self, XK_Control_L, FALSE);
}

static void
press_keyval (WbUiInput *self, guint keyval, GdkModifierType mods)
{
  send_keyval (self, keyval, mods);
  flush (self);
}

void
wb_ui_input_key (WbUiInput *self, const char *accel)
{
  guint           keyval = 0;
  GdkModifierType mods = 0;

  if (!gtk_accelerator_parse (accel, &keyval, &mods) || keyval == 0)
    g_error ("not an accelerator: %s", accel);
  press_keyval (self, keyval, mods);
}

void
wb_ui_input_type (WbUiInput *self, const char *text)
{
  for (const char *c = text; *c != '\0'; c++)
    press_keyval (self, gdk_unicode_to_keyval ((guchar) *c), 0);
}

void
wb_ui_input_key_quick (WbUiInput *self, const char *accel)
{
  guint           keyval = 0;
  GdkModifierType mods = 0;

  if (!gtk_accelerator_parse (accel, &keyval, &mods) || keyval == 0)
    g_error ("not an accelerator: %s", accel);
  send_keyval (self, keyval, mods);
  flush_frame (self);
}

void
wb_ui_input_type_fast (WbUiInput *self, const char *text)
{
  for (const char *c = text; *c != '\0'; c++)
    send_keyval (self, gdk_unicode_to_keyval ((guchar) *c), 0);
  flush (self);
}

void
wb_ui_input_move (WbUiInput *self, GtkWidget *widget, double x, double y)
{
  GtkNative       *native = gtk_widget_get_native (widget);
  graphene_point_t p;
  double           sx, sy;
  int              scale = gdk_surface_get_scale_factor (gtk_native_get_surface (native)), rx, ry;
  Window           child;

  /* where @widget is now: the layout of what was shown last drawn first */
  flush (self);
  g_assert_true (gtk_widget_compute_point (widget, GTK_WIDGET (native), &GRAPHENE_POINT_INIT (x, y), &p));
  gtk_native_get_surface_transform (native, &sx, &sy);
  /* the native's own X window: the main window's, or a popover's or a dialog's */
  XTranslateCoordinates (self->dpy, gdk_x11_surface_get_xid (gtk_native_get_surface (native)), DefaultRootWindow (self->dpy),
                         (int) ((p.x + sx) * scale + 0.5),
                         (int) ((p.y + sy) * scale + 0.5), &rx, &ry, &child);
  XTestFakeMotionEvent (self->dpy, -1, rx, ry, CurrentTime);
  flush (self);
}

void
wb_ui_input_button (WbUiInput *self, guint button, gboolean press)
{
  XTestFakeButtonEvent (self->dpy, button, press, CurrentTime);
  flush (self);
}

void
wb_ui_input_scroll (WbUiInput *self, int clicks)
{
  /* X's buttons 4 (up) and 5 (down): one wheel click each, as a mouse wheel's */
  for (int i = 0; i < ABS (clicks); i++)
    {
      XTestFakeButtonEvent (self->dpy, clicks > 0 ? 4 : 5, True, CurrentTime);
      XTestFakeButtonEvent (self->dpy, clicks > 0 ? 4 : 5, False, CurrentTime);
      flush (self);
    }
}

#else /* without XTEST: wb_ui_input_new returned NULL, so nothing below is reached */

void
wb_ui_input_sync (WbUiInput *self)
{
  g_assert_not_reached ();
}

gboolean
wb_ui_input_focus (WbUiInput *self)
{
  g_assert_not_reached ();
}

void
wb_ui_input_key (WbUiInput *self, const char *accel)
{
  g_assert_not_reached ();
}

void
wb_ui_input_type (WbUiInput *self, const char *text)
{
  g_assert_not_reached ();
}

void
wb_ui_input_type_fast (WbUiInput *self, const char *text)
{
  g_assert_not_reached ();
}

void
wb_ui_input_key_quick (WbUiInput *self, const char *accel)
{
  g_assert_not_reached ();
}

void
wb_ui_input_move (WbUiInput *self, GtkWidget *widget, double x, double y)
{
  g_assert_not_reached ();
}

void
wb_ui_input_button (WbUiInput *self, guint button, gboolean press)
{
  g_assert_not_reached ();
}

void
wb_ui_input_scroll (WbUiInput *self, int clicks)
{
  g_assert_not_reached ();
}

#endif

void
wb_ui_input_drag (WbUiInput *self, GtkWidget *widget, double x0, double y0, double x1, double y1, guint steps)
{
  wb_ui_input_move (self, widget, x0, y0);
  wb_ui_input_button (self, 1, TRUE);
  for (guint i = 1; i <= MAX (steps, 1); i++)
    wb_ui_input_move (self, widget, x0 + (x1 - x0) * i / MAX (steps, 1), y0 + (y1 - y0) * i / MAX (steps, 1));
  wb_ui_input_button (self, 1, FALSE);
}

void
wb_ui_input_click (WbUiInput *self, GtkWidget *widget, double x, double y)
{
  wb_ui_input_move (self, widget, x, y);
  wb_ui_input_button (self, 1, TRUE);
  wb_ui_input_button (self, 1, FALSE);
}

#ifdef WB_UI_INPUT_X11
gboolean
wb_ui_input_focus_window (WbUiInput *self, GtkWindow *window)
{
  gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  XSetInputFocus (self->dpy, gdk_x11_surface_get_xid (gtk_native_get_surface (GTK_NATIVE (window))), RevertToParent, CurrentTime);
  flush (self);
  while (!is_active (window) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  return is_active (window);
}
#else
gboolean
wb_ui_input_focus_window (WbUiInput *self, GtkWindow *window)
{
  g_assert_not_reached ();
}
#endif

void
wb_ui_input_click_widget (WbUiInput *self, GtkWidget *widget)
{
  wb_ui_input_click (self, widget, gtk_widget_get_width (widget) / 2.0, gtk_widget_get_height (widget) / 2.0);
}

/* GTK 4.8's warning when a key press (any: Shift alone does it) first makes the window's focus visible
 * while a scrolled GtkSourceView has the focus: the pane's scrollbar trough is drawn in the frame that
 * reallocates it; and, stepping to a stage after the wheel scrolled the panes, the same for a pane's
 * GtkBox (the synchronised scroll moves the other pane while the frame allocates them, and the scrollbar
 * that appears or goes re-queues the box). The stage view no longer does either (its scrollbars and the
 * paired scroll are kept out of the paint, wb-stage-view.c; test-ui-zoo allows no warning at all); other
 * scrolled views may. Not fatal here (GLib aborts on fatal warnings in g_log_writer_default, which this
 * writer does not call for it): printed, counted and reported; every other message goes to the default
 * writer, so any other warning still fails the test. */
static guint gizmo_warnings;

static GLogWriterOutput
log_writer (GLogLevelFlags level, const GLogField *fields, gsize n_fields, gpointer data)
{
  const char *domain = NULL, *message = NULL;

  for (gsize i = 0; i < n_fields; i++)
    if (g_str_equal (fields[i].key, "GLIB_DOMAIN"))
      domain = fields[i].value;
    else if (g_str_equal (fields[i].key, "MESSAGE"))
      message = fields[i].value;
  if ((level & G_LOG_LEVEL_WARNING) && g_strcmp0 (domain, "Gtk") == 0 && message != NULL &&
      g_str_has_prefix (message, "Trying to snapshot Gtk") && g_str_has_suffix (message, "without a current allocation"))
    {
      gizmo_warnings++;
      g_printerr ("Gtk-WARNING (not fatal here): %s\n", message);
      return G_LOG_WRITER_HANDLED;
    }
  return g_log_writer_default (level, fields, n_fields, data);
}

void
wb_ui_input_set_log_writer (void)
{
  g_log_set_writer_func (log_writer, NULL, NULL);
}

guint
wb_ui_input_get_gizmo_warnings (void)
{
  return gizmo_warnings;
}

/* -- finding widgets as a user sees them ---------------------------------------------------------- */

GtkWidget *
wb_ui_find_type (GtkWidget *root, GType type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = wb_ui_find_type (c, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* @label without its mnemonic's underscores */
static gboolean
label_is (const char *label, const char *text)
{
  g_autoptr (GString) plain = g_string_new (NULL);

  if (label == NULL)
    return FALSE;
  for (const char *c = label; *c != '\0'; c++)
    if (*c != '_')
      g_string_append_c (plain, *c);
  return strcmp (plain->str, text) == 0;
}

GtkWidget *
wb_ui_find_button (GtkWidget *root, const char *text)
{
  if (GTK_IS_BUTTON (root) && gtk_widget_get_mapped (root) && label_is (gtk_button_get_label (GTK_BUTTON (root)), text))
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = wb_ui_find_button (c, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

GtkWidget *
wb_ui_find_label (GtkWidget *root, const char *text)
{
  if (GTK_IS_LABEL (root) && gtk_widget_get_mapped (root) && label_is (gtk_label_get_text (GTK_LABEL (root)), text))
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = wb_ui_find_label (c, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* -- the file chooser, as a user opens a folder --------------------------------------------------- */

static gboolean
chooser_shown (gpointer data)
{
  GListModel *tops = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (tops); i++)
    {
      g_autoptr (GtkWidget) w = g_list_model_get_item (tops, i);

      if (GTK_IS_FILE_CHOOSER (w) && gtk_widget_get_mapped (w))
        {
          *(GtkWidget **) data = w;
          return TRUE;
        }
    }
  return FALSE;
}

static gboolean
entry_text_is (gpointer data)
{
  GtkWidget **w = data;

  return g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (w[0])), (const char *) w[1]) == 0;
}

GtkWidget *
wb_ui_input_choose_path (WbUiInput *self, const char *path, gboolean fast)
{
  GtkWidget *chooser = NULL, *focus, *entry, *open;

  g_assert_true (wb_ui_input_focus (self));
  wb_ui_input_key (self, "<Control>o");
  g_assert_true (wb_ui_wait (chooser_shown, &chooser, 20));
  g_assert_true (wb_ui_input_focus_window (self, GTK_WINDOW (chooser)));
  /* Ctrl+L shows the location entry, its text with the focus */
  wb_ui_input_key (self, "<Control>l");
  focus = gtk_window_get_focus (GTK_WINDOW (chooser));
  g_assert_true (focus != NULL && GTK_IS_TEXT (focus));
  entry = gtk_widget_get_parent (focus);
  if (fast)
    wb_ui_input_type_fast (self, path);
  else
    wb_ui_input_type (self, path);
  /* the chooser completes names inline (the completion selected): Delete drops it */
  wb_ui_input_key (self, "Delete");
  g_assert_true (wb_ui_wait (entry_text_is, (GtkWidget *[]){ entry, (GtkWidget *) path }, 5));
  open = wb_ui_find_button (chooser, "Open");
  g_assert_nonnull (open);
  return open;
}
