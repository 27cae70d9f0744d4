/* test-identity.c — which calls are the identity for their shapes (compiler/wb-identity.h), on lines of the
 * zoo's traces: densenet121's and resnet50's backwards (flips of 1x1 and 3x3 kernels, pads of zero and of
 * real widths), densenet121's forward (a cat of one tensor and of two)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-compiler.h"

/* The lines as the zoo prints them (build/tests/zoo/zoo/densenet121/thunderfx_g0_GraphModule/backward_00.py
 * lines 3803-3806 and the pads after them, forward_08.py's cats; resnet50/backward_00.py's t18021), the
 * inputs' annotations from the same files; the last three calls are written for the cases the zoo lacks */
static const char trace_text[] =
    "import torch\n"
    "def backward_fn(t38755, t38756, t30790, t30824, t5111, t30825, t16117, l_args_0_, t1):\n"
    "  # t38755: \"cuda:0 f32[1024, 512, 1, 1]\"\n"
    "  # t38756: \"cuda:0 f32[128, 32, 3, 3]\"\n"
    "  # t30790: \"cuda:0 f32[2, 64, 16, 16]\"\n"
    "  # t30824: \"cuda:0 f32[2, 128, 16, 16]\"\n"
    "  # t5111: \"cuda:0 f32[2, 64, 16, 16]\"\n"
    "  # t30825: \"cuda:0 f32[2, 32, 16, 16]\"\n"
    "  # t16117: \"cuda:0 f32[2, 2048, 2, 2]\"\n"
    "  # l_args_0_: \"cuda:0 i64[2, 32]\"\n"
    "  # t1: \"cuda:0 f32[1, 8, 1]\"\n"
    "  t35790 = torch.flip(t38756, (2, 3))  # t35790: \"cuda:0 f32[128, 32, 3, 3]\"\n"
    "    # t35790 = ltorch.flip(t38756, (2, 3))  # t35790: \"cuda:0 f32[128, 32, 3, 3]\"\n"
    "      # t35790 = prims.flip(t38756, (2, 3))  # t35790: \"cuda:0 f32[128, 32, 3, 3]\"\n"
    "  t35768 = torch.flip(t38755, (2, 3))  # t35768: \"cuda:0 f32[1024, 512, 1, 1]\"\n"
    "    # t35768 = ltorch.flip(t38755, (2, 3))  # t35768: \"cuda:0 f32[1024, 512, 1, 1]\"\n"
    "      # t35768 = prims.flip(t38755, (2, 3))  # t35768: \"cuda:0 f32[1024, 512, 1, 1]\"\n"
    "  t38865 = torch_pad_prim_impl(t30790, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0)])  # t38865: \"cuda:0 f32[2, 64, 16, 16]\"\n"
    "  t38878 = torch_pad_prim_impl(t30824, 0.0, [(0, 0, 0), (0, 0, 0), (1, 1, 0), (1, 1, 0)])  # t38878: \"cuda:0 f32[2, 128, 18, 18]\"\n"
    "  t30757 = torch.cat([t5111], 1)  # t30757: \"cuda:0 f32[2, 64, 16, 16]\"\n"
    "    # t30757 = ltorch.cat([t5111], 1)  # t30757: \"cuda:0 f32[2, 64, 16, 16]\"\n"
    "      # t30757 = prims.cat([t5111], 1)  # t30757: \"cuda:0 f32[2, 64, 16, 16]\"\n"
    "  t30826 = torch.cat([t5111, t30825], 1)  # t30826: \"cuda:0 f32[2, 96, 16, 16]\"\n"
    "  t18021 = torch_pad_prim_impl(t16117, 0.0, [(0, 0, 0), (0, 0, 0), (0, 0, 1), (0, 0, 1)])  # t18021: \"cuda:0 f32[2, 2048, 3, 3]\"\n"
    "  t677 = torch.nn.functional.pad(l_args_0_, (0, 1), 'constant', -100)  # t677: \"cuda:0 i64[2, 33]\"\n"
    "  t2 = torch.nn.functional.pad(l_args_0_, (0, 0), 'constant', -100)  # t2: \"cuda:0 i64[2, 32]\"\n"
    "  t3 = torch_pad_prim_impl(t1, 0.0, [(0, 0, 3), (0, 0, 0), (0, 0, 2)])  # t3: \"cuda:0 f32[1, 8, 1]\"\n"
    "  t4 = ltorch.flip(t1, 0, -1)  # t4: \"cuda:0 f32[1, 8, 1]\"\n"
    "  return (t35790, t35768, t38865, t38878, t30757, t30826, t18021, t677, t2, t3, t4)\n";

/* the top-level call that binds @name */
static const WbBsym *
call_of (const WbTrace *t, const char *name)
{
  for (guint i = 0; i < t->n_body; i++)
    if (t->body[i]->kind == WB_BSYM_CALL && wb_value_is_name (t->body[i]->outputs, name))
      return t->body[i];
  g_assert_not_reached ();
  return NULL;
}

