/* wb-cuda-codegen-kern.c — the kernel being generated (Kern): its lines and blocks, memo scopes, variables,
 * parameters, index expressions (keys, unravelling, linear indices, per-dim and per-lane forms), the text of
 * loads, stores and conversions between classes, and the kernel's entry into the plan (buffers, grid, params)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Below the emitters and the kernel assemblers: it calls only wb-cuda-codegen-graph.c. The vector loads of
 * the vector variants are here too (_wb_cg_vec_load), so that the emitter reads a vector lane without
 * calling the pointwise kernel's file. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#ifndef WB_EXECUTORS_COMPILATION
#define WB_EXECUTORS_COMPILATION
#endif
#include "wb-cuda-codegen-private.h"

Kern *
_wb_cg_kern_new (Gen *g, const char *ity)
{
  Kern *k = g_new0 (Kern, 1);

  k->g = g;
  k->body = g_string_new (NULL);
  k->indent = 1;
  k->memo = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  g_ptr_array_add (k->memo, g_hash_table_new (g_str_hash, g_str_equal));
  k->params = g_array_new (FALSE, FALSE, sizeof (guint));
  k->ity = ity;
  return k;
}

void
_wb_cg_kern_free (Kern *k)
{
  g_string_free (k->body, TRUE);
  g_ptr_array_unref (k->memo);
  g_array_unref (k->params);
  if (k->decls)
    g_string_free (k->decls, TRUE);
  if (k->vslots)
    g_array_unref (k->vslots);
  g_clear_pointer (&k->resident, g_hash_table_unref);
  g_clear_pointer (&k->prefetch, g_array_unref);
  g_clear_pointer (&k->alias, g_hash_table_unref);
  g_free (k);
}

void
_wb_cg_line (Kern *k, const char *format, ...)
{
  va_list ap;

  for (int i = 0; i < k->indent; i++)
    g_string_append (k->body, "  ");
  va_start (ap, format);
  g_string_append_vprintf (k->body, format, ap);
  va_end (ap);
  g_string_append_c (k->body, '\n');
}

void
_wb_cg_open_block (Kern *k)
{
  k->indent++;
  g_ptr_array_add (k->memo, g_hash_table_new (g_str_hash, g_str_equal));
}

void
_wb_cg_close_block (Kern *k)
{
  k->indent--;
  g_ptr_array_remove_index (k->memo, k->memo->len - 1);
}

const char *
_wb_cg_memo_get (Kern *k, const char *key)
{
  for (guint i = k->memo->len; i > k->memo_floor; i--)
    {
      const char *x = g_hash_table_lookup (k->memo->pdata[i - 1], key);
      if (x != NULL)
        return x;
    }
  return NULL;
}

void
_wb_cg_memo_put (Kern *k, const char *key, const char *expr)
{
  g_hash_table_insert (k->memo->pdata[k->memo->len - 1], (gpointer) key, (gpointer) expr);
}

const char *
_wb_cg_new_var (Kern *k, const char *ctype, const char *expr)
{
  const char *name = _wb_cg_gstr (k->g, "v%u", k->next_var++);

  _wb_cg_line (k, "const %s %s = %s;", ctype, name, expr);
  return name;
}

/* Makes the current position of k->body a hoist point (WbCgHoist); @saved keeps the one before, for
 * _wb_cg_hoist_close. At the top of a block: every variable numbered below k->next_var that the block's code can
 * name is then visible there. */
void
_wb_cg_hoist_open (Kern *k, WbCgHoist *saved)
{
  *saved = k->hoist;
  k->hoist.on = TRUE;
  k->hoist.at = k->body->len;
  k->hoist.indent = k->indent;
  k->hoist.vars = k->next_var;
  k->hoist.names = g_hash_table_new (g_str_hash, g_str_equal);
}

void
_wb_cg_hoist_close (Kern *k, const WbCgHoist *saved)
{
  g_clear_pointer (&k->hoist.names, g_hash_table_unref);
  k->hoist = *saved;
}

/* Whether every variable @line names (a lowercase letter and digits, a vector's chunk suffix _N aside: v12, i3,
 * s4, a5_0; parameters pN always) other than @defines is visible at the hoist point */
