/* wb-cuda-executors.c — the runner's executors: the path of each call, the vtable, the dispatch, explain
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The paths themselves live beside this file (wb-cuda-exec-private.h): the nvrtc plans and split regions
 * in wb-cuda-exec-fusion.c, cuBLASLt, copy_, attention and the cpu fallback in wb-cuda-exec-ops.c, the
 * run's state and statistics in wb-cuda-exec-state.c. */
#include "config.h"

#include "wb-cuda-executors.h"

#include <string.h>

#include "wb-cuda-attention.h"
#include "wb-cuda-conv.h"
#include "wb-cuda-exec-private.h"
#include "wb-cuda-kernels.h"
#include "wb-cuda-nccl.h"

/* One per runnable row of the registry (compiler/wb-executor-info.def); the registry decides whether it
 * takes a call, this file how the call runs. */
typedef struct
{
  WbExecutor            base;
  const WbExecutorInfo *info;
} CudaExec;

/* the types the registry's claim rule reads for the current program (wb_cuda_executors_set_program) */
static GHashTable *program_types;

/* -- symbols -------------------------------------------------------------------------------------- */

static gboolean
is_copy_ (const WbBsym *b)
{
  const char *p = _wb_cuda_exec_prim_name (b);

  return p && strcmp (p, "prims.copy_") == 0;
}

/* A single prim the code generator takes (structurally). */
static gboolean
is_generated_op (const WbBsym *b)
{
  const char *p = _wb_cuda_exec_prim_name (b);

  return p != NULL && b->n_subsymbols == 0 && wb_cuda_codegen_outputs_named (b) && wb_cuda_codegen_can_fuse (b, NULL);
}

static gboolean
is_fusible_group (const WbBsym *b)
{
  return b->n_subsymbols > 0 && wb_cuda_codegen_outputs_named (b) && !_wb_cuda_exec_is_unfusable (b) && wb_cuda_codegen_can_fuse (b, NULL);
}

static WbExecutor *
cpu_executor (void)
{
  return wb_executor_get (WB_EXECUTOR_ID_CPU);
}

/* -- the vtable ----------------------------------------------------------------------------------- */

typedef enum
{
  PATH_NONE = 0, /* decompose (the interpreter runs the subsymbols) */
  PATH_FUSE,     /* one plan for the whole call */
  PATH_OP,       /* one plan for one prim */
  PATH_MATMUL,
  PATH_COPY,
  PATH_CPU,
  PATH_DIRECT,     /* a utility op (checks, unpacking, collections): the cpu executor on the values as they are */
  PATH_SPLIT,      /* a fusion region around matmul/linear: fusible runs as plans, the rest through cuBLASLt */
  PATH_ATTENTION,  /* scaled dot-product attention: cuBLASLt GEMMs and NVRTC row kernels (wb-cuda-attention.h) */
  PATH_KERNEL,     /* a hand-written kernel (random draws, topk/sort, argmax, nll_loss_backward: wb-cuda-kernels.h) */
  PATH_CONV,       /* convolution through cuDNN (wb-cuda-conv.h) */
  PATH_COLLECTIVE, /* a collective of Thunder's distributed transforms through NCCL (wb-cuda-nccl.h) */
} Path;

static Path choose_path_uncached (CudaExec *self, const WbBsym *b, char **why_not);

static guint
memo_slot (CudaExec *self)
{
  return (guint) wb_executor_info_get_id (self->info);
}

/* the path of @b, memoised per program (wb-cuda-exec-private.h) */
static Path
choose_path (CudaExec *self, const WbBsym *b, char **why_not)
{
  guint known = _wb_cuda_exec_memo_path (b, memo_slot (self));
  Path  path;

  /* a reason is only asked for when there is no path: find it again */
  if (known > 0 && (why_not == NULL || known - 1 != PATH_NONE))
    return (Path) (known - 1);
  path = choose_path_uncached (self, b, why_not);
  _wb_cuda_exec_memo_set_path (b, memo_slot (self), path);
  return path;
}

static GHashTable *
types (void)
{
  if (program_types == NULL)
    program_types = wb_executor_info_types_new (NULL);
  return program_types;
}