static void
check (const WbTrace *t, GHashTable *types, const char *out, const char *want_src)
{
  const WbBsym  *b = call_of (t, out);
  const WbValue *src = wb_bsym_get_identity_source (b, wb_executor_info_types_lookup, types);

  g_test_message ("%s = %s: %s", out, b->name, src ? src->text : "a new tensor");
  if (want_src == NULL)
    {
      g_assert_null (src);
      return;
    }
  g_assert_nonnull (src);
  g_assert_cmpstr (src->text, ==, want_src);
  /* the subsymbols (ltorch.flip, prims.flip) answer the same: an executor that runs the decomposition
   * returns the argument there */
  for (const WbBsym *d = b; d->n_subsymbols > 0;)
    {
      d = d->subsymbols[0];
      src = wb_bsym_get_identity_source (d, wb_executor_info_types_lookup, types);
      g_assert_nonnull (src);
      g_assert_cmpstr (src->text, ==, want_src);
    }
}

static void
test_trace_lines (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTrace) t = wb_trace_parse (trace_text, -1, "identity.py", &error);
  g_autoptr (GHashTable) types = NULL;

  g_assert_no_error (error);
  types = wb_executor_info_types_new (t);
  check (t, types, "t35790", NULL);     /* a 3x3 kernel flipped: a new tensor */
  check (t, types, "t35768", "t38755"); /* a 1x1 kernel flipped: the weight itself */
  check (t, types, "t38865", "t30790"); /* zero widths */
  check (t, types, "t38878", NULL);     /* one pixel each side */
  check (t, types, "t30757", "t5111");  /* densenet's first dense layer concatenates one tensor */
  check (t, types, "t30826", NULL);
  check (t, types, "t18021", NULL); /* interior padding of a 2x2 (a strided convolution's gradient) */
  check (t, types, "t677", NULL);   /* F.pad by one column */
  check (t, types, "t2", "l_args_0_");
  check (t, types, "t3", "t1"); /* interior padding of dims of extent 1 adds nothing */
  check (t, types, "t4", "t1"); /* ltorch.flip's dims one by one, -1 the last */
}

static void
test_rule (void)
{
  const gint64 shape[] = { 4, 1, 3, 1 };
  const gint64 unit[] = { 1, -1 }, wide[] = { 1, 2 }, out_of_range[] = { 4 }, neg_out[] = { -5 };
  const gint64 zero[12] = { 0 }, lo[12] = { 0, 0, 0, 1, 0, 0 }, interior_unit[12] = { 0, 0, 0, 0, 0, 7 }, interior[12] = { 0, 0, 2 };
  const gint64 one[] = { 1 }, two[] = { 2 };

  g_assert_true (wb_identity_holds (WB_IDENTITY_FLIP, 4, shape, unit, 2));
  g_assert_true (wb_identity_holds (WB_IDENTITY_FLIP, 4, shape, NULL, 0)); /* no dims */
  g_assert_false (wb_identity_holds (WB_IDENTITY_FLIP, 4, shape, wide, 2));
  g_assert_false (wb_identity_holds (WB_IDENTITY_FLIP, 4, shape, out_of_range, 1));
  g_assert_false (wb_identity_holds (WB_IDENTITY_FLIP, 4, shape, neg_out, 1));
  g_assert_true (wb_identity_holds (WB_IDENTITY_PAD, 4, shape, zero, 12));
  g_assert_false (wb_identity_holds (WB_IDENTITY_PAD, 4, shape, zero, 9)); /* a config for rank 3 */
  g_assert_false (wb_identity_holds (WB_IDENTITY_PAD, 4, shape, lo, 12));
  g_assert_true (wb_identity_holds (WB_IDENTITY_PAD, 4, shape, interior_unit, 12));
  g_assert_false (wb_identity_holds (WB_IDENTITY_PAD, 4, shape, interior, 12));
  g_assert_true (wb_identity_holds (WB_IDENTITY_PAD_LIST, 4, shape, zero, 4));
  g_assert_false (wb_identity_holds (WB_IDENTITY_PAD_LIST, 4, shape, zero, 3));
  g_assert_false (wb_identity_holds (WB_IDENTITY_PAD_LIST, 4, shape, lo, 4));
  g_assert_true (wb_identity_holds (WB_IDENTITY_CAT, 4, shape, one, 1));
  g_assert_false (wb_identity_holds (WB_IDENTITY_CAT, 4, shape, two, 1));
  g_assert_false (wb_identity_holds (WB_IDENTITY_NONE, 4, shape, NULL, 0));
  g_assert_cmpint (wb_identity_op_of (wb_symbol_lookup ("torch.flip", strlen ("torch.flip"))), ==, WB_IDENTITY_FLIP);
  g_assert_cmpint (wb_identity_op_of (wb_symbol_lookup ("torch_pad_prim_impl", strlen ("torch_pad_prim_impl"))), ==, WB_IDENTITY_PAD);
  g_assert_cmpint (wb_identity_op_of (wb_symbol_lookup ("torch.nn.functional.pad", strlen ("torch.nn.functional.pad"))), ==,
                   WB_IDENTITY_PAD_LIST);
  g_assert_cmpint (wb_identity_op_of (wb_symbol_lookup ("prims.cat", strlen ("prims.cat"))), ==, WB_IDENTITY_CAT);
  g_assert_cmpint (wb_identity_op_of (wb_symbol_lookup ("torch.permute", strlen ("torch.permute"))), ==, WB_IDENTITY_NONE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/identity/trace-lines", test_trace_lines);
  g_test_add_func ("/identity/rule", test_rule);
  return g_test_run ();
}
