/* wb-cuda-codegen-table.c — a pointwise kernel of one 16-bit input as a lookup table of its 65536 values
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Thunder's exact GELU (x * 0.5 * (1 + erf (x / sqrt 2)), bf16 rounding after every op) is one bf16 input
 * and one bf16 output. Computed per element it costs some 37 instructions an element (erf about 20 of them)
 * and is bound by its arithmetic, not by memory. A function of one
 * 16-bit value has only 65536 results, so this computes them once and looks every element up:
 *
 * - The builder kernel (WbCudaKernel.once) evaluates the group's expression at each of the 65536 bit
 *   patterns of the input: the same emitted code as the pointwise kernel, with the input's load replaced
 *   by the pattern (Kern.table_bits), so every entry is bit for bit what that kernel would store (NaN
 *   patterns included). It writes a [65536] buffer kept with the plan (WbCudaBuffer.table), filled at the
 *   launch that allocates it and read by every later launch and graph replay.
 * - The lookup kernel copies the table (128 KiB) to dynamic shared memory, one block of 1024 threads per
 *   SM, then streams the elements, 16-byte vectors of 8, software-pipelined: each thread's first two vectors
 *   are loaded before the table's copy (which then overlaps their latency), and each step loads the next two
 *   before it looks the current two up (8 shared-memory lookups a vector) and stores them; evict-first loads
 *   and streaming stores (ld/st.global.cs: the elements are touched once; WB_CUDA_TABLE_CACHED=1 leaves them
 *   plain).
 *
 * Which groups: one output of a 16-bit float dtype, computed through elementwise ops, conversions and
 * reshapes of one contiguous 16-bit float input of the same numel and nothing else (no other input, no
 * reduction result, no index-dependent op), over at least TABLE_MIN_ELEMENTS elements, whose arithmetic
 * costs at least TABLE_MIN_COST (a rough count: 16 for erf-like functions, 6 for exp, log, tanh, sqrt,
 * div..., 1 for other ops). WB_CUDA_NO_TABLE=1 (or WB_CUDA_CODEGEN_NO_TABLE, for a device that gives a block less
 * than 128 KiB of shared memory) turns it off; WB_CUDA_TABLE=always takes every group that
 * qualifies but for size and cost (the conformance suite runs so, to check the builder against the cpu
 * executor on every unary op).
 *
 * Partial tables. A pointwise group of several inputs may hold a costly value of one of them alone: llama_layer's
 * SiLU, x * s and its backward g * s * (1 + x * (1 - s)), with s = 1 / (1 + exp (-x)) rounded to bf16 after every
 * op. Its exp and IEEE division cost more than the rest of the kernel, which then runs well below the copy
 * bandwidth. The value s (a 16-bit value computed from one contiguous 16-bit
 * input through elementwise ops and conversions of its own shape) is tabulated by the same builder, and the
 * group's pointwise kernel looks it up (_wb_cg_emit_partial_lookup: the input's bits index the table) and computes
 * the rest. That kernel runs one 1024-thread block per SM with the table in shared memory: half the resident
 * threads of the computed kernel, which costs a group that is already near copy bandwidth more than the lookup
 * saves (an L2 prefetch of the next iteration's inputs does not make up for it). So it is chosen where the arithmetic it removes is large against the bytes each
 * element moves: the costly ops of the value (cost 6 or more; a division by a number is a multiply) at least
 * PARTIAL_MIN_HEAVY and at least 1.5 per byte loaded and stored an element; of several such values, the one with
 * the most costly arithmetic, then the least of the rest (a SiLU's s, or the 0.5 * (1 + erf (x / sqrt (2))) that
 * a GELU backward recomputes since wb-pass-remat.c's backward rule).
 * WB_CUDA_NO_PARTIAL_TABLE=1 (or WB_CUDA_NO_TABLE=1) turns them off; WB_CUDA_TABLE=always takes any value of one
 * input with an op. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#ifndef WB_EXECUTORS_COMPILATION
#define WB_EXECUTORS_COMPILATION
#endif
#include "wb-cuda-codegen-private.h"

#define TABLE_ENTRIES 65536
#define TABLE_BLOCK 1024
#define TABLE_MIN_ELEMENTS (1 << 22)
#define TABLE_MIN_COST 16
#define PARTIAL_MIN_HEAVY 12
/* the table in dynamic shared memory, as 16-byte vectors (wb_table4, the copy) and as entries (wb_table) */
#define TABLE_SHARED_DECLS                                                                                         \
  "  struct alignas (16) wb_u4\n  {\n    unsigned int x, y, z, w;\n  };\n  extern __shared__ wb_u4 wb_table4[];\n" \
  "  const unsigned short *wb_table = (const unsigned short *) wb_table4;\n"

