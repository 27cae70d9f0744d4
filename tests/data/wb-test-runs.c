/* wb-test-runs.c — synthetic but realistic runs for the data tests and the session benchmark
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-test-runs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Kernel names as CUPTI reports them for a Llama layer under torch.compile, cuBLASLt and SDPA. */
static const char *const kernel_names[] = {
  "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x256x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas",
  "sm90_xmma_gemm_bf16bf16_bf16f32_f32_nn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
  "triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_0",
  "triton_poi_fused__to_copy_cat_mul_neg_slice_1",
  "triton_poi_fused_mul_silu_2",
  "triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_3",
  "fmha_cutlassF_bf16_aligned_64x128_rf_sm80(PyTorchMemEffAttention::AttentionKernel<cutlass::bfloat16_t, cutlass::arch::Sm80, true, 64, 128, 128, true, true>::Params)",
  "fmha_cutlassB_bf16_aligned_128x64_k128_sm80(PyTorchMemEffAttention::AttentionBackwardKernel<cutlass::arch::Sm80, cutlass::bfloat16_t, true, false, true, 128, 64, 128, false>::Params)",
  "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<c10::BFloat16>, at::detail::Array<char*, 1> >(int, at::native::FillFunctor<c10::BFloat16>, at::detail::Array<char*, 1>)",
  "void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32_128x2_tn_align8>(cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32_128x2_tn_align8::Params)",
  "triton_red_fused__to_copy_mul_sum_4",
  "triton_poi_fused__to_copy_add_mul_5",
};

static void
region_free (gpointer data)
{
  WbTestRegion *r = data;

  g_free (r->name);
  g_free (r->executor);
  g_free (r);
}

static GPtrArray *
new_regions (void)
{
  return g_ptr_array_new_with_free_func (region_free);
}

static void
add_region (GPtrArray  *regions,
            const char *name,
            const char *executor,
            guint32     line)
{
  WbTestRegion *r = g_new0 (WbTestRegion, 1);

  r->name = g_strdup (name);
  r->executor = g_strdup (executor ? executor : "torch");
  r->line = line;
  g_ptr_array_add (regions, r);
}

static gboolean
is_region_call (const WbBsym *b)
{
  const char *executor;

  if (b->kind != WB_BSYM_CALL || b->symbol == NULL)
    return FALSE;
  if (wb_symbol_is_fusion (b->symbol))
    return TRUE;
  if (wb_symbol_get_module (b->symbol) != WB_SYMBOL_MODULE_EXECUTOR)
    return FALSE;
  switch (wb_symbol_get_category (b->symbol))
    {
    case WB_SYMBOL_CATEGORY_UTILITY:
    case WB_SYMBOL_CATEGORY_PROLOGUE:
      return FALSE;
    default:
      break;
    }
  executor = wb_symbol_get_executor (b->symbol);
  return executor != NULL && strcmp (executor, "python") != 0;
}

GPtrArray *
wb_test_regions_from_set (const WbTraceSet *set)
{
  GPtrArray          *regions = new_regions ();
  const WbTraceEntry *last[2] = { NULL, NULL };

  for (guint i = 0; i < wb_trace_set_get_n_entries (set); i++)
    {
      const WbTraceEntry *e = wb_trace_set_get_entry (set, i);
      int                 slot = e->kind == WB_TRACE_KIND_FORWARD ? 0 : e->kind == WB_TRACE_KIND_BACKWARD ? 1
                                                                                                          : -1;

      if (slot < 0 || (e->subset != NULL && e->subset[0] != '\0'))
        continue;
      if (last[slot] == NULL || e->index > last[slot]->index)
        last[slot] = e;
    }
  for (int s = 0; s < 2; s++)
    {
      if (last[s] == NULL)
        continue;
      for (guint i = 0; i < last[s]->trace->n_body; i++)
        {
          const WbBsym *b = last[s]->trace->body[i];

          if (is_region_call (b))
            add_region (regions, b->name, wb_symbol_is_fusion (b->symbol) && g_str_has_prefix (b->name, "TorchCompile") ? "torchcompile" : wb_symbol_get_executor (b->symbol),
                        b->line);
        }
    }
  return regions;
}

GPtrArray *
wb_test_regions_load (const char *case_dir)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WbTraceSet) set = wb_trace_set_load (case_dir, &error);

  g_assert_no_error (error);
  return wb_test_regions_from_set (set);
}

char *
wb_test_regions_to_string (const GPtrArray *regions)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < regions->len; i++)
    {
      const WbTestRegion *r = g_ptr_array_index (regions, i);

      g_string_append_printf (s, "%s%s:%s:%u", i ? ";" : "", r->name, r->executor, r->line);
    }
  return g_string_free (s, FALSE);
}

