/* wb-ui-input.h — real input for the ui tests: key presses and pointer moves, buttons and drags that the X
 * server itself makes (its XTEST extension, through libXtst) and delivers to the window as a user's
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each call returns once the X server has taken the events, GTK's own connection has received what they
 * caused, and the window has drawn a frame after handling them (bounded waits on the main loop, no
 * sleeps). What they cause is for the caller to wait for and assert. */
#pragma once

#include <gtk/gtk.h>

typedef struct _WbUiInput WbUiInput;

/* wb_ui_input_new: (transfer full) (nullable) a second connection to the X display @window is shown on;
 * NULL with *@why (transfer full) when real input cannot be made there: a display that is not X11, an
 * X server without XTEST, or a build without libXtst. */
WbUiInput *wb_ui_input_new (GtkWindow *window, char **why);
void       wb_ui_input_free (WbUiInput *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbUiInput, wb_ui_input_free)

/* wb_ui_input_sync: what each call below ends with, without sending anything: the window has handled
 * every event the server sent it so far and drawn a frame after them. */
void wb_ui_input_sync (WbUiInput *self);
/* wb_ui_input_focus: gives the window the X input focus (as a window manager does on a click) and waits
 * until GTK reports it active; FALSE when it did not become active within 10 s. */
gboolean wb_ui_input_focus (WbUiInput *self);
/* wb_ui_input_key: presses and releases @accel (gtk_accelerator_parse's form: "w", "Escape",
 * "<Alt>Right", "<Control>plus"): its modifiers held around the key; Shift added where the keyboard map
 * has the key's symbol on the shifted level only. */
void wb_ui_input_key (WbUiInput *self, const char *accel);
/* wb_ui_input_key_quick: as wb_ui_input_key, but returns after the first frame drawn after the key's
 * handlers, leaving idle work of a lower priority pending (GtkTextView lays out the rest of a long
 * text in the background): the pace of a user pressing a key again as soon as the window shows the
 * result. */
void wb_ui_input_key_quick (WbUiInput *self, const char *accel);
/* wb_ui_input_type: types @text (ASCII) key by key. */
void wb_ui_input_type (WbUiInput *self, const char *text);
/* wb_ui_input_type_fast: as wb_ui_input_type, the keys sent at once and one frame waited for after them
 * all (a fast typist's): for long texts such as paths. */
void wb_ui_input_type_fast (WbUiInput *self, const char *text);
/* wb_ui_input_move: moves the pointer to @widget's point (@x, @y), in the widget's coordinates (px);
 * @widget may be in another window or popover than the one wb_ui_input_new was given. */
void wb_ui_input_move (WbUiInput *self, GtkWidget *widget, double x, double y);
/* wb_ui_input_button: presses (@press) or releases pointer button @button (1: primary) where it is. */
void wb_ui_input_button (WbUiInput *self, guint button, gboolean press);
/* wb_ui_input_scroll: turns the wheel where the pointer is by @clicks (> 0 up, away from the user; < 0
 * down), one click at a time. */
void wb_ui_input_scroll (WbUiInput *self, int clicks);
/* wb_ui_input_drag: button 1 pressed at @widget's (@x0, @y0), moved in @steps (>= 1) equal steps to
 * (@x1, @y1), released there. */
void wb_ui_input_drag (WbUiInput *self, GtkWidget *widget, double x0, double y0, double x1, double y1, guint steps);
/* wb_ui_input_click: button 1 pressed and released at @widget's (@x, @y). */
void wb_ui_input_click (WbUiInput *self, GtkWidget *widget, double x, double y);
/* wb_ui_input_focus_window: as wb_ui_input_focus, for another window (a dialog). */
gboolean wb_ui_input_focus_window (WbUiInput *self, GtkWindow *window);
/* wb_ui_input_click_widget: button 1 pressed and released at the middle of @widget. */
void wb_ui_input_click_widget (WbUiInput *self, GtkWidget *widget);

/* Finding what a user would click, in tree order (transfer none, nullable): the first widget of @type
 * under @root; the first mapped button whose label is @text (its mnemonic's underscores left out:
 * "Profile" finds "_Profile"); the first mapped label showing @text. */
GtkWidget *wb_ui_find_type (GtkWidget *root, GType type);
GtkWidget *wb_ui_find_button (GtkWidget *root, const char *text);
GtkWidget *wb_ui_find_label (GtkWidget *root, const char *text);
/* wb_ui_input_choose_path: Ctrl+O in the window @self drives (given the focus first), then @path typed
 * into the file chooser's location entry (Ctrl+L; key by key, or with @fast as wb_ui_input_type_fast)
 * and the chooser's inline completion dropped; each step asserted. (transfer none) the chooser's Open
 * button, for the caller to click (and time). */
GtkWidget *wb_ui_input_choose_path (WbUiInput *self, const char *path, gboolean fast);
/* wb_ui_input_set_log_writer: GLib's default log writer, except for GTK 4.8's warning "Trying to
 * snapshot GtkGizmo (or GtkBox) ... without a current allocation" (a scrolled GtkSourceView's scrollbar
 * appearing or going in the frame that draws it: wb-ui-input.c): printed and counted, not fatal. Every other warning still fails the test. */
void  wb_ui_input_set_log_writer (void);
guint wb_ui_input_get_gizmo_warnings (void);