static gboolean
hoist_visible (Kern *k, const char *line, const char *defines)
{
  for (const char *p = line; *p != '\0'; p++)
    {
      const char      *q = p + 1;
      g_autofree char *name = NULL;
      if (!g_ascii_islower (*p) || !g_ascii_isdigit (*q) || (p > line && (g_ascii_isalnum (p[-1]) || p[-1] == '_')))
        continue;
      while (g_ascii_isdigit (*q))
        q++;
      if (g_ascii_isalpha (*q))
        continue; /* not a variable (a type such as v8h) */
      name = g_strndup (p, q - p);
      if (*p != 'p' && strcmp (name, defines) != 0 && !g_hash_table_contains (k->hoist.names, name) && (guint) atoi (p + 1) >= k->hoist.vars)
        return FALSE;
      p = q - 1;
    }
  return TRUE;
}

/* Emits @line (a statement defining variable @defines, a string that lives as long as the Gen) at the hoist
 * point when there is one and every variable it names is visible there; FALSE (nothing emitted) otherwise */
gboolean
_wb_cg_hoist_line (Kern *k, const char *defines, const char *line)
{
  GString *s;

  if (!k->hoist.on || !hoist_visible (k, line, defines))
    return FALSE;
  s = g_string_new (NULL);
  for (int i = 0; i < k->hoist.indent; i++)
    g_string_append (s, "  ");
  g_string_append (s, line);
  g_string_append_c (s, '\n');
  g_string_insert (k->body, (gssize) k->hoist.at, s->str);
  k->hoist.at += s->len;
  g_string_free (s, TRUE);
  g_hash_table_add (k->hoist.names, (gpointer) defines);
  return TRUE;
}

/* The pointer an emitted load of slot @slot reads through: a pointer select while a cat's pieces that are
 * the same up to their inputs are emitted once (k->alias, wb-cuda-codegen-select.c), else its parameter */
const char *
_wb_cg_input_ptr (Kern *k, guint slot)
{
  const char *p = k->alias != NULL ? g_hash_table_lookup (k->alias, GUINT_TO_POINTER (slot)) : NULL;

  return p != NULL ? p : _wb_cg_param (k, slot);
}

const char *
_wb_cg_param (Kern *k, guint slot)
{
  for (guint i = 0; i < k->params->len; i++)
    if (g_array_index (k->params, guint, i) == slot)
      return _wb_cg_gstr (k->g, "p%u", slot);
  g_array_append_val (k->params, slot);
  return _wb_cg_gstr (k->g, "p%u", slot);
}

const char *
_wb_cg_idx_key (Gen *g, guint id, const Idx *ix)
{
  GString    *s = g_string_new (NULL);
  const char *r;

  g_string_append_printf (s, "%u@", id);
  for (guint d = 0; d < ix->rank; d++)
    g_string_append_printf (s, "%s,", ix->e[d]);
  r = g_string_chunk_insert (g->strings, s->str);
  g_string_free (s, TRUE);
  return r;
}

/* An index over @shape from linear index @lin (declares the per-dim variables). */
void
_wb_cg_idx_unravel (Kern *k, const char *lin, guint rank, const gint64 *shape, Idx *out)
{
  gint64   cs[WB_MAX_RANK];
  gboolean outer = TRUE;

  _wb_cg_contiguous_strides (rank, shape, cs);
  memset (out, 0, sizeof *out); /* every lane form LANE_ANY */
  out->rank = rank;
  out->lin = lin;
  for (guint d = 0; d < rank; d++)
    {
      const char *e;
      if (shape[d] == 1)
        {
          out->e[d] = "0";
          continue;
        }
      if (cs[d] == 1)
        e = outer ? lin : _wb_cg_gstr (k->g, "%s %% %" G_GINT64_FORMAT, lin, shape[d]);
      else
        e = outer ? _wb_cg_gstr (k->g, "%s / %" G_GINT64_FORMAT, lin, cs[d])
                  : _wb_cg_gstr (k->g, "(%s / %" G_GINT64_FORMAT ") %% %" G_GINT64_FORMAT, lin, cs[d], shape[d]);
      outer = FALSE;
      out->e[d] = _wb_cg_gstr (k->g, "i%u", k->next_var++);
      _wb_cg_line (k, "const %s %s = %s;", k->ity, out->e[d], e);
    }
}

