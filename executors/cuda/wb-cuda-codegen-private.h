/* wb-cuda-codegen-private.h — what the code generator's files share (wb-cuda-codegen*.c); not installed
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * wb-cuda-codegen.c        planning and the public API (wb-cuda-codegen.h): inputs, outputs as views, plans
 * wb-cuda-codegen-options.c WbCudaCodegenOptions from the environment, the SM count
 * wb-cuda-codegen-graph.c  the dataflow graph of a body: values, nodes, the elementwise table, number folding
 * wb-cuda-codegen-emit.c   expressions: literals, conversion ops, a value at an index (dispatch by symbol id)
 * wb-cuda-codegen-emit-view.c, -emit-index.c  the view ops, the creation and indexing ops (-emit-private.h); the
 *                          emitter reaches them, -pair.c and -table.c's lookups through Gen.emit, never by name
 * wb-cuda-codegen-kern.c   the kernel being generated: lines, blocks, memo scopes, variables, index expressions,
 *                          loads (vector loads too), stores and casts as text, a finished kernel's entry into the plan
 * wb-cuda-codegen-accum.c  the reductions' building blocks: layouts, accumulators, loops, combines, results
 * wb-cuda-codegen-reduce.c a reduction set's kernel: the row kernel (groups of T threads), one thread per output
 * wb-cuda-codegen-column.c the column kernel: reductions over the leading dims (bias and weight gradients)
 * wb-cuda-codegen-epilogue.c sibling reductions in one kernel; pointwise work in a row reduction's kernel
 * wb-cuda-codegen-mix.c    a column reduction computed in the kernel of a row reduction over the same elements
 * wb-cuda-codegen-pointwise.c the pointwise kernel; vector variants: widths, lanes, vector stores
 * wb-cuda-codegen-table.c  a pointwise group of one 16-bit input as a lookup table of its 65536 values
 * wb-cuda-codegen-select.c cat pieces the same up to their inputs, one branch through pointer selects
 * wb-cuda-codegen-pair.c   bf16 ops two lanes to a word (bf16x2) in the vector variants
 * Every name here is private to libwbcudagen (hidden visibility). */
#pragma once

#include "wb-cuda-codegen.h"

G_BEGIN_DECLS

#define MAX_NODE_ARGS 8

/* The SMs the grids are sized for (Gen.sms: WbCudaCodegenOptions.sms or wb_cuda_codegen_set_sm_count, by
 * default 132), and the most blocks a pointwise kernel launches: 8 resident blocks of WB_CUDA_BLOCK threads per
 * SM, 4 waves (grid-stride loops cover the rest), or WbCudaCodegenOptions.pointwise_blocks_per_sm per SM. */
#define WB_CG_SMS (g->sms)
#define WB_CG_POINTWISE_BLOCKS (WB_CG_SMS * (g->opt.pointwise_blocks_per_sm > 0 ? g->opt.pointwise_blocks_per_sm : 8 * 4))

typedef enum
{
  CLS_F = 1, /* float: f32, bf16, f16 */
  CLS_D,     /* double: f64 */
  CLS_I,     /* long long: integers and b8 */
} Cls;

typedef struct _Node Node;

typedef struct
{
  const char *name;
  gboolean    is_tensor;
  WbDtype     dtype;
  guint       rank;
  gint64      shape[WB_MAX_RANK];
  /* numbers */
  gboolean is_float;
  double   f;
  gint64   i;
  /* definition: an input slot, or output @def_out of @def */
  int    input;
  gint64 strides[WB_MAX_RANK]; /* inputs */
  Node  *def;
  guint  def_out;
  /* planning */
  int      buffer; /* >= 0: written to buffer k by its kernel (reductions) */
  gboolean needed;
  guint    id;
} Val;

struct _Node
{
  const WbBsym  *b;
  const char    *op;                 /* prim name without "prims." */
  WbSymbolId     id;                 /* the prim's symbol id (an executor's alias: the prim it is like) */
  const WbValue *arg[MAX_NODE_ARGS]; /* bound by the symbol's signature; NULL when absent */
  guint          n_arg;
  Val           *out[2];
  guint          n_out;
  gboolean       is_reduction;
  gboolean       done; /* reduction kernel emitted */
};

/* How an index expression varies across the lanes of a vector kernel (wb-cuda-codegen-pointwise.c: each
 * thread computes V consecutive elements, its body emitted once per lane j = 0 .. V-1). Scalar kernels
 * ignore it. The zero value is the safe one. */
typedef enum
{
  LANE_ANY = 0, /* may differ between lanes in any way */
  LANE_SAME,    /* the same in every lane */
  LANE_UNIT,    /* base + j in lane j: the base a multiple of V, and base + V - 1 still inside the dim */
} Lane;

typedef struct
{
  guint       rank;
  const char *e[WB_MAX_RANK];
  const char *lin; /* row-major linear index of the shape the index belongs to, or NULL */
  /* vector kernels: the lane form of e[d] and of lin, and the base of a LANE_UNIT one */
  Lane        lane[WB_MAX_RANK];
  const char *base[WB_MAX_RANK];
  Lane        lin_lane;
  const char *lin_base;
} Idx;

