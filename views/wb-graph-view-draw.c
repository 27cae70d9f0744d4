/* wb-graph-view-draw.c — WbGraphView's drawing: cairo, culled to what is visible, and the exports (PNG, SVG, DOT)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <cairo-svg.h>
#include <glib/gi18n.h>
#include <math.h>

#include "wb-data.h"
#include "wb-graph-view-private.h"

/* -- drawing -------------------------------------------------------------------------------------- */

static void node_fill (WbGraphView *self, const VNode *n, double ms, double total, double *rgb);

/* the latest run's median iteration, ms; -1 without a run */
static double
run_ms (WbGraphView *self)
{
  const WbRun *run = self->document ? wb_document_get_run (self->document) : NULL;
  g_autoptr (GArray) sorted = NULL;

  if (run == NULL || run->iteration_ns == NULL || run->iteration_ns->len == 0)
    return -1;
  sorted = g_array_copy (run->iteration_ns);
  for (guint i = 1; i < sorted->len; i++) /* insertion sort: a few iterations */
    for (guint k = i; k > 0 && g_array_index (sorted, gint64, k - 1) > g_array_index (sorted, gint64, k); k--)
      {
        gint64 t = g_array_index (sorted, gint64, k);

        g_array_index (sorted, gint64, k) = g_array_index (sorted, gint64, k - 1);
        g_array_index (sorted, gint64, k - 1) = t;
      }
  return g_array_index (sorted, gint64, sorted->len / 2) / 1e6;
}

/* the latest run's time of what @n stands for (a region's call, or every call of a chunk), ms; -1 if none */
double
_wb_graph_view_node_ms (WbGraphView *self, const VNode *n)
{
  if (self->document == NULL || n->bsym == NULL)
    return -1;
  if (n->group != NULL && _wb_graph_is_chunk (self->chunks, n->group))
    {
      const WbGraphChunk *chunk = n->group;
      double              sum = -1;

      for (guint i = chunk->first; i < chunk->last; i++)
        {
          double ms = wb_document_get_bsym_ms (self->document, self->trace->body[i]);

          if (ms >= 0)
            sum = MAX (sum, 0) + ms;
        }
      return sum;
    }
  if (n->bsym == n->owner)
    return wb_document_get_bsym_ms (self->document, n->bsym);
  return _wb_graph_view_node_is_estimate (self, n) ? wb_document_get_op_estimate_ms (self->document, self->trace, n->bsym) : -1;
}

gboolean
_wb_graph_view_node_is_estimate (WbGraphView *self, const VNode *n)
{
  return self->document != NULL && n->bsym != NULL && n->owner != NULL && n->bsym != n->owner && wb_bsym_is_fusion (n->owner) &&
         wb_document_get_op_estimate (self->document, self->trace, n->bsym) != NULL;
}

char *
_wb_graph_view_node_tag (WbGraphView *self, const VNode *n, double ms)
{
  if (ms < 0)
    return NULL;
  if (_wb_graph_view_node_is_estimate (self, n))
    /* TRANSLATORS: an op's estimated time on its node in the graph (a share of its fusion region's measured
     * time, not a measurement), milliseconds; keep it short */
    return g_strdup_printf (_ ("est. %.3f ms"), ms);
  return g_strdup_printf (ms >= 1 ? "%.2f ms" : "%.3f ms", ms);
}

void
_wb_graph_view_node_fill (WbGraphView *self, const VNode *n, double *rgb)
{
  node_fill (self, n, _wb_graph_view_node_ms (self, n), run_ms (self), rgb);
}

static void
node_fill (WbGraphView *self, const VNode *n, double ms, double total, double *rgb)
{
  const WbRegion *region = n->owner ? wb_document_region_of (self->document, n->owner) : NULL;
  double          share = ms >= 0 && total > 0 ? ms / total : region ? wb_document_get_region_share (self->document, region->name)
                                                                     : -1;

  if (n->bsym != NULL && n->bsym->kind == WB_BSYM_CALL && wb_document_is_collective (self->document, n->bsym->name))
    {
      /* collectives in their own colour (as in the Regions table and the timeline): lighter for a small
       * share of the iteration, the full colour for a large one */
      static const double full[3] = { WB_COLLECTIVE_RGB };
      double              t = share >= 0 ? 0.35 + 0.65 * MIN (1.0, sqrt (share)) : 0.5;

      for (int i = 0; i < 3; i++)
        rgb[i] = 1.0 + (full[i] - 1.0) * t;
      return;
    }
  if (share >= 0)
    {
      static const double lo[3] = { 0.996, 0.961, 0.922 }, hi[3] = { 0.890, 0.380, 0.090 };
      double              t = MIN (1.0, sqrt (share));

      for (int i = 0; i < 3; i++)
        rgb[i] = lo[i] + (hi[i] - lo[i]) * t;
      return;
    }
  switch (n->kind)
    {
    case GN_INPUT:
      rgb[0] = 0.851, rgb[1] = 0.949, rgb[2] = 0.851;
      break;
    case GN_RETURN:
      rgb[0] = 0.976, rgb[1] = 0.827, rgb[2] = 0.647;
      break;
    case GN_REGION:
      rgb[0] = 0.929, rgb[1] = 0.910, rgb[2] = 0.800;
      break;
    default:
      rgb[0] = 0.859, rgb[1] = 0.914, rgb[2] = 0.965;
      break;
    }
}