GPtrArray *
wb_test_regions_from_string (const char *text)
{
  GPtrArray *regions = new_regions ();
  g_auto (GStrv) items = g_strsplit (text, ";", -1);

  for (guint i = 0; items[i] != NULL; i++)
    {
      g_auto (GStrv) f = g_strsplit (items[i], ":", 3);

      if (g_strv_length (f) == 3)
        add_region (regions, f[0], f[1], (guint32) g_ascii_strtoull (f[2], NULL, 10));
    }
  return regions;
}

static const char *
alternative_executor (const char *executor)
{
  if (g_strcmp0 (executor, "torchcompile") == 0)
    return "nvfuser";
  if (g_strcmp0 (executor, "sdpa") == 0)
    return "cudnn";
  return "torch";
}

WbRun *
wb_test_make_run (const GPtrArray *regions,
                  guint64          seq,
                  guint            n_iters,
                  guint            n_kernels)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed ((guint32) (seq * 2654435761u) ^ 0x5bd1e995u);
  g_autoptr (GString) executors = g_string_new (NULL);
  WbRun *run = wb_run_new ();
  gint64 clock_ns = 1000000;
  gint64 iter_median;
  guint  n_kernels_per_region;

  run->label = g_strdup_printf ("seq %" G_GUINT64_FORMAT, seq);
  run->device_name = g_strdup ("cuda:0");
  run->device_model = g_strdup ("NVIDIA H100 80GB HBM3");
  run->driver_version = g_strdup ("580.95.05");
  wb_run_add_executor_version (run, "cublaslt", "13.1");
  wb_run_add_executor_version (run, "cudnn", "9.19.0");
  wb_run_add_executor_version (run, "nvrtc", "13.0");
  run->iters = n_iters;
  run->warmup = 5;
  run->cuda_graphs = seq % 2 == 1; /* launch_list stays FALSE: the tests make older files from these runs */
  run->stage = g_strdup ("forward+backward");
  run->assignment = g_strdup_printf ("plan-%u", (guint) ((seq / 3) % 4));
  run->start_time_us = G_GINT64_CONSTANT (1795000000000000) + (gint64) seq * G_USEC_PER_SEC;

  for (guint r = 0; r < regions->len; r++)
    {
      const WbTestRegion *tr = g_ptr_array_index (regions, r);
      gboolean            alt = ((seq / 3) + r) % 4 == 0;
      WbRegionStats      *stats = wb_region_stats_new (tr->name, alt ? alternative_executor (tr->executor) : tr->executor);

      if (alt)
        g_string_append_printf (executors, "%s%s=%s", executors->len ? "," : "", tr->name, stats->executor);
      stats->stage_line = tr->line;
      stats->bytes_moved = (guint64) (g_str_hash (tr->name) % 500000000u) + 1000000;
      stats->flops = (guint64) (g_str_hash (tr->name) % 7919u) * 1000000000ull;
      wb_run_add_region (run, stats);
    }
  if (executors->len > 0)
    run->executors = g_strdup (executors->str);

  for (guint it = 0; it < n_iters; it++)
    {
      gint64 total = 0;

      for (guint r = 0; r < run->regions->len; r++)
        {
          WbRegionStats *stats = g_ptr_array_index (run->regions, r);
          gint64         base = 150000 + (gint64) (g_str_hash (stats->name) % 900000u);
          gint64         t;

          if (g_strcmp0 (stats->executor, ((const WbTestRegion *) g_ptr_array_index (regions, r))->executor) != 0)
            base = base * 11 / 10;
          t = base + g_rand_int_range (rand, -(gint32) (base / 50), (gint32) (base / 50) + 1);
          wb_region_stats_add_time (stats, t);
          total += t;
        }
      wb_run_add_iteration (run, total + g_rand_int_range (rand, 20000, 60000));
    }

  /* A failed run now and then: fewer iterations and a reason. */
  if (seq % 17 == 16 && n_iters > 2)
    {
      run->status = WB_RUN_STATUS_FAILED;
      run->error = g_strdup ("cuLaunchKernel: CUDA_ERROR_ILLEGAL_ADDRESS in TorchCompile1 (iteration 3)");
    }

  iter_median = wb_run_get_iteration_median_ns (run);
  n_kernels_per_region = regions->len ? MAX (1u, n_kernels / regions->len) : 0;
  for (guint r = 0; r < run->regions->len; r++)
    {
      WbRegionStats *stats = g_ptr_array_index (run->regions, r);

      wb_region_stats_update (stats);
      stats->kernel_count = n_kernels_per_region;
      stats->share = iter_median ? (double) stats->median_ns / (double) iter_median : 0.0;
    }

  for (guint k = 0; k < n_kernels; k++)
    {
      const WbTestRegion *tr = regions->len ? g_ptr_array_index (regions, k % regions->len) : NULL;
      WbKernelRecord     *rec;
      gint64              duration = 2000 + g_rand_int_range (rand, 0, 400000);

      /* One kernel in 50 could not be attributed. */
      rec = wb_kernel_record_new (kernel_names[g_rand_int_range (rand, 0, G_N_ELEMENTS (kernel_names))],
                                  (tr != NULL && k % 50 != 49) ? tr->name : NULL);
      rec->trace_line = tr ? tr->line : 0;
      rec->stream = 7;
      rec->grid[0] = g_rand_int_range (rand, 1, 4097);
      rec->grid[1] = g_rand_int_range (rand, 1, 33);
      rec->grid[2] = 1;
      rec->block[0] = 128u << g_rand_int_range (rand, 0, 3);
      rec->block[1] = 1;
      rec->block[2] = 1;
      rec->registers = g_rand_int_range (rand, 32, 256);
      rec->shared_bytes = g_rand_int_range (rand, 0, 232448);
      rec->start_ns = clock_ns;
      rec->end_ns = clock_ns + duration;
      clock_ns = rec->end_ns + g_rand_int_range (rand, 500, 5000);
      rec->iteration = n_iters ? k * n_iters / MAX (n_kernels, 1) : 0;
      rec->correlation_id = seq * 100000 + k;
      wb_run_add_kernel (run, rec);
    }

  /* Even runs were profiled on the GPU with attribution figures: from CUPTI, or (every fourth) from CUDA
   * events; odd runs have none, as cpu runs and runs stored by older versions. */
  if (seq % 2 == 0)
    {
      WbKernelAttribution *a = &run->attribution;

      a->kernel_source = g_strdup (seq % 4 == 0 ? "cupti" : "CUDA events (CUPTI unavailable: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)");
      for (guint k = 0; k < run->kernels->len; k++)
        {
          const WbKernelRecord *rec = g_ptr_array_index (run->kernels, k);
          gint64                ns = rec->end_ns - rec->start_ns;

          a->kernel_ns_total += ns;
          if (rec->region == NULL)
            a->kernels_unattributed++;
          else if (k % 7 == 3)
            {
              a->kernels_by_time_range++;
              a->kernel_ns_by_time_range += ns;
              a->kernel_ns_attributed += ns;
            }
          else
            {
              a->kernels_by_correlation++;
              a->kernel_ns_attributed += ns;
            }
        }
      a->memcpy_count = (guint32) (seq % 5) + 2;
      a->memcpy_bytes = G_GUINT64_CONSTANT (5000000000) + seq; /* above 2^32 */
      a->memcpy_ns = 123456 + (gint64) seq;
      a->memset_count = (guint32) (seq % 3);
      a->memset_bytes = a->memset_count * 4096u;
      a->memset_ns = a->memset_count * 1500;
      a->memops_attributed = a->memcpy_count + a->memset_count - 1;
      run->dropped_records = seq % 8 == 6 ? 42 : 0;
    }
  return run;
}