/* The emitter's families and variants (wb-cuda-codegen-emit-private.h) */
typedef struct _WbCgEmitOps WbCgEmitOps;

typedef struct
{
  GPtrArray           *nodes; /* Node* */
  GHashTable          *env;   /* name -> Val* */
  GHashTable          *cse;   /* a pure op and its operands (cse_key) -> the Val it made: a repeat is that Val */
  GPtrArray           *vals;  /* every Val (owned) */
  GStringChunk        *strings;
  GArray              *buffers; /* WbCudaBuffer */
  GArray              *kernels; /* WbCudaKernel */
  GString             *source;
  guint                n_inputs;
  guint                n_ops;
  guint                n_literal;
  WbCudaCodegenOptions opt;  /* what the plan is built under (flags, switches) */
  gint64               sms;  /* opt.sms, or wb_cuda_codegen_get_sm_count () when the plan began */
  const WbCgEmitOps   *emit; /* what _wb_cg_emit dispatches to (wb-cuda-codegen.c fills it) */
} Gen;

/* A hoist point (wb-cuda-codegen-pointwise.c; a uniform pad branch, wb-cuda-codegen-emit-index.c): the top of a block of the vector loop, where the
 * vector loads of a uniform pad branch inside it are issued, before the block's arithmetic, so that they are in
 * flight with the block's other loads instead of after the arithmetic that waits for those */
typedef struct
{
  gboolean    on;
  gsize       at;     /* byte offset in Kern.body */
  int         indent; /* of its lines */
  guint       vars;   /* variables numbered below this are visible there */
  GHashTable *names;  /* and these, hoisted there (v, a names without the chunk suffix) */
} WbCgHoist;

typedef struct
{
  Gen        *g;
  GString    *body;
  int         indent;
  GPtrArray  *memo;       /* stack of GHashTable* (key -> expression) */
  guint       memo_floor; /* lookups see the scopes from this one up (a pointer select's scope hides the rest) */
  GHashTable *alias;      /* input slot -> the pointer its loads read through (a cat's pointer select), or NULL */
  guint       next_var;
  GArray     *params; /* guint slots, in parameter order */
  const char *ity;    /* index type: "int" or "long long" */
  /* lanes (wb-cuda-codegen-pointwise.c): the vector variants of pointwise kernels and row reductions */
  guint    vec;          /* vector lanes (elements per thread) while a vector variant is emitted; 0 otherwise */
  guint    lane;         /* the lane being emitted (also by the lane-ordered scalar loop of a reduction) */
  gboolean batch;        /* emitting every lane of a uniform branch (a cat's, wb-cuda-codegen-emit-index.c) */
  guint    min_bytes;    /* the narrowest element loaded so far (bytes; 0: none) */
  gint64   seg;          /* the vector loop's uniform branches (cat, pad): elements of the lanes' dim between their
                            boundaries, their gcd (0: no branch; note_seg in -pointwise.c) */
  GString  *decls;       /* vector struct types the kernel declares */
  WbCgHoist hoist;       /* the current hoist point (hoist.on FALSE: none) */
  int       pad_indent;  /* > 0: emitting a uniform pad branch whose indices are clamped into its source at this
                            indent: its vector loads (at this indent only) may go to the hoist point */
  gboolean pair;         /* emitting lanes two to a word (wb-cuda-codegen-pair.c): _wb_cg_emit answers words */
  gboolean pair_refused; /* set by a view's operand or a cat or pad that cannot answer a word */
  GArray  *vslots;       /* guint pairs (slot, bytes): slots accessed with vectors of that alignment */
  /* while a row kernel emits its epilogue: Val* of its reductions' results -> the variable holding the
   * row's value (every thread of the group has it), read instead of the stored result */
  GHashTable *resident;
  guint       min_blocks; /* __launch_bounds__'s minimum blocks per SM (0: not given) */
  guint       block;      /* threads per block (0: WB_CUDA_BLOCK), dynamic shared memory (bytes) and WbCudaKernel.once */
  guint       smem_bytes;
  gboolean    once;
  GArray     *prefetch; /* input slots the mixed kernel's row sums prefetch to L1 at o * K + r0 (set with its layout) */
  /* a lookup table's builder (wb-cuda-codegen-table.c): input slot @table_slot reads as the 16-bit pattern
   * @table_bits (an expression) instead of being loaded */
  const char *table_bits;
  guint       table_slot;
  /* a partial table (wb-cuda-codegen-table.c): @ptable, a value of the one input @ptable_input, is looked up
   * in shared memory (wb_table, copied from @ptable_ptr) instead of computed */
  Val        *ptable;
  Val        *ptable_input;
  const char *ptable_ptr;
} Kern;

/* one row of the elementwise table (semantics of executors/cpu/wb-cpu-elementwise.def) */
typedef struct
{
  const char *name;
  guint       arity;
  gboolean    res_bool;
  const char *f; /* float expression of $0 $1 $2; NULL: not for this class */
  const char *d;
  const char *i;
  gboolean    exact; /* of a bf16/f16 tensor, a value of that dtype: not rounded again (neg, abs) */
} EwOp;

