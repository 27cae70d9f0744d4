/* wb-executor-info.c — the executor registry: the rows and the claim rule that everyone asks
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Claim rules follow Thunder's executors (thunder/extend/__init__.py can_execute/can_fuse,
 * thunder/executors/torch_compile.py, sdpaex.py, nvfuserex_impl.py) for Thunder's names, and the
 * capabilities of this project's executors (executors/) for ours. Every rejection carries a reason. */
#include "config.h"

#include <string.h>

#include "wb-pipeline-private.h"

struct _WbExecutorInfo
{
  WbExecutorId   id;
  const char    *name;
  WbExecutorKind kind;
  WbExecutorRuns runs;
  guint          cuda_rank, cpu_rank;
  const char    *region_prefix;
  WbExecutorId   partner;
  const char    *description;
};

static const WbExecutorInfo executors[] = {
  { WB_EXECUTOR_ID_NONE, "", WB_EXECUTOR_KIND_OPERATOR, WB_EXECUTOR_RUNS_THUNDER, 0, 0, NULL, WB_EXECUTOR_ID_NONE, "" },
#define WB_EXECUTOR_INFO(id, name, kind, runs, cuda_rank, cpu_rank, prefix, partner, desc) \
  { WB_EXECUTOR_ID_##id, name, WB_EXECUTOR_KIND_##kind, WB_EXECUTOR_RUNS_##runs, cuda_rank, cpu_rank, prefix, WB_EXECUTOR_ID_##partner, desc },
#include "wb-executor-info.def"
#undef WB_EXECUTOR_INFO
};

G_STATIC_ASSERT (G_N_ELEMENTS (executors) == WB_N_EXECUTOR_IDS);

const WbExecutorInfo *
wb_executor_info_lookup (const char *name)
{
  g_return_val_if_fail (name != NULL, NULL);
  for (guint i = 1; i < G_N_ELEMENTS (executors); i++)
    if (strcmp (executors[i].name, name) == 0)
      return &executors[i];
  return NULL;
}

const WbExecutorInfo *
wb_executor_info_get (WbExecutorId id)
{
  g_return_val_if_fail (id > 0 && id < WB_N_EXECUTOR_IDS, NULL);
  return &executors[id];
}

WbExecutorId
wb_executor_info_get_id (const WbExecutorInfo *info)
{
  return info->id;
}

const char *
wb_executor_info_get_name (const WbExecutorInfo *info)
{
  return info->name;
}

const char *
wb_executor_info_get_description (const WbExecutorInfo *info)
{
  return info->description;
}

WbExecutorKind
wb_executor_info_get_kind (const WbExecutorInfo *info)
{
  return info->kind;
}

gboolean
wb_executor_info_is_thunder (const WbExecutorInfo *info)
{
  return info->runs == WB_EXECUTOR_RUNS_THUNDER;
}

WbExecutorRuns
wb_executor_info_get_runs (const WbExecutorInfo *info)
{
  return info->runs;
}

const WbExecutorInfo *
wb_executor_info_get_partner (const WbExecutorInfo *info)
{
  return info->partner != WB_EXECUTOR_ID_NONE ? &executors[info->partner] : NULL;
}

char **
wb_executor_info_dup_names (WbExecutorSet set)
{
  GPtrArray *names = g_ptr_array_new ();

  for (guint i = 1; i < G_N_ELEMENTS (executors); i++)
    {
      WbExecutorSet bit = executors[i].runs == WB_EXECUTOR_RUNS_HERE     ? WB_EXECUTOR_SET_HERE
                          : executors[i].runs == WB_EXECUTOR_RUNS_RUNNER ? WB_EXECUTOR_SET_RUNNER
                                                                         : WB_EXECUTOR_SET_THUNDER;
      if (set & bit)
        g_ptr_array_add (names, g_strdup (executors[i].name));
    }
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (names, FALSE);
}

static guint
rank_of (const WbExecutorInfo *e, gboolean cuda)
{
  return cuda ? e->cuda_rank : e->cpu_rank;
}

char **
wb_executor_info_dup_priority (gboolean cuda)
{
  GPtrArray *names = g_ptr_array_new ();

  for (guint rank = 1; rank < G_N_ELEMENTS (executors); rank++)
    for (guint i = 1; i < G_N_ELEMENTS (executors); i++)
      if (rank_of (&executors[i], cuda) == rank)
        g_ptr_array_add (names, g_strdup (executors[i].name));
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (names, FALSE);
}

const WbExecutorInfo *
wb_executor_info_get_default (gboolean cuda)
{
  const WbExecutorInfo *first = NULL, *fusion = NULL;

  for (guint i = 1; i < G_N_ELEMENTS (executors); i++)
    {
      const WbExecutorInfo *e = &executors[i];
      guint                 r = rank_of (e, cuda);

      if (r == 0)
        continue;
      if (first == NULL || r < rank_of (first, cuda))
        first = e;
      if (e->kind == WB_EXECUTOR_KIND_FUSION && (fusion == NULL || r < rank_of (fusion, cuda)))
        fusion = e;
    }
  return fusion ? fusion : first;
}

GHashTable *
wb_executor_info_types_new (const WbTrace *trace)
{
  GHashTable *types = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);

  if (trace != NULL)
    wb_executor_info_types_add (types, trace);
  return types;
}