typedef struct
{
  GHashTable *seen;  /* Val* */
  Val        *input; /* the one input */
  gint64      numel;
  guint       cost;
  gboolean    ok;
  const Val  *like;  /* a partial table's value: every value of the group has its shape, and no reshape */
  guint       heavy; /* the cost of its ops of cost 6 or more */
} Unary;

static gboolean
is_16bit_float (WbDtype dt)
{
  return dt == WB_DTYPE_BFLOAT16 || dt == WB_DTYPE_FLOAT16;
}

static guint
op_cost (const char *op)
{
  static const char *const dear[] = { "erf", "erfc", "erfinv", "erfcinv", "lgamma", "ndtri", "tan", "atan", "atan2", "asin", "acos", "asinh", "acosh", "atanh", "pow", "fmod", "remainder" };
  static const char *const mid[] = { "exp", "exp2", "expm1", "log", "log10", "log1p", "log2", "sin", "cos", "sinh", "cosh", "tanh", "div", "reciprocal", "rsqrt", "sqrt" };

  for (guint i = 0; i < G_N_ELEMENTS (dear); i++)
    if (strcmp (op, dear[i]) == 0)
      return 16;
  for (guint i = 0; i < G_N_ELEMENTS (mid); i++)
    if (strcmp (op, mid[i]) == 0)
      return 6;
  return 1;
}

/* Whether node @def is an op a table's group may hold (an elementwise op, a conversion, a reshape): counts its
 * cost, or clears @u->ok. */
static gboolean
take_op (Unary *u, const Node *def)
{
  if (_wb_cg_ew_lookup (def->op) != NULL)
    {
      /* a division by a number is a multiply (wb_div_by) */
      guint c = strcmp (def->op, "div") == 0 && def->n_arg > 1 && def->arg[1] != NULL && def->arg[1]->kind != WB_VALUE_NAME ? 1 : op_cost (def->op);
      u->cost += c;
      u->heavy += c >= 6 ? c : 0;
    }
  else if (strcmp (def->op, "convert_element_type") != 0 && (u->like != NULL || strcmp (def->op, "reshape") != 0))
    u->ok = FALSE;
  return u->ok;
}

static gboolean
unary_cb (Gen *g, Val *v, gpointer data)
{
  Unary *u = data;

  if (!u->ok)
    return TRUE;
  if (!v->is_tensor || !g_hash_table_add (u->seen, v))
    return FALSE;
  if (_wb_cg_numel_of (v->rank, v->shape) != u->numel || (u->like != NULL && !_wb_cg_same_shape (v, u->like)))
    u->ok = FALSE;
  else if (v->input >= 0)
    {
      if ((u->input != NULL && u->input->input != v->input) || !is_16bit_float (v->dtype) || !_wb_cg_val_contiguous (v))
        u->ok = FALSE;
      u->input = v;
    }
  else if (v->buffer >= 0 || v->def == NULL || v->def->is_reduction)
    u->ok = FALSE;
  else
    take_op (u, v->def);
  if (u->ok && v->input < 0)
    (void) _wb_cg_node_reads_any (g, v->def, unary_cb, u);
  return !u->ok;
}