/* Whether: the registry's answer for @info and @b on the GPU (wb_executor_info_can_run_on: every tensor
 * of a program the runner runs is on its device, whatever the trace annotates). */
static gboolean
registry_takes (const WbExecutorInfo *info, const WbBsym *b, char **why_not)
{
  static const WbDevice gpu = { WB_DEVICE_CUDA, 0 };

  return wb_executor_info_can_run_on (info, b, &gpu, wb_executor_info_types_lookup, types (), why_not);
}

/* Who runs @b for the executor @self: itself when the registry says it takes @b; otherwise the first
 * executor of the CUDA priority (wb_executor_info_dup_priority) that the registry lets take it, as
 * Thunder's claiming would have; NULL when none does (decomposed, or the cpu fallback). */
static const WbExecutorInfo *
taker_of (CudaExec *self, const WbBsym *b, char **why_not)
{
  g_auto (GStrv) priority = NULL;

  if (registry_takes (self->info, b, why_not))
    return self->info;
  if (wb_executor_info_get_runs (self->info) == WB_EXECUTOR_RUNS_HERE)
    return NULL; /* cpu asked for: nothing moves to the GPU */
  priority = wb_executor_info_dup_priority (TRUE);
  for (guint i = 0; priority[i] != NULL; i++)
    {
      const WbExecutorInfo *other = wb_executor_info_lookup (priority[i]);

      if (other != self->info && registry_takes (other, b, NULL))
        return other;
    }
  return NULL;
}

/* How: the path of @b on @taker, an executor the registry lets take it. */
static Path
path_on (const WbExecutorInfo *taker, const WbBsym *b, WbExecutor *cpu, char **why_not)
{
  gboolean fusion = wb_executor_info_get_kind (taker) == WB_EXECUTOR_KIND_FUSION;

  if (wb_executor_info_get_runs (taker) == WB_EXECUTOR_RUNS_HERE)
    return wb_executor_can_execute (cpu, b, why_not) ? PATH_CPU : PATH_NONE;
  if (wb_cuda_attention_op (b) != WB_CUDA_ATTENTION_NONE && !_wb_cuda_exec_is_unfusable (b) &&
      wb_cuda_attention_check (b, NULL))
    return PATH_ATTENTION;
  if (wb_cuda_split_matmul_leaf (b) == b)
    return PATH_MATMUL;
#if WB_HAVE_CUDNN
  /* whether libcudnn loads is known only when the call runs: a refusal then runs it on the cpu */
  if (wb_cuda_conv_is_op (b))
    return PATH_CONV;
#endif
  if (is_copy_ (b))
    return PATH_COPY;
  if (wb_cuda_kernels_takes (b))
    return PATH_KERNEL;
  if (fusion && is_fusible_group (b))
    return PATH_FUSE;
  if (fusion && !_wb_cuda_exec_is_unfusable (b) && _wb_cuda_exec_can_split (b))
    return PATH_SPLIT;
  if (is_generated_op (b) && !_wb_cuda_exec_is_unfusable (b))
    return PATH_OP;
  return PATH_NONE;
}

static Path
choose_path_uncached (CudaExec *self, const WbBsym *b, char **why_not)
{
  WbExecutor           *cpu = cpu_executor ();
  const WbExecutorInfo *taker;
  Path                  path = PATH_NONE;

  if (b->kind != WB_BSYM_CALL || b->symbol == NULL)
    return PATH_NONE;
  /* collectives are NCCL's whichever executor is asked: no other runs them on the GPU */
  if (wb_cuda_nccl_op (b) != WB_CUDA_NCCL_NONE)
    return PATH_COLLECTIVE;
  if (wb_executor_info_is_utility (b) && b->n_subsymbols == 0)
    return wb_executor_can_execute (cpu, b, why_not) ? PATH_DIRECT : PATH_NONE;
  if ((taker = taker_of (self, b, why_not)) != NULL)
    path = path_on (taker, b, cpu, why_not);
  if (path != PATH_NONE || b->n_subsymbols > 0 || wb_executor_info_get_runs (self->info) == WB_EXECUTOR_RUNS_HERE)
    return path;
  /* nobody takes this op and it has no decomposition: the cpu fallback */
  if (why_not != NULL)
    g_clear_pointer (why_not, g_free);
  return wb_executor_can_execute (cpu, b, why_not) ? PATH_CPU : PATH_NONE;
}

