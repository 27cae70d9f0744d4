/* wb-export-dot.c — a stage as a Graphviz graph: DOT text, and SVG laid out by libgvc
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One node per input and per top-level bound symbol (calls, prologue assignments, unpacking, the return);
 * a fusion region is a cluster "cluster_<name>" with one node per bound symbol of its body, so the edges of
 * the dataflow go straight to the operations inside. Labels: the operation (call name) and, per output,
 * "name: type". Dels, annotations and comments draw nothing. The SVG is the DOT laid out with "dot". */
#include "config.h"

#include <string.h>

#if WB_HAVE_GRAPHVIZ
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#endif

#include "wb-export-private.h"

#define MAX_LABEL_OUTPUTS 6

typedef struct
{
  GString    *out;
  GHashTable *types;     /* name -> const WbType * */
  GHashTable *producer;  /* name -> node id (owned) */
  GHashTable *edges;     /* "src->dst" (owned) */
  GString    *edge_text; /* the edge statements, written after every node: an edge stated inside a
                          * cluster's block would pull both its ends into that cluster */
  guint n_nodes;
} Dot;

/* append_escaped: @text inside a DOT double-quoted string (newlines as \n, centered). */
static void
append_escaped (GString    *s,
                const char *text)
{
  for (const char *p = text; *p; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_c (s, '\\');
      if (*p == '\n')
        g_string_append (s, "\\n");
      else
        g_string_append_c (s, *p);
    }
}

static void
append_output_types (Dot           *d,
                     const WbValue *outputs,
                     GString       *label)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();

  if (outputs == NULL)
    return;
  _wb_export_value_names (outputs, names);
  for (guint i = 0, shown = 0; i < names->len; i++)
    {
      const char   *n = g_ptr_array_index (names, i);
      const WbType *t;

      if (strcmp (n, "_") == 0)
        continue;
      if (shown == MAX_LABEL_OUTPUTS)
        {
          g_string_append_printf (label, "\n(+%u more)", names->len - i);
          break;
        }
      shown++;
      t = g_hash_table_lookup (d->types, n);
      g_string_append_printf (label, "\n%s", n);
      if (t != NULL && t->kind != WB_TYPE_UNKNOWN)
        {
          g_string_append (label, ": ");
          wb_type_append (t, label);
        }
    }
}

static const char *
fill_for (const WbBsym *b)
{
  const WbSymbol *sym = b->symbol;

  if (b->kind == WB_BSYM_RETURN)
    return "#f9d3a5";
  if (b->kind != WB_BSYM_CALL || sym == NULL)
    return "#e8e8e8";
  switch (wb_symbol_get_module (sym))
    {
    case WB_SYMBOL_MODULE_EXECUTOR:
      return wb_symbol_get_category (sym) == WB_SYMBOL_CATEGORY_NN ? "#f4b6b6" : "#e8e8e8";
    case WB_SYMBOL_MODULE_PRIMS:
      break;
    default:
      break;
    }
  switch (wb_symbol_get_category (sym))
    {
    case WB_SYMBOL_CATEGORY_NN:
      return "#f7c99b";
    case WB_SYMBOL_CATEGORY_REDUCTION:
      return "#d7c6ec";
    case WB_SYMBOL_CATEGORY_SHAPE:
      return "#e3f0d0";
    case WB_SYMBOL_CATEGORY_PROLOGUE:
    case WB_SYMBOL_CATEGORY_UTILITY:
      return "#e8e8e8";
    default:
      return "#dbe9f6";
    }
}

static void
add_edges (Dot        *d,
           GPtrArray  *names,
           const char *dst)
{
  for (guint i = 0; i < names->len; i++)
    {
      const char *src = g_hash_table_lookup (d->producer, g_ptr_array_index (names, i));
      char       *key;

      if (src == NULL || strcmp (src, dst) == 0)
        continue;
      key = g_strdup_printf ("%s->%s", src, dst);
      if (g_hash_table_add (d->edges, key))
        g_string_append_printf (d->edge_text, "  \"%s\" -> \"%s\";\n", src, dst);
    }
}

static void
set_producers (Dot           *d,
               const WbValue *outputs,
               const char    *id)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();

  if (outputs == NULL)
    return;
  _wb_export_value_names (outputs, names);
  for (guint i = 0; i < names->len; i++)
    if (strcmp (g_ptr_array_index (names, i), "_") != 0)
      g_hash_table_insert (d->producer, g_strdup (g_ptr_array_index (names, i)), g_strdup (id));
}