static void
rounded (cairo_t *cr, double x, double y, double w, double h, double r)
{
  cairo_new_sub_path (cr);
  cairo_arc (cr, x + w - r, y + r, r, -G_PI / 2, 0);
  cairo_arc (cr, x + w - r, y + h - r, r, 0, G_PI / 2);
  cairo_arc (cr, x + r, y + h - r, r, G_PI / 2, G_PI);
  cairo_arc (cr, x + r, y + r, r, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
}

typedef struct
{
  double       x0, y0, x1, y1; /* visible, graph coordinates; x1 < x0: everything */
  PangoLayout *text;
  gboolean     labels;
  double       total_ms; /* the latest run's iteration, or -1 */
} Paint;

/* a node's time, as a small tag on its top right corner (an estimate's says so: _wb_graph_view_node_tag) */
static void
draw_time (WbGraphView *self, const VNode *n, cairo_t *cr, Paint *p, double x, double y, double w, double ms)
{
  g_autofree char *text = _wb_graph_view_node_tag (self, n, ms);
  int              tw, th;

  if (text == NULL)
    return;
  pango_layout_set_text (p->text, text, -1);
  pango_layout_get_pixel_size (p->text, &tw, &th);
  rounded (cr, x + w - tw - 6, y - th / 2.0 - 1, tw + 4, th + 2, 3);
  cairo_set_source_rgb (cr, 0.15, 0.15, 0.15);
  cairo_fill (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_move_to (cr, x + w - tw - 4, y - th / 2.0);
  pango_cairo_show_layout (cr, p->text);
}

static gboolean
visible (const Paint *p, double x, double y, double w, double h)
{
  return p->x1 < p->x0 || !(x + w < p->x0 || y + h < p->y0 || x > p->x1 || y > p->y1);
}

static void
draw_layout (WbGraphView *self, cairo_t *cr, Layout *l, Paint *p, double dx, double dy)
{
  cairo_set_line_width (cr, 1.0);
  for (guint i = 0; i < l->edges->len; i++)
    {
      VEdge *e = &g_array_index (l->edges, VEdge, i);
      double ax, ay, bx, by, len;

      if (e->n_pts < 2)
        continue;
      cairo_set_source_rgba (cr, 0.33, 0.33, 0.33, 0.8);
      cairo_move_to (cr, e->pts[0] + dx, e->pts[1] + dy);
      for (guint k = 1; k + 2 < e->n_pts; k += 3)
        cairo_curve_to (cr, e->pts[2 * k] + dx, e->pts[2 * k + 1] + dy, e->pts[2 * k + 2] + dx, e->pts[2 * k + 3] + dy,
                        e->pts[2 * k + 4] + dx, e->pts[2 * k + 5] + dy);
      cairo_stroke (cr);
      /* the arrowhead: from the spline's last point to the endpoint Graphviz left for it */
      ax = e->pts[2 * e->n_pts - 4] + dx, ay = e->pts[2 * e->n_pts - 3] + dy;
      bx = e->pts[2 * e->n_pts - 2] + dx, by = e->pts[2 * e->n_pts - 1] + dy;
      len = hypot (bx - ax, by - ay);
      if (len > 0.1)
        {
          double ux = (bx - ax) / len, uy = (by - ay) / len;

          cairo_move_to (cr, bx, by);
          cairo_line_to (cr, bx - 7 * ux + 3.5 * uy, by - 7 * uy - 3.5 * ux);
          cairo_line_to (cr, bx - 7 * ux - 3.5 * uy, by - 7 * uy + 3.5 * ux);
          cairo_close_path (cr);
          cairo_fill (cr);
        }
    }
  for (guint i = 0; i < l->nodes->len; i++)
    {
      VNode   *n = &g_array_index (l->nodes, VNode, i);
      double   x = n->x - n->w / 2 + dx, y = n->y - n->h / 2 + dy;
      double   rgb[3], ms;
      gboolean selected = n->bsym != NULL && n->bsym == self->selected;

      if (!visible (p, x, y, n->w, n->h))
        continue;
      ms = _wb_graph_view_node_ms (self, n);
      if (n->kind == GN_CLUSTER)
        {
          g_autofree char *title = NULL;

          node_fill (self, n, ms, p->total_ms, rgb);
          rounded (cr, x, y, n->w, n->h, 6);
          cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2], 0.35);
          cairo_fill_preserve (cr);
          cairo_set_source_rgb (cr, selected ? 0.208 : 0.60, selected ? 0.518 : 0.60, selected ? 0.894 : 0.50);
          cairo_set_line_width (cr, selected ? 3 : 1.2);
          cairo_stroke (cr);
          cairo_set_line_width (cr, 1.0);
          if (p->labels)
            {
              title = g_strdup_printf ("▾ %s", n->label);
              g_strdelimit (title, "\n", ' ');
              pango_layout_set_text (p->text, title, -1);
              cairo_set_source_rgb (cr, 0.2, 0.2, 0.15);
              cairo_move_to (cr, x + 6, y + 3);
              pango_cairo_show_layout (cr, p->text);
            }
          if (ms >= 0 && p->labels)
            draw_time (self, n, cr, p, x, y, n->w, ms);
          draw_layout (self, cr, n->inner, p, x + CLUSTER_PAD, y + CLUSTER_PAD + CLUSTER_BAR);
          continue;
        }
      node_fill (self, n, ms, p->total_ms, rgb);
      if (n->kind == GN_INPUT)
        {
          cairo_save (cr);
          cairo_translate (cr, x + n->w / 2, y + n->h / 2);
          cairo_scale (cr, n->w / 2, n->h / 2);
          cairo_arc (cr, 0, 0, 1, 0, 2 * G_PI);
          cairo_restore (cr);
        }
      else
        rounded (cr, x, y, n->w, n->h, n->kind == GN_REGION ? 2 : 5);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_fill_preserve (cr);
      if (selected)
        {
          cairo_set_source_rgb (cr, 0.208, 0.518, 0.894);
          cairo_set_line_width (cr, 3);
        }
      else
        {
          cairo_set_source_rgb (cr, 0.45, 0.45, 0.45);
          cairo_set_line_width (cr, n->kind == GN_REGION ? 2 : 0.8);
        }
      cairo_stroke (cr);
      cairo_set_line_width (cr, 1.0);
      if (p->labels)
        {
          int tw, th;

          pango_layout_set_text (p->text, n->label, -1);
          pango_layout_get_pixel_size (p->text, &tw, &th);
          cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
          cairo_move_to (cr, x + (n->w - tw) / 2, y + (n->h - th) / 2);
          pango_cairo_show_layout (cr, p->text);
          if (ms >= 0)
            draw_time (self, n, cr, p, x, y, n->w, ms);
        }
    }
}

