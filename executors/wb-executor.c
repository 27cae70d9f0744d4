/* wb-executor.c — the executor interface: dispatch through the vtable, the registry, the error domain
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-executors-private.h"

/* clang-format off */
G_DEFINE_QUARK (wb-executor-error-quark, wb_executor_error)
/* clang-format on */

const char *
wb_executor_get_name (WbExecutor *executor)
{
  g_return_val_if_fail (executor != NULL, NULL);
  return executor->vtable->get_name (executor);
}

WbRtValue *
wb_kernel_call_get_arg (const WbKernelCall *call, guint pos, const char *name)
{
  if (pos < call->n_args)
    return call->args[pos];
  for (guint i = 0; name != NULL && i < call->n_kwargs; i++)
    if (strcmp (call->kwarg_names[i], name) == 0)
      return call->kwargs[i];
  return NULL;
}

WbExecutorKind
wb_executor_get_kind (WbExecutor *executor)
{
  g_return_val_if_fail (executor != NULL, WB_EXECUTOR_KIND_OPERATOR);
  return executor->vtable->get_kind (executor);
}

gboolean
wb_executor_can_execute (WbExecutor *executor, const WbBsym *bsym, char **why_not)
{
  g_return_val_if_fail (executor != NULL && bsym != NULL, FALSE);
  return executor->vtable->can_execute (executor, bsym, why_not);
}

gboolean
wb_executor_run (WbExecutor *executor, WbKernelCall *call, GError **error)
{
  g_return_val_if_fail (executor != NULL && call != NULL, FALSE);
  return executor->vtable->run (executor, call, error);
}

static int
cmp_support (gconstpointer a, gconstpointer b)
{
  return strcmp (((const WbExecutorSupport *) a)->symbol, ((const WbExecutorSupport *) b)->symbol);
}

GArray *
wb_executor_list_support (WbExecutor *executor)
{
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (WbExecutorSupport));

  g_return_val_if_fail (executor != NULL, rows);
  if (executor->vtable->list_support != NULL)
    executor->vtable->list_support (executor, rows);
  g_array_sort (rows, cmp_support);
  return rows;
}

char *
wb_executor_describe (WbExecutor *executor)
{
  g_return_val_if_fail (executor != NULL, NULL);
  return executor->vtable->describe ? executor->vtable->describe (executor) : NULL;
}

WbExecutor *
wb_executor_get (WbExecutorId id)
{
  g_return_val_if_fail (id > WB_EXECUTOR_ID_NONE && id < WB_N_EXECUTOR_IDS, NULL);
  /* the registry's rows that run here; the others run in the GPU runner (wb_cuda_executor_get) */
  return id == WB_EXECUTOR_ID_CPU ? wb_cpu_executor_get () : NULL;
}

WbExecutor *
wb_executor_lookup (const char *name)
{
  const WbExecutorInfo *info = name ? wb_executor_info_lookup (name) : NULL;

  if (info == NULL || wb_executor_info_get_runs (info) != WB_EXECUTOR_RUNS_HERE)
    return NULL;
  return wb_executor_get (wb_executor_info_get_id (info));
}

const char *const *
wb_executor_get_names (void)
{
  static char **names;

  if (g_once_init_enter (&names))
    g_once_init_leave (&names, wb_executor_info_dup_names (WB_EXECUTOR_SET_HERE));
  return (const char *const *) names;
}

char *
wb_dtype_mask_to_string (guint64 mask)
{
  static const WbDtype order[] = { WB_DTYPE_FLOAT64, WB_DTYPE_FLOAT32, WB_DTYPE_BFLOAT16, WB_DTYPE_FLOAT16,
                                   WB_DTYPE_INT64, WB_DTYPE_INT32, WB_DTYPE_INT16, WB_DTYPE_INT8,
                                   WB_DTYPE_UINT8, WB_DTYPE_BOOL8 };
  GString             *s = g_string_new (NULL);

  if (mask == 0)
    return g_string_free (g_string_append (s, "-"), FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    if (mask & (G_GUINT64_CONSTANT (1) << order[i]))
      g_string_append_printf (s, "%s%s", s->len ? " " : "", wb_dtype_shortname (order[i]));
  return g_string_free (s, FALSE);
}