void
_wb_cg_idx_unravel_memo (Kern *k, const char *lin, guint rank, const gint64 *shape, Idx *out)
{
  const char *e[WB_MAX_RANK];
  int         only = -1;
  guint       n = 0;

  for (guint d = 0; d < rank; d++)
    if (shape[d] != 1)
      only = (int) d, n++;
  if (n > 1)
    {
      g_autoptr (GString) key = g_string_new (NULL);
      g_string_printf (key, "unr|%s|", lin);
      for (guint d = 0; d < rank; d++)
        g_string_append_printf (key, "%" G_GINT64_FORMAT ",", shape[d]);
      if (_wb_cg_memo_get (k, key->str) == NULL)
        {
          Idx u;
          _wb_cg_idx_unravel (k, lin, rank, shape, &u);
          _wb_cg_memo_put (k, g_string_chunk_insert (k->g->strings, key->str), "1");
          for (guint d = 0; d < rank; d++)
            _wb_cg_memo_put (k, _wb_cg_gstr (k->g, "%s%u", key->str, d), u.e[d]);
        }
      for (guint d = 0; d < rank; d++)
        e[d] = _wb_cg_memo_get (k, _wb_cg_gstr (k->g, "%s%u", key->str, d));
    }
  else
    for (guint d = 0; d < rank; d++)
      e[d] = (int) d == only ? lin : "0";
  memset (out, 0, sizeof *out);
  out->rank = rank;
  out->lin = lin;
  memcpy (out->e, e, rank * sizeof e[0]);
}

/* The row-major linear index of @ix over @shape (an expression). */
const char *
_wb_cg_idx_linear (Kern *k, const Idx *ix, guint rank, const gint64 *shape)
{
  gint64      cs[WB_MAX_RANK];
  GString    *s;
  const char *r;

  if (ix->lin)
    return ix->lin;
  _wb_cg_contiguous_strides (rank, shape, cs);
  s = g_string_new (NULL);
  for (guint d = 0; d < rank; d++)
    {
      if (strcmp (ix->e[d], "0") == 0)
        continue;
      if (s->len)
        g_string_append (s, " + ");
      if (cs[d] == 1)
        g_string_append_printf (s, "%s", ix->e[d]);
      else
        g_string_append_printf (s, "%s * %" G_GINT64_FORMAT, ix->e[d], cs[d]);
    }
  if (s->len == 0)
    g_string_append (s, "0");
  r = _wb_cg_new_var (k, k->ity, s->str);
  g_string_free (s, TRUE);
  return r;
}

/* @base + the lane being emitted. */
const char *
_wb_cg_lane_expr (Kern *k, const char *base)
{
  return k->lane == 0 ? base : _wb_cg_gstr (k->g, "(%s + %u)", base, k->lane);
}

void
_wb_cg_note_slot (Kern *k, guint slot, guint bytes)
{
  for (guint i = 0; i < k->vslots->len; i += 2)
    if (g_array_index (k->vslots, guint, i) == slot)
      {
        g_array_index (k->vslots, guint, i + 1) = MAX (g_array_index (k->vslots, guint, i + 1), bytes);
        return;
      }
  g_array_append_val (k->vslots, slot);
  g_array_append_val (k->vslots, bytes);
}

/* Dim @d of @dst is dim @sd of @src (expression and lane form). */
void
_wb_cg_idx_dim (Idx *dst, guint d, const Idx *src, guint sd)
{
  dst->e[d] = src->e[sd];
  dst->lane[d] = src->lane[sd];
  dst->base[d] = src->base[sd];
}

/* The linear index of @dst is that of @src (NULL: none). */
void
_wb_cg_idx_lin (Idx *dst, const Idx *src)
{
  dst->lin = src ? src->lin : NULL;
  dst->lin_lane = src ? src->lin_lane : LANE_ANY;
  dst->lin_base = src ? src->lin_base : NULL;
}

/* Dim @d of @dst (its expression already set) is @start + @step * dim @sd of @src: the same in every
 * lane when that is, base + j when it is base + j, the step is 1 and the start keeps the base aligned. */