/* wb-cuda-codegen-graph.c */
/* Calls @fn on each tensor Val that node @n reads (sequence arguments included); TRUE as soon as it does. */
gboolean _wb_cg_node_reads_any (Gen *g, Node *n, gboolean (*fn) (Gen *g, Val *a, gpointer data), gpointer data);
/* The value of input @slot (transfer none; every input slot has one). */
Val *_wb_cg_input_val (Gen *g, guint slot);
/* The last dim of @shape of extent other than 1, or -1. */
int         _wb_cg_innermost_dim (guint rank, const gint64 *shape);
gboolean    _wb_cg_fail (GError **error, int code, const char *format, ...) G_GNUC_PRINTF (3, 4);
const char *_wb_cg_gstr (Gen *g, const char *format, ...) G_GNUC_PRINTF (2, 3);
gint64      _wb_cg_numel_of (guint rank, const gint64 *shape);
gboolean    _wb_cg_same_shape (const Val *a, const Val *b);
gboolean    _wb_cg_same_shape_squeezed (const Val *a, const Val *b);
void        _wb_cg_contiguous_strides (guint rank, const gint64 *shape, gint64 *strides);
/* Whether @v is laid out row-major (its dims of extent 1 aside): an input by its strides, a buffer always */
gboolean    _wb_cg_val_contiguous (const Val *v);
Cls         _wb_cg_dtype_cls (WbDtype dt);
gboolean    _wb_cg_dtype_supported (WbDtype dt);
const char *_wb_cg_cls_ctype (Cls c);
const EwOp *_wb_cg_ew_lookup (const char *op);
const char *_wb_cg_ew_expand (Gen *g, const char *tmpl, const char *const *ops);
gboolean    _wb_cg_op_supported (const char *op);
Val        *_wb_cg_val_new (Gen *g, const char *name);
Val        *_wb_cg_number_of (Gen *g, const WbValue *v);
Val        *_wb_cg_operand (Gen *g, const WbValue *v);

/* A value's layout as a view of slot @slot (an input, or n_inputs + a buffer): elements, relative to the
 * slot's first element (wb-cuda-codegen-outputs.c). */
typedef struct
{
  guint  slot;
  guint  rank;
  gint64 shape[WB_MAX_RANK];
  gint64 strides[WB_MAX_RANK];
  gint64 offset;
} WbCgLayout;

/* Whether @v is a view (reshape, transpose, broadcast, squeeze, slice, same-dtype conversion...) of an input
 * or of a value that has a buffer, and its layout in @L. */
gboolean _wb_cg_as_view (Gen *g, Val *v, WbCgLayout *L, int depth);
/* Adds @v to the group of its shape in @groups (a GPtrArray of GPtrArray of Val*: one pointwise kernel each). */
GPtrArray *_wb_cg_group_of_shape (GPtrArray *groups, const Val *v);
void       _wb_cg_add_to_group (GPtrArray *groups, Val *v);
/* The computed value @v transposes (through reshapes, squeezes and at least one transpose that moves the
 * innermost dim), when @v is a view of it once it has a contiguous buffer; else NULL. */
Val *_wb_cg_view_root (Gen *g, Val *v, gboolean need_move);
/* Whether computing @v reads a reduction's result through elementwise and view nodes. */
gboolean _wb_cg_depends_on_reduction (Gen *g, Val *v);
/* Whether computing any of @vals (@n of them) reads the result of a reduction for which @pred is TRUE, through the
 * nodes computed in this kernel: a value an earlier kernel stored is loaded, and its inputs are not looked at; a
 * reduction whose result has no buffer yet is looked through. */
gboolean _wb_cg_reads_reduction (Gen *g, Val *const *vals, guint n, gboolean (*pred) (Gen *g, Node *n, gpointer data), gpointer data);
/* Whether a needed reduction's operand is computed from @v without another reduction in between. */
gboolean _wb_cg_read_by_reduction (Gen *g, Val *v);
/* Types of every name of @body (name -> WbType, transfer none): annotations, else what the symbol's meta
 * derives; derived types are owned by @owned (a g_free array). */
void     _wb_cg_collect_types (const WbBsym *const *body, guint n, GHashTable *types, GPtrArray *owned);
gboolean _wb_cg_get_ints (const WbValue *v, gint64 *out, guint max, guint *n);
gboolean _wb_cg_add_body (Gen *g, const WbBsym *const *body, guint n_body, int depth, GError **error);

/* wb-cuda-codegen-emit.c */
const char *_wb_cg_emit (Kern *k, Val *v, const Idx *ix, GError **error);
/* @v at @ix by its defining node (not the memo, not a load) */
const char *_wb_cg_emit_node (Kern *k, Val *v, const Idx *ix, GError **error);
/* Whether every value tensor @a can take is exactly a value of float dtype @narrow (@depth: 0) */
gboolean _wb_cg_exactly_in (Gen *g, Val *a, WbDtype narrow, guint depth);

