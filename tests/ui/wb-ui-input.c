/* wb-ui-input.c — real input for the ui tests through the X server's XTEST extension (wb-ui-input.h)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-ui-input.h"

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
press_keyval (WbUiInput *self, guint keyval, GdkModifierType mods)
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
  XTranslateCoordinates (self->dpy, self->xid, DefaultRootWindow (self->dpy), (int) ((p.x + sx) * scale + 0.5),
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
wb_ui_input_move (WbUiInput *self, GtkWidget *widget, double x, double y)
{
  g_assert_not_reached ();
}

void
wb_ui_input_button (WbUiInput *self, guint button, gboolean press)
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
