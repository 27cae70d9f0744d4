/* wb-timeline-input.c — WbTimeline's pointer and keys: drag selects a range (Shift or the middle button
 * pans), a click selects a kernel's region and line, scroll zooms about the pointer (Shift: pans), and
 * Perfetto's keys: W/S zoom in and out, A/D pan, Escape clears the range
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "wb-timeline-private.h"

static void
drag_begin_cb (GtkGestureDrag *gesture, double x, double y, WbTimeline *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  gtk_widget_grab_focus (self->area);
  self->panning = (mods & GDK_SHIFT_MASK) || gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture)) == GDK_BUTTON_MIDDLE;
  self->drag_offset = self->offset_ns;
  self->drag_x = x;
}

void
wb_timeline_drag (WbTimeline *self, double x0, double x1)
{
  double t0 = _wb_timeline_x_to_time (self, MAX (x0, WB_TIMELINE_LEFT_W)), t1 = _wb_timeline_x_to_time (self, MAX (x1, WB_TIMELINE_LEFT_W));

  g_return_if_fail (WB_IS_TIMELINE (self));
  wb_timeline_select_range (self, (gint64) MAX (MIN (t0, t1), self->lo), (gint64) MIN (MAX (t0, t1), self->t1 - self->t0));
}

static void
drag_update_cb (GtkGestureDrag *gesture, double dx, double dy, WbTimeline *self)
{
  if (self->panning)
    {
      self->offset_ns = self->drag_offset - dx * self->ns_per_px;
      self->user_view = TRUE;
      gtk_widget_queue_draw (self->area);
    }
  else if (fabs (dx) > 4)
    wb_timeline_drag (self, self->drag_x, self->drag_x + dx);
}

static void
drag_end_cb (GtkGestureDrag *gesture, double dx, double dy, WbTimeline *self)
{
  double sx, sy;
  int    i;

  if (hypot (dx, dy) > 4)
    return;
  gtk_gesture_drag_get_start_point (gesture, &sx, &sy);
  if ((i = _wb_timeline_kernel_at (self, sx, sy)) >= 0)
    wb_timeline_click_kernel (self, i);
  else if ((i = _wb_timeline_host_call_at (self, sx, sy)) >= 0 && g_array_index (self->host, WbTimelineHostCall, i).kernel >= 0)
    wb_timeline_click_kernel (self, g_array_index (self->host, WbTimelineHostCall, i).kernel); /* the kernel it launched */
}

static void
zoom_at (WbTimeline *self, double factor, double x)
{
  double t = _wb_timeline_x_to_time (self, x);

  self->ns_per_px = CLAMP (self->ns_per_px * factor, 0.01, 1e12);
  self->user_view = TRUE;
  self->offset_ns = t - (x - WB_TIMELINE_LEFT_W) * self->ns_per_px;
  gtk_widget_queue_draw (self->area);
}

static void
pan (WbTimeline *self, double px)
{
  self->offset_ns += px * self->ns_per_px;
  self->user_view = TRUE;
  gtk_widget_queue_draw (self->area);
}

static gboolean
scroll_cb (GtkEventControllerScroll *controller, double dx, double dy, WbTimeline *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));

  if (mods & GDK_SHIFT_MASK)
    pan (self, 40 * (dy + dx));
  else if (dx != 0)
    pan (self, 40 * dx);
  else
    zoom_at (self, pow (1.2, dy), MAX (self->pointer_x, WB_TIMELINE_LEFT_W));
  return TRUE;
}

static void
motion_cb (GtkEventControllerMotion *controller, double x, double y, WbTimeline *self)
{
  self->pointer_x = x;
}

/* zoom about the pointer when it is over the tracks (Perfetto's W/S), else about the middle */
static void
zoom_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WbTimeline *self = WB_TIMELINE (widget);
  double      w = gtk_widget_get_width (self->area);
  double      x = self->pointer_x > WB_TIMELINE_LEFT_W && self->pointer_x < w ? self->pointer_x : WB_TIMELINE_LEFT_W + (w - WB_TIMELINE_LEFT_W) / 2;

  if (g_str_equal (action_name, "timeline.zoom-fit"))
    {
      _wb_timeline_fit (self);
      gtk_widget_queue_draw (self->area);
    }
  else
    zoom_at (self, g_str_equal (action_name, "timeline.zoom-in") ? 0.5 : 2.0, x);
}

static void
pan_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  WbTimeline *self = WB_TIMELINE (widget);
  double      w = MAX (gtk_widget_get_width (self->area) - WB_TIMELINE_LEFT_W, 100);

  pan (self, (g_str_equal (action_name, "timeline.pan-left") ? -0.2 : 0.2) * w);
}

static void
clear_range_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  wb_timeline_select_range (WB_TIMELINE (widget), 0, -1);
}

void
_wb_timeline_class_init_input (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "timeline.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-fit", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.pan-left", NULL, pan_action);
  gtk_widget_class_install_action (widget_class, "timeline.pan-right", NULL, pan_action);
  gtk_widget_class_install_action (widget_class, "timeline.clear-range", NULL, clear_range_action);
  /* Perfetto's keys */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, 0, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_a, 0, "timeline.pan-left", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_d, 0, "timeline.pan-right", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "timeline.clear-range", NULL);
}

void
_wb_timeline_init_input (WbTimeline *self)
{
  GtkGesture         *drag = gtk_gesture_drag_new ();
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  GtkEventController *motion = gtk_event_controller_motion_new ();

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), 0);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (self->area, GTK_EVENT_CONTROLLER (drag));
  g_signal_connect (scroll, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (self->area, scroll);
  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  gtk_widget_add_controller (self->area, motion);
}
