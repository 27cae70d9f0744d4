/* wb-graph-view-draw.c — WbGraphView's drawing: cairo, culled to what is visible, and the exports (PNG, SVG, DOT)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <cairo-svg.h>
#include <glib/gi18n.h>
#include <math.h>

#include "wb-data.h"
#include "wb-graph-view-private.h"

/* -- drawing -------------------------------------------------------------------------------------- */

static void
node_fill (WbGraphView *self, const VNode *n, double *rgb)
{
  const WbRegion *region = n->owner ? wb_document_region_of (self->document, n->owner) : NULL;
  double          share = region ? wb_document_get_region_share (self->document, region->name) : -1;

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
} Paint;

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
      double   rgb[3];
      gboolean selected = n->bsym != NULL && n->bsym == self->selected;

      if (!visible (p, x, y, n->w, n->h))
        continue;
      if (n->kind == GN_CLUSTER)
        {
          g_autofree char *title = NULL;
          const char      *exec = wb_symbol_get_executor (n->bsym->symbol);

          node_fill (self, n, rgb);
          rounded (cr, x, y, n->w, n->h, 6);
          cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2], 0.35);
          cairo_fill_preserve (cr);
          cairo_set_source_rgb (cr, selected ? 0.208 : 0.60, selected ? 0.518 : 0.60, selected ? 0.894 : 0.50);
          cairo_set_line_width (cr, selected ? 3 : 1.2);
          cairo_stroke (cr);
          cairo_set_line_width (cr, 1.0);
          if (p->labels)
            {
              title = g_strdup_printf ("▾ %s%s%s%s", n->bsym->name, exec ? " (" : "", exec ? exec : "", exec ? ")" : "");
              pango_layout_set_text (p->text, title, -1);
              cairo_set_source_rgb (cr, 0.2, 0.2, 0.15);
              cairo_move_to (cr, x + 6, y + 3);
              pango_cairo_show_layout (cr, p->text);
            }
          draw_layout (self, cr, n->inner, p, x + CLUSTER_PAD, y + CLUSTER_PAD + CLUSTER_BAR);
          continue;
        }
      node_fill (self, n, rgb);
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

void
_wb_graph_view_draw (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  WbGraphView *self = data;
  Paint        p;

  if (self->layout == NULL)
    return;
  if (self->zoom <= 0)
    _wb_graph_view_fit (self);
  cairo_translate (cr, self->ox, self->oy);
  cairo_scale (cr, self->zoom, self->zoom);
  p.x0 = -self->ox / self->zoom;
  p.y0 = -self->oy / self->zoom;
  p.x1 = p.x0 + width / self->zoom;
  p.y1 = p.y0 + height / self->zoom;
  p.labels = self->zoom >= 0.3;
  p.text = label_layout (cr);
  draw_layout (self, cr, self->layout, &p, 0, 0);
  g_object_unref (p.text);
}

/* -- export --------------------------------------------------------------------------------------- */

gboolean
wb_graph_view_export (WbGraphView *self, const char *path, WbGraphExport format, GError **error)
{
  cairo_surface_t *surface;
  cairo_t         *cr;
  Paint            p = { 0, 0, -1, -1, NULL, TRUE };
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