/* add_node: a node for @b with id @id at @indent; edges from the producers of what it reads. */
static void
add_node (Dot          *d,
          const WbBsym *b,
          const char   *id,
          const char   *indent)
{
  g_autoptr (GString) label = g_string_new (NULL);
  g_autoptr (GString) tooltip = g_string_new (NULL);
  g_autoptr (GPtrArray) reads = g_ptr_array_new ();
  g_autofree char *line = _wb_export_bsym_line (b);
  const char      *shape = "box";

  switch (b->kind)
    {
    case WB_BSYM_CALL:
      g_string_append (label, b->name ? b->name : "?");
      append_output_types (d, b->outputs, label);
      _wb_export_bsym_arg_names (b, reads);
      break;
    case WB_BSYM_ASSIGN:
      {
        g_autofree char *rhs = b->value ? wb_value_to_string (b->value) : g_strdup ("?");

        if (strlen (rhs) > 48)
          strcpy (rhs + 45, "...");
        g_string_append (label, rhs);
        if (b->outputs != NULL)
          append_output_types (d, b->outputs, label);
        _wb_export_value_names (b->value, reads);
        shape = "note";
        break;
      }
    case WB_BSYM_UNPACK:
      g_string_append (label, "unpack");
      append_output_types (d, b->outputs, label);
      _wb_export_value_names (b->value, reads);
      shape = "trapezium";
      break;
    case WB_BSYM_RETURN:
      g_string_append (label, "return");
      _wb_export_value_names (b->value, reads);
      shape = "invhouse";
      break;
    default:
      return;
    }
  append_escaped (tooltip, line);
  g_string_append_printf (d->out, "%s\"%s\" [label=\"", indent, id);
  append_escaped (d->out, label->str);
  g_string_append_printf (d->out, "\", shape=%s, fillcolor=\"%s\", tooltip=\"%s\"];\n", shape, fill_for (b),
                          tooltip->str);
  add_edges (d, reads, id);
  if (b->kind == WB_BSYM_CALL || b->kind == WB_BSYM_UNPACK)
    set_producers (d, b->outputs, id);
  else if (b->kind == WB_BSYM_ASSIGN)
    {
      if (b->outputs != NULL)
        set_producers (d, b->outputs, id);
      else if (b->name != NULL)
        g_hash_table_insert (d->producer, g_strdup (b->name), g_strdup (id));
    }
  d->n_nodes++;
}

static void
add_region (Dot          *d,
            const WbBsym *b,
            guint         index)
{
  const char *executor = wb_symbol_get_executor (b->symbol);
  guint       n = 0;

  g_string_append_printf (d->out, "  subgraph \"cluster_%s_%u\" {\n    label=\"", b->name, index);
  append_escaped (d->out, b->name);
  if (executor != NULL)
    g_string_append_printf (d->out, " (%s)", executor);
  g_string_append (d->out, "\";\n    style=\"rounded,filled\";\n    fillcolor=\"#f6f6f0\";\n    color=\"#9a9a80\";\n");
  for (guint i = 0; i < b->n_subsymbols; i++)
    {
      const WbBsym    *sub = b->subsymbols[i];
      g_autofree char *id = NULL;

      if (sub->kind != WB_BSYM_CALL)
        continue;
      id = g_strdup_printf ("n%u_%u", index, i);
      add_node (d, sub, id, "    ");
      n++;
    }
  if (n == 0)
    {
      /* An empty region still shows as a node of its own. */
      g_autofree char *id = g_strdup_printf ("n%u", index);
      WbBsym           copy = *b;

      copy.n_subsymbols = 0;
      add_node (d, &copy, id, "    ");
    }
  g_string_append (d->out, "  }\n");
  /* What the region returns is produced by the body's nodes (set above); anything it returns that its
   * body does not produce stays with the region's first node. */
}

