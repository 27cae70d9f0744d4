/* test-region-claims.c — the Regions table's cached executor answers equal the uncached rule on zoo cases
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One WbDocument (no display) opens resnet50, then mobilenet_v3_small, then llama_32layer, as the window
 * does; after each load, every region of its pipeline and every choice of the drop-down is asked of
 * wb_document_can_run (WbRegionClaims, the table's cache) and of wb_region_table_can_run (the types of the
 * stages holding the region rebuilt per call): the answer and the reason must be the same. The second and
 * third loads replace the pipeline the cache was built over: a cache kept across them would answer from
 * freed regions and types. A WbRegionClaims of its own over each pipeline, asked twice, checks that
 * the environments are shared (at most one per 4 regions) and that warm answers equal cold ones. */
#include "config.h"

#include <string.h>

#include "wb-views.h"

static char *
case_path (const char *name)
{
  const char *build = g_getenv ("WB_BUILD_ROOT");

  return g_build_filename (build ? build : ".", "tests", "zoo", "zoo", name, NULL);
}

static void
loaded_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (wb_document_load_finish (WB_DOCUMENT (source), result, &error));
  g_assert_no_error (error);
  *(gboolean *) data = TRUE;
}

static void
load (WbDocument *doc, const char *path)
{
  gboolean done = FALSE;

  wb_document_load_async (doc, path, NULL, loaded_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

typedef struct
{
  guint answers, taken, refused;
} Counts;

/* every region x choice: the document's cached answer against the uncached rule */
static void
check_document (WbDocument *doc, const char *name, Counts *n)
{
  const WbPipeline *pipeline = wb_document_get_pipeline (doc);
  GPtrArray        *regions;

  g_assert_nonnull (pipeline);
  regions = wb_pipeline_get_regions (pipeline);
  g_assert_cmpuint (regions->len, >, 0);
  for (guint i = 0; i < regions->len; i++)
    for (const char *const *c = wb_region_table_get_choices (); *c != NULL; c++)
      {
        const WbRegion  *r = regions->pdata[i];
        g_autofree char *why_cached = NULL, *why_plain = NULL;
        gboolean         cached = wb_document_can_run (doc, r, *c, &why_cached);
        gboolean         plain = wb_region_table_can_run (pipeline, r, *c, &why_plain);

        if (cached != plain || g_strcmp0 (why_cached, why_plain) != 0)
          g_error ("%s: region %s, %s: cached %d (%s), uncached %d (%s)", name, r->name, *c, cached, why_cached ? why_cached : "-",
                   plain, why_plain ? why_plain : "-");
        n->answers++;
        if (wb_executor_info_lookup (*c) != NULL) /* not "unfuse", always offered */
          {
            n->taken += cached;
            n->refused += !cached;
          }
      }
  g_test_message ("%s: %u regions, every choice the same cached and uncached", name, regions->len);
}

/* a cache of its own: environments shared across regions, warm answers equal to cold ones */
static void
check_claims (const WbPipeline *pipeline)
{
  GPtrArray *regions = wb_pipeline_get_regions (pipeline);
  g_autoptr (WbRegionClaims) claims = wb_region_claims_new (pipeline);
  g_autoptr (GArray) cold = g_array_new (FALSE, FALSE, sizeof (gboolean));
  guint k = 0;

  for (guint i = 0; i < regions->len; i++)
    for (const char *const *c = wb_region_table_get_choices (); *c != NULL; c++)
      {
        gboolean ok = wb_region_claims_can_run (claims, regions->pdata[i], *c, NULL);

        g_array_append_val (cold, ok);
      }
  g_assert_cmpuint (wb_region_claims_get_n_envs (claims), >=, 1);
  g_assert_cmpuint (wb_region_claims_get_n_envs (claims), <=, MAX (1, regions->len / 4));
  for (guint i = 0; i < regions->len; i++)
    for (const char *const *c = wb_region_table_get_choices (); *c != NULL; c++, k++)
      g_assert_cmpint (wb_region_claims_can_run (claims, regions->pdata[i], *c, NULL), ==, g_array_index (cold, gboolean, k));
}

static void
test_zoo (void)
{
  const char *cases[] = { "resnet50", "mobilenet_v3_small", "llama_32layer" };
  g_autoptr (WbDocument) doc = wb_document_new ();
  Counts n = { 0 };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = case_path (cases[i]);

      if (!g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          g_test_skip_printf ("the zoo is not unpacked (%s)", path);
          return;
        }
      load (doc, path);
      check_document (doc, cases[i], &n);
      check_claims (wb_document_get_pipeline (doc));
    }
  /* both answers occur: the comparison is not of one constant */
  g_assert_cmpuint (n.taken, >, 0);
  g_assert_cmpuint (n.refused, >, 0);
  g_test_message ("%u answers: %u taken, %u refused", n.answers, n.taken, n.refused);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/region-claims/zoo", test_zoo);
  return g_test_run ();
}
