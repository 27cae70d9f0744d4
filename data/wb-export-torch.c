/* wb-export-torch.c — a stage as a standalone PyTorch script: every symbol lowered to torch calls via prims
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * How a top-level bound symbol becomes PyTorch:
 *   prim                          -> the PyTorch call in prim_rows[] (prims.add -> a + b, prims.linear -> F.linear)
 *   fusion region (TorchCompileN) -> a Python function of its own holding its body, called as Thunder calls it
 *   executor op without a body    -> exec_rows[] (sdpa attention forward/backward, clear_mutable_collection)
 *   anything else with subsymbols -> its subsymbols, recursively (ltorch.gelu -> prims ... -> torch)
 *   an alias of a prim            -> that prim (torch_div_prim_impl -> prims.div, shallow_copy)
 *   torch/ltorch without a body   -> the torch function itself (torch.x, Tensor.x), the last resort
 *   nothing applies               -> raise NotImplementedError(...) at its place, and a warning
 * The lowering of a symbol's subsymbols is tried first and rolled back when one of them cannot be lowered
 * (or names something undefined), so a better-mapped parent can take over. Names of subsymbol outputs that
 * collide with top-level names of the function are renamed (Thunder keeps names unique, so this is a guard).
 * The fixed runner (wb-export-torch-runtime.py) builds inputs, runs, compares and times.
 *
 * Files: wb-export-torch.c (the script: globals, functions, runner tables), wb-export-torch-lower.c (names in
 * scope, statements, lowering of calls and regions), wb-export-torch-expr.c (Python expressions, a call's
 * right-hand side from its row), wb-export-torch-tables.c (the rows), wb-export-torch-runner.c (the tables
 * the runner reads). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wb-export-torch-private.h"

/* -- free names ---------------------------------------------------------------------------------------------- */

static void
add_defined (const WbBsym *b,
             GHashTable   *defined)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();

  if (b->outputs != NULL)
    _wb_export_value_names (b->outputs, names);
  if ((b->kind == WB_BSYM_ASSIGN || b->kind == WB_BSYM_ANNOTATION) && b->name != NULL)
    g_ptr_array_add (names, (gpointer) b->name);
  for (guint i = 0; i < names->len; i++)
    g_hash_table_add (defined, g_ptr_array_index (names, i));
  for (guint i = 0; i < b->n_subsymbols; i++)
    add_defined (b->subsymbols[i], defined);
}

static void
add_used (const WbBsym *b,
          GPtrArray    *used)
{
  if (b->kind == WB_BSYM_CALL)
    _wb_export_bsym_arg_names (b, used);
  else if (b->kind == WB_BSYM_ASSIGN || b->kind == WB_BSYM_UNPACK || b->kind == WB_BSYM_RETURN)
    _wb_export_value_names (b->value, used);
  for (guint i = 0; i < b->n_subsymbols; i++)
    add_used (b->subsymbols[i], used);
}

static const char *const python_names[] = {
  "None",
  "True",
  "False",
  "float",
  "int",
  "bool",
  "complex",
  "str",
  "slice",
  "tuple",
  "list",
  "dict",
  "torch",
  "math",
  "len",
  "range",
  "globals",
  "_",
};

static void
find_free_names (Ctx           *c,
                 const WbTrace *trace,
                 const WbTrace *companion,
                 GString       *out)
{
  g_autoptr (GHashTable) defined = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) used = g_ptr_array_new ();
  g_autoptr (GPtrArray) sorted = g_ptr_array_new ();

  for (guint k = 0; k < 2; k++)
    {
      const WbTrace *t = k == 0 ? trace : companion;

      for (guint i = 0; t != NULL && i < t->n_params; i++)
        {
          const WbValue *p = t->params[i];

          g_hash_table_add (defined, (gpointer) (p->kind == WB_VALUE_NAME ? p->text : p->base ? p->base->text
                                                                                              : "_"));
        }
      for (guint i = 0; t != NULL && i < t->n_body; i++)
        {
          add_defined (t->body[i], defined);
          add_used (t->body[i], used);
        }
    }
  for (guint i = 0; i < G_N_ELEMENTS (python_names); i++)
    g_hash_table_add (defined, (gpointer) python_names[i]);
  for (guint i = 0; i < used->len; i++)
    {
      const char *n = g_ptr_array_index (used, i);

      if (!g_hash_table_contains (defined, n) && !g_hash_table_contains (c->free_names, n))
        {
          g_hash_table_add (c->free_names, g_strdup (n));
          g_ptr_array_add (sorted, (gpointer) n);
        }
    }
  if (sorted->len == 0)
    return;
  g_string_append (out, "\n\n# Objects the trace names but Thunder could not print.\n");
  for (guint i = 0; i < sorted->len; i++)
    {
      const char *n = g_ptr_array_index (sorted, i);

      if (g_str_has_prefix (n, "_torch_memory_format"))
        g_string_append_printf (out, "%s = torch.preserve_format\n", n);
      else
        g_string_append_printf (out, "%s = None\n", n);
    }
}

/* -- the script ----------------------------------------------------------------------------------------------- */

static void
append_runtime (GString *out)
{
  const char *p = _wb_export_torch_runtime;
  const char *end = p + _wb_export_torch_runtime_len;

  /* Drop the file's own header comment: the script has its own. */
  while (p < end && *p == '#')
    {
      const char *eol = memchr (p, '\n', end - p);

      p = eol ? eol + 1 : end;
    }
  while (p < end && *p == '\n')
    p++;
  g_string_append_len (out, p, end - p);
}

