/* wb-case.h — one case of traces (a traces/<case>/ directory or a trace file): its inputs with
 * canonical names, seeded input generation, reference tensors, and its stages as runnable programs
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Canonical names are those of tensors.safetensors (../shared/traces/README.md): "input.<arg>" for the
 * function's arguments (named as in meta.json's "inputs", else by the trace's parameter name),
 * "param.<dotted.name>" for module parameters (module.get_parameter('0.weight') in the prologue),
 * "output.<i>" for outputs, "grad_output" (one output) or "grad_output.<i>" for cotangents, and
 * "grad.<input or param name>" for gradients (grad.input.x, grad.param.0.weight). The prologue's
 * assignments (x = args[0], t_0_weight = module.get_parameter('0.weight')) and its return map them to the
 * computation's parameters.
 *
 * Seeded inputs (wb_case_make_args without a file, or for names the file lacks): Philox stream
 * wb_philox_stream_from_name (canonical name) of the seed; float inputs N(0, 1); parameters of rank >= 2
 * U(-1/sqrt(fan_in), 1/sqrt(fan_in)) with fan_in the product of all dims but the first (nn.Linear's
 * init), rank-1 parameters named *weight U(0.5, 1.5) and other rank-1 parameters U(-0.1, 0.1); integer
 * inputs that index something (take, gather, getitem, embedding, cross_entropy/nll_loss targets, found
 * by scanning every trace of the case) are drawn in [0, size of the indexed dim), other integers in
 * [0, 16); b8 inputs are True with probability 1/2. Values are drawn in f64 and rounded to the dtype. */
#pragma once

#if !defined(WB_EXECUTORS_INSIDE) && !defined(WB_EXECUTORS_COMPILATION)
#error "Only <wb-executors.h> can be included directly."
#endif

#include "wb-program.h"
#include "wb-safetensors.h"

G_BEGIN_DECLS

typedef struct
{
  char    *name;       /* canonical: "input.x", "param.0.weight" */
  char    *trace_name; /* the computation's parameter: "input", "t_0_weight" */
  WbType   type;       /* its annotation */
  gboolean is_param;
  gint64   index_bound; /* > 0: an integer index into a dim of this size */
} WbCaseInput;

/* One runnable unit of a case: a trace, or a final forward with its backward. */
typedef struct
{
  char         *label;          /* "forward_06+backward_00", "stages/17_split_forward+stages/18_split_backward" */
  int           entry;          /* trace-set entry (the `stages` command's #) of the forward/main trace */
  int           backward_entry; /* its backward_fn, or -1 */
  WbProgramKind kind;
  char         *subset; /* "" or "default_execs", "fallback" */
} WbCaseStage;

typedef struct _WbCase WbCase;

/* wb_case_load: (transfer full) the case at @path (a directory like traces/<case>/ or a trace file), or
 * NULL with WB_TRACE_ERROR (parse) or WB_EXECUTOR_ERROR_IO (meta.json) set. */
WbCase *wb_case_load (const char *path, GError **error);
/* wb_case_load_full: wb_case_load() reading the directory with @flags (WB_TRACE_SET_LOAD_NO_SUBSETS: a
 * case without its sub-sets default_execs/ and fallback/). (transfer full) or NULL with @error set. */
WbCase *wb_case_load_full (const char *path, WbTraceSetLoadFlags flags, GError **error);
/* wb_case_load_subset: (transfer full) the case of sub-program @name of @parent (a folder loaded with its
 * sub-sets: PARENT/@name), as wb_case_load (PARENT/@name) gives it, from the traces @parent parsed already
 * (wb_trace_set_new_subset) and the sub-folder's meta.json; where the sub-folder holds folders of its own, loaded
 * from disk. NULL with WB_TRACE_ERROR as wb_case_load. */
WbCase *wb_case_load_subset (const WbCase *parent, const char *name, GError **error);
/* wb_case_new_for_set: (transfer full) the case of @set (transfer full), loaded already (from a session
 * file: no folder is read or written), called @name; its entries' relative paths are the stages' labels.
 * It has no meta.json (inputs are named from the prologue) and no reference tensors. */
WbCase *wb_case_new_for_set (WbTraceSet *set, const char *name);
void    wb_case_free (WbCase *c);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbCase, wb_case_free)

/* (transfer none) */
const char *wb_case_get_name (const WbCase *c);
const char *wb_case_get_path (const WbCase *c);
WbTraceSet *wb_case_get_trace_set (const WbCase *c);
/* wb_case_get_reference: (transfer none) tensors.safetensors of the directory, loaded on first use, or
 * NULL when there is none (errors loading it are reported through @error). */
WbSafetensors     *wb_case_get_reference (WbCase *c, GError **error);
guint              wb_case_get_n_inputs (const WbCase *c);
const WbCaseInput *wb_case_get_input (const WbCase *c, guint i);
const WbCaseInput *wb_case_find_input (const WbCase *c, const char *trace_name);