void
_wb_cg_idx_moved (Kern *k, Idx *dst, guint d, const Idx *src, guint sd, gint64 start, gint64 step)
{
  dst->lane[d] = LANE_ANY;
  dst->base[d] = NULL;
  if (src->lane[sd] == LANE_SAME)
    dst->lane[d] = LANE_SAME;
  else if (src->lane[sd] == LANE_UNIT && k->vec > 1 && step == 1 && start % k->vec == 0)
    {
      dst->lane[d] = LANE_UNIT;
      dst->base[d] = _wb_cg_gstr (k->g, "(%" G_GINT64_FORMAT " + %s)", start, src->base[sd]);
      dst->e[d] = _wb_cg_lane_expr (k, dst->base[d]); /* canonical: the same text in every lane but for the lane */
    }
}

void
_wb_cg_idx_lane_unit (Kern *k, Idx *ix, int u, const char *lin)
{
  for (guint d = 0; d < ix->rank; d++)
    ix->lane[d] = LANE_SAME;
  ix->lane[u] = LANE_UNIT;
  ix->base[u] = ix->e[u];
  ix->e[u] = _wb_cg_lane_expr (k, ix->e[u]);
  if (lin != NULL)
    {
      ix->lin = _wb_cg_lane_expr (k, lin);
      ix->lin_lane = LANE_UNIT;
      ix->lin_base = lin;
    }
}

/* Whether every dim of @ix is the same in every lane. */
gboolean
_wb_cg_idx_is_same (const Idx *ix)
{
  for (guint d = 0; d < ix->rank; d++)
    if (ix->lane[d] != LANE_SAME && strcmp (ix->e[d], "0") != 0)
      return FALSE;
  return TRUE;
}

/* @ix (every dim the same in every lane or base + j) in lane @lane: the same text the lane's own
 * emission builds (base + j dims and the linear index are canonical: _wb_cg_lane_expr). */
void
_wb_cg_idx_in_lane (Kern *k, const Idx *ix, guint lane, Idx *out)
{
  guint saved = k->lane;

  k->lane = lane;
  *out = *ix;
  for (guint d = 0; d < ix->rank; d++)
    if (ix->lane[d] == LANE_UNIT)
      out->e[d] = _wb_cg_lane_expr (k, ix->base[d]);
  if (ix->lin_lane == LANE_UNIT)
    out->lin = _wb_cg_lane_expr (k, ix->lin_base);
  k->lane = saved;
}

/* -- kernel assembly ------------------------------------------------------------------------ */

guint
_wb_cg_grid_for (gint64 items, gint64 per_block)
{
  gint64 b = (items + per_block - 1) / per_block;

  return (guint) CLAMP (b, 0, 65536);
}

int
_wb_cg_add_buffer (Gen *g, Val *v)
{
  WbCudaBuffer b = { 0 };

  b.dtype = v->dtype;
  b.rank = v->rank;
  memcpy (b.shape, v->shape, sizeof (gint64) * v->rank);
  b.numel = _wb_cg_numel_of (v->rank, v->shape);
  g_array_append_val (g->buffers, b);
  return (int) g->buffers->len - 1;
}

/* Appends kernel @k to the plan as wb_k<i>; @writes: slots it writes. */
void
_wb_cg_finish_kernel (Gen *g, Kern *k, const char *what, guint grid, gint64 elements, const guint *writes, guint n_writes, const char *prologue)
{
  WbCudaKernel kr = { 0 };
  guint        idx = g->kernels->len;

  kr.entry = g_strdup_printf ("wb_k%u", idx);
  kr.what = g_strdup (what);
  kr.grid = grid;
  kr.block = k->block;
  kr.smem_bytes = k->smem_bytes;
  kr.once = k->once;
  kr.elements = elements;
  for (guint i = 0; i < n_writes; i++)
    (void) _wb_cg_param (k, writes[i]);
  kr.n_params = k->params->len;
  kr.params = g_memdup2 (k->params->data, sizeof (guint) * k->params->len);
  g_string_append_printf (g->source, "// %s\nextern \"C\" __global__ void __launch_bounds__ (%u", what, k->block ? k->block : WB_CUDA_BLOCK);
  if (k->min_blocks > 0)
    g_string_append_printf (g->source, ", %u", k->min_blocks);
  g_string_append_printf (g->source, ")\n%s (", kr.entry);
  for (guint i = 0; i < k->params->len; i++)
    {
      guint    slot = g_array_index (k->params, guint, i);
      gboolean w = FALSE;
      WbDtype  dt;
      for (guint j = 0; j < n_writes; j++)
        w |= writes[j] == slot;
      if (slot < g->n_inputs)
        dt = _wb_cg_input_val (g, slot)->dtype;
      else
        dt = g_array_index (g->buffers, WbCudaBuffer, slot - g->n_inputs).dtype;
      g_string_append_printf (g->source, "%s%s%s *__restrict__ p%u", i ? ", " : "", w ? "" : "const ", wb_cuda_storage_ctype (dt), slot);
    }
  g_string_append (g->source, ")\n{\n");
  if (prologue)
    g_string_append (g->source, prologue);
  g_string_append (g->source, k->body->str);
  g_string_append (g->source, "}\n\n");
  g_array_append_val (g->kernels, kr);
}