static PangoLayout *
label_layout (cairo_t *cr)
{
  PangoLayout *text = pango_cairo_create_layout (cr);
  g_autoptr (PangoFontDescription) font = pango_font_description_from_string ("Monospace 8");

  pango_layout_set_font_description (text, font);
  pango_layout_set_alignment (text, PANGO_ALIGN_CENTER);
  return text;
}

/* the stage's name over the graph, top left */
static void
draw_title (WbGraphView *self, cairo_t *cr, PangoLayout *text)
{
  g_autoptr (PangoFontDescription) font = pango_font_description_from_string ("Sans Bold 9");
  int tw, th;

  if (self->title == NULL)
    return;
  pango_layout_set_font_description (text, font);
  pango_layout_set_alignment (text, PANGO_ALIGN_LEFT);
  pango_layout_set_text (text, self->title, -1);
  pango_layout_get_pixel_size (text, &tw, &th);
  rounded (cr, 6, 6, tw + 12, th + 6, 4);
  cairo_set_source_rgba (cr, 1, 1, 1, 0.85);
  cairo_fill_preserve (cr);
  cairo_set_source_rgba (cr, 0.4, 0.4, 0.4, 0.8);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);
  cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
  cairo_move_to (cr, 12, 9);
  pango_cairo_show_layout (cr, text);
}