Val *
_wb_cg_table_input (Gen *g, GPtrArray *outs)
{
  Val        *out = outs->pdata[0];
  gint64      N = _wb_cg_numel_of (out->rank, out->shape);
  gboolean    always = g->opt.table_always;
  Unary       u = { g_hash_table_new (NULL, NULL), NULL, N, 0, TRUE, NULL, 0 };

  if (outs->len != 1 || (g->opt.flags & WB_CUDA_CODEGEN_NO_TABLE) || g->opt.no_table || !is_16bit_float (out->dtype) || out->def == NULL || (!always && N < TABLE_MIN_ELEMENTS))
    u.ok = FALSE;
  else if (g_hash_table_add (u.seen, out) && take_op (&u, out->def)) /* the output may have its buffer: start at its op */
    (void) _wb_cg_node_reads_any (g, out->def, unary_cb, &u);
  g_hash_table_unref (u.seen);
  if (!u.ok || u.input == NULL || (!always && u.cost < TABLE_MIN_COST))
    return NULL;
  return u.input;
}

/* The builder: table[L] = the group's value with the input's bits L, for L < 65536 (the index unravelled over
 * the output's shape only feeds views, whose loads the table hook replaces). */
static gboolean
emit_builder (Gen *g, Val *out, Val *in, guint tslot, GError **error)
{
  Kern       *k = _wb_cg_kern_new (g, "int");
  Idx         ix = { 0 };
  const char *x;
  const char *what;

  k->table_bits = "L";
  k->table_slot = (guint) in->input;
  k->once = TRUE;
  _wb_cg_line (k, "for (int L = (int) blockIdx.x * %d + (int) threadIdx.x; L < %d; L += (int) gridDim.x * %d)", WB_CUDA_BLOCK, TABLE_ENTRIES, WB_CUDA_BLOCK);
  _wb_cg_line (k, "{");
  _wb_cg_open_block (k);
  _wb_cg_idx_unravel (k, "L", out->rank, out->shape, &ix);
  if ((x = _wb_cg_emit (k, out, &ix, error)) == NULL)
    {
      _wb_cg_kern_free (k);
      return FALSE;
    }
  _wb_cg_line (k, "%s", _wb_cg_store_stmt (g, _wb_cg_gstr (g, "p%u", tslot), "L", x, out->dtype));
  _wb_cg_close_block (k);
  _wb_cg_line (k, "}");
  what = _wb_cg_gstr (g, "lookup table: the pointwise output at each of the %d values of in%d (%s), run once per plan", TABLE_ENTRIES, in->input, wb_dtype_shortname (in->dtype));
  _wb_cg_finish_kernel (g, k, what, TABLE_ENTRIES / WB_CUDA_BLOCK, TABLE_ENTRIES, &tslot, 1, NULL);
  _wb_cg_kern_free (k);
  return TRUE;
}

/* table[] lookups of the 8 16-bit patterns in wb_u4 @a into wb_u4 @o */
static void
lookups (Kern *k, const char *o, const char *a)
{
  static const char *const w[] = { "x", "y", "z", "w" };

  for (guint i = 0; i < 4; i++)
    _wb_cg_line (k, "%s.%s = (unsigned int) wb_table[%s.%s & 0xffffu] | ((unsigned int) wb_table[%s.%s >> 16] << 16);", o, w[i], a, w[i], a, w[i]);
}

/* "if (@guard@at < @n) @dst = @ptr[@at];" for wb_u4 vectors: an evict-first load (ld.global.cs;
 * WB_CUDA_TABLE_CACHED=1: a plain one). @guard: a condition and " && ", or "" */
static void
load_vec (Kern *k, const char *guard, const char *dst, const char *ptr, const char *at, gint64 n)
{
  _wb_cg_line (k, "if (%s%s < %" G_GINT64_FORMAT ")", guard, at, n);
  if (!k->g->opt.table_cached)
    _wb_cg_line (k, "  asm (\"ld.global.cs.v4.u32 {%%0, %%1, %%2, %%3}, [%%4];\" : \"=r\"(%s.x), \"=r\"(%s.y), \"=r\"(%s.z), \"=r\"(%s.w) : \"l\"(((const wb_u4 *) %s) + %s));", dst, dst, dst,
                 dst, ptr, at);
  else
    _wb_cg_line (k, "  %s = ((const wb_u4 *) %s)[%s];", dst, ptr, at);
}