char *
wb_export_dot (const WbTrace *trace,
               const char    *title)
{
  Dot d = { 0 };
  g_autoptr (GHashTable) types = NULL;
  g_autoptr (GString) header = g_string_new (NULL);

  g_return_val_if_fail (trace != NULL, NULL);

  types = _wb_export_collect_types (trace);
  d.out = g_string_new (NULL);
  d.types = types;
  d.producer = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  d.edges = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  d.edge_text = g_string_new (NULL);

  g_string_append (d.out, "digraph \"");
  append_escaped (d.out, trace->function_name ? trace->function_name : "trace");
  g_string_append (d.out, "\" {\n  graph [rankdir=TB, fontname=\"Helvetica\", fontsize=11, labelloc=t, label=\"");
  append_escaped (header, title ? title : (trace->filename ? trace->filename : "trace"));
  if (trace->provenance != NULL)
    {
      g_string_append (header, "\\n");
      append_escaped (header, trace->provenance);
    }
  g_string_append (d.out, header->str);
  g_string_append (d.out, "\"];\n"
                          "  node [shape=box, style=\"rounded,filled\", fontname=\"Courier\", fontsize=9, "
                          "fillcolor=\"#dbe9f6\"];\n"
                          "  edge [color=\"#555555\", arrowsize=0.6];\n");

  /* inputs */
  for (guint i = 0; i < trace->n_params; i++)
    {
      const WbValue   *p = trace->params[i];
      const char      *name = p->kind == WB_VALUE_NAME ? p->text : p->base ? p->base->text
                                                                           : "?";
      const WbType    *t = g_hash_table_lookup (types, name);
      g_autofree char *id = g_strdup_printf ("in%u", i);
      g_autoptr (GString) label = g_string_new (NULL);

      g_string_append_printf (label, "%s%s", p->kind == WB_VALUE_STAR ? "*" : p->kind == WB_VALUE_STARSTAR ? "**"
                                                                                                           : "",
                              name);
      if (t != NULL && t->kind != WB_TYPE_UNKNOWN)
        {
          g_string_append (label, "\n");
          wb_type_append (t, label);
        }
      g_string_append_printf (d.out, "  \"%s\" [label=\"", id);
      append_escaped (d.out, label->str);
      g_string_append (d.out, "\", shape=ellipse, fillcolor=\"#d9f2d9\"];\n");
      g_hash_table_insert (d.producer, g_strdup (name), g_strdup (id));
    }

  for (guint i = 0; i < trace->n_body; i++)
    {
      const WbBsym *b = trace->body[i];

      if (b->kind == WB_BSYM_CALL && wb_bsym_is_fusion (b))
        add_region (&d, b, i);
      else
        {
          g_autofree char *id = g_strdup_printf ("n%u", i);

          add_node (&d, b, id, "  ");
        }
    }
  g_string_append (d.out, d.edge_text->str);
  g_string_append (d.out, "}\n");

  g_string_free (d.edge_text, TRUE);
  g_hash_table_unref (d.producer);
  g_hash_table_unref (d.edges);
  return g_string_free (d.out, FALSE);
}

gboolean
wb_export_dot_to_svg (const char *dot,
                      char      **svg,
                      gsize      *len,
                      GError    **error)
{
  g_return_val_if_fail (dot != NULL, FALSE);
  g_return_val_if_fail (svg != NULL, FALSE);

#if WB_HAVE_GRAPHVIZ
  {
    GVC_t       *gvc = gvContext ();
    Agraph_t    *g;
    char        *data = NULL;
    unsigned int size = 0;
    gboolean     ok = FALSE;

    g = agmemread (dot);
    if (g == NULL)
      {
        g_set_error (error, WB_EXPORT_ERROR, WB_EXPORT_ERROR_LAYOUT, "Graphviz could not read the DOT text");
        gvFreeContext (gvc);
        return FALSE;
      }
    if (gvLayout (gvc, g, "dot") != 0)
      g_set_error (error, WB_EXPORT_ERROR, WB_EXPORT_ERROR_LAYOUT, "Graphviz failed to lay out the graph (dot)");
    else
      {
        if (gvRenderData (gvc, g, "svg", &data, &size) != 0 || data == NULL)
          g_set_error (error, WB_EXPORT_ERROR, WB_EXPORT_ERROR_LAYOUT,
                       "Graphviz failed to render SVG (is the core plugin installed?)");
        else
          {
            *svg = g_strndup (data, size);
            if (len != NULL)
              *len = size;
            ok = TRUE;
          }
        if (data != NULL)
          gvFreeRenderData (data);
        gvFreeLayout (gvc, g);
      }
    agclose (g);
    gvFreeContext (gvc);
    return ok;
  }
#else
  g_set_error (error, WB_EXPORT_ERROR, WB_EXPORT_ERROR_UNSUPPORTED,
               "SVG export needs Graphviz (libgvc), which this build of thunder-wb does not have");
  return FALSE;
#endif
}