void
wb_executor_info_types_add (GHashTable *types, const WbTrace *trace)
{
  g_return_if_fail (types != NULL && trace != NULL);
  _wb_type_env_add (types, trace);
}

gboolean
wb_executor_info_types_lookup (const char *name, WbType *out, gpointer types)
{
  return _wb_type_env_lookup (name, out, types);
}

const char *
wb_executor_info_get_region_prefix (const WbExecutorInfo *info)
{
  return info->region_prefix;
}

const WbExecutorInfo *
wb_executor_info_for_region (const char *region_name)
{
  for (guint i = 1; i < G_N_ELEMENTS (executors); i++)
    {
      const char *p = executors[i].region_prefix;
      gsize       n;
      if (p == NULL)
        continue;
      n = strlen (p);
      if (strncmp (region_name, p, n) == 0 && region_name[n] >= '0' && region_name[n] <= '9')
        return &executors[i];
    }
  return NULL;
}

gboolean
wb_executor_info_is_utility (const WbBsym *bsym)
{
  WbSymbolCategory cat;
  if (bsym->kind != WB_BSYM_CALL)
    return TRUE;
  if (bsym->symbol == NULL)
    return FALSE;
  if (wb_symbol_is_fusion (bsym->symbol))
    return FALSE;
  cat = wb_symbol_get_category (bsym->symbol);
  return cat == WB_SYMBOL_CATEGORY_UTILITY || cat == WB_SYMBOL_CATEGORY_PROLOGUE;
}

/* The symbol an alias stands for, followed to the end (torch.add -> ltorch.add). */
static const WbSymbol *
resolve (const WbSymbol *sym)
{
  for (int i = 0; i < 4 && sym != NULL && wb_symbol_get_like (sym) != NULL; i++)
    sym = wb_symbol_get_like (sym);
  return sym;
}

static gboolean
name_in (const char *name, const char *const *names)
{
  for (guint i = 0; names[i] != NULL; i++)
    if (strcmp (name, names[i]) == 0)
      return TRUE;
  return FALSE;
}

/* what the claim rule reads types through; @device, when set, replaces every tensor's device (the GPU
 * runner places every tensor on its device, whatever the trace says) */
typedef struct
{
  WbTypeLookupFunc lookup;
  gpointer         data;
  const WbDevice  *device;
} Env;

typedef struct
{
  WbTypeLookupFunc lookup;
  gpointer         data;
  GArray          *types;
} Collect;