/* "@ptr[@at] = @src;" for wb_u4 vectors: a streaming store (st.global.cs; WB_CUDA_TABLE_CACHED=1: a plain one): the
 * elements are touched once, so they need not stay in the caches */
static void
store_vec (Kern *k, const char *ptr, const char *at, const char *src)
{
  if (!k->g->opt.table_cached)
    _wb_cg_line (k, "asm volatile (\"st.global.cs.v4.u32 [%%0], {%%1, %%2, %%3, %%4};\" :: \"l\"(((wb_u4 *) %s) + %s), \"r\"(%s.x), \"r\"(%s.y), \"r\"(%s.z), \"r\"(%s.w) : \"memory\");", ptr, at,
                 src, src, src, src);
  else
    _wb_cg_line (k, "((wb_u4 *) %s)[%s] = %s;", ptr, at, src);
}

/* The lookup kernel: the table to shared memory, then each element's entry. */
static void
emit_lookup (Gen *g, Val *out, Val *in, guint tslot, guint oslot, gint64 N, const char *ity)
{
  Kern       *k = _wb_cg_kern_new (g, ity);
  gint64      n8 = N / 8;
  const char *pin = _wb_cg_param (k, (guint) in->input);
  const char *pt = _wb_cg_param (k, tslot);
  const char *po = _wb_cg_gstr (g, "p%u", oslot);
  const char *what;

  k->block = TABLE_BLOCK;
  k->min_blocks = 1;
  k->smem_bytes = TABLE_ENTRIES * 2;
  /* 16-byte vectors when both pointers allow, software-pipelined: a thread's first two vectors are loaded before the
   * table is copied (the copy from L2 overlaps their DRAM latency), and each step loads the next two before it
   * looks the current two up; the tail (N % 8) and unaligned pointers element by element */
  _wb_cg_line (k, "const %s S = (%s) gridDim.x * %d;", ity, ity, TABLE_BLOCK);
  _wb_cg_line (k, "const bool vec = (((unsigned long long) %s | (unsigned long long) %s) & 15u) == 0;", pin, po);
  _wb_cg_line (k, "%s i = (%s) blockIdx.x * %d + (%s) threadIdx.x;", ity, ity, TABLE_BLOCK, ity);
  _wb_cg_line (k, "wb_u4 a = { 0, 0, 0, 0 }, b = { 0, 0, 0, 0 };");
  load_vec (k, "vec && ", "a", pin, "i", n8);
  load_vec (k, "vec && ", "b", pin, "i + S", n8);
  _wb_cg_line (k, "#pragma unroll");
  _wb_cg_line (k, "for (int t = (int) threadIdx.x; t < %d; t += %d)", TABLE_ENTRIES / 8, TABLE_BLOCK);
  _wb_cg_line (k, "  wb_table4[t] = ((const wb_u4 *) %s)[t];", pt);
  _wb_cg_line (k, "__syncthreads ();");
  _wb_cg_line (k, "%s T = 0;", ity);
  _wb_cg_line (k, "if (vec)");
  _wb_cg_line (k, "{");
  _wb_cg_open_block (k);
  _wb_cg_line (k, "for (; i < %" G_GINT64_FORMAT "; i += 2 * S)", n8);
  _wb_cg_line (k, "{");
  _wb_cg_open_block (k);
  _wb_cg_line (k, "const wb_u4 ca = a, cb = b;");
  load_vec (k, "", "a", pin, "i + 2 * S", n8);
  load_vec (k, "", "b", pin, "i + 3 * S", n8);
  _wb_cg_line (k, "wb_u4 o;");
  lookups (k, "o", "ca");
  store_vec (k, po, "i", "o");
  _wb_cg_line (k, "if (i + S < %" G_GINT64_FORMAT ")", n8);
  _wb_cg_line (k, "{");
  _wb_cg_open_block (k);
  lookups (k, "o", "cb");
  store_vec (k, po, "i + S", "o");
  _wb_cg_close_block (k);
  _wb_cg_line (k, "}");
  _wb_cg_close_block (k);
  _wb_cg_line (k, "}");
  _wb_cg_line (k, "T = %" G_GINT64_FORMAT ";", n8 * 8);
  _wb_cg_close_block (k);
  _wb_cg_line (k, "}");
  _wb_cg_line (k, "for (%s L = T + (%s) blockIdx.x * %d + (%s) threadIdx.x; L < %" G_GINT64_FORMAT "; L += S)", ity, ity, TABLE_BLOCK, ity, N);
  _wb_cg_line (k, "  %s[L] = wb_table[%s[L]];", po, pin);
  what = _wb_cg_gstr (g, "pointwise over %" G_GINT64_FORMAT " elements by lookup in a table of %d entries (%d KiB of shared memory): 1 output; vector: 8 per thread when aligned", N,
                      TABLE_ENTRIES, TABLE_ENTRIES * 2 / 1024);
  _wb_cg_finish_kernel (g, k, what, (guint) MIN (WB_CG_SMS, MAX (1, (n8 + TABLE_BLOCK - 1) / TABLE_BLOCK)), N, &oslot, 1, TABLE_SHARED_DECLS);
  _wb_cg_kern_free (k);
}