static const char *
exec_get_name (WbExecutor *e)
{
  return wb_executor_info_get_name (((CudaExec *) e)->info);
}

static WbExecutorKind
exec_get_kind (WbExecutor *e)
{
  return wb_executor_info_get_kind (((CudaExec *) e)->info);
}

static gboolean
exec_can_execute (WbExecutor *e, const WbBsym *b, char **why_not)
{
  _wb_cuda_exec_ensure_tables ();
  return choose_path ((CudaExec *) e, b, why_not) != PATH_NONE;
}

static gboolean cpu_fallback_allowed;
static gboolean tf32_allowed;

void
wb_cuda_executors_set_tf32 (gboolean allowed)
{
  tf32_allowed = allowed;
}

gboolean
wb_cuda_executors_get_tf32 (void)
{
  return tf32_allowed;
}

void
wb_cuda_executors_set_cpu_fallback (gboolean allowed)
{
  cpu_fallback_allowed = allowed;
}

static gboolean
has_tensor (const WbRtValue *v)
{
  if (v == NULL)
    return FALSE;
  if (v->kind == WB_RT_TENSOR)
    return TRUE;
  for (guint i = 0; v->items != NULL && i < v->items->len; i++)
    if (has_tensor (v->items->pdata[i]))
      return TRUE;
  return FALSE;
}

/* The cpu runs @call because no GPU path takes it (@reason, nullable: why not). Allowed when @self is the cpu
 * (the user assigned it) or the user asked for the fallback; otherwise the run fails naming the op. A call of
 * numbers alone (`prims.convert_element_type(0, float)` inside a region) is host arithmetic, not a fallback:
 * the cpu executor computes it on the values as they are. */
static gboolean
fall_back (CudaExec *self, WbCudaRuntime *rt, WbKernelCall *call, const char *reason, GError **error)
{
  gboolean tensors = FALSE;

  for (guint i = 0; i < call->n_args && !tensors; i++)
    tensors = has_tensor (call->args[i]);
  for (guint i = 0; i < call->n_kwargs && !tensors; i++)
    tensors = has_tensor (call->kwargs[i]);
  if (!tensors)
    return wb_executor_run (cpu_executor (), call, error);
  if (reason != NULL)
    _wb_cuda_exec_note_reason (call->bsym, reason);
  if (!cpu_fallback_allowed && wb_executor_info_get_runs (self->info) != WB_EXECUTOR_RUNS_HERE)
    {
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_CPU_FALLBACK,
                   "%s has no GPU path under %s (%s): a GPU run does not move it to the cpu unless asked "
                   "(--allow-cpu-fallback)",
                   call->bsym->name, exec_get_name (&self->base), reason != NULL ? reason : "no GPU executor takes it");
      return FALSE;
    }
  return _wb_cuda_exec_run_on_cpu (rt, call, error);
}

