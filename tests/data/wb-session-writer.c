/* wb-session-writer.c — test helper: stores synthetic runs into a session in a loop
 *
 *   wb-session-writer SESSION REGIONS FIRST COUNT KERNELS ITERS
 *
 * stores runs FIRST, FIRST+1, ... (COUNT of them; 0: until killed), each made by wb_test_make_run() over
 * REGIONS ("name:executor:line;..."), and prints "b SEQ" on stdout just before it stores a run and
 * "c SEQ" once that run's transaction has committed (so a parent can tell a kill inside a store). The crash test kills it with SIGKILL; the concurrency test runs it beside
 * a reader. Exit status 0, or 1 with the error on stderr.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "wb-test-runs.h"

int
main (int    argc,
      char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbSession) session = NULL;
  g_autoptr (GPtrArray) regions = NULL;
  guint64 first, count;
  guint   kernels, iters;

  if (argc != 7)
    {
      fprintf (stderr, "usage: %s SESSION REGIONS FIRST COUNT KERNELS ITERS\n", argv[0]);
      return 2;
    }
  regions = wb_test_regions_from_string (argv[2]);
  first = g_ascii_strtoull (argv[3], NULL, 10);
  count = g_ascii_strtoull (argv[4], NULL, 10);
  kernels = (guint) g_ascii_strtoull (argv[5], NULL, 10);
  iters = (guint) g_ascii_strtoull (argv[6], NULL, 10);

  session = wb_session_open (argv[1], WB_SESSION_OPEN_CREATE, &error);
  if (session == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  /* Generous: the concurrency test runs several writers and a reader at once. */
  wb_session_set_busy_timeout (session, 60000);

  for (guint64 seq = first; count == 0 || seq < first + count; seq++)
    {
      g_autoptr (WbRun) run = wb_test_make_run (regions, seq, iters, kernels);

      printf ("b %" G_GUINT64_FORMAT "\n", seq);
      fflush (stdout);
      if (wb_session_store_run (session, run, 0, &error) == 0)
        {
          fprintf (stderr, "run %" G_GUINT64_FORMAT ": %s\n", seq, error->message);
          return 1;
        }
      printf ("c %" G_GUINT64_FORMAT "\n", seq);
      fflush (stdout);
    }
  return 0;
}