/* wb_case_get_stages: (transfer none) (element-type WbCaseStage) every trace of the case as a stage, in
 * entry order; a backward_fn appears paired with its forward (never alone). */
GPtrArray *wb_case_get_stages (const WbCase *c);
/* wb_case_get_default_stage: (transfer none) the last forward trace of the top level, with backward_00
 * for training cases (DESIGN.md: `run PATH` on a directory). */
const WbCaseStage *wb_case_get_default_stage (const WbCase *c);
/* wb_case_list_subprograms: (transfer container) (element-type utf8) (nullable) for a case of several
 * sub-programs with their own inputs and none of its own (a folder of ThunderFX's subgraphs, each in its folder
 * PATH/<name>; not a multi-GPU case, whose ranks run together), their names (the strings are @c's), in entry
 * order; NULL when the default stage is the case's own. */
GPtrArray *wb_case_list_subprograms (const WbCase *c);
/* wb_case_choose_subprogram: (transfer none) (nullable) for such a case, the sub-program to run for entry
 * @entry of @set (the case's set, or one built from its entries: the app's document): the entry's own
 * sub-program; for an entry of none (the workbench's stages) @fallback (nullable) when it is one, else the
 * first. NULL for a case of one program. */
const char *wb_case_choose_subprogram (const WbCase *c, const WbTraceSet *set, guint entry, const char *fallback);
/* wb_case_dir_explain_empty: (transfer full) (nullable) why case folder @dir holds no trace file, from
 * what was recorded beside it: the recording's error in meta.json ("meta.json records the recording's
 * error: ..."; "meta.json only"), or a zoo case's status and first error in zoo.json ("zoo.json: thunder.jit
 * and ThunderFX failed (thunder: AssertionError: ...)"); "... unreadable" when the file cannot be read;
 * NULL when the folder has neither file. */
char *wb_case_dir_explain_empty (const char *dir);
/* wb_case_find_stage: the stage whose forward (or backward) is entry @entry or whose label is @label. */
const WbCaseStage *wb_case_find_stage (const WbCase *c, int entry, const char *label);
/* wb_case_add_workbench_stages: runs the compiler's pipeline (compiler/wb-pipeline.h) on the case's
 * joint or computation trace and adds its stages (sub-set "workbench", labels "workbench/NN_Pass") to the
 * set and the stage list. FALSE with WB_PIPELINE_ERROR or WB_EXECUTOR_ERROR set when it cannot. */
gboolean wb_case_add_workbench_stages (WbCase *c, GError **error);
/* wb_case_make_program: (transfer full) the program of @stage. */
WbProgram *wb_case_make_program (const WbCase *c, const WbCaseStage *stage, GError **error);

/* wb_case_make_inputs: (transfer full) (element-type utf8 WbTensor) canonical name -> tensor for every
 * input: from @tensors when it has the name, else drawn from @seed. */
GHashTable *wb_case_make_inputs (const WbCase *c, WbSafetensors *tensors, guint64 seed, GError **error);
/* wb_case_inputs_copy: (transfer full) a copy of @inputs (as wb_case_make_inputs makes them) whose every tensor
 * is a contiguous copy, float32 ones widened to float64 when @f32_as_f64 (the f64 reading's inputs): what a
 * run starts from, kept although the cpu executor writes in-place updates (BatchNorm's running statistics)
 * into the tensors it is given. NULL with @error when a copy cannot be made (out of memory). */
GHashTable *wb_case_inputs_copy (GHashTable *inputs, gboolean f32_as_f64, GError **error);
/* wb_case_make_args: (transfer full) (element-type WbRtValue) the arguments of @program from @inputs:
 * a computation's parameters by name; a prologue's (args tuple, kwargs dict); NULL with
 * WB_EXECUTOR_ERROR_BAD_ARGUMENT naming the parameter it cannot map. */
GPtrArray *wb_case_make_args (const WbCase *c, WbProgram *program, GHashTable *inputs, GError **error);
/* wb_case_parameter_lookup: a WbParameterLookup over @inputs (user_data = the GHashTable). */
WbRtValue *wb_case_parameter_lookup (const char *name, gpointer inputs);
/* wb_case_make_cotangents: (transfer full) (element-type WbRtValue) grad_output[.i] from @tensors for
 * @n_outputs outputs (NONE where absent: the run draws them). */
GPtrArray *wb_case_make_cotangents (const WbCase *c, WbSafetensors *tensors, guint n_outputs);
/* wb_case_grad_name: (transfer full) "grad.input.x" for the flat arg printed @trace_name. */
char *wb_case_grad_name (const WbCase *c, const char *trace_name);

G_END_DECLS