static const char *
describe_role (WbExportRole role)
{
  switch (role)
    {
    case WB_EXPORT_ROLE_FINAL_FORWARD:
      return "the final forward";
    case WB_EXPORT_ROLE_JOINT:
      return "the joint forward+backward trace";
    case WB_EXPORT_ROLE_BACKWARD:
      return "a backward";
    case WB_EXPORT_ROLE_PROLOGUE:
      return "a prologue";
    case WB_EXPORT_ROLE_EPILOGUE:
      return "an epilogue";
    case WB_EXPORT_ROLE_FORWARD:
    default:
      return "a forward";
    }
}

char *
wb_export_torch (const WbTrace              *trace,
                 const WbExportTorchOptions *options,
                 GPtrArray                  *warnings)
{
  WbExportTorchOptions defaults = { 0 };
  Ctx                  ctx = { 0 };
  Ctx                 *c = &ctx;
  WbExportRole         role, companion_role = 0;
  const WbTrace       *forward, *backward = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (GString) program = g_string_new (NULL);
  g_autoptr (GString) tables = g_string_new (NULL);
  g_autofree char *source = NULL;
  g_autofree char *fw_name = NULL;
  g_autofree char *bw_name = NULL;
  const char      *mode;

  g_return_val_if_fail (trace != NULL, NULL);
  if (options == NULL)
    options = &defaults;

  role = wb_export_trace_role (trace, options->kind);
  if (options->companion != NULL)
    companion_role = wb_export_trace_role (options->companion, options->companion_kind);
  forward = trace;
  if (role == WB_EXPORT_ROLE_FINAL_FORWARD && companion_role == WB_EXPORT_ROLE_BACKWARD)
    backward = options->companion;
  else if (role == WB_EXPORT_ROLE_BACKWARD && companion_role == WB_EXPORT_ROLE_FINAL_FORWARD)
    {
      forward = options->companion;
      backward = trace;
    }
  source = g_strdup (options->source ? options->source
                                     : (trace->filename ? trace->filename : "trace"));

  c->types = _wb_export_collect_types (forward);
  if (backward != NULL && backward != forward)
    _wb_export_add_types (c->types, backward);
  c->free_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  c->fn_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  c->regions = g_ptr_array_new_with_free_func (g_free);
  c->functions = g_string_new (NULL);
  c->warnings = warnings;
  /* The runner's own globals are taken. */
  g_hash_table_add (c->fn_names, g_strdup ("main"));

  find_free_names (c, forward, backward, program);
  fw_name = _wb_export_torch_emit_function (c, forward, program);
  if (backward != NULL && backward != forward)
    bw_name = _wb_export_torch_emit_function (c, backward, program);

  /* header */
  g_string_append (out, "#!/usr/bin/env python3\n");
  g_string_append_printf (out, "# %s: %s (`%s`), exported by thunder-wb %s as a standalone PyTorch script.\n",
                          source, describe_role (role), trace->function_name ? trace->function_name : "?",
                          PACKAGE_VERSION);
  if (backward != NULL && role == WB_EXPORT_ROLE_FINAL_FORWARD)
    g_string_append (out, "# It runs the forward, then the matching backward (backward_fn) on its saved-for-backward\n"
                          "# and a cotangent of ones (or grad_output from --inputs).\n");
  else if (backward != NULL)
    g_string_append (out, "# It runs the final forward that produces this backward's saved-for-backward, then the\n"
                          "# backward on a cotangent of ones (or grad_output from --inputs).\n");
  g_string_append (out,
                   "# Every bound symbol is lowered to PyTorch calls through Thunder's prims; each fusion region is a\n"
                   "# function of its own (--time also runs them under torch.compile one by one, as Thunder does).\n"
                   "# It imports only torch and the Python standard library.\n"
                   "#\n"
                   "#   python3 SCRIPT [--device cuda|cpu] [--seed N] [--inputs F.safetensors] [--compare F.safetensors]\n"
                   "#                  [--save F.safetensors] [--time [--iters N] [--warmup N] [--no-compile]]\n"
                   "#\n"
                   "# Random inputs are seeded; float tensors of rank >= 2 are N(0, 1/last dim) like initialised weights,\n"
                   "# integer tensors used as indices stay below the size they index.\n"
                   "# --inputs reads input.NAME, param.NAME or NAME (Thunder's t_a_b_weight is param a.b.weight) and\n"
                   "# grad_output; --compare checks output.I and grad.<input key> (the layout of tensors.safetensors).\n");
  if (c->n_unsupported > 0)
    g_string_append_printf (out, "# NOTE: %u bound symbols have no PyTorch mapping yet: they raise NotImplementedError.\n",
                            c->n_unsupported);
  append_runtime (out);

  g_string_append (out, c->functions->str);
  g_string_append (out, program->str);

  /* tables for the runner */
  if (backward != NULL)
    mode = "final_forward";
  else
    switch (role)
      {
      case WB_EXPORT_ROLE_FINAL_FORWARD:
        mode = "final_forward";
        break;
      case WB_EXPORT_ROLE_JOINT:
        mode = "joint";
        break;
      case WB_EXPORT_ROLE_BACKWARD:
        mode = "backward";
        break;
      case WB_EXPORT_ROLE_PROLOGUE:
        mode = "prologue";
        break;
      default:
        mode = "forward";
        break;
      }

  _wb_export_torch_append_tables (tables, mode, source, fw_name, bw_name, c->regions, role, forward, backward,
                                  c->types);
  g_string_append (out, tables->str);
  g_string_append (out, "\n\nif __name__ == \"__main__\":\n" INDENT "sys.exit(_wb_main())\n");

  g_hash_table_unref (c->types);
  g_hash_table_unref (c->free_names);
  g_hash_table_unref (c->fn_names);
  g_ptr_array_unref (c->regions);
  g_string_free (c->functions, TRUE);
  return g_string_free (g_steal_pointer (&out), FALSE);
}
