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
#include "wb-cuda-exec-private.h"
#include "wb-cuda-kernels.h"

typedef enum
{
  FLAVOR_NVRTC = 1,
  FLAVOR_CUDA,
  FLAVOR_CUBLAS,
  FLAVOR_CPU,
} Flavor;

typedef struct
{
  WbExecutor  base;
  Flavor      flavor;
  const char *name;
} CudaExec;

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

/* -- the vtable ----------------------------------------------------------------------------------- */

typedef enum
{
  PATH_NONE = 0, /* decompose (the interpreter runs the subsymbols) */
  PATH_FUSE,     /* one plan for the whole call */
  PATH_OP,       /* one plan for one prim */
  PATH_MATMUL,
  PATH_COPY,
  PATH_CPU,
  PATH_DIRECT,    /* a utility op (checks, unpacking, collections): the cpu executor on the values as they are */
  PATH_SPLIT,     /* a fusion region around matmul/linear: fusible runs as plans, the rest through cuBLASLt */
  PATH_ATTENTION, /* scaled dot-product attention: cuBLASLt GEMMs and NVRTC row kernels (wb-cuda-attention.h) */
  PATH_KERNEL,    /* a hand-written kernel (random draws, topk/sort, argmax, nll_loss_backward: wb-cuda-kernels.h) */
} Path;

static Path choose_path_uncached (CudaExec *self, const WbBsym *b, char **why_not);

/* the path of @b, memoised per program (wb-cuda-exec-private.h) */
static Path
choose_path (CudaExec *self, const WbBsym *b, char **why_not)
{
  guint known = _wb_cuda_exec_memo_path (b, self->flavor);
  Path  path;

  /* a reason is only asked for when there is no path: find it again */
  if (known > 0 && (why_not == NULL || known - 1 != PATH_NONE))
    return (Path) (known - 1);
  path = choose_path_uncached (self, b, why_not);
  _wb_cuda_exec_memo_set_path (b, self->flavor, path);
  return path;
}

static Path
choose_path_uncached (CudaExec *self, const WbBsym *b, char **why_not)
{
  WbExecutor *cpu = wb_executor_lookup ("cpu");

  if (b->kind != WB_BSYM_CALL || b->symbol == NULL)
    return PATH_NONE;
  if (wb_executor_info_is_utility (b) && b->n_subsymbols == 0)
    return wb_executor_can_execute (cpu, b, why_not) ? PATH_DIRECT : PATH_NONE;
  if (self->flavor == FLAVOR_CPU)
    return wb_executor_can_execute (cpu, b, why_not) ? PATH_CPU : PATH_NONE;
  if (wb_cuda_attention_op (b) != WB_CUDA_ATTENTION_NONE && !_wb_cuda_exec_is_unfusable (b) &&
      wb_cuda_attention_check (b, NULL))
    return PATH_ATTENTION;
  if (wb_cuda_split_matmul_leaf (b) == b)
    return PATH_MATMUL;
  if (is_copy_ (b))
    return PATH_COPY;
  if (wb_cuda_kernels_takes (b))
    return PATH_KERNEL;
  if (self->flavor != FLAVOR_CUDA && is_fusible_group (b))
    return PATH_FUSE;
  if (self->flavor != FLAVOR_CUDA && !_wb_cuda_exec_is_unfusable (b) && _wb_cuda_exec_can_split (b))
    return PATH_SPLIT;
  if (is_generated_op (b) && !_wb_cuda_exec_is_unfusable (b))
    return PATH_OP;
  if (b->n_subsymbols > 0)
    return PATH_NONE;
  if (wb_executor_can_execute (cpu, b, why_not))
    return PATH_CPU;
  return PATH_NONE;
}

static const char *
exec_get_name (WbExecutor *e)
{
  return ((CudaExec *) e)->name;
}

static WbExecutorKind
exec_get_kind (WbExecutor *e)
{
  return ((CudaExec *) e)->flavor == FLAVOR_NVRTC ? WB_EXECUTOR_KIND_FUSION : WB_EXECUTOR_KIND_OPERATOR;
}

