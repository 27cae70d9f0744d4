/* wb-nvrtc.c — NVRTC compile with a content-addressed disk cache
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <time.h>

#ifndef WB_EXECUTORS_COMPILATION
#define WB_EXECUTORS_COMPILATION
#endif
#include "wb-cuda-codegen.h"
#include "wb-cuda-loader.h"
#include "wb-nvrtc.h"

#define CACHE_FORMAT "thunder-wb nvrtc cache 1"

static GMutex       stats_lock;
static WbNvrtcStats stats;

void
wb_nvrtc_image_free (WbNvrtcImage *image)
{
  if (image == NULL)
    return;
  g_clear_pointer (&image->image, g_bytes_unref);
  g_free (image->log);
  g_free (image->key);
  g_free (image);
}

char *
wb_nvrtc_default_cache_dir (void)
{
  const char *env = g_getenv ("WB_KERNEL_CACHE_DIR");

  if (env != NULL && env[0] != '\0')
    return g_strdup (env);
  return g_build_filename (g_get_user_cache_dir (), "thunder-wb", "kernels", NULL);
}

char *
wb_nvrtc_version (void)
{
  const WbNvrtcApi *api = wb_cuda_load_nvrtc (NULL);
  int               major = 0, minor = 0;

  if (api == NULL || api->nvrtcVersion (&major, &minor) != NVRTC_SUCCESS)
    return NULL;
  return g_strdup_printf ("%d.%d", major, minor);
}

gboolean
wb_nvrtc_supports_arch (int major, int minor)
{
  const WbNvrtcApi *api = wb_cuda_load_nvrtc (NULL);
  int               n = 0;
  g_autofree int   *archs = NULL;

  if (api == NULL || api->nvrtcGetNumSupportedArchs (&n) != NVRTC_SUCCESS || n <= 0)
    return FALSE;
  archs = g_new0 (int, n);
  if (api->nvrtcGetSupportedArchs (archs) != NVRTC_SUCCESS)
    return FALSE;
  for (int i = 0; i < n; i++)
    if (archs[i] == major * 10 + minor)
      return TRUE;
  return FALSE;
}

void
wb_nvrtc_get_stats (WbNvrtcStats *out)
{
  g_mutex_lock (&stats_lock);
  *out = stats;
  g_mutex_unlock (&stats_lock);
}

void
wb_nvrtc_reset_stats (void)
{
  g_mutex_lock (&stats_lock);
  memset (&stats, 0, sizeof stats);
  g_mutex_unlock (&stats_lock);
}

static gint64
now_us (void)
{
  return g_get_monotonic_time ();
}

static void
add_field (GChecksum *sum, const char *text)
{
  guint64 len = strlen (text);

  g_checksum_update (sum, (const guchar *) &len, sizeof len);
  g_checksum_update (sum, (const guchar *) text, len);
}

WbNvrtcImage *
wb_nvrtc_compile (const char *source, const char *arch, const char *cache_dir, GError **error)
{
  const WbNvrtcApi *api;
  g_autofree char  *arch_opt = NULL;
  g_autofree char  *dir = NULL;
  g_autofree char  *path = NULL;
  g_autofree char  *log_path = NULL;
  g_autofree char  *text = NULL;
  g_autoptr (GChecksum) sum = NULL;
  const char   *opts[6];
  guint         n_opts = 0;
  nvrtcProgram  prog = NULL;
  nvrtcResult   rc;
  int           vmaj = 0, vmin = 0;
  gboolean      cubin;
  WbNvrtcImage *img;
  gint64        t0;
  size_t        log_len = 0, len = 0;
  char         *log;
  guint8       *bytes;

  g_return_val_if_fail (source != NULL && arch != NULL, NULL);
  if ((api = wb_cuda_load_nvrtc (error)) == NULL)
    return NULL;
  api->nvrtcVersion (&vmaj, &vmin);
  cubin = g_str_has_prefix (arch, "sm_");
  arch_opt = g_strdup_printf ("--gpu-architecture=%s", arch);
  opts[n_opts++] = arch_opt;
  opts[n_opts++] = "--std=c++17";
  opts[n_opts++] = "-default-device";
  opts[n_opts++] = "--generate-line-info";

  text = g_strconcat (wb_cuda_codegen_prelude (), "\n", source, NULL);
  sum = g_checksum_new (G_CHECKSUM_SHA256);
  add_field (sum, CACHE_FORMAT);
  {
    char v[32];
    g_snprintf (v, sizeof v, "%d.%d", vmaj, vmin);
    add_field (sum, v);
  }
  for (guint i = 0; i < n_opts; i++)
    add_field (sum, opts[i]);
  add_field (sum, text);

  img = g_new0 (WbNvrtcImage, 1);
  img->key = g_strdup (g_checksum_get_string (sum));
  img->is_cubin = cubin;
  dir = cache_dir ? g_strdup (cache_dir) : wb_nvrtc_default_cache_dir ();
  if (dir[0] != '\0')
    {
      gchar *contents = NULL;
      gsize  clen = 0;
      path = g_strdup_printf ("%s/%s.%s", dir, img->key, cubin ? "cubin" : "ptx");
      log_path = g_strdup_printf ("%s/%s.log", dir, img->key);
      if (g_file_get_contents (path, &contents, &clen, NULL) &&
          (cubin ? (clen > 4 && memcmp (contents, "\177ELF", 4) == 0) : (clen > 0 && contents[clen - 1] == '\0')))
        {
          img->image = g_bytes_new_take (contents, clen);
          if (!g_file_get_contents (log_path, &img->log, NULL, NULL))
            img->log = g_strdup ("");
          img->cache_hit = TRUE;
          g_mutex_lock (&stats_lock);
          stats.hits++;
          g_mutex_unlock (&stats_lock);
          return img;
        }
      g_free (contents);
    }

  t0 = now_us ();
  rc = api->nvrtcCreateProgram (&prog, text, "wb_generated.cu", 0, NULL, NULL);
  if (rc != NVRTC_SUCCESS)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_CALL, "nvrtcCreateProgram: %s", api->nvrtcGetErrorString (rc));
      wb_nvrtc_image_free (img);
      return NULL;
    }
  rc = api->nvrtcCompileProgram (prog, (int) n_opts, opts);
  api->nvrtcGetProgramLogSize (prog, &log_len);
  log = g_malloc0 (log_len + 1);
  if (log_len > 0)
    api->nvrtcGetProgramLog (prog, log);
  img->log = log;
  if (rc != NVRTC_SUCCESS)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_COMPILE, "NVRTC (%s): %s\n%s", arch, api->nvrtcGetErrorString (rc), log);
      api->nvrtcDestroyProgram (&prog);
      wb_nvrtc_image_free (img);
      return NULL;
    }
  if (cubin)
    {
      api->nvrtcGetCUBINSize (prog, &len);
      bytes = g_malloc (len);
      api->nvrtcGetCUBIN (prog, (char *) bytes);
    }
  else
    {
      api->nvrtcGetPTXSize (prog, &len);
      bytes = g_malloc (len);
      api->nvrtcGetPTX (prog, (char *) bytes);
    }
  api->nvrtcDestroyProgram (&prog);
  img->image = g_bytes_new_take (bytes, len);
  img->ms = (now_us () - t0) / 1000.0;
  g_mutex_lock (&stats_lock);
  stats.compiles++;
  stats.compile_ms += img->ms;
  g_mutex_unlock (&stats_lock);

  if (path != NULL && g_mkdir_with_parents (dir, 0755) == 0)
    {
      /* best effort: a cache that cannot be written only costs a compile next time */
      g_file_set_contents (log_path, img->log, -1, NULL);
      g_file_set_contents (path, (const char *) bytes, (gssize) len, NULL);
      /* $WB_KERNEL_CACHE_SOURCES: the compiled text beside its image, to read what a run compiled */
      if (g_getenv ("WB_KERNEL_CACHE_SOURCES") != NULL)
        {
          g_autofree char *cu = g_strdup_printf ("%s/%s.cu", dir, img->key);
          g_file_set_contents (cu, source, -1, NULL);
        }
    }
  return img;
}
