/* test-assignment.c — WbAssignment: the command line's syntax, round trips, the protocol's form, keys
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "wb-compiler.h"
#include "wb-test-common.h"

static void
test_parse (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbAssignment) a = wb_assignment_parse (" nvrtcFusion0 = cpu , ,@t12=unfuse,prims.linear=cublas", &error);
  g_autofree char *text = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (wb_assignment_get_n_choices (a), ==, 3);
  g_assert_cmpstr (wb_assignment_get_choice (a, 0)->key, ==, "nvrtcFusion0");
  g_assert_cmpstr (wb_assignment_get_choice (a, 0)->executor, ==, "cpu");
  g_assert_cmpstr (wb_assignment_lookup (a, "@t12"), ==, "unfuse");
  g_assert_cmpstr (wb_assignment_lookup (a, "prims.linear"), ==, "cublas");
  g_assert_null (wb_assignment_lookup (a, "nvrtcFusion1"));
  /* a key wins over a name */
  g_assert_cmpstr (wb_assignment_lookup_region (a, "nvrtcFusion0", "@t12"), ==, "unfuse");
  g_assert_cmpstr (wb_assignment_lookup_region (a, "nvrtcFusion0", "@t99"), ==, "cpu");
  text = wb_assignment_to_string (a);
  g_assert_cmpstr (text, ==, "nvrtcFusion0=cpu,@t12=unfuse,prims.linear=cublas");
  {
    /* the text form round-trips */
    g_autoptr (WbAssignment) again = wb_assignment_parse (text, &error);
    g_assert_no_error (error);
    g_assert_true (wb_assignment_equal (a, again));
  }
  {
    g_autoptr (WbAssignment) empty = wb_assignment_parse (NULL, &error);
    g_autofree char *none = wb_assignment_to_string (empty);
    g_assert_no_error (error);
    g_assert_true (wb_assignment_is_empty (empty));
    g_assert_cmpstr (none, ==, "");
  }
}

static void
test_bad (void)
{
  static const struct
  {
    const char *spec;
    int         code;
  } bad[] = {
    { "nvrtcFusion0", WB_ASSIGNMENT_ERROR_SYNTAX },
    { "=cpu", WB_ASSIGNMENT_ERROR_SYNTAX },
    { "A=", WB_ASSIGNMENT_ERROR_SYNTAX },
    { "A=b=c", WB_ASSIGNMENT_ERROR_SYNTAX },
    { "A=x,A=y", WB_ASSIGNMENT_ERROR_DUPLICATE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WbAssignment) a = wb_assignment_parse (bad[i].spec, &error);

      g_assert_null (a);
      g_assert_error (error, WB_ASSIGNMENT_ERROR, bad[i].code);
    }
}

static void
test_variant_and_copy (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbAssignment) a = wb_assignment_parse ("B=cpu,A=nvrtc", &error);
  g_autoptr (GVariant) v = g_variant_ref_sink (wb_assignment_to_variant (a));
  g_autoptr (WbAssignment) back = wb_assignment_new_from_variant (v, &error);
  g_autoptr (WbAssignment) with = NULL;
  g_autofree char *text = NULL;

  g_assert_no_error (error);
  g_assert_true (g_variant_is_of_type (v, G_VARIANT_TYPE ("a{ss}")));
  /* unchanged through the protocol: order included */
  g_assert_true (wb_assignment_equal (a, back));
  with = wb_assignment_copy_with (a, "B", "unfuse", &error);
  g_assert_no_error (error);
  text = wb_assignment_to_string (with);
  g_assert_cmpstr (text, ==, "B=unfuse,A=nvrtc");
  g_assert_cmpstr (wb_assignment_lookup (a, "B"), ==, "cpu"); /* the original is untouched */
  g_assert_null (wb_assignment_copy_with (a, "C,D", "cpu", &error));
  g_assert_error (error, WB_ASSIGNMENT_ERROR, WB_ASSIGNMENT_ERROR_SYNTAX);
}

/* Keys of a real trace's regions: the first output of the first subsymbol; found by key and by name. */
static void
test_keys (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_build_filename (wb_test_samples_dir (), "mlp_small", "forward_06.py", NULL);
  g_autoptr (WbTraceSet) set = NULL;
  const WbTrace *t;
  guint          regions = 0;

  set = wb_trace_set_load (path, &error);
  g_assert_no_error (error);
  t = wb_trace_set_get_entry (set, 0)->trace;
  for (guint i = 0; i < t->n_body; i++)
    {
      const WbBsym    *b = t->body[i];
      g_autofree char *key = NULL;

      if (!wb_bsym_is_fusion (b))
        continue;
      key = wb_region_key (b);
      g_assert_nonnull (key);
      g_assert_true (key[0] == '@');
      g_assert_true (wb_trace_find_region (t, key) == b);
      g_assert_true (wb_trace_find_region (t, b->name) == b);
      {
        const WbTrace *traces[] = { NULL, t };
        g_assert_cmpstr (wb_assignment_resolve_key (key, traces, 2), ==, b->name);
        g_assert_cmpstr (wb_assignment_resolve_key (b->name, traces, 2), ==, b->name);
      }
      regions++;
    }
  g_assert_cmpuint (regions, >, 0);
  {
    const WbTrace *traces[] = { t };
    g_assert_null (wb_assignment_resolve_key ("@no_such_name", traces, 1));
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compiler/WbAssignment/parse", test_parse);
  g_test_add_func ("/compiler/WbAssignment/bad", test_bad);
  g_test_add_func ("/compiler/WbAssignment/variant-and-copy", test_variant_and_copy);
  g_test_add_func ("/compiler/WbAssignment/keys", test_keys);
  return g_test_run ();
}