/* wb-cuda-codegen-pair.c: bf16 values two lanes to a word in the vector variants (Kern.pair).
 * _wb_cg_pair_worth: whether output @v of the vector kernel being emitted is worth computing in words.
 * _wb_cg_emit_pair: the word of lanes k->lane (even) and k->lane + 1 of @v at @ix (lane k->lane's index), an
 * unsigned int expression; NULL with @error, or with Kern.pair_refused set where @ix has lost its lane form.
 * _wb_cg_pair_memo: word @w is that of @v at @ix, lanes @lane and @lane + 1: the memo answers it and both
 * lanes' floats. _wb_cg_pair_literal: the word of a number exactly a bf16, or NULL. */
gboolean    _wb_cg_pair_worth (Kern *k, Val *v);
const char *_wb_cg_emit_pair (Kern *k, Val *v, const Idx *ix, GError **error);
void        _wb_cg_pair_memo (Kern *k, const Val *v, const Idx *ix, guint lane, const char *w);
const char *_wb_cg_pair_literal (Gen *g, const Val *number);

/* wb-cuda-codegen-kern.c */
const char *_wb_cg_cast_cls (Gen *g, const char *x, Cls from, Cls to);
const char *_wb_cg_load_expr (Gen *g, const char *p, const char *off, WbDtype dt);
const char *_wb_cg_normalize (Gen *g, const char *x, WbDtype dt);
const char *_wb_cg_store_stmt (Gen *g, const char *p, const char *off, const char *x, WbDtype dt);
guint       _wb_cg_grid_for (gint64 items, gint64 per_block);
void        _wb_cg_finish_kernel (Gen *g, Kern *k, const char *what, guint grid, gint64 elements, const guint *writes, guint n_writes, const char *prologue);
int         _wb_cg_add_buffer (Gen *g, Val *v);
void        _wb_cg_idx_dim (Idx *dst, guint d, const Idx *src, guint sd);
void        _wb_cg_idx_lin (Idx *dst, const Idx *src);
void        _wb_cg_idx_moved (Kern *k, Idx *dst, guint d, const Idx *src, guint sd, gint64 start, gint64 step);
gboolean    _wb_cg_idx_is_same (const Idx *ix);
/* @ix in lane k->lane of a vector loop: every dim the same in every lane but @u, base + lane (its lane-0
 * expression the base, a multiple of the width); @lin (may be NULL) likewise the linear index's base. */
void _wb_cg_idx_lane_unit (Kern *k, Idx *ix, int u, const char *lin);
/* @ix (every dim the same in every lane or base + j) in lane @lane, as that lane's emission writes it */
void _wb_cg_idx_in_lane (Kern *k, const Idx *ix, guint lane, Idx *out);
/* @base + the lane being emitted (Kern.lane). */
const char *_wb_cg_lane_expr (Kern *k, const char *base);
/* Slot @slot is accessed with vectors of @bytes: the vector variant tests its alignment. */
void        _wb_cg_note_slot (Kern *k, guint slot, guint bytes);
const char *_wb_cg_idx_key (Gen *g, guint id, const Idx *ix);
const char *_wb_cg_memo_get (Kern *k, const char *key);
void        _wb_cg_memo_put (Kern *k, const char *key, const char *expr);
Kern       *_wb_cg_kern_new (Gen *g, const char *ity);
void        _wb_cg_kern_free (Kern *k);
void        _wb_cg_line (Kern *k, const char *format, ...) G_GNUC_PRINTF (2, 3);
void        _wb_cg_open_block (Kern *k);
void        _wb_cg_close_block (Kern *k);
const char *_wb_cg_new_var (Kern *k, const char *ctype, const char *expr);
void        _wb_cg_hoist_open (Kern *k, WbCgHoist *saved);
void        _wb_cg_hoist_close (Kern *k, const WbCgHoist *saved);
gboolean    _wb_cg_hoist_line (Kern *k, const char *defines, const char *line);
const char *_wb_cg_param (Kern *k, guint slot);
const char *_wb_cg_input_ptr (Kern *k, guint slot);
void        _wb_cg_idx_unravel (Kern *k, const char *lin, guint rank, const gint64 *shape, Idx *out);
/* _wb_cg_idx_unravel once per scope: a second unravel of the same @lin over the same @shape (in the scope
 * of the first or inside it) gives the same variables, so that indexes built apart share their loads in the
 * memo; a shape of one dim other than 1 gives @lin itself. */
void        _wb_cg_idx_unravel_memo (Kern *k, const char *lin, guint rank, const gint64 *shape, Idx *out);
const char *_wb_cg_idx_linear (Kern *k, const Idx *ix, guint rank, const gint64 *shape);
/* Vector loads (the vector variants). _wb_cg_vec_load: @v (slot @slot, strides @st) at @ix in the lane being
 * emitted, from one vector load per V lanes; NULL when the index is not base + j in a unit-stride dim with
 * everything else the same in every lane (the caller then loads the element). _wb_cg_vec_type: the aligned
 * struct type holding @n elements of @dt (declared once per kernel, in k->decls); _wb_cg_vec_chunk: the
 * elements per access (16 bytes at most) of a vector of k->vec elements of @dt. */
const char *_wb_cg_vec_load (Kern *k, const Val *v, const Idx *ix, guint slot, const gint64 *st, gboolean contiguous);
const char *_wb_cg_vec_type (Kern *k, WbDtype dt, guint n);
guint       _wb_cg_vec_chunk (Kern *k, WbDtype dt);

