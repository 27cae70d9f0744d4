/* wb-ceilings.c — the cpu's copy bandwidth and sgemm rate, measured once and cached
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <cblas.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <time.h>

#include "wb-executors.h"
#include "wb-profiler.h"

#define COPY_BYTES ((gsize) 128 << 20)
#define GEMM_N 2048
/* repeat each measurement at least MIN_REPEATS times and for at least MIN_NS, at most MAX_REPEATS times,
 * and keep the best: on a busy machine the best is the closest to what the hardware can do */
#define MIN_REPEATS 3
#define MAX_REPEATS 20
#define MIN_NS G_GINT64_CONSTANT (300000000)

char *
wb_cpu_get_model_name (void)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  const char *keys[] = { "model name", "Processor", "cpu model", "uarch" };

  if (g_file_get_contents ("/proc/cpuinfo", &text, NULL, NULL))
    {
      lines = g_strsplit (text, "\n", -1);
      for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
        for (guint i = 0; lines[i] != NULL; i++)
          {
            const char      *colon = strchr (lines[i], ':');
            g_autofree char *key = NULL;

            if (colon == NULL)
              continue;
            key = g_strstrip (g_strndup (lines[i], colon - lines[i]));
            if (g_ascii_strcasecmp (key, keys[k]) == 0)
              {
                g_autofree char *value = g_strstrip (g_strdup (colon + 1));

                if (value[0] != '\0')
                  return g_steal_pointer (&value);
              }
          }
    }
  return g_strdup ("unknown CPU");
}

char *
wb_cpu_device_model (void)
{
  g_autofree char *model = wb_cpu_get_model_name ();
  guint            threads = wb_cpu_executor_get_num_threads ();

  return g_strdup_printf ("%s (%u thread%s)", model, threads, threads == 1 ? "" : "s");
}

typedef struct
{
  char       *dst;
  const char *src;
  gsize       len;
} CopyPart;

static gpointer
copy_part (gpointer data)
{
  CopyPart *p = data;

  memcpy (p->dst, p->src, p->len);
  return NULL;
}

/* One copy of @len bytes split over @n_threads threads; returns the ns it took. */
static gint64
parallel_copy (char *dst, const char *src, gsize len, guint n_threads)
{
  g_autofree CopyPart *parts = g_new0 (CopyPart, n_threads);
  g_autofree GThread **threads = g_new0 (GThread *, n_threads);
  gsize                chunk = (len / n_threads + 4095) & ~(gsize) 4095;
  gint64               t0 = wb_run_clock_ns ();

  for (guint i = 0; i < n_threads; i++)
    {
      gsize begin = MIN (len, i * chunk);
      gsize end = i + 1 == n_threads ? len : MIN (len, begin + chunk);

      parts[i] = (CopyPart){ dst + begin, src + begin, end - begin };
      threads[i] = i == 0 ? NULL : g_thread_new ("wb-copy", copy_part, &parts[i]);
    }
  copy_part (&parts[0]);
  for (guint i = 1; i < n_threads; i++)
    g_thread_join (threads[i]);
  return wb_run_clock_ns () - t0;
}

WbDeviceCeilings *
wb_ceilings_measure_cpu (GError **error)
{
  g_autofree char *model = wb_cpu_device_model ();
  guint            n_threads = MAX (1u, wb_cpu_executor_get_num_threads ());
  char            *src, *dst;
  float           *a, *b, *c;
  gint64           best_copy = G_MAXINT64;
  gint64           best_gemm = G_MAXINT64;
  gint64           spent_copy = 0;
  gint64           spent_gemm = 0;
  double           copy_gbps, tflops;

  src = g_try_malloc (COPY_BYTES);
  dst = g_try_malloc (COPY_BYTES);
  if (src == NULL || dst == NULL)
    {
      g_free (src);
      g_free (dst);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE, "measuring the copy bandwidth: cannot allocate 2 x %zu MiB",
                   COPY_BYTES >> 20);
      return NULL;
    }
  /* touch every page first: the copies must not time page faults */
  memset (src, 1, COPY_BYTES);
  memset (dst, 0, COPY_BYTES);
  parallel_copy (dst, src, COPY_BYTES, n_threads);
  for (guint r = 0; r < MAX_REPEATS; r++)
    {
      gint64 ns = parallel_copy (dst, src, COPY_BYTES, n_threads);

      best_copy = MIN (best_copy, ns);
      spent_copy += ns;
      if (r + 1 >= MIN_REPEATS && spent_copy >= MIN_NS)
        break;
    }
  g_free (src);
  g_free (dst);
  copy_gbps = 2.0 * (double) COPY_BYTES / (double) MAX (best_copy, 1);

  a = g_try_new (float, (gsize) GEMM_N *GEMM_N);
  b = g_try_new (float, (gsize) GEMM_N *GEMM_N);
  c = g_try_new0 (float, (gsize) GEMM_N *GEMM_N);
  if (a == NULL || b == NULL || c == NULL)
    {
      g_free (a);
      g_free (b);
      g_free (c);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE, "measuring the sgemm rate: cannot allocate 3 x %d x %d floats",
                   GEMM_N, GEMM_N);
      return NULL;
    }
  for (gsize i = 0; i < (gsize) GEMM_N * GEMM_N; i++)
    {
      a[i] = (float) ((i * 7) % 13) / 13.0f - 0.5f;
      b[i] = (float) ((i * 5) % 11) / 11.0f - 0.5f;
    }
  /* the first call warms OpenBLAS's threads and buffers */
  cblas_sgemm (CblasRowMajor, CblasNoTrans, CblasNoTrans, GEMM_N, GEMM_N, GEMM_N, 1.0f, a, GEMM_N, b, GEMM_N, 0.0f, c, GEMM_N);
  for (guint r = 0; r < MAX_REPEATS; r++)
    {
      gint64 t0 = wb_run_clock_ns ();
      gint64 ns;

      cblas_sgemm (CblasRowMajor, CblasNoTrans, CblasNoTrans, GEMM_N, GEMM_N, GEMM_N, 1.0f, a, GEMM_N, b, GEMM_N, 0.0f, c,
                   GEMM_N);
      ns = wb_run_clock_ns () - t0;
      best_gemm = MIN (best_gemm, ns);
      spent_gemm += ns;
      if (r + 1 >= MIN_REPEATS && spent_gemm >= MIN_NS)
        break;
    }
  g_free (a);
  g_free (b);
  g_free (c);
  tflops = 2.0 * GEMM_N * (double) GEMM_N * GEMM_N / (double) MAX (best_gemm, 1) / 1e3;

  return wb_device_ceilings_new (model, copy_gbps, tflops);
}