static void
collect_value (Collect *c, const WbValue *v)
{
  WbType t;
  if (v == NULL)
    return;
  switch (v->kind)
    {
    case WB_VALUE_NAME:
      if (c->lookup (v->text, &t, c->data) && (t.kind == WB_TYPE_TENSOR || t.kind == WB_TYPE_FUTURE_TENSOR))
        g_array_append_val (c->types, t);
      break;
    case WB_VALUE_TUPLE:
    case WB_VALUE_LIST:
      for (guint i = 0; i < v->n_items; i++)
        collect_value (c, v->items[i]);
      break;
    default:
      break;
    }
}

/* The tensor types among @bsym's inputs (and its annotated output). */
static GArray *
tensor_types (const WbBsym *bsym, const Env *env)
{
  Collect c = { env->lookup, env->data, g_array_new (FALSE, FALSE, sizeof (WbType)) };
  for (guint i = 0; i < bsym->n_args; i++)
    collect_value (&c, bsym->args[i]);
  for (guint i = 0; i < bsym->n_kwargs; i++)
    collect_value (&c, bsym->kwargs[i].value);
  if (bsym->has_type && bsym->type.kind == WB_TYPE_TENSOR)
    g_array_append_val (c.types, bsym->type);
  for (guint i = 0; env->device != NULL && i < c.types->len; i++)
    g_array_index (c.types, WbType, i).device = *env->device;
  return c.types;
}

static gboolean
reject (char **why_not, const WbExecutorInfo *info, const char *fmt, ...) G_GNUC_PRINTF (3, 4);

static gboolean
reject (char **why_not, const WbExecutorInfo *info, const char *fmt, ...)
{
  if (why_not != NULL)
    {
      va_list          ap;
      g_autofree char *msg = NULL;
      va_start (ap, fmt);
      msg = g_strdup_vprintf (fmt, ap);
      va_end (ap);
      *why_not = g_strdup_printf ("%s: %s", info->name, msg);
    }
  return FALSE;
}

/* Checks every tensor type against allowed dtypes and a CUDA device. */
static gboolean
check_tensors (const WbExecutorInfo *info, GArray *types, const WbDtype *allowed, const char *allowed_text, gboolean need_cuda, char **why_not)
{
  for (guint i = 0; i < types->len; i++)
    {
      const WbType *t = &g_array_index (types, WbType, i);
      if (allowed != NULL)
        {
          gboolean ok = FALSE;
          for (guint k = 0; allowed[k] != WB_DTYPE_UNKNOWN; k++)
            ok |= allowed[k] == t->dtype;
          if (!ok)
            return reject (why_not, info, "dtype %s is not supported (%s only)", wb_dtype_shortname (t->dtype), allowed_text);
        }
      if (need_cuda && t->device.type != WB_DEVICE_CUDA)
        {
          char dev[24];
          return reject (why_not, info, "device %s is not supported (CUDA devices only)", wb_device_to_string (&t->device, dev));
        }
    }
  return TRUE;
}

static const WbDtype float_dtypes[] = { WB_DTYPE_FLOAT32, WB_DTYPE_BFLOAT16, WB_DTYPE_FLOAT16, WB_DTYPE_UNKNOWN };
static const WbDtype half_dtypes[] = { WB_DTYPE_BFLOAT16, WB_DTYPE_FLOAT16, WB_DTYPE_UNKNOWN };
static const WbDtype kernel_dtypes[] = { WB_DTYPE_FLOAT64, WB_DTYPE_FLOAT32, WB_DTYPE_BFLOAT16, WB_DTYPE_FLOAT16,
                                         WB_DTYPE_INT64, WB_DTYPE_INT32, WB_DTYPE_INT16, WB_DTYPE_INT8,
                                         WB_DTYPE_UINT8, WB_DTYPE_BOOL8, WB_DTYPE_UNKNOWN };
#define KERNEL_DTYPES_TEXT "f64, f32, bf16, f16, i64, i32, i16, i8, ui8, b8"