/* The pointwise work a row-reduction kernel does after its reductions (wb-cuda-codegen-epilogue.c) */
typedef struct
{
  GPtrArray *rows;  /* GPtrArray of Val*, one group per shape: of the kept shape (dims of extent 1 aside), per row */
  GPtrArray *elems; /* Val*: of the operand's shape, per element of the row */
} WbCgEpilogue;

typedef struct _WbCgMix WbCgMix;

/* One accumulator of a reduction kernel: the operand, the variable and the combining op. Sibling
 * reductions (the same operand shape and reduced dims) share one kernel, one accumulator each, their
 * operands emitted at the same index in one scope so that they share loads and subexpressions. */
typedef struct
{
  Val        *a;
  const char *acc;
  const char *op;
} Acc;

/* A row kernel's layout, for its epilogue: the operand @a, its reduced dims (trailing), the threads T per row and
 * the elements V per thread and step (V <= 1: one); @mix: the column reduction it also computes (NULL: none);
 * @accs (NULL: none): the row set's own accumulators, of class @c, when its sums are taken in the element walk
 * (a mixed kernel whose row sums are finished after the walk, WbCgMix.defer): the epilogue then emits the
 * element outputs only, and the caller the kept-shape outputs. */
typedef struct
{
  const WbCgMix  *mix;
  const Acc      *accs;
  guint           n_accs;
  Cls             c;
  const Val      *a;
  const gboolean *red;
  const gint64   *kept_shape;
  guint           n_kept;
  const gint64   *red_shape;
  guint           n_red;
  gint64          K;
  int             T;
  guint           V;
} WbCgRows;

/* What kind of kernel a reduction gets (_wb_cg_reduction_layout) */
typedef struct
{
  Val     *a; /* the operand */
  gboolean red[WB_MAX_RANK];
  gint64   NO, K; /* outputs, elements reduced per output */
  gboolean is_var;
  gboolean row;            /* the innermost dim reduced: T threads per output */
  gboolean column;         /* the column kernel (slices, combined by the last block) */
  gboolean takes_epilogue; /* a row kernel whose reduced dims are trailing */
  gboolean lead;           /* the reduced dims lead (dims of extent 1 aside): element (r, o) is r * NO + o */
} WbCgReduction;

/* A row reduction gets one warp a row when the warp covers it in at most this many vector steps. */
#define WB_CG_ROW_WARP_STEPS 4

/* A reduction whose innermost dim is kept gets the column kernel when it reduces at least this many
 * elements per output and its outputs would fill fewer blocks than the device has SMs. */
#define WB_CG_COLUMN_MIN_K 512

/* wb-cuda-codegen-accum.c: the reductions' building blocks. _wb_cg_reduction_layout: the layout of reduction @n;
 * FALSE (with @error) when its arguments are of a form the generator does not handle. */
gboolean _wb_cg_reduction_layout (Gen *g, Node *n, WbCgReduction *out, GError **error);
/* For a value @v of the numel of column reduction @L's operand, its innermost extent the operand's: the number
 * of its leading dims whose product is the reduced extent K (so that its element r * NO + o is the operand's
 * element (r, o)); -1 when there is none. */
int _wb_cg_column_split (const Val *v, const WbCgReduction *L);
/* The combining expression of reduction @op (sum, prod, amax, amin) of class @c, and its identity. */
const char *_wb_cg_combine_expr (Gen *g, const char *op, Cls c, const char *a, const char *b);
const char *_wb_cg_init_expr (const char *op, Cls c);
/* Accumulates the operand of each of @accs at index @ax: f(x) into its accumulator; @sq_mean: (x - mean)^2. */
gboolean _wb_cg_accumulate (Kern *k, const Acc *accs, guint n_acc, const Idx *ax, Cls c, const char *sq_mean, GError **error);
/* "if (ok) { for (r = @r_start; r < @r_end; r += @step) { accumulate at (o, r) } }", o the output's index */
gboolean _wb_cg_reduction_loop_range (Kern *k, const Acc *accs, guint n_acc, const gboolean *red, const gint64 *kept_shape, guint n_kept, const gint64 *red_shape, guint n_red, const char *r_start, const char *r_end, int step, Cls c, const char *sq_mean, GError **error);
/* Combines accumulator @acc (of type @ctype, with reduction @combine_op in class @c) across the @T threads of an
 * output group, every thread of the block calling it: shuffles within a warp, then (T > 32) the warps' results
 * in warp order through the shared array wb_sm. */
void _wb_cg_group_reduce (Kern *k, const char *acc, const char *ctype, const char *combine_op, Cls c, int T);
/* Opens a row kernel's walk of its row o in lane order (wb-cuda-codegen-reduce.c, -epilogue.c): "if (ok) {", the kept
 * index of o in @kx (the same in every lane) and "for (r0 = lane * V; r0 < numel (red_shape); r0 += T * V) {";
 * with @steps > 0 (numel (red_shape) = steps x T x V) that walk as "#pragma unroll" steps st, r0 = lane * V +
 * st * T * V, so that a thread's columns are known at compile time (the mixed kernel's column accumulators,
 * wb-cuda-codegen-mix.c). The caller unravels r0. _wb_cg_close_row_lanes resets k->lane and closes both blocks
 * (also those of the column kernel's walk, wb-cuda-codegen-column.c, which opens the same two). */
