/* wb-cpu-executor.c — the cpu executor's vtable and kernel table
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-cpu-private.h"

typedef struct
{
  const char     *name;
  WbCpuKernelFunc func;
  int             op;
  guint64         dtypes;
  const char     *category;
  const char     *note;
} WbCpuKernel;

static const WbCpuKernel cpu_kernels[] = {
#define WB_EW_UNARY(id, name, res, dt, f32, f64, i64) { "prims." name, _wb_cpu_elementwise, WB_EW_##id, dt, "elementwise", NULL },
#define WB_EW_BINARY(id, name, res, dt, f32, f64, i64) { "prims." name, _wb_cpu_elementwise, WB_EW_##id, dt, "elementwise", NULL },
#define WB_EW_TERNARY(id, name, res, dt, f32, f64, i64) { "prims." name, _wb_cpu_elementwise, WB_EW_##id, dt, "elementwise", NULL },
#include "wb-cpu-elementwise.def"
#undef WB_EW_UNARY
#undef WB_EW_BINARY
#undef WB_EW_TERNARY
#define WB_CPU_KERNEL(name, func, op, dt, cat, note) { name, func, op, dt, cat, note },
#include "wb-cpu-ops.def"
#undef WB_CPU_KERNEL
};

static GHashTable *
kernel_table (void)
{
  static gsize       once = 0;
  static GHashTable *table;

  if (g_once_init_enter (&once))
    {
      GHashTable *t = g_hash_table_new (g_str_hash, g_str_equal);
      for (guint i = 0; i < G_N_ELEMENTS (cpu_kernels); i++)
        if (strchr (cpu_kernels[i].name, '(') == NULL) /* internal rows such as (logical_not) */
          g_hash_table_insert (t, (gpointer) cpu_kernels[i].name, (gpointer) &cpu_kernels[i]);
      table = t;
      g_once_init_leave (&once, 1);
    }
  return table;
}

/* A kernel by printed name; else, for an executor's alias of a prim (torch_exp_prim_impl is prims.exp as
 * the torch executor runs it: same signature, compiler/symbols/executor-ops.def), the prim's kernel. */
static const WbCpuKernel *
find_kernel (const WbBsym *bsym)
{
  const WbCpuKernel *k;
  const WbSymbol    *like;

  if (bsym == NULL || bsym->kind != WB_BSYM_CALL || bsym->name == NULL)
    return NULL;
  k = g_hash_table_lookup (kernel_table (), bsym->name);
  if (k == NULL && bsym->symbol != NULL && wb_symbol_get_module (bsym->symbol) == WB_SYMBOL_MODULE_EXECUTOR &&
      (like = wb_symbol_get_like (bsym->symbol)) != NULL &&
      (wb_symbol_get_module (like) == WB_SYMBOL_MODULE_PRIMS || wb_symbol_get_module (like) == WB_SYMBOL_MODULE_DISTRIBUTED ||
       wb_symbol_get_module (like) == WB_SYMBOL_MODULE_DTENSOR))
    k = g_hash_table_lookup (kernel_table (), wb_symbol_get_name (like));
  return k;
}

static const char *
cpu_get_name (WbExecutor *self)
{
  return wb_executor_info_get_name (wb_executor_info_get (WB_EXECUTOR_ID_CPU));
}

static WbExecutorKind
cpu_get_kind (WbExecutor *self)
{
  return WB_EXECUTOR_KIND_OPERATOR;
}

static gboolean
cpu_can_execute (WbExecutor *self, const WbBsym *bsym, char **why_not)
{
  const WbCpuKernel *k = find_kernel (bsym);

  if (k == NULL)
    {
      if (why_not != NULL)
        *why_not = g_strdup_printf ("cpu: no kernel for %s%s", bsym && bsym->name ? bsym->name : "(not a call)",
                                    bsym && bsym->n_subsymbols ? " (runs its subsymbols)" : "");
      return FALSE;
    }
  if (bsym->has_type && bsym->type.kind == WB_TYPE_TENSOR && !_wb_dtype_is_supported (bsym->type.dtype))
    {
      if (why_not != NULL)
        *why_not = g_strdup_printf ("cpu: rejected, dtype %s not supported", wb_dtype_shortname (bsym->type.dtype));
      return FALSE;
    }
  return TRUE;
}

static gboolean
cpu_run (WbExecutor *self, WbKernelCall *call, GError **error)
{
  const WbCpuKernel *k = find_kernel (call->bsym);

  if (k == NULL)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED,
                   "the cpu executor has no kernel for %s", call->bsym->name);
      return FALSE;
    }
  if (!k->func (call, k->op, error))
    return FALSE;
  if (call->result == NULL)
    call->result = wb_rt_value_new_none ();
  return TRUE;
}

static void
cpu_list_support (WbExecutor *self, GArray *rows)
{
  for (guint i = 0; i < G_N_ELEMENTS (cpu_kernels); i++)
    {
      WbExecutorSupport row = { cpu_kernels[i].name, cpu_kernels[i].category, cpu_kernels[i].dtypes, cpu_kernels[i].note };
      if (strchr (row.symbol, '(') == NULL && row.category != NULL)
        g_array_append_val (rows, row);
    }
}

static char *
cpu_describe (WbExecutor *self)
{
  return g_strdup_printf ("cpu: %u threads; BLAS: %s", wb_cpu_executor_get_num_threads (), _wb_cpu_blas_config ());
}

static const WbExecutorVTable cpu_vtable = {
  /* .abi_version  = */ WB_EXECUTOR_ABI_VERSION,
  /* .get_name     = */ cpu_get_name,
  /* .get_kind     = */ cpu_get_kind,
  /* .can_execute  = */ cpu_can_execute,
  /* .run          = */ cpu_run,
  /* .list_support = */ cpu_list_support,
  /* .describe     = */ cpu_describe,
};

static WbExecutor cpu_executor = { &cpu_vtable, NULL };

WbExecutor *
wb_cpu_executor_get (void)
{
  static gsize once = 0;

  if (g_once_init_enter (&once))
    {
      _wb_cpu_blas_set_threads (_wb_get_num_threads ());
      g_once_init_leave (&once, 1);
    }
  return &cpu_executor;
}

void
wb_cpu_executor_set_num_threads (guint n)
{
  _wb_set_num_threads (n);
  _wb_cpu_blas_set_threads (_wb_get_num_threads ());
}

guint
wb_cpu_executor_get_num_threads (void)
{
  return _wb_get_num_threads ();
}