static const char *const matmul_symbols[] = { "prims.matmul", "prims.linear", "ltorch.matmul", "ltorch.linear", NULL };
static const char *const attention_symbols[] = { "ltorch.scaled_dot_product_attention", NULL };
static const char *const convolution_symbols[] = { "prims.convolution", "ltorch.convolution", "ltorch.conv1d", "ltorch.conv2d", "ltorch.conv3d", NULL };
static const char *const xentropy_symbols[] = { "ltorch.cross_entropy", "ltorch.log_softmax", "ltorch.log_softmax_backward", "ltorch.nll_loss",
                                                "ltorch.nll_loss_backward", "ltorch.logsumexp", "ltorch.take_along_dim", NULL };
/* prims nvrtc generates no code for (they need a library or a sort) */
static const char *const nvrtc_excluded[] = { "prims.topk", "prims.sort", "prims.argmax", "prims.argmin", "prims.scatter", "prims.scatter_add",
                                              "prims.index_add", "prims.index_copy", "prims.index_put", "prims.multinomial", "prims.item",
                                              "prims.embedding_backward", "prims.copy_", "prims.tensor_from_sequence",
                                              "prims.numpy_array_to_torch_tensor", "prims.device_put", "prims.exogenous_like", NULL };

static gboolean
is_attention_op (const WbSymbol *sym)
{
  const char *name = wb_symbol_get_name (sym);
  const char *ex = wb_symbol_get_executor (sym);
  return name_in (name, attention_symbols) || (ex != NULL && strcmp (ex, executors[WB_EXECUTOR_ID_SDPA].name) == 0);
}

static const WbDtype nccl_dtypes[] = { WB_DTYPE_FLOAT64, WB_DTYPE_FLOAT32, WB_DTYPE_BFLOAT16, WB_DTYPE_FLOAT16, WB_DTYPE_INT64,
                                       WB_DTYPE_INT32, WB_DTYPE_INT8, WB_DTYPE_UINT8, WB_DTYPE_BOOL8, WB_DTYPE_UNKNOWN };

/* The distributed symbols (symbols/distributed.def, their torch_*_prim_impl aliases and ltorch's
 * collectives): nccl on CUDA tensors, cpu on host tensors (a world size of 1; more ranks are refused
 * when the cpu executor runs them, naming the op), Thunder's torch executor as Thunder does; nobody
 * else (no per-op CUDA kernel, never fused). */
static gboolean
can_take_distributed (const WbExecutorInfo *info, const WbBsym *bsym, const WbSymbol *base, GArray *types, char **why_not)
{
  const char *name = wb_symbol_get_name (base);

  switch (info->id)
    {
    case WB_EXECUTOR_ID_NCCL:
      if (wb_symbol_get_module (base) == WB_SYMBOL_MODULE_LTORCH && bsym->n_subsymbols > 0)
        return reject (why_not, info, "runs %s through its decomposition", name);
      return check_tensors (info, types, nccl_dtypes, "f64, f32, bf16, f16, i64, i32, i8, ui8, b8", TRUE, why_not);
    case WB_EXECUTOR_ID_CPU:
      if (wb_symbol_get_module (base) == WB_SYMBOL_MODULE_LTORCH && bsym->n_subsymbols > 0)
        return reject (why_not, info, "runs %s through its decomposition", name);
      for (guint i = 0; i < types->len; i++)
        if (g_array_index (types, WbType, i).device.type == WB_DEVICE_CUDA)
          return reject (why_not, info, "%s on a CUDA tensor is left to nccl", name);
      return check_tensors (info, types, kernel_dtypes, KERNEL_DTYPES_TEXT, FALSE, why_not);
    case WB_EXECUTOR_ID_TORCH:
      return TRUE;
    default:
      return reject (why_not, info, "%s is a collective or bucketing op (nccl on CUDA, cpu on the host)", name);
    }
}