char *
wb_ceilings_cache_path (void)
{
  return g_build_filename (g_get_user_cache_dir (), "thunder-wb", "ceilings.json", NULL);
}

/* (transfer full) the cache's "ceilings" array, or NULL. */
static JsonNode *
read_cache (void)
{
  g_autofree char *path = wb_ceilings_cache_path ();
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonNode   *root;
  JsonObject *o;

  if (!json_parser_load_from_file (parser, path, NULL))
    return NULL;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return NULL;
  o = json_node_get_object (root);
  if (json_object_get_int_member_with_default (o, "version", 0) != 1 || !json_object_has_member (o, "ceilings") ||
      !JSON_NODE_HOLDS_ARRAY (json_object_get_member (o, "ceilings")))
    return NULL;
  return json_node_copy (json_object_get_member (o, "ceilings"));
}

WbDeviceCeilings *
wb_ceilings_cache_lookup (const char *device_model)
{
  g_autoptr (JsonNode) node = NULL;
  JsonArray *array;

  g_return_val_if_fail (device_model != NULL, NULL);
  if ((node = read_cache ()) == NULL)
    return NULL;
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode   *e = json_array_get_element (array, i);
      JsonObject *o;
      double      gbps, tflops;

      if (!JSON_NODE_HOLDS_OBJECT (e))
        continue;
      o = json_node_get_object (e);
      if (g_strcmp0 (json_object_get_string_member_with_default (o, "device_model", NULL), device_model) != 0)
        continue;
      gbps = json_object_get_double_member_with_default (o, "copy_gbps", 0);
      tflops = json_object_get_double_member_with_default (o, "bf16_tflops", 0);
      if (!(gbps > 0) || !(tflops > 0))
        return NULL;
      {
        WbDeviceCeilings *c = wb_device_ceilings_new (device_model, gbps, tflops);

        c->measured_at_us = json_object_get_int_member_with_default (o, "measured_at_us", c->measured_at_us);
        return c;
      }
    }
  return NULL;
}

gboolean
wb_ceilings_cache_store (const WbDeviceCeilings *ceilings,
                         GError                **error)
{
  g_autofree char *path = wb_ceilings_cache_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr (JsonNode) old = read_cache ();
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (ceilings != NULL && ceilings->device_model != NULL, FALSE);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "version");
  json_builder_add_int_value (b, 1);
  json_builder_set_member_name (b, "ceilings");
  json_builder_begin_array (b);
  if (old != NULL)
    {
      JsonArray *array = json_node_get_array (old);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *e = json_array_get_element (array, i);

          if (JSON_NODE_HOLDS_OBJECT (e) &&
              g_strcmp0 (json_object_get_string_member_with_default (json_node_get_object (e), "device_model", NULL),
                         ceilings->device_model) == 0)
            continue;
          json_builder_add_value (b, json_node_copy (e));
        }
    }
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "device_model");
  json_builder_add_string_value (b, ceilings->device_model);
  json_builder_set_member_name (b, "copy_gbps");
  json_builder_add_double_value (b, ceilings->copy_gbps);
  json_builder_set_member_name (b, "bf16_tflops");
  json_builder_add_double_value (b, ceilings->bf16_tflops);
  json_builder_set_member_name (b, "measured_at_us");
  json_builder_add_int_value (b, ceilings->measured_at_us);
  json_builder_end_object (b);
  json_builder_end_array (b);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  text = json_generator_to_data (gen, NULL);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s: cannot create the cache folder", dir);
      return FALSE;
    }
  return g_file_set_contents (path, text, -1, error);
}
