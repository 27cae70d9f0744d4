/* test-symbols.c — the symbol table: names, aliases, fusion names, signatures (the meta functions' rules
 * are in test-symbols-meta.c)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-compiler.h"
#include "wb-test-common.h"

/* ---- the table ---------------------------------------------------------------------------------- */

static void
test_table_prims (void)
{
  guint n_prims = 0;

  for (guint i = 0; i < WB_N_SYMBOLS; i++)
    {
      const WbSymbol *s = wb_symbol_get_by_id (i);
      g_assert_cmpuint (wb_symbol_get_id (s), ==, i);
      if (wb_symbol_get_module (s) == WB_SYMBOL_MODULE_PRIMS)
        {
          n_prims++;
          g_assert_true (g_str_has_prefix (wb_symbol_get_name (s), "prims."));
        }
      if (wb_symbol_get_module (s) != WB_SYMBOL_MODULE_FUSION)
        {
          const char *name = wb_symbol_get_name (s);
          g_assert_true (wb_symbol_has_meta (s));
          g_assert_true (wb_symbol_lookup (name, strlen (name)) == s);
          g_assert_nonnull (wb_symbol_get_signature (s));
        }
      else
        g_assert_false (wb_symbol_has_meta (s));
      g_assert_cmpstr (wb_symbol_category_to_string (wb_symbol_get_category (s)), !=, "unknown");
    }
  /* every PrimID of thunder/core/prims.py */
  g_assert_cmpuint (n_prims, ==, 171);
  g_assert_cmpuint (wb_symbol_table_get_n_names (), >, 400);
}

static void
test_table_lookup (void)
{
  const WbSymbol *add = wb_symbol_lookup ("ltorch.add", 10);
  const WbSymbol *tadd = wb_symbol_lookup ("torch.add", 9);
  const WbSymbol *div_impl = wb_symbol_lookup ("torch_div_prim_impl", 19);
  const WbSymbol *f;

  g_assert_nonnull (add);
  g_assert_nonnull (tadd);
  /* torch.add is the torch executor's ltorch.add: it shares signature, meta and category */
  g_assert_true (wb_symbol_get_like (tadd) == add);
  g_assert_null (wb_symbol_get_like (add));
  g_assert_cmpstr (wb_symbol_get_signature (tadd), ==, "a, b, /, *, alpha=1");
  g_assert_cmpint (wb_symbol_get_module (tadd), ==, WB_SYMBOL_MODULE_TORCH);
  g_assert_cmpstr (wb_symbol_get_executor (tadd), ==, "torch");
  g_assert_cmpint (wb_symbol_get_category (tadd), ==, WB_SYMBOL_CATEGORY_ELEMENTWISE);
  g_assert_true (wb_symbol_get_like (div_impl) == wb_symbol_get_by_id (WB_SYMBOL_PRIMS_DIV));
  g_assert_cmpint (wb_symbol_get_module (div_impl), ==, WB_SYMBOL_MODULE_EXECUTOR);

  /* the name is the first @len bytes */
  g_assert_true (wb_symbol_lookup ("prims.addXYZ", 9) == wb_symbol_get_by_id (WB_SYMBOL_PRIMS_ADD));
  g_assert_null (wb_symbol_lookup ("prims.ad", 8));
  g_assert_null (wb_symbol_lookup ("ltorch.nonexistent_op", 21));
  g_assert_null (wb_symbol_lookup ("", 0));

  /* fusions by pattern: a prefix followed by digits only */
  f = wb_symbol_lookup ("TorchCompile12", 14);
  g_assert_true (wb_symbol_is_fusion (f));
  g_assert_cmpint (wb_symbol_get_id (f), ==, WB_SYMBOL_FUSION_TORCHCOMPILE);
  g_assert_true (wb_symbol_is_fusion (wb_symbol_lookup ("nvFusion0", 9)));
  g_assert_true (wb_symbol_is_fusion (wb_symbol_lookup ("CUDAGraph3", 10)));
  g_assert_null (wb_symbol_lookup ("TorchCompile", 12));
  g_assert_null (wb_symbol_lookup ("TorchCompile1x", 14));
  g_assert_null (wb_symbol_lookup ("xTorchCompile1", 14));
  g_assert_false (wb_symbol_is_fusion (add));
  g_assert_false (wb_symbol_is_fusion (NULL));
}