/* The expression converting @x (class @from) to class @to, without rounding to a dtype. */
const char *
_wb_cg_cast_cls (Gen *g, const char *x, Cls from, Cls to)
{
  if (from == to)
    return x;
  if (to == CLS_I)
    return _wb_cg_gstr (g, "wb_f_to_i (%s)", x);
  return _wb_cg_gstr (g, "(%s) (%s)", _wb_cg_cls_ctype (to), x);
}

/* @x (of class dtype_cls (dt)) rounded or wrapped to what dtype @dt can hold. */
const char *
_wb_cg_normalize (Gen *g, const char *x, WbDtype dt)
{
  switch (dt)
    {
    case WB_DTYPE_BFLOAT16:
      return _wb_cg_gstr (g, "wb_round_bf16 (%s)", x);
    case WB_DTYPE_FLOAT16:
      return _wb_cg_gstr (g, "wb_round_f16 (%s)", x);
    case WB_DTYPE_INT32:
      return _wb_cg_gstr (g, "(long long) (int) (%s)", x);
    case WB_DTYPE_INT16:
      return _wb_cg_gstr (g, "(long long) (short) (%s)", x);
    case WB_DTYPE_INT8:
      return _wb_cg_gstr (g, "(long long) (signed char) (%s)", x);
    case WB_DTYPE_UINT8:
      return _wb_cg_gstr (g, "(long long) (unsigned char) (%s)", x);
    case WB_DTYPE_BOOL8:
      return _wb_cg_gstr (g, "(long long) ((%s) != 0)", x);
    default:
      return x;
    }
}

/* Loads element @off of parameter @p (dtype @dt) as a value of its class. */
const char *
_wb_cg_load_expr (Gen *g, const char *p, const char *off, WbDtype dt)
{
  switch (dt)
    {
    case WB_DTYPE_BFLOAT16:
      return _wb_cg_gstr (g, "wb_bf16_to_f (%s[%s])", p, off);
    case WB_DTYPE_FLOAT16:
      return _wb_cg_gstr (g, "wb_f16_to_f (%s[%s])", p, off);
    case WB_DTYPE_FLOAT32:
    case WB_DTYPE_FLOAT64:
      return _wb_cg_gstr (g, "%s[%s]", p, off);
    default:
      return _wb_cg_gstr (g, "(long long) %s[%s]", p, off);
    }
}

/* The statement storing @x (class of @dt, already normalized) at @p[@off]. */
const char *
_wb_cg_store_stmt (Gen *g, const char *p, const char *off, const char *x, WbDtype dt)
{
  switch (dt)
    {
    case WB_DTYPE_BFLOAT16:
      return _wb_cg_gstr (g, "%s[%s] = wb_f_to_bf16 (%s);", p, off, x);
    case WB_DTYPE_FLOAT16:
      return _wb_cg_gstr (g, "%s[%s] = wb_f_to_f16 (%s);", p, off, x);
    default:
      return _wb_cg_gstr (g, "%s[%s] = (%s) (%s);", p, off, wb_cuda_storage_ctype (dt), x);
    }
}

/* -- vector loads ------------------------------------------------------------------------------
 * The vector variants (wb-cuda-codegen-pointwise.c): a lane's element from one aligned vector load per
 * V lanes, the vector struct types a kernel declares. */