static gboolean
exec_can_execute (WbExecutor *e, const WbBsym *b, char **why_not)
{
  _wb_cuda_exec_ensure_tables ();
  return choose_path ((CudaExec *) e, b, why_not) != PATH_NONE;
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
          _wb_cuda_exec_note_reason (call->bsym, local->message);
          if (call->bsym->n_subsymbols == 0 && wb_executor_can_execute (wb_executor_lookup ("cpu"), call->bsym, NULL))
            return _wb_cuda_exec_run_on_cpu (rt, call, error);
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
          _wb_cuda_exec_note_reason (call->bsym, local->message);
          return _wb_cuda_exec_run_on_cpu (rt, call, error);
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
          _wb_cuda_exec_note_reason (call->bsym, local->message);
          _wb_cuda_exec_set_unfusable (call->bsym);
          if (call->bsym->n_subsymbols == 0 && wb_executor_can_execute (wb_executor_lookup ("cpu"), call->bsym, NULL))
            return _wb_cuda_exec_run_on_cpu (rt, call, error);
          g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED, "%s (retry: it will be split)", local->message);
          return FALSE;
        }
      break;
    case PATH_KERNEL:
      ok = wb_cuda_kernels_run (rt, call, &local);
      if (!ok && local->domain == WB_CUDA_ERROR && local->code == WB_CUDA_ERROR_CALL)
        {
          /* arguments the kernels do not handle (a dtype, a shape): the cpu runs it */
          _wb_cuda_exec_note_reason (call->bsym, local->message);
          return _wb_cuda_exec_run_on_cpu (rt, call, error);
        }
      if (ok)
        _wb_cuda_exec_stats ()->ops_generated++;
      break;
    case PATH_CPU:
      {
        g_autofree char *why = NULL;
        if (wb_cuda_attention_op (call->bsym) != WB_CUDA_ATTENTION_NONE && !wb_cuda_attention_check (call->bsym, &why))
          _wb_cuda_exec_note_reason (call->bsym, why);
      }
      ok = _wb_cuda_exec_run_on_cpu (rt, call, &local);
      break;
    case PATH_DIRECT:
      ok = wb_executor_run (wb_executor_lookup ("cpu"), call, &local);
      break;
    default:
      g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_UNSUPPORTED, "%s cannot run %s", self->name, call->bsym->name);
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

static CudaExec executors[] = {
  { { &cuda_vtable, NULL }, FLAVOR_NVRTC, "nvrtc" },
  { { &cuda_vtable, NULL }, FLAVOR_CUDA, "cuda" },
  { { &cuda_vtable, NULL }, FLAVOR_CUBLAS, "cublas" },
  { { &cuda_vtable, NULL }, FLAVOR_CPU, "cpu" },
};

WbExecutor *
wb_cuda_executor_get (const char *name, GError **error)
{
  if (wb_cuda_runtime_get (error) == NULL)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (executors); i++)
    if (g_strcmp0 (executors[i].name, name) == 0)
      return &executors[i].base;
  g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_NO_DEVICE, "no CUDA executor named %s (nvrtc, cuda, cublas, cpu)", name);
  return NULL;
}

static const char *const path_names[] = { "split", "nvrtc", "cuda", "cublas", "cuda (copy_)", "cpu fallback", "cpu (utility)",
                                          "nvrtc runs + cublas", "attention (cudnn, nvrtc flash or cublasLt)",
                                          "cuda (kernel)" };

static guint
explain_body (CudaExec *self, const WbBsym *const *body, guint n, guint depth, GString *out)
{
  guint fallbacks = 0;

  for (guint i = 0; i < n; i++)
    {
      const WbBsym    *b = body[i];
      g_autofree char *why = NULL;
      Path             path;
      if (b->kind != WB_BSYM_CALL)
        continue;
      path = choose_path (self, b, &why);
      g_string_append_printf (out, "%*s%s: %s%s%s\n", (int) depth * 2, "", b->name, path_names[path],
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
  CudaExec *self = NULL;

  wb_cuda_executors_forget_program ();
  for (guint i = 0; i < G_N_ELEMENTS (executors); i++)
    if (g_strcmp0 (executors[i].name, executor) == 0)
      self = &executors[i];
  g_return_val_if_fail (self != NULL, 0);
  return explain_body (self, (const WbBsym *const *) trace->body, trace->n_body, 0, out);
}
