/* wb-profile-group.c — a multi-GPU run (wb-profile-group.h)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-profiler.h"

typedef struct
{
  WbProfileJob **jobs;
  guint          n;
  GMutex         lock;
  gboolean       failed; /* a rank failed: the others' runners are being ended */
} Group;

typedef struct
{
  Group  *group;
  guint   rank;
  WbRun  *run;
  GError *error;
} Rank;

/* Ends every other rank's runner: a peer blocked in NCCL for the failed rank would wait forever. */
static void
end_the_others (Group *g, guint failed_rank)
{
  g_mutex_lock (&g->lock);
  if (!g->failed)
    {
      g->failed = TRUE;
      for (guint r = 0; r < g->n; r++)
        {
          WbRunner *runner = r != failed_rank ? wb_profile_job_get_runner (g->jobs[r]) : NULL;
          if (runner != NULL)
            wb_runner_kill (runner);
        }
    }
  g_mutex_unlock (&g->lock);
}

static gpointer
rank_thread (gpointer data)
{
  Rank *r = data;

  r->run = wb_profile_job_run (r->group->jobs[r->rank], &r->error);
  if (r->run == NULL)
    end_the_others (r->group, r->rank);
  return NULL;
}

/* The first real failure: a rank ended because another failed says less than the one that failed first. */
static GError *
first_failure (Rank *ranks, guint n, Group *g)
{
  for (guint pass = 0; pass < 2; pass++)
    for (guint r = 0; r < n; r++)
      if (ranks[r].error != NULL && (pass == 1 || !g_error_matches (ranks[r].error, WB_RUNNER_ERROR, WB_RUNNER_ERROR_CRASHED)))
        {
          GError *e = g_error_copy (ranks[r].error);
          g_prefix_error (&e, "rank %u of %u: ", r, n);
          return e;
        }
  return g_error_new (WB_PROFILE_ERROR, WB_PROFILE_ERROR_UNAVAILABLE, "a rank failed without an error");
}

/* Each rank's runner on its GPU, and NCCL's unique id from rank 0's; FALSE with the error. */
static gboolean
start_ranks (Group *g, const char *group_id, GError **error)
{
  g_autoptr (GBytes) id = NULL;

  for (guint r = 0; r < g->n; r++)
    {
      /* a job whose device is chosen already started its runner (the caller put rank r on GPU r) */
      if (wb_profile_job_get_device (g->jobs[r]) == WB_PROFILE_DEVICE_AUTO)
        {
          wb_profile_job_set_device (g->jobs[r], WB_PROFILE_DEVICE_CUDA);
          wb_profile_job_set_cuda_device (g->jobs[r], (int) r);
        }
      if (!wb_profile_job_choose_device (g->jobs[r], error))
        {
          g_prefix_error (error, "rank %u of %u needs GPU %u: ", r, g->n, r);
          return FALSE;
        }
      if (wb_profile_job_get_device (g->jobs[r]) != WB_PROFILE_DEVICE_CUDA)
        {
          g_set_error (error, WB_PROFILE_ERROR, WB_PROFILE_ERROR_UNAVAILABLE, "rank %u of %u needs GPU %u: %s", r, g->n, r,
                       wb_profile_job_get_device_reason (g->jobs[r]));
          return FALSE;
        }
    }
  if ((id = wb_runner_get_nccl_id (wb_profile_job_get_runner (g->jobs[0]), error)) == NULL)
    {
      g_prefix_error (error, "rank 0: ");
      return FALSE;
    }
  for (guint r = 0; r < g->n; r++)
    {
      WbProfileGroupRank rank = { .world_size = g->n, .rank = r, .nccl_id = id, .group = (char *) group_id };
      wb_profile_job_set_group_rank (g->jobs[r], &rank);
    }
  return TRUE;
}

GPtrArray *
wb_profile_group_run (WbProfileJob **jobs, guint n_jobs, GError **error)
{
  g_autofree char     *group_id = g_uuid_string_random ();
  g_autofree Rank     *ranks = NULL;
  g_autofree GThread **threads = NULL;
  Group                g = { .jobs = jobs, .n = n_jobs };
  GPtrArray           *runs = NULL;

  g_return_val_if_fail (jobs != NULL && n_jobs > 0, NULL);
  g_mutex_init (&g.lock);
  if (!start_ranks (&g, group_id, error))
    {
      g_mutex_clear (&g.lock);
      return NULL;
    }
  ranks = g_new0 (Rank, n_jobs);
  threads = g_new0 (GThread *, n_jobs);
  for (guint r = 0; r < n_jobs; r++)
    {
      ranks[r].group = &g;
      ranks[r].rank = r;
      threads[r] = g_thread_new ("wb-rank", rank_thread, &ranks[r]);
    }
  for (guint r = 0; r < n_jobs; r++)
    g_thread_join (threads[r]);
  if (g.failed)
    g_propagate_error (error, first_failure (ranks, n_jobs, &g));
  else
    {
      runs = g_ptr_array_new_with_free_func ((GDestroyNotify) wb_run_free);
      for (guint r = 0; r < n_jobs; r++)
        g_ptr_array_add (runs, g_steal_pointer (&ranks[r].run));
    }
  for (guint r = 0; r < n_jobs; r++)
    {
      g_clear_pointer (&ranks[r].run, wb_run_free);
      g_clear_error (&ranks[r].error);
    }
  g_mutex_clear (&g.lock);
  return runs;
}