void _wb_cg_open_row_lanes (Kern *k, guint n_kept, const gint64 *kept_shape, guint n_red, const gint64 *red_shape, int T, guint V, gint64 steps, Idx *kx);
void _wb_cg_close_row_lanes (Kern *k);
/* @src (an accumulator of class @c) as the value of result @out: cast and rounded to its dtype. */
const char *_wb_cg_result_expr (Gen *g, const Val *out, Cls c, const char *src);
/* Stores accumulator @src (of class @c) as reduction output @out at index @at (inside a block). */
void _wb_cg_store_result (Kern *k, const Val *out, Cls c, const char *src, const char *at);
/* Buffers for the outputs of @nodes; appends their slots to @writes. */
void        _wb_cg_add_output_buffers (Gen *g, Node *const *nodes, guint nn, GArray *writes);
const char *_wb_cg_siblings_text (Gen *g, guint nn);

/* wb-cuda-codegen-column.c: reductions @nodes (siblings, accumulators @accs) of layout @L (WbCgReduction.column:
 * the innermost dim kept; @kept_shape and @red_shape its kept and reduced extents), and @epi's elems (may be NULL;
 * _wb_cg_column_pick) at each element. */
gboolean _wb_cg_emit_column_reduction (Gen *g, Node *const *nodes, const Acc *accs, guint nn, const char *ity, const WbCgReduction *L, const gint64 *kept_shape, guint n_kept, const gint64 *red_shape, guint n_red, Cls c, const WbCgEpilogue *epi, GError **error);
/* wb-cuda-codegen-reduce.c: one kernel computing reductions @nodes (siblings: one operand shape, the same dims; see
 * _wb_cg_reduction_sets) and, for a row or column kernel, @epi (may be NULL). @mix (may be NULL): a column set
 * (_wb_cg_mix_pick) that a row kernel with @epi also computes when its layout allows (_wb_cg_mix_fits), which
 * then sets @mix->used; when it does not, nothing of @mix is emitted and the caller emits that set itself. */
gboolean _wb_cg_emit_reduction (Gen *g, Node *const *nodes, guint nn, const WbCgEpilogue *epi, WbCgMix *mix, const char *ity, GError **error);

/* wb-cuda-codegen-epilogue.c */
/* The needed reductions in sets of siblings (GPtrArray of GPtrArray of Node*), in the order they can run. */
GPtrArray *_wb_cg_reduction_sets (Gen *g);
/* The set whose kernel computes the pointwise groups of @groups (all emitted after the reductions) that it can,
 * moved into @epi; -1 (and @epi empty) when none can. Every reduction's results must have their buffers. */
int _wb_cg_epilogue_pick (Gen *g, GPtrArray *sets, GPtrArray *groups, WbCgEpilogue *epi);
/* The column set (WbCgReduction.column, its reduced dims leading) whose kernel computes the pointwise groups of
 * @groups of its operand's shape that read neither its results nor a later set's, moved into @epi->elems (the
 * column kernel visits each element of its operand once); -1 (and @epi empty) when none can. */
int _wb_cg_column_pick (Gen *g, GPtrArray *sets, GPtrArray *groups, WbCgEpilogue *epi);
/* wb-cuda-codegen-outputs.c: the values of @groups (GPtrArray of Val*, one group per shape of a reduction's kept
 * numel, as WbCgEpilogue.rows)
 * at the output whose index is variable @at, one output per thread in scalar code, stored at @at in @slots (their
 * buffers, in group order); each group in a block of its own, behind @guard ("if (...)") when not NULL: a row
 * kernel's lane 0 after the row's reductions, a column kernel's last block after its combine. */
gboolean _wb_cg_emit_kept_values (Kern *k, GPtrArray *groups, const char *at, const char *guard, const guint *slots, GError **error);
/* wb-cuda-codegen-outputs.c: the values of @vals of the shape of value @i, unless @done[@i]: each not yet @done
 * appended to @same with its slot (of @slots) to @same_slots, and marked @done; FALSE (nothing taken) when
 * @done[@i]. A kernel whose outputs differ in shape stores them one shape at a time this way. */
gboolean    _wb_cg_take_shape (GPtrArray *vals, const guint *slots, guint i, gboolean *done, GPtrArray *same, GArray *same_slots);
void        _wb_cg_epilogue_clear (WbCgEpilogue *epi);
const char *_wb_cg_epilogue_describe (Gen *g, const WbCgEpilogue *epi);
/* A row kernel's epilogue, storing its outputs at @slots (_wb_cg_epilogue_hide) */
gboolean _wb_cg_emit_epilogue (Kern *k, const WbCgEpilogue *epi, const WbCgRows *R, const guint *slots, GError **error);
/* wb-cuda-codegen-outputs.c: an epilogue's outputs and inputs. _wb_cg_epilogue_buffers: buffers for @epi's
 * outputs, their slots appended to @writes. */
