/* fuzz-session.c — libFuzzer harness for session files: opening, the schema check, reading everything
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every input is written to a file and opened as a session (read-only, as `sessions` and `compare` do
 * on a file from elsewhere). A refusal must be a WB_SESSION_ERROR whose message names the file. A file
 * that opens is then read the way the commands read it: the integrity check (every text's hash, every
 * run's checksums), every trace set loaded and parsed, every run with its kernel records, the
 * assignments. Errors there must be WB_SESSION_ERROR or WB_TRACE_ERROR (a stored text that does not
 * parse). AddressSanitizer, UBSan and LeakSanitizer find the rest. Build and run: tests/fuzz/README.md. */
#include <glib/gstdio.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wb-data.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);
int LLVMFuzzerInitialize (int *argc, char ***argv);

static char *path;

static void
check_error (const GError *error, gboolean trace_ok)
{
  if (error == NULL)
    {
      fprintf (stderr, "fuzz-session: failure without an error\n");
      abort ();
    }
  if (error->domain != WB_SESSION_ERROR && !(trace_ok && error->domain == WB_TRACE_ERROR))
    {
      fprintf (stderr, "fuzz-session: unexpected error domain %s: %s\n", g_quark_to_string (error->domain), error->message);
      abort ();
    }
}

static void
read_everything (WbSession *session)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) sets = NULL;
  g_autoptr (GPtrArray) runs = NULL;
  g_autoptr (GPtrArray) assignments = NULL;

  if (!wb_session_check_integrity (session, &error))
    check_error (error, FALSE);
  g_clear_error (&error);
  if ((sets = wb_session_list_trace_sets (session, &error)) == NULL)
    check_error (error, FALSE);
  for (guint i = 0; sets != NULL && i < sets->len && i < 4; i++)
    {
      g_autoptr (GError) local = NULL;
      g_autoptr (WbTraceSet) set = wb_session_load_trace_set (session, ((WbSessionTraceSet *) sets->pdata[i])->id, &local);

      if (set == NULL)
        check_error (local, TRUE);
    }
  g_clear_error (&error);
  if ((runs = wb_session_list_runs (session, &error)) == NULL)
    check_error (error, FALSE);
  for (guint i = 0; runs != NULL && i < runs->len && i < 8; i++)
    {
      g_autoptr (GError) local = NULL;
      g_autoptr (WbRun) run = wb_session_get_run (session, ((WbRun *) runs->pdata[i])->id, WB_SESSION_READ_KERNELS, &local);

      if (run == NULL)
        check_error (local, FALSE);
    }
  g_clear_error (&error);
  if ((assignments = wb_session_list_assignments (session, &error)) == NULL)
    check_error (error, FALSE);
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  path = g_strdup_printf ("%s/wb-fuzz-session-%d.wbsession", g_get_tmp_dir (), (int) getpid ());
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  g_autofree char *shm = g_strconcat (path, "-shm", NULL);
  WbSession       *session;

  g_unlink (wal);
  g_unlink (shm);
  if (!g_file_set_contents (path, (const char *) data, (gssize) size, NULL))
    abort ();
  session = wb_session_open (path, WB_SESSION_OPEN_READ_ONLY, &error);
  if (session == NULL)
    {
      check_error (error, FALSE);
      if (strstr (error->message, path) == NULL)
        {
          fprintf (stderr, "fuzz-session: the message does not name the file: %s\n", error->message);
          abort ();
        }
      return 0;
    }
  read_everything (session);
  wb_session_close (session);
  return 0;
}