static gboolean
exec_run (WbExecutor *e, WbKernelCall *call, GError **error)
{
  CudaExec      *self = (CudaExec *) e;
  WbCudaRuntime *rt = wb_cuda_runtime_get (error);
  g_autoptr (GError) local = NULL;
  Path     path;
  gboolean ok;

  if (rt == NULL)
    return FALSE;
  _wb_cuda_exec_ensure_tables ();
  path = choose_path (self, call->bsym, NULL);
  /* a tensor side work touched is read only after the run's stream waited for it */
  if (!_wb_cuda_exec_join_for_call (rt, call, error))
    return FALSE;
  switch (path)
    {
    case PATH_FUSE:
    case PATH_OP:
      ok = _wb_cuda_exec_run_plan (rt, call, path == PATH_FUSE && wb_bsym_is_fusion (call->bsym), &local);
      if (!ok && local->domain == WB_CUDA_CODEGEN_ERROR)
        {
          /* the generator refused this call's arguments: remember it and let the runner run again; the
           * interpreter then decomposes it (or it falls back) */
          _wb_cuda_exec_set_unfusable (call->bsym);
          if (call->bsym->n_subsymbols == 0 && wb_executor_can_execute (cpu_executor (), call->bsym, NULL))
            return fall_back (self, rt, call, local->message, error);
          _wb_cuda_exec_note_reason (call->bsym, local->message);
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED, "nvrtc: %s (retry: it will be split)", local->message);
          return FALSE;
        }
      break;
    case PATH_MATMUL:
      ok = _wb_cuda_exec_run_matmul (rt, call, &local);
      if (ok)
        _wb_cuda_exec_note_cublas_call (call->bsym);
      if (!ok && local->code != WB_CUDA_ERROR_FAULT)
        {
          wb_cuda_executors_call_finished (NULL, call->args, call->n_args, NULL); /* the fallback's downloads join */
          return fall_back (self, rt, call, local->message, error);
        }
      break;
    case PATH_COPY:
      ok = _wb_cuda_exec_run_copy_ (rt, call, &local);
      break;
    case PATH_SPLIT:
      ok = _wb_cuda_exec_run_split (rt, call, &local);
      if (!ok && local->domain == WB_CUDA_CODEGEN_ERROR)
        {
          _wb_cuda_exec_set_unfusable (call->bsym);
          _wb_cuda_exec_note_reason (call->bsym, local->message);
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED, "nvrtc: %s (retry: it will be split)", local->message);
          return FALSE;
        }
      break;
    case PATH_ATTENTION:
      ok = _wb_cuda_exec_run_attention (rt, call, &local);
      if (!ok && local->domain == WB_CUDA_ERROR && local->code != WB_CUDA_ERROR_FAULT)
        {
          /* refused (dtype, rank) or a library failure: the cpu runs it, or ltorch's decomposition */
          _wb_cuda_exec_set_unfusable (call->bsym);
          if (call->bsym->n_subsymbols == 0 && wb_executor_can_execute (cpu_executor (), call->bsym, NULL))
            return fall_back (self, rt, call, local->message, error);
          _wb_cuda_exec_note_reason (call->bsym, local->message);
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED, "%s (retry: it will be split)", local->message);
          return FALSE;
        }
      break;
    case PATH_CONV:
      ok = wb_cuda_conv_run (rt, call, &local);
      if (!ok && local->code != WB_CUDA_ERROR_FAULT && local->code != WB_CUDA_ERROR_OUT_OF_MEMORY &&
          (local->domain == WB_EXECUTOR_ERROR || g_error_matches (local, WB_CUDA_ERROR, WB_CUDA_ERROR_NOT_SUPPORTED) ||
           g_error_matches (local, WB_CUDA_ERROR, WB_CUDA_ERROR_LIBRARY)))
        {
          /* arguments cuDNN does not take, or no cuDNN: the cpu runs it */
          wb_cuda_executors_call_finished (NULL, call->args, call->n_args, NULL);
          return fall_back (self, rt, call, local->message, error);
        }
      break;
    case PATH_KERNEL:
      ok = wb_cuda_kernels_run (rt, call, &local);
      if (!ok && local->domain == WB_CUDA_ERROR && local->code == WB_CUDA_ERROR_CALL)
        {
          /* arguments the kernels do not handle (a dtype, a shape): the cpu runs it */
          return fall_back (self, rt, call, local->message, error);
        }
      if (ok)
        _wb_cuda_exec_stats ()->ops_generated++;
      break;
    case PATH_CPU:
      {
        g_autofree char *why = NULL;
        if (wb_cuda_attention_op (call->bsym) != WB_CUDA_ATTENTION_NONE && !wb_cuda_attention_check (call->bsym, &why))
          _wb_cuda_exec_note_reason (call->bsym, why);
        else if (wb_executor_info_get_runs (self->info) != WB_EXECUTOR_RUNS_HERE)
          registry_takes (self->info, call->bsym, &why); /* why this executor does not take it */
        ok = fall_back (self, rt, call, why, &local);
      }
      break;
    case PATH_DIRECT:
      ok = wb_executor_run (cpu_executor (), call, &local);
      break;
    case PATH_COLLECTIVE:
      ok = wb_cuda_nccl_run (rt, call, &local);
      break;
    default:
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED, "%s cannot run %s", exec_get_name (e), call->bsym->name);
      return FALSE;
    }
  if (!ok)
    {
      wb_cuda_executors_call_finished (NULL, call->args, call->n_args, NULL);
      /* CUDA failures keep their domain (the runner maps a fault to its exit), others become executor errors */
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  return TRUE;
}