void _wb_cg_epilogue_buffers (Gen *g, const WbCgEpilogue *epi, GArray *writes);
/* The slots of @epi's outputs (its rows' groups in order, then its elements: the order of _wb_cg_epilogue_buffers,
 * which must have given them buffers), their buffers hidden (-1) meanwhile: the kernel emitting the epilogue
 * computes them wherever it needs them (also in its reductions' loops, when an operand is computed from one),
 * never loads them. Transfer full; _wb_cg_epilogue_show gives the buffers back. */
guint *_wb_cg_epilogue_hide (Gen *g, const WbCgEpilogue *epi);
void   _wb_cg_epilogue_show (Gen *g, const WbCgEpilogue *epi, const guint *slots);
/* The contiguous input slots (guint) that @vals read at their own linear index: through elementwise ops,
 * conversions and reshapes of @numel elements. _wb_cg_epilogue_only_inputs: those of the epilogue's element
 * outputs that @operands (the reductions' operands) do not read. Transfer full. */
GArray *_wb_cg_row_inputs (Gen *g, Val *const *vals, guint n, gint64 numel);
GArray *_wb_cg_epilogue_only_inputs (Gen *g, const WbCgEpilogue *epi, Val *const *operands, guint n_operands, gint64 numel);

/* wb-cuda-codegen-mix.c: the column sums of a set (WbCgReduction.column, reduced dims leading) over the elements
 * of a row set's operand, [R, C] = [column reduced extent, row reduced extent], accumulated by the row kernel as it
 * walks its rows (TorchInductor's mix-order reduction): each thread keeps the sums of its steps x V columns over
 * the rows its block takes, the block stores one partial row [G, C], and the last blocks to arrive combine them. */
struct _WbCgMix
{
  GPtrArray          *set;  /* Node*: the column set */
  const WbCgEpilogue *cepi; /* its kept-shape outputs after the combine (rows only; may be NULL) */
  Acc                *accs;
  WbCgReduction       L;
  Cls                 c;
  const char         *ctype;
  int                 np; /* leading dims of the column operand: the row index */
  gint64              C;  /* columns: the row kernel's reduced extent */
  /* the row kernel's layout (_wb_cg_mix_fits) */
  int    T, opb;
  guint  V;
  gint64 steps, G, tiles;
  guint  per_sm; /* blocks resident per SM: the grid and the kernel's __launch_bounds__ */
  guint  combiners;
  guint  cv; /* columns a combining thread takes (4: 16-byte loads of f32 partials) */
  /* rows longer than a warp (T > 32), taken only when the row set's element outputs read none of its results:
   * a block meets at no barrier a row. The row sums are taken in the element walk, each warp's part parked in
   * shared memory (wb_mrow[n_row][rows_per_block][T / 32]) and added in warp order after the walk. */
  gboolean    defer_ok, defer;
  guint       n_row;          /* the row set's accumulators */
  const char *row_ctype;      /* and their type */
  gint64      rows_per_block; /* ceil (rows / G) */
  guint      *pslot;          /* partial buffers [G, C], one per sibling */
  guint       cslot;          /* two counters: blocks arrived, combiners done */
  guint      *tslots;
  gboolean    used;
};

/* The column set that the kernel of row set @held (with epilogue @epi) can also compute: the set just before it,
 * its reduced dims leading, over the same elements as rows x columns, neither set reading the other's results;
 * -1 when none. @col_held, @cepi: the column set that _wb_cg_column_pick gave pointwise work to (only kept-shape
 * outputs after the combine can go with it). */
int _wb_cg_mix_pick (Gen *g, GPtrArray *sets, int held, const WbCgEpilogue *epi, int col_held, const WbCgEpilogue *cepi);
/* @set: the column set; @cepi: its kept-shape outputs (may be NULL); @rset, @epi: the row set whose kernel takes it,
 * and that kernel's epilogue. */
void _wb_cg_mix_init (Gen *g, WbCgMix *m, GPtrArray *set, const WbCgEpilogue *cepi, GPtrArray *rset, const WbCgEpilogue *epi);
void _wb_cg_mix_clear (WbCgMix *m);
/* Whether a row kernel of @rows outputs, @T threads a row, @V elements per thread and step can take @m (each
 * thread's columns fixed; accumulators and shared memory within bounds): then fills its layout in @m. */
gboolean _wb_cg_mix_fits (Gen *g, WbCgMix *m, gint64 rows, int T, guint V);
/* The partial buffers, the counters and the set's output buffers, appended to @writes. */
void _wb_cg_mix_buffers (Gen *g, WbCgMix *m, GArray *writes);
void _wb_cg_mix_declare (Kern *k, const WbCgMix *m);
/* In the unrolled row walk (_wb_cg_open_row_lanes with steps, E = o * C + r0 declared): accumulates the column operands at
 * element E + k->lane. */
gboolean _wb_cg_mix_accumulate (Kern *k, const WbCgMix *m, GError **error);
/* After the rows: the block's partials, its arrival, and the combine by the last blocks. */
gboolean    _wb_cg_mix_finish (Kern *k, const WbCgMix *m, GError **error);
const char *_wb_cg_mix_describe (Gen *g, const WbCgMix *m);
const char *_wb_cg_mix_shared (Gen *g, const WbCgMix *m);