/* Every call name that appears in the real traces (enumerated with a script over ../shared/traces:
 * statements, subsymbol comments, tuple/list outputs). */
static const char *const trace_names[] = {
  "Tensor.__getitem__",
  "Tensor.contiguous",
  "Tensor.expand",
  "Tensor.to",
  "TorchCompile0",
  "TorchCompile1",
  "TorchCompile2",
  "TorchCompile3",
  "check_len",
  "check_literal_like",
  "check_number_type_and_value",
  "check_string_value",
  "check_tensor_metadata",
  "clear_mutable_collection",
  "copy_",
  "ltorch._softmax",
  "ltorch.abs",
  "ltorch.add",
  "ltorch.amax",
  "ltorch.arange",
  "ltorch.bitwise_left_shift",
  "ltorch.bitwise_right_shift",
  "ltorch.bitwise_xor",
  "ltorch.cat",
  "ltorch.contiguous",
  "ltorch.copy_",
  "ltorch.cross_entropy",
  "ltorch.dropout",
  "ltorch.empty",
  "ltorch.empty_like",
  "ltorch.eq",
  "ltorch.erf",
  "ltorch.exp",
  "ltorch.expand",
  "ltorch.ge",
  "ltorch.gelu",
  "ltorch.getitem",
  "ltorch.layer_norm",
  "ltorch.linear",
  "ltorch.log",
  "ltorch.log_softmax",
  "ltorch.log_softmax_backward",
  "ltorch.logsumexp",
  "ltorch.matmul",
  "ltorch.mean",
  "ltorch.mul",
  "ltorch.ne",
  "ltorch.neg",
  "ltorch.nll_loss",
  "ltorch.nll_loss_backward",
  "ltorch.permute",
  "ltorch.pow",
  "ltorch.rand",
  "ltorch.rand_like",
  "ltorch.repeat_interleave",
  "ltorch.reshape",
  "ltorch.rsqrt",
  "ltorch.scaled_dot_product_attention",
  "ltorch.silu",
  "ltorch.sin",
  "ltorch.split",
  "ltorch.sub",
  "ltorch.sum",
  "ltorch.take_along_dim",
  "ltorch.tanh",
  "ltorch.to",
  "ltorch.topk",
  "ltorch.transpose",
  "ltorch.tril",
  "ltorch.true_divide",
  "ltorch.unsqueeze",
  "ltorch.var_mean",
  "ltorch.view",
  "ltorch.where",
  "prims.abs",
  "prims.add",
  "prims.amax",
  "prims.bitwise_left_shift",
  "prims.bitwise_right_shift",
  "prims.bitwise_xor",
  "prims.broadcast_in_dim",
  "prims.cat",
  "prims.check_len",
  "prims.check_literal_like",
  "prims.check_number_type_and_value",
  "prims.check_string_value",
  "prims.check_tensor_shape_and_metadata",
  "prims.clone",
  "prims.convert_element_type",
  "prims.copy_",
  "prims.div",
  "prims.empty",
  "prims.eq",
  "prims.erf",
  "prims.exp",
  "prims.ge",
  "prims.get_grad",
  "prims.iota",
  "prims.linear",
  "prims.log",
  "prims.lt",
  "prims.matmul",
  "prims.mul",
  "prims.ne",
  "prims.neg",
  "prims.pad",
  "prims.pow",
  "prims.reciprocal",
  "prims.reshape",
  "prims.rsqrt",
  "prims.shallow_copy",
  "prims.shape",
  "prims.sin",
  "prims.slice_prim",
  "prims.stride_order",
  "prims.sub",
  "prims.sum",
  "prims.take",
  "prims.take_along_axis",
  "prims.tanh",
  "prims.topk",
  "prims.transpose",
  "prims.uniform",
  "prims.update_aliases",
  "prims.var_mean",
  "prims.where",
  "sdpafx_grad_forward_scaled_dot_product_efficient_attention",
  "sdpafx_scaled_dot_product_efficient_attention_backward",
  "shallow_copy",
  "torch.add",
  "torch.bitwise_left_shift",
  "torch.bitwise_right_shift",
  "torch.bitwise_xor",
  "torch.cat",
  "torch.empty",
  "torch.erf",
  "torch.exp",
  "torch.matmul",
  "torch.mean",
  "torch.mul",
  "torch.ne",
  "torch.neg",
  "torch.nn.functional.linear",
  "torch.nn.functional.log_softmax",
  "torch.nn.functional.silu",
  "torch.permute",
  "torch.pow",
  "torch.reshape",
  "torch.rsqrt",
  "torch.sin",
  "torch.split",
  "torch.sub",
  "torch.sum",
  "torch.take_along_dim",
  "torch.tanh",
  "torch.topk",
  "torch.torch.ops.aten._log_softmax_backward_data",
  "torch.true_divide",
  "torch.unsqueeze",
  "torch.var_mean",
  "torch.where",
  "torch_div_prim_impl",
  "torch_nll_loss_backward_impl",
  "torch_pad_prim_impl",
  "torch_prims_reshape_impl",
  "torch_slice_prim_impl",
  "uniform",
  "update_aliases",
  /* older print format and the other sdpa variant */
  "clear_collection",
  "sdpaex_grad_forward_scaled_dot_product_efficient_attention",
  "sdpaex_scaled_dot_product_efficient_attention_backward",
  "prims.assert_tensor_metadata",
};