static gboolean
can_take_operator (const WbExecutorInfo *info, const WbBsym *bsym, const WbSymbol *sym, GArray *types, char **why_not)
{
  const WbSymbol *base = resolve (sym);
  const char     *name = wb_symbol_get_name (base);
  WbSymbolModule  module = wb_symbol_get_module (base);

  if (wb_symbol_get_category (base) == WB_SYMBOL_CATEGORY_DISTRIBUTED)
    return can_take_distributed (info, bsym, base, types, why_not);
  switch (info->id)
    {
    case WB_EXECUTOR_ID_CPU:
      if (module == WB_SYMBOL_MODULE_LTORCH && bsym->n_subsymbols > 0)
        return reject (why_not, info, "runs %s through its decomposition", name);
      return check_tensors (info, types, kernel_dtypes, KERNEL_DTYPES_TEXT, FALSE, why_not);
    case WB_EXECUTOR_ID_CUDA:
      /* prims, and composites Thunder printed no decomposition for (nll_loss_backward, ...) */
      if (module != WB_SYMBOL_MODULE_PRIMS && bsym->n_subsymbols > 0)
        return reject (why_not, info, "runs prims only; %s is a composite", name);
      /* attention stays here as the fallback for what cudnn refuses (f32, odd head sizes) */
      if (name_in (name, matmul_symbols) || name_in (name, convolution_symbols))
        return reject (why_not, info, "%s is left to cublas/cudnn (no hand-written GEMM or convolution)", name);
      return check_tensors (info, types, kernel_dtypes, KERNEL_DTYPES_TEXT, TRUE, why_not);
    case WB_EXECUTOR_ID_CUBLAS:
      if (!name_in (name, matmul_symbols))
        return reject (why_not, info, "takes matmul and linear only, not %s", name);
      return check_tensors (info, types, float_dtypes, "f32, bf16, f16", TRUE, why_not);
    case WB_EXECUTOR_ID_CUDNN:
      if (is_attention_op (base))
        {
          /* q, k, v, the output and its gradient are 4-d; the f32 log-sum-exp and seeds are not */
          g_autoptr (GArray) qkv = g_array_new (FALSE, FALSE, sizeof (WbType));
          for (guint i = 0; i < types->len; i++)
            if (g_array_index (types, WbType, i).rank == 4)
              g_array_append_val (qkv, g_array_index (types, WbType, i));
          if (!check_tensors (info, qkv, half_dtypes, "bf16, f16", TRUE, why_not))
            return FALSE;
          for (guint i = 0; i < types->len; i++)
            {
              const WbType *t = &g_array_index (types, WbType, i);
              if (t->rank == 4 && (t->shape[3] % 8 != 0 || t->shape[3] > 256))
                return reject (why_not, info, "head dimension %" G_GINT64_FORMAT " is not a multiple of 8 up to 256", t->shape[3]);
            }
          return TRUE;
        }
      if (name_in (name, convolution_symbols))
        return check_tensors (info, types, float_dtypes, "f32, bf16, f16", TRUE, why_not);
      return reject (why_not, info, "takes convolution and scaled dot-product attention only, not %s", name);
    case WB_EXECUTOR_ID_SDPA:
      if (!is_attention_op (base))
        return reject (why_not, info, "takes scaled_dot_product_attention only, not %s", name);
      return check_tensors (info, types, float_dtypes, "f32, bf16, f16", FALSE, why_not);
    case WB_EXECUTOR_ID_TORCH:
      return TRUE;
    case WB_EXECUTOR_ID_PYTHON:
      return reject (why_not, info, "takes utility ops only, not %s", name);
    default:
      return reject (why_not, info, "is not an operator executor");
    }
}

static gboolean can_fuse (const WbExecutorInfo *info, const WbBsym *bsym, const Env *env, char **why_not, int depth);

static gboolean
can_fuse_subsymbols (const WbExecutorInfo *info, const WbBsym *bsym, const Env *env, char **why_not, int depth)
{
  if (bsym->n_subsymbols == 0)
    return reject (why_not, info, "cannot fuse %s (no decomposition to fuse)", bsym->name);
  for (guint i = 0; i < bsym->n_subsymbols; i++)
    if (!can_fuse (info, bsym->subsymbols[i], env, why_not, depth + 1))
      return FALSE;
  return TRUE;
}