/* wb-cuda-codegen-table.c: a pointwise group of one 16-bit output computed from one 16-bit input alone, over
 * many elements with costly arithmetic (erf, exp...), as a table of its 65536 values: a builder kernel run once
 * per plan and a kernel that looks each element up in shared memory. _wb_cg_table_input: that input when the
 * group @outs qualifies, else NULL; _wb_cg_emit_table: the two kernels (FALSE with @error). */
Val     *_wb_cg_table_input (Gen *g, GPtrArray *outs);
gboolean _wb_cg_emit_table (Gen *g, GPtrArray *outs, Val *in, const char *ity, GError **error);
/* Partial tables: in a pointwise group of several inputs, a 16-bit value computed from one 16-bit input
 * alone (elementwise ops and conversions of its shape) with costly arithmetic (SiLU's sigmoid: exp and a
 * division) is looked up in a table of its 65536 values, built once per plan by the same code.
 * _wb_cg_partial_table: that value (and *@input) or NULL; _wb_cg_partial_table_begin: its table buffer and
 * builder kernel, and @k set to look it up (1024 threads, the table in 128 KiB of shared memory; FALSE with
 * @error); _wb_cg_partial_table_end: copies the table at the start of @k's body, describes it in @what,
 * returns the kernel's prologue (the shared declarations and k->decls; free it); _wb_cg_emit_partial_lookup: the value at @ix. */
Val        *_wb_cg_partial_table (Gen *g, GPtrArray *outs, Val **input);
gboolean    _wb_cg_partial_table_begin (Gen *g, Kern *k, Val *v, Val *in, GError **error);
char       *_wb_cg_partial_table_end (Kern *k, GString *what);
const char *_wb_cg_emit_partial_lookup (Kern *k, Val *v, const Idx *ix, GError **error);

/* wb-cuda-codegen-pointwise.c */
guint    _wb_cg_vec_width (Kern *k, gint64 extent);
GString *_wb_cg_vec_begin (Kern *k, guint vec);
void     _wb_cg_vec_end (Kern *k, GString *scalar);

/* wb-cuda-codegen-select.c: consecutive cat pieces the same up to their inputs, emitted as one branch whose
 * loads read through pointers chosen by the piece (vector variants).
 * _wb_cg_cat_run: how many pieces of @list from @i on (at most @max, at least 1) are the same as piece @i up to
 * their inputs, with the same extent along @dim; for each such piece r >= 1, @maps[r * n_inputs + s] is its
 * input slot where piece @i reads slot s (G_MAXUINT: piece @i does not read s). @maps holds @max * n_inputs.
 * _wb_cg_select_open, in the branch's block (just opened): declares the piece number of @at (the cat dim's
 * index, or its base in a vector lane) for pieces of @extent from @off and a pointer for each input the pieces
 * read differently, and makes the loads of the first piece's inputs read through them; *@local: the index
 * along the cat dim inside the piece ("0" for pieces of extent 1). _wb_cg_select_close (before the block
 * closes) restores what @saved holds and notes the other pieces' inputs for the alignment test. */
typedef struct
{
  GHashTable *alias;
  guint       memo_floor;
} WbCgSelect;
guint _wb_cg_cat_run (Kern *k, const WbValue *list, guint i, guint dim, guint max, guint *maps);
void  _wb_cg_select_open (Kern *k, guint run, const guint *maps, const char *at, gint64 off, gint64 extent, const char **local, WbCgSelect *saved);
void  _wb_cg_select_close (Kern *k, guint run, const guint *maps, const WbCgSelect *saved);
/* In a vector variant: computes @outs (Val*, contiguous buffers @writes) at k->vec consecutive elements, the
 * first at index @bx (its dim @u the innermost, varying across lanes) and linear index @base, and stores
 * them with vector stores. */
gboolean _wb_cg_vec_store_outputs (Kern *k, GPtrArray *outs, const guint *writes, const Idx *bx, int u, const char *base, GError **error);
gboolean _wb_cg_emit_pointwise (Gen *g, GPtrArray *outs, const char *ity, GError **error);

/* wb-cuda-codegen-reshape.c. _wb_cg_vec_reshape: in a vector kernel, the index of reshape operand @a of @v
 * from the linear index of @ix when that is the same in every lane or base + j, unravelled once for all
 * lanes (FALSE: the caller unravels lane by lane). */
gboolean _wb_cg_vec_reshape (Kern *k, const Idx *ix, const Val *v, const Val *a, Idx *ax);
/* The index of reshape operand @a of @v dim group by dim group (the runs of dims whose extents have the
 * same product in both): a dim of @v split into several of @a unravels its own index (memoized), several
 * joined into one add theirs up, so that an index built from a row and a column (the column kernel's
 * outputs) reaches the same expressions as the reduction's operand. FALSE where a group has several dims
 * on both sides, or (in a vector kernel) where a lane form would not carry over. */
gboolean _wb_cg_idx_reshape_grouped (Kern *k, const Idx *ix, const Val *v, const Val *a, Idx *ax);

G_END_DECLS