static char *
exec_describe (WbExecutor *e)
{
  WbCudaRuntime *rt = wb_cuda_runtime_get (NULL);

  if (rt == NULL)
    return g_strdup ("CUDA unavailable");
  return g_strdup_printf ("%s, kernels for %s", wb_cuda_runtime_get_info (rt)->name, wb_cuda_runtime_get_info (rt)->arch);
}

static const WbExecutorVTable cuda_vtable = {
  .abi_version = WB_EXECUTOR_ABI_VERSION,
  .get_name = exec_get_name,
  .get_kind = exec_get_kind,
  .can_execute = exec_can_execute,
  .run = exec_run,
  .list_support = NULL,
  .describe = exec_describe,
};

static CudaExec executors[WB_N_EXECUTOR_IDS];

WbCudaPlanPath
_wb_cuda_exec_plan_path (WbExecutor *e, const WbBsym *b)
{
  if (e == NULL || e->vtable != &cuda_vtable)
    return WB_CUDA_PLAN_NONE;
  _wb_cuda_exec_ensure_tables ();
  switch (choose_path ((CudaExec *) e, b, NULL))
    {
    case PATH_FUSE:
      return wb_bsym_is_fusion (b) ? WB_CUDA_PLAN_REGION : WB_CUDA_PLAN_CALL;
    case PATH_OP:
      return WB_CUDA_PLAN_CALL;
    case PATH_SPLIT:
      return WB_CUDA_PLAN_SPLIT;
    case PATH_NONE:
      return b->n_subsymbols > 0 ? WB_CUDA_PLAN_DECOMPOSED : WB_CUDA_PLAN_NONE;
    case PATH_COPY:
      return WB_CUDA_PLAN_COPY;
    case PATH_KERNEL:
      return WB_CUDA_PLAN_KERNEL;
    case PATH_CONV:
      return WB_CUDA_PLAN_CONV;
    case PATH_MATMUL:
    case PATH_ATTENTION:
    case PATH_COLLECTIVE:
      return WB_CUDA_PLAN_LIBRARY;
    case PATH_DIRECT:
      return WB_CUDA_PLAN_UTILITY;
    case PATH_CPU:
    default:
      return WB_CUDA_PLAN_NONE;
    }
}

static CudaExec *
find_executor (const char *name)
{
  const WbExecutorInfo *info = name ? wb_executor_info_lookup (name) : NULL;
  CudaExec             *e;

  if (info == NULL || wb_executor_info_is_thunder (info))
    return NULL;
  e = &executors[wb_executor_info_get_id (info)];
  if (e->info == NULL)
    {
      e->base.vtable = &cuda_vtable;
      e->info = info;
    }
  return e;
}

WbExecutor *
wb_cuda_executor_get (const char *name, GError **error)
{
  CudaExec *e;

  if (wb_cuda_runtime_get (error) == NULL)
    return NULL;
  if ((e = find_executor (name)) != NULL)
    return &e->base;
  {
    g_auto (GStrv) known = wb_executor_info_dup_names (WB_EXECUTOR_SET_RUNNABLE);
    g_autofree char *list = g_strjoinv (", ", known);

    g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_NO_DEVICE, "no CUDA executor named %s (%s)", name, list);
  }
  return NULL;
}

WbExecutor *
wb_cuda_executor_peek (const char *name)
{
  CudaExec *e = find_executor (name);

  return e != NULL ? &e->base : NULL;
}

void
wb_cuda_executors_set_program (const WbTrace *forward, const WbTrace *backward)
{
  g_clear_pointer (&program_types, g_hash_table_unref);
  program_types = wb_executor_info_types_new (forward);
  if (backward != NULL)
    wb_executor_info_types_add (program_types, backward);
  wb_cuda_executors_forget_program ();
}