static gboolean
can_fuse (const WbExecutorInfo *info, const WbBsym *bsym, const Env *env, char **why_not, int depth)
{
  const WbSymbol  *sym = bsym->symbol, *base;
  const char      *name;
  WbSymbolModule   module;
  WbSymbolCategory cat;
  g_autoptr (GArray) types = NULL;

  if (bsym->kind != WB_BSYM_CALL || sym == NULL)
    return reject (why_not, info, "cannot fuse a %s", bsym->kind == WB_BSYM_CALL ? "call of an unknown symbol" : "statement");
  if (wb_symbol_is_fusion (sym))
    return reject (why_not, info, "%s is already a fusion region", bsym->name);
  if (depth > 16)
    return reject (why_not, info, "decomposition of %s is too deep", bsym->name);
  if (wb_symbol_is_opaque (sym))
    {
      /* an unknown symbol is fused only through its printed subsymbols, never blindly */
      if (bsym->n_subsymbols == 0)
        return reject (why_not, info, "%s is an unknown symbol without subsymbols: never fused blindly", bsym->name);
      return can_fuse_subsymbols (info, bsym, env, why_not, depth);
    }
  base = resolve (sym);
  name = wb_symbol_get_name (base);
  module = wb_symbol_get_module (base);
  cat = wb_symbol_get_category (base);
  if (cat == WB_SYMBOL_CATEGORY_UTILITY || cat == WB_SYMBOL_CATEGORY_PROLOGUE)
    return reject (why_not, info, "%s is a utility op", name);
  if (cat == WB_SYMBOL_CATEGORY_DISTRIBUTED)
    return reject (why_not, info, "%s is communication (a collective, wait or bucketing op): never fused", name);
  types = tensor_types (bsym, env);

  switch (info->id)
    {
    case WB_EXECUTOR_ID_NVRTC:
    case WB_EXECUTOR_ID_NVFUSER:
      if (module != WB_SYMBOL_MODULE_PRIMS)
        return can_fuse_subsymbols (info, bsym, env, why_not, depth);
      if (cat == WB_SYMBOL_CATEGORY_NN)
        return reject (why_not, info, "%s is a library op (matmul, convolution, attention): left to an operator executor", name);
      if (name_in (name, nvrtc_excluded))
        return reject (why_not, info, "generates no code for %s", name);
      for (guint i = 0; i < types->len; i++)
        {
          const WbType *t = &g_array_index (types, WbType, i);
          if (wb_dtype_is_complex (t->dtype) || wb_dtype_bits (t->dtype) < 8 || (wb_dtype_is_float (t->dtype) && wb_dtype_bits (t->dtype) == 8))
            return reject (why_not, info, "dtype %s is not supported", wb_dtype_shortname (t->dtype));
          if (t->device.type != WB_DEVICE_CUDA)
            {
              char dev[24];
              return reject (why_not, info, "device %s is not supported (CUDA devices only)", wb_device_to_string (&t->device, dev));
            }
        }
      return TRUE;
    case WB_EXECUTOR_ID_TORCHCOMPILE:
      if (module == WB_SYMBOL_MODULE_EXECUTOR && cat == WB_SYMBOL_CATEGORY_NN)
        return reject (why_not, info, "%s belongs to the %s executor", name, wb_symbol_get_executor (base));
      return TRUE;
    case WB_EXECUTOR_ID_TORCHCOMPILE_XENTROPY:
      if (depth == 0 && !name_in (name, xentropy_symbols))
        return reject (why_not, info, "takes cross-entropy ops only, not %s", name);
      return TRUE;
    default:
      return reject (why_not, info, "is not a fusion executor");
    }
}

/* Whether @info may claim the unknown symbol @sym: the executors that take ops by name (their names
 * decide in can_take_operator), and Thunder's torch executor for what it printed as torch.* itself.
 * Executors with per-symbol kernels (cpu, cuda) and python have none for a symbol the table lacks. */
static gboolean
may_declare_opaque (const WbExecutorInfo *info, const WbSymbol *sym)
{
  switch (info->id)
    {
    case WB_EXECUTOR_ID_CUDNN:
    case WB_EXECUTOR_ID_CUBLAS:
    case WB_EXECUTOR_ID_SDPA:
      return TRUE;
    case WB_EXECUTOR_ID_TORCH:
      return wb_symbol_get_module (sym) == WB_SYMBOL_MODULE_TORCH;
    default:
      return FALSE;
    }
}