/* a map of the whole graph, bottom right, with the visible part framed; only when the graph does not fit */
static void
draw_minimap (WbGraphView *self, cairo_t *cr, int width, int height)
{
  Layout *l = self->layout;
  double  s, vx, vy, vw, vh;

  self->mm_w = 0;
  if (l->width * self->zoom <= width && l->height * self->zoom <= height)
    return;
  s = MIN (180.0 / MAX (l->width, 1), 140.0 / MAX (l->height, 1));
  self->mm_scale = s;
  self->mm_w = l->width * s + 8;
  self->mm_h = l->height * s + 8;
  self->mm_x = width - self->mm_w - 8;
  self->mm_y = height - self->mm_h - 8;
  cairo_rectangle (cr, self->mm_x, self->mm_y, self->mm_w, self->mm_h);
  cairo_set_source_rgba (cr, 0.97, 0.97, 0.97, 0.92);
  cairo_fill_preserve (cr);
  cairo_set_source_rgba (cr, 0.3, 0.3, 0.3, 0.9);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);
  for (guint i = 0; i < l->nodes->len; i++)
    {
      VNode *n = &g_array_index (l->nodes, VNode, i);

      cairo_rectangle (cr, self->mm_x + 4 + (n->x - n->w / 2) * s, self->mm_y + 4 + (n->y - n->h / 2) * s, MAX (n->w * s, 1), MAX (n->h * s, 1));
      cairo_set_source_rgba (cr, 0.35, 0.45, 0.6, n->kind == GN_CLUSTER ? 0.3 : 0.8);
      cairo_fill (cr);
    }
  vx = -self->ox / self->zoom, vy = -self->oy / self->zoom, vw = width / self->zoom, vh = height / self->zoom;
  cairo_rectangle (cr, self->mm_x + 4 + vx * s, self->mm_y + 4 + vy * s, vw * s, vh * s);
  cairo_set_source_rgba (cr, 0.208, 0.518, 0.894, 0.2);
  cairo_fill_preserve (cr);
  cairo_set_source_rgb (cr, 0.208, 0.518, 0.894);
  cairo_stroke (cr);
}

/* centres the view on the graph point under minimap point (@x, @y) */
void
_wb_graph_view_minimap_move (WbGraphView *self, double x, double y)
{
  double gx = (x - self->mm_x - 4) / self->mm_scale, gy = (y - self->mm_y - 4) / self->mm_scale;

  self->ox = gtk_widget_get_width (self->area) / 2.0 - gx * self->zoom;
  self->oy = gtk_widget_get_height (self->area) / 2.0 - gy * self->zoom;
  gtk_widget_queue_draw (self->area);
}

void
_wb_graph_view_draw (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  WbGraphView *self = data;
  Paint        p;

  if (self->layout == NULL)
    return;
  if (self->zoom <= 0)
    _wb_graph_view_fit (self);
  cairo_save (cr);
  cairo_translate (cr, self->ox, self->oy);
  cairo_scale (cr, self->zoom, self->zoom);
  p.x0 = -self->ox / self->zoom;
  p.y0 = -self->oy / self->zoom;
  p.x1 = p.x0 + width / self->zoom;
  p.y1 = p.y0 + height / self->zoom;
  p.labels = self->zoom >= 0.3;
  p.text = label_layout (cr);
  p.total_ms = run_ms (self);
  draw_layout (self, cr, self->layout, &p, 0, 0);
  cairo_restore (cr);
  draw_minimap (self, cr, width, height);
  draw_title (self, cr, p.text);
  g_object_unref (p.text);
}

/* -- export --------------------------------------------------------------------------------------- */

gboolean
wb_graph_view_export (WbGraphView *self, const char *path, WbGraphExport format, GError **error)
{
  cairo_surface_t *surface;
  cairo_t         *cr;
  Paint            p = { 0, 0, -1, -1, NULL, TRUE, -1 };
  double           scale = 1.0;
  cairo_status_t   status;

  g_return_val_if_fail (WB_IS_GRAPH_VIEW (self), FALSE);

  if (self->trace == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", _ ("No stage to export"));
      return FALSE;
    }
  if (format == WB_GRAPH_EXPORT_DOT)
    {
      g_autofree char *dot = wb_export_dot (self->trace, self->trace->provenance);

      return g_file_set_contents (path, dot, -1, error);
    }
  if (self->layout == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PENDING, "%s", _ ("The graph is still being laid out"));
      return FALSE;
    }
  if (format == WB_GRAPH_EXPORT_PNG)
    {
      /* cairo's image surfaces stop at 32767 pixels a side */
      scale = MIN (1.5, 30000.0 / MAX (self->layout->width, self->layout->height));
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) ceil (self->layout->width * scale) + 20,
                                            (int) ceil (self->layout->height * scale) + 20);
    }
  else
    surface = cairo_svg_surface_create (path, self->layout->width + 20, self->layout->height + 20);
  cr = cairo_create (surface);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_translate (cr, 10, 10);
  cairo_scale (cr, scale, scale);
  p.text = label_layout (cr);
  p.total_ms = run_ms (self);
  draw_layout (self, cr, self->layout, &p, 0, 0);
  g_object_unref (p.text);
  cairo_destroy (cr);
  if (format == WB_GRAPH_EXPORT_PNG)
    status = cairo_surface_write_to_png (surface, path);
  else
    {
      cairo_surface_finish (surface);
      status = cairo_surface_status (surface);
    }
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", path, cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}