/* A table buffer of @dtype kept with the plan: its slot */
static guint
add_table_buffer (Gen *g, WbDtype dtype)
{
  WbCudaBuffer tb = { 0 };

  tb.dtype = dtype;
  tb.rank = 1;
  tb.shape[0] = TABLE_ENTRIES;
  tb.numel = TABLE_ENTRIES;
  tb.table = TRUE;
  g_array_append_val (g->buffers, tb);
  return g->n_inputs + g->buffers->len - 1;
}

gboolean
_wb_cg_emit_table (Gen *g, GPtrArray *outs, Val *in, const char *ity, GError **error)
{
  Val  *out = outs->pdata[0];
  guint tslot = add_table_buffer (g, out->dtype), oslot;

  out->buffer = -1; /* computed by the builder, never loaded */
  if (!emit_builder (g, out, in, tslot, error))
    return FALSE;
  out->buffer = _wb_cg_add_buffer (g, out);
  oslot = g->n_inputs + (guint) out->buffer;
  emit_lookup (g, out, in, tslot, oslot, _wb_cg_numel_of (out->rank, out->shape), ity);
  return TRUE;
}

/* -- partial tables ------------------------------------------------------------------------- */

typedef struct
{
  GHashTable *seen; /* Val* */
  GPtrArray  *vals; /* Val*: computed in the group (not loaded) */
  gint64      numel;
  guint       bytes; /* loaded and stored per element (operands of the group's numel) */
} Reach;

static gboolean
reach_cb (Gen *g, Val *v, gpointer data)
{
  Reach *r = data;

  if (!v->is_tensor || !g_hash_table_add (r->seen, v))
    return FALSE;
  if (v->input >= 0 || v->buffer >= 0)
    {
      r->bytes += _wb_cg_numel_of (v->rank, v->shape) == r->numel ? (guint) wb_dtype_size (v->dtype) : 0;
      return FALSE;
    }
  if (v->def == NULL || v->def->is_reduction)
    return FALSE;
  g_ptr_array_add (r->vals, v);
  (void) _wb_cg_node_reads_any (g, v->def, reach_cb, r);
  return FALSE;
}