static gboolean
can_take (const WbExecutorInfo *info, const WbBsym *bsym, const Env *env, char **why_not)
{
  g_autoptr (GArray) types = NULL;

  if (info->kind == WB_EXECUTOR_KIND_FUSION)
    return can_fuse (info, bsym, env, why_not, 0);
  if (bsym->kind != WB_BSYM_CALL || bsym->symbol == NULL)
    return info->id == WB_EXECUTOR_ID_PYTHON ? TRUE : reject (why_not, info, "takes calls only");
  if (wb_executor_info_is_utility (bsym))
    return info->id == WB_EXECUTOR_ID_PYTHON || info->id == WB_EXECUTOR_ID_CPU || info->id == WB_EXECUTOR_ID_TORCH
               ? TRUE
               : reject (why_not, info, "%s is a utility op (python keeps it)", bsym->name);
  if (wb_symbol_is_fusion (bsym->symbol))
    return reject (why_not, info, "%s is a fusion region", bsym->name);
  if (wb_symbol_is_opaque (bsym->symbol) && !may_declare_opaque (info, bsym->symbol))
    return reject (why_not, info, "has no kernel for %s, a symbol it does not declare", bsym->name);
  types = tensor_types (bsym, env);
  return can_take_operator (info, bsym, bsym->symbol, types, why_not);
}

gboolean
wb_executor_info_can_take (const WbExecutorInfo *info, const WbBsym *bsym, WbTypeLookupFunc lookup, gpointer user_data, char **why_not)
{
  Env env = { lookup, user_data, NULL };

  g_return_val_if_fail (info != NULL && bsym != NULL && lookup != NULL, FALSE);
  if (why_not)
    *why_not = NULL;
  return can_take (info, bsym, &env, why_not);
}

static gboolean
can_run (const WbExecutorInfo *info, const WbBsym *bsym, const Env *env, char **why_not)
{
  const WbExecutorInfo *partner;

  if (bsym->kind != WB_BSYM_CALL || bsym->symbol == NULL || !wb_symbol_is_fusion (bsym->symbol))
    return can_take (info, bsym, env, why_not);
  if (info->kind == WB_EXECUTOR_KIND_OPERATOR && bsym->n_subsymbols > 1)
    return reject (why_not, info, "runs one op at a time; %s fuses %u (unfuse it first)", bsym->name, bsym->n_subsymbols);
  partner = wb_executor_info_get_partner (info);
  for (guint i = 0; i < bsym->n_subsymbols; i++)
    {
      const WbBsym    *b = bsym->subsymbols[i];
      g_autofree char *why = NULL;

      if (b->kind != WB_BSYM_CALL || wb_executor_info_is_utility (b))
        continue;
      if (can_take (info, b, env, &why))
        continue;
      if (partner != NULL && can_take (partner, b, env, NULL))
        continue;
      if (why_not)
        *why_not = g_steal_pointer (&why);
      return FALSE;
    }
  return TRUE;
}

gboolean
wb_executor_info_can_run (const WbExecutorInfo *info, const WbBsym *bsym, WbTypeLookupFunc lookup, gpointer user_data, char **why_not)
{
  Env env = { lookup, user_data, NULL };

  g_return_val_if_fail (info != NULL && bsym != NULL && lookup != NULL, FALSE);
  if (why_not)
    *why_not = NULL;
  return can_run (info, bsym, &env, why_not);
}

gboolean
wb_executor_info_can_run_on (const WbExecutorInfo *info, const WbBsym *bsym, const WbDevice *device, WbTypeLookupFunc lookup, gpointer user_data, char **why_not)
{
  Env env = { lookup, user_data, device };

  g_return_val_if_fail (info != NULL && bsym != NULL && lookup != NULL, FALSE);
  if (why_not)
    *why_not = NULL;
  return can_run (info, bsym, &env, why_not);
}