static void
test_table_trace_names (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (trace_names); i++)
    {
      const WbSymbol *s = wb_symbol_lookup (trace_names[i], strlen (trace_names[i]));
      if (s == NULL)
        g_error ("no symbol for %s", trace_names[i]);
      if (!wb_symbol_is_fusion (s))
        g_assert_true (wb_symbol_has_meta (s));
    }
}

static void
test_table_signatures (void)
{
  const WbParam *p;
  guint          n;

  /* ltorch.to(a, tensor_dtype_or_device=None, optional_positional_dtype=None, /, *, device=None, ...) */
  p = wb_symbol_get_params (wb_symbol_get_by_id (WB_SYMBOL_LTORCH_TO), &n);
  g_assert_cmpuint (n, ==, 7);
  g_assert_cmpstr (p[0].name, ==, "a");
  g_assert_cmpint (p[0].kind, ==, WB_PARAM_POSITIONAL_ONLY);
  g_assert_null (p[0].default_value);
  g_assert_cmpint (p[2].kind, ==, WB_PARAM_POSITIONAL_ONLY);
  g_assert_cmpint (p[2].default_value->kind, ==, WB_VALUE_NONE);
  g_assert_cmpstr (p[5].name, ==, "copy");
  g_assert_cmpint (p[5].kind, ==, WB_PARAM_KEYWORD_ONLY);
  g_assert_cmpint (p[5].default_value->kind, ==, WB_VALUE_BOOL);
  g_assert_false (p[5].default_value->v.b);

  /* ltorch.reshape(a, /, *shape) */
  p = wb_symbol_get_params (wb_symbol_get_by_id (WB_SYMBOL_LTORCH_RESHAPE), &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (p[1].kind, ==, WB_PARAM_VAR_POSITIONAL);

  /* prims.embedding(a, /, weight, *, padding_idx=-1, max_norm=None, norm_type=2.0, ...) */
  p = wb_symbol_get_params (wb_symbol_get_by_id (WB_SYMBOL_PRIMS_EMBEDDING), &n);
  g_assert_cmpuint (n, ==, 7);
  g_assert_cmpint (p[1].kind, ==, WB_PARAM_POSITIONAL_OR_KEYWORD);
  g_assert_cmpint (p[2].default_value->kind, ==, WB_VALUE_INT);
  g_assert_cmpint (p[2].default_value->v.i, ==, -1);
  g_assert_cmpint (p[4].default_value->kind, ==, WB_VALUE_FLOAT);
  g_assert_cmpfloat (p[4].default_value->v.f, ==, 2.0);

  /* ltorch.cross_entropy(..., reduction='mean', label_smoothing=0.0) */
  p = wb_symbol_get_params (wb_symbol_get_by_id (WB_SYMBOL_LTORCH_CROSS_ENTROPY), &n);
  g_assert_cmpstr (p[6].name, ==, "reduction");
  g_assert_cmpint (p[6].default_value->kind, ==, WB_VALUE_STRING);
  g_assert_cmpstr (p[6].default_value->v.s, ==, "mean");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compiler/WbSymbol/table-prims", test_table_prims);
  g_test_add_func ("/compiler/WbSymbol/table-lookup", test_table_lookup);
  g_test_add_func ("/compiler/WbSymbol/table-trace-names", test_table_trace_names);
  g_test_add_func ("/compiler/WbSymbol/table-signatures", test_table_signatures);
  return g_test_run ();
}