gboolean
wb_cuda_executors_takes (const char *executor, const WbBsym *bsym, char **why_not)
{
  CudaExec *self = find_executor (executor);

  g_return_val_if_fail (self != NULL && bsym != NULL, FALSE);
  if (why_not)
    *why_not = NULL;
  return registry_takes (self->info, bsym, why_not);
}

/* the explain output's word for each path: the registry's name of the executor whose path it is */
static const WbExecutorId path_executors[] = { [PATH_FUSE] = WB_EXECUTOR_ID_NVRTC, [PATH_OP] = WB_EXECUTOR_ID_CUDA, [PATH_MATMUL] = WB_EXECUTOR_ID_CUBLAS, [PATH_COPY] = WB_EXECUTOR_ID_CUDA, [PATH_CPU] = WB_EXECUTOR_ID_CPU, [PATH_DIRECT] = WB_EXECUTOR_ID_CPU, [PATH_SPLIT] = WB_EXECUTOR_ID_NVRTC, [PATH_KERNEL] = WB_EXECUTOR_ID_CUDA, [PATH_CONV] = WB_EXECUTOR_ID_CUDNN, [PATH_COLLECTIVE] = WB_EXECUTOR_ID_CUDA };
static const char *const  path_suffix[] = { [PATH_COPY] = " (copy_)", [PATH_CPU] = " fallback", [PATH_DIRECT] = " (utility)", [PATH_KERNEL] = " (kernel)", [PATH_CONV] = " (convolution)", [PATH_COLLECTIVE] = " (nccl)" };

/* (transfer full) "nvrtc", "cuda (kernel)", "nvrtc runs + cublas", ... */
static char *
path_label (Path path)
{
  const char *(*name) (const WbExecutorInfo *) = wb_executor_info_get_name;

  switch (path)
    {
    case PATH_NONE:
      return g_strdup ("split");
    case PATH_SPLIT:
      return g_strdup_printf ("%s runs + %s", name (wb_executor_info_get (WB_EXECUTOR_ID_NVRTC)), name (wb_executor_info_get (WB_EXECUTOR_ID_CUBLAS)));
    case PATH_ATTENTION:
      return g_strdup_printf ("attention (%s, %s flash or cublasLt)", name (wb_executor_info_get (WB_EXECUTOR_ID_CUDNN)),
                              name (wb_executor_info_get (WB_EXECUTOR_ID_NVRTC)));
    default:
      return g_strdup_printf ("%s%s", name (wb_executor_info_get (path_executors[path])), path_suffix[path] ? path_suffix[path] : "");
    }
}

static guint
explain_body (CudaExec *self, const WbBsym *const *body, guint n, guint depth, GString *out)
{
  guint fallbacks = 0;

  for (guint i = 0; i < n; i++)
    {
      const WbBsym    *b = body[i];
      g_autofree char *why = NULL, *label = NULL;
      Path             path;
      if (b->kind != WB_BSYM_CALL)
        continue;
      path = choose_path (self, b, &why);
      label = path_label (path);
      g_string_append_printf (out, "%*s%s: %s%s%s\n", (int) depth * 2, "", b->name, label,
                              path == PATH_NONE && b->n_subsymbols == 0 ? " -> error: " : "",
                              path == PATH_NONE && b->n_subsymbols == 0 ? (why ? why : "no kernel") : "");
      if (path == PATH_CPU || (path == PATH_NONE && b->n_subsymbols == 0))
        fallbacks++;
      if (path == PATH_NONE && b->n_subsymbols > 0)
        fallbacks += explain_body (self, (const WbBsym *const *) b->subsymbols, b->n_subsymbols, depth + 1, out);
    }
  return fallbacks;
}

guint
wb_cuda_executors_explain (const WbTrace *trace, const char *executor, GString *out)
{
  CudaExec *self = find_executor (executor);

  g_return_val_if_fail (self != NULL, 0);
  wb_cuda_executors_set_program (trace, NULL);
  return explain_body (self, (const WbBsym *const *) trace->body, trace->n_body, 0, out);
}