gint64
wb_test_run_seq (const WbRun *run)
{
  char  *end = NULL;
  gint64 seq;

  if (run->label == NULL || !g_str_has_prefix (run->label, "seq "))
    return -1;
  seq = g_ascii_strtoll (run->label + 4, &end, 10);
  return (end != NULL && *end == '\0') ? seq : -1;
}

GPid
wb_test_spawn_writer (const char *session,
                      const char *regions,
                      guint64     first,
                      guint64     count,
                      guint       kernels,
                      guint       iters,
                      int        *stdout_fd)
{
  const char      *writer = g_getenv ("WB_SESSION_WRITER");
  g_autofree char *s_first = g_strdup_printf ("%" G_GUINT64_FORMAT, first);
  g_autofree char *s_count = g_strdup_printf ("%" G_GUINT64_FORMAT, count);
  g_autofree char *s_kernels = g_strdup_printf ("%u", kernels);
  g_autofree char *s_iters = g_strdup_printf ("%u", iters);
  char            *argv[8];
  int              fds[2];
  pid_t            pid;

  g_assert_nonnull (writer);
  argv[0] = (char *) writer;
  argv[1] = (char *) session;
  argv[2] = (char *) regions;
  argv[3] = s_first;
  argv[4] = s_count;
  argv[5] = s_kernels;
  argv[6] = s_iters;
  argv[7] = NULL;

  g_assert_cmpint (pipe (fds), ==, 0);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      /* The child: only async-signal-safe calls until exec. */
      close (fds[0]);
      if (dup2 (fds[1], STDOUT_FILENO) < 0)
        _exit (126);
      close (fds[1]);
      execv (writer, argv);
      _exit (127);
    }
  close (fds[1]);
  *stdout_fd = fds[0];
  return pid;
}

char *
wb_test_read_fd (int fd)
{
  GString *s = g_string_new (NULL);
  char     buffer[4096];

  for (;;)
    {
      ssize_t n = read (fd, buffer, sizeof buffer);

      if (n > 0)
        g_string_append_len (s, buffer, n);
      else if (n == 0 || errno != EINTR)
        break;
    }
  close (fd);
  return g_string_free (s, FALSE);
}