Val *
_wb_cg_partial_table (Gen *g, GPtrArray *outs, Val **input)
{
  Val        *first = outs->pdata[0], *best = NULL;
  gboolean    always = g->opt.table_always;
  Reach       r = { g_hash_table_new (NULL, NULL), g_ptr_array_new (), _wb_cg_numel_of (first->rank, first->shape), 0 };
  guint       best_heavy = 0, best_cost = 0;

  *input = NULL;
  if ((g->opt.flags & WB_CUDA_CODEGEN_NO_TABLE) || g->opt.no_table || g->opt.no_partial_table ||
      (!always && r.numel < TABLE_MIN_ELEMENTS))
    goto out;
  for (guint i = 0; i < outs->len; i++)
    {
      Val *o = outs->pdata[i];
      r.bytes += (guint) wb_dtype_size (o->dtype);
      if (o->def != NULL) /* computed here (its buffer is hidden while the kernel is emitted) */
        (void) reach_cb (g, o, &r);
    }
  for (guint i = 0; i < r.vals->len; i++)
    {
      Val  *c = r.vals->pdata[i];
      Unary u = { g_hash_table_new (NULL, NULL), NULL, _wb_cg_numel_of (c->rank, c->shape), 0, TRUE, c, 0 };
      if (is_16bit_float (c->dtype) && g_hash_table_add (u.seen, c) && take_op (&u, c->def))
        (void) _wb_cg_node_reads_any (g, c->def, unary_cb, &u);
      g_hash_table_unref (u.seen);
      if (!u.ok || u.input == NULL || (always ? u.cost == 0 : u.heavy < PARTIAL_MIN_HEAVY || 2 * u.heavy < 3 * r.bytes))
        continue;
      /* the value holding the most costly arithmetic; of those, the least of the rest */
      if (best == NULL || u.heavy > best_heavy || (u.heavy == best_heavy && u.cost < best_cost))
        best = c, best_heavy = u.heavy, best_cost = u.cost, *input = u.input;
    }
out:
  g_hash_table_unref (r.seen);
  g_ptr_array_unref (r.vals);
  return best;
}

gboolean
_wb_cg_partial_table_begin (Gen *g, Kern *k, Val *v, Val *in, GError **error)
{
  guint tslot = add_table_buffer (g, v->dtype);

  if (!emit_builder (g, v, in, tslot, error))
    return FALSE;
  k->ptable = v;
  k->ptable_input = in;
  k->ptable_ptr = _wb_cg_param (k, tslot);
  k->block = TABLE_BLOCK;
  k->min_blocks = 1;
  k->smem_bytes = TABLE_ENTRIES * 2;
  return TRUE;
}

char *
_wb_cg_partial_table_end (Kern *k, GString *what)
{
  g_string_append_printf (what, "; looks up a value of in%d in a table of %d entries (%d KiB of shared memory)", k->ptable_input->input, TABLE_ENTRIES,
                          TABLE_ENTRIES * 2 / 1024);
  g_string_prepend (k->body, _wb_cg_gstr (k->g,
                                          "  for (int t = (int) threadIdx.x; t < %d; t += %d)\n    wb_table4[t] = ((const wb_u4 *) %s)[t];\n  __syncthreads ();\n",
                                          TABLE_ENTRIES / 8, TABLE_BLOCK, k->ptable_ptr));
  return g_strconcat (TABLE_SHARED_DECLS, k->decls ? k->decls->str : "", NULL);
}

const char *
_wb_cg_emit_partial_lookup (Kern *k, Val *v, const Idx *ix, GError **error)
{
  Val        *in = k->ptable_input;
  const char *x = _wb_cg_emit (k, in, ix, error);
  const char *bits;

  if (x == NULL)
    return NULL;
  /* the input's bits: a bf16 value's float has them in its high half; an f16 value converts back exactly */
  bits = in->dtype == WB_DTYPE_BFLOAT16 ? _wb_cg_gstr (k->g, "(__float_as_uint (%s) >> 16)", x) : _wb_cg_gstr (k->g, "wb_f_to_f16 (%s)", x);
  return _wb_cg_new_var (k, "float", _wb_cg_gstr (k->g, "%s (wb_table[%s])", v->dtype == WB_DTYPE_BFLOAT16 ? "wb_bf16_to_f" : "wb_f16_to_f", bits));
}