static const char *
ctype_tag (WbDtype dt)
{
  switch (wb_dtype_size (dt))
    {
    case 8:
      return dt == WB_DTYPE_FLOAT64 ? "d" : "l";
    case 4:
      return dt == WB_DTYPE_FLOAT32 ? "f" : "i";
    case 2:
      return dt == WB_DTYPE_INT16 ? "s" : "h";
    default:
      return dt == WB_DTYPE_INT8 ? "c" : "b";
    }
}

const char *
_wb_cg_vec_type (Kern *k, WbDtype dt, guint n)
{
  const char      *name = _wb_cg_gstr (k->g, "wb_v%u%s", n, ctype_tag (dt));
  g_autofree char *decl = g_strdup_printf ("  struct alignas (%u) %s\n  {\n    %s x[%u];\n  };\n", n * (guint) wb_dtype_size (dt), name,
                                           wb_cuda_storage_ctype (dt), n);

  if (strstr (k->decls->str, decl) == NULL)
    g_string_append (k->decls, decl);
  return name;
}

guint
_wb_cg_vec_chunk (Kern *k, WbDtype dt)
{
  guint bytes = (guint) wb_dtype_size (dt);

  return MIN (16u, k->vec * bytes) / bytes;
}

/* @v (slot @slot, strides @st) at @ix in the lane being emitted, from one vector load per V lanes; NULL
 * when the index is not base + j in a unit-stride dim with everything else the same in every lane (the
 * caller then loads the element: once for all lanes when it is the same in every lane). */
const char *
_wb_cg_vec_load (Kern *k, const Val *v, const Idx *ix, guint slot, const gint64 *st, gboolean contiguous)
{
  const char *base, *name, *key;
  guint       n = _wb_cg_vec_chunk (k, v->dtype);

  if (contiguous && ix->lin)
    {
      if (ix->lin_lane != LANE_UNIT)
        return NULL;
      base = ix->lin_base;
    }
  else
    {
      GString *s = g_string_new (NULL);
      int      unit = -1;
      gboolean ok = TRUE;
      for (guint d = 0; d < v->rank; d++)
        {
          if (v->shape[d] == 1 || st[d] == 0 || strcmp (ix->e[d], "0") == 0)
            continue;
          if (ix->lane[d] == LANE_UNIT && st[d] == 1 && unit < 0)
            unit = (int) d;
          else if (ix->lane[d] == LANE_SAME && st[d] % k->vec == 0)
            g_string_append_printf (s, "(%s) %s * %" G_GINT64_FORMAT " + ", k->ity, ix->e[d], st[d]);
          else
            ok = FALSE;
        }
      if (unit < 0 || !ok)
        {
          g_string_free (s, TRUE);
          return NULL;
        }
      g_string_append (s, ix->base[unit]);
      base = g_string_chunk_insert (k->g->strings, s->str);
      g_string_free (s, TRUE);
    }
  key = _wb_cg_gstr (k->g, "vld|%u|%s", slot, base);
  if ((name = _wb_cg_memo_get (k, key)) == NULL)
    {
      const char *type = _wb_cg_vec_type (k, v->dtype, n);
      name = _wb_cg_gstr (k->g, "a%u", k->next_var++);
      for (guint c = 0; c < k->vec / n; c++)
        {
          const char *line = _wb_cg_gstr (k->g, "const %s %s_%u = *(const %s *) (%s + %s%s);", type, name, c, type, _wb_cg_input_ptr (k, slot), base,
                                          c ? _wb_cg_gstr (k->g, " + %u", c * n) : "");
          /* directly inside a uniform pad branch whose indices are clamped: issued at the hoist point */
          if (k->pad_indent != k->indent || !_wb_cg_hoist_line (k, name, line))
            _wb_cg_line (k, "%s", line);
        }
      _wb_cg_memo_put (k, key, name);
      _wb_cg_note_slot (k, slot, n * (guint) wb_dtype_size (v->dtype));
    }
  return _wb_cg_new_var (k, _wb_cg_cls_ctype (_wb_cg_dtype_cls (v->dtype)),
                         _wb_cg_load_expr (k->g, _wb_cg_gstr (k->g, "%s_%u.x", name, k->lane / n), _wb_cg_gstr (k->g, "%u", k->lane % n), v->dtype));
}
