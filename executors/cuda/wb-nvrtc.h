/* wb-nvrtc.h — generated CUDA C compiled with NVRTC, with a disk cache keyed by source and architecture
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * NVRTC needs no GPU and no driver, so compiling (and the cache) works on any machine with the toolkit
 * libraries. The compiled text is the prelude (wb_cuda_codegen_prelude) followed by the source; the key is
 * SHA-256 over a format tag, the NVRTC version, the architecture, the options, the prelude and the
 * source. Images are files <key>.cubin (sm_XY) or <key>.ptx (compute_XY) with the NVRTC log beside them
 * (<key>.log), written atomically (temporary file + rename), in $WB_KERNEL_CACHE_DIR or else
 * $XDG_CACHE_HOME/thunder-wb/kernels. A corrupt or unreadable entry is compiled again and replaced.
 * Threads: any thread; the statistics are process-wide and atomic. */
#pragma once

#if !defined(WB_EXECUTORS_INSIDE) && !defined(WB_EXECUTORS_COMPILATION)
#error "Only <wb-cuda-toolkit.h> can be included directly."
#endif

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  GBytes  *image; /* CUBIN (ELF) for sm_XY, NUL-terminated PTX for compute_XY */
  gboolean is_cubin;
  char    *log;       /* NVRTC's log ("" when it said nothing) */
  char    *key;       /* hex SHA-256 */
  gboolean cache_hit; /* read from the disk cache, nothing compiled */
  double   ms;        /* wall time of the compile (0 for a hit) */
} WbNvrtcImage;

void wb_nvrtc_image_free (WbNvrtcImage *image);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbNvrtcImage, wb_nvrtc_image_free)

/* wb_nvrtc_compile: the image of @source for @arch ("sm_90", "compute_90") from the cache in @cache_dir
 * (NULL: the default; "" disables the cache), compiling it on a miss. (transfer full) or NULL with
 * WB_CUDA_ERROR_LIBRARY (no NVRTC) or WB_CUDA_ERROR_COMPILE (the message holds the log). */
WbNvrtcImage *wb_nvrtc_compile (const char *source, const char *arch, const char *cache_dir, GError **error);
/* wb_nvrtc_default_cache_dir: (transfer full) $WB_KERNEL_CACHE_DIR or $XDG_CACHE_HOME/thunder-wb/kernels. */
char *wb_nvrtc_default_cache_dir (void);
/* wb_nvrtc_version: "13.0", or NULL when NVRTC cannot be loaded (transfer full). */
char *wb_nvrtc_version (void);
/* wb_nvrtc_supports_arch: whether NVRTC can compile for sm_@major@minor. */
gboolean wb_nvrtc_supports_arch (int major, int minor);

typedef struct
{
  guint  compiles;   /* NVRTC runs (cold) */
  guint  hits;       /* images read from the disk cache (warm) */
  double compile_ms; /* time spent in NVRTC */
} WbNvrtcStats;

/* wb_nvrtc_get_stats: counts since the process started or the last reset. */
void wb_nvrtc_get_stats (WbNvrtcStats *out);
void wb_nvrtc_reset_stats (void);

G_END_DECLS
