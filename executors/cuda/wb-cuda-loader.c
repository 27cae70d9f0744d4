/* wb-cuda-loader.c — dlopen of libcuda, libnvrtc and libcublasLt and their call tables
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "wb-cuda-loader.h"

#include <dlfcn.h>
#include <string.h>

/* clang-format off */
G_DEFINE_QUARK (wb-cuda-error-quark, wb_cuda_error)
/* clang-format on */

#ifndef WB_CUDA_TOOLKIT
#define WB_CUDA_TOOLKIT "/usr/local/cuda"
#endif
#ifndef WB_CUDA_MAJOR
#define WB_CUDA_MAJOR 13
#endif

typedef struct
{
  gsize    once;
  gpointer handle;
  char    *path;
  char    *error;
} Lib;

static Lib        lib_cuda, lib_nvrtc, lib_lt;
static WbCuApi    cu_api;
static WbNvrtcApi nvrtc_api;
static WbLtApi    lt_api;

/* Opens @soname by name, then in the library directories; on failure records every attempt. */
static gpointer
open_library (const char *soname, gboolean system_only, char **path, char **error)
{
  GString    *tried = g_string_new (NULL);
  const char *env = g_getenv ("WB_CUDA_LIB_DIR");
  const char *dirs[] = { env, WB_CUDA_TOOLKIT "/lib64", WB_CUDA_TOOLKIT "/lib", "/usr/local/cuda/lib64", NULL };
  gpointer    h = dlopen (soname, RTLD_NOW | RTLD_LOCAL);

  if (h != NULL)
    {
      *path = g_strdup (soname);
      g_string_free (tried, TRUE);
      return h;
    }
  g_string_append (tried, dlerror ());
  for (guint i = 0; !system_only && i < G_N_ELEMENTS (dirs); i++)
    {
      g_autofree char *p = NULL;
      if (dirs[i] == NULL || dirs[i][0] == '\0')
        continue;
      p = g_build_filename (dirs[i], soname, NULL);
      if (!g_file_test (p, G_FILE_TEST_EXISTS))
        continue;
      h = dlopen (p, RTLD_NOW | RTLD_LOCAL);
      if (h != NULL)
        {
          *path = g_steal_pointer (&p);
          g_string_free (tried, TRUE);
          return h;
        }
      g_string_append_printf (tried, "; %s", dlerror ());
    }
  *error = g_string_free (tried, FALSE);
  return NULL;
}

static gboolean
resolve (Lib *lib, const char *const *names, gpointer *slots, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      slots[i] = dlsym (lib->handle, names[i]);
      if (slots[i] == NULL)
        {
          lib->error = g_strdup_printf ("%s lacks %s", lib->path, names[i]);
          return FALSE;
        }
    }
  return TRUE;
}

#define WB_CUDA_NAME(f) WB_CUDA_SYMBOL (f),

static const char *const cu_names[] = { WB_CU_FUNCTIONS (WB_CUDA_NAME) };
static const char *const nvrtc_names[] = { WB_NVRTC_FUNCTIONS (WB_CUDA_NAME) };
static const char *const lt_names[] = { WB_LT_FUNCTIONS (WB_CUDA_NAME) };

G_STATIC_ASSERT (sizeof (WbCuApi) == G_N_ELEMENTS (cu_names) * sizeof (gpointer));
G_STATIC_ASSERT (sizeof (WbNvrtcApi) == G_N_ELEMENTS (nvrtc_names) * sizeof (gpointer));
G_STATIC_ASSERT (sizeof (WbLtApi) == G_N_ELEMENTS (lt_names) * sizeof (gpointer));

static void
load (Lib *lib, const char *soname, gboolean system_only, const char *const *names, gpointer table, guint n)
{
  if (g_once_init_enter (&lib->once))
    {
      lib->handle = open_library (soname, system_only, &lib->path, &lib->error);
      if (lib->handle != NULL && !resolve (lib, names, table, n))
        lib->handle = NULL;
      g_once_init_leave (&lib->once, 1);
    }
}

const WbCuApi *
wb_cuda_load_driver (GError **error)
{
  load (&lib_cuda, "libcuda.so.1", TRUE, cu_names, &cu_api, G_N_ELEMENTS (cu_names));
  if (lib_cuda.handle == NULL)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_NO_DRIVER, "no NVIDIA driver: %s", lib_cuda.error);
      return NULL;
    }
  return &cu_api;
}

gpointer
wb_cuda_driver_symbol (const char *name)
{
  if (wb_cuda_load_driver (NULL) == NULL)
    return NULL;
  return dlsym (lib_cuda.handle, name);
}

const WbNvrtcApi *
wb_cuda_load_nvrtc (GError **error)
{
  g_autofree char *so = g_strdup_printf ("libnvrtc.so.%d", WB_CUDA_MAJOR);

  load (&lib_nvrtc, so, FALSE, nvrtc_names, &nvrtc_api, G_N_ELEMENTS (nvrtc_names));
  if (lib_nvrtc.handle == NULL)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_LIBRARY, "NVRTC is not available: %s", lib_nvrtc.error);
      return NULL;
    }
  return &nvrtc_api;
}

const WbLtApi *
wb_cuda_load_cublaslt (GError **error)
{
  g_autofree char *so = g_strdup_printf ("libcublasLt.so.%d", WB_CUDA_MAJOR);

  load (&lib_lt, so, FALSE, lt_names, &lt_api, G_N_ELEMENTS (lt_names));
  if (lib_lt.handle == NULL)
    {
      g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_LIBRARY, "cuBLASLt is not available: %s", lib_lt.error);
      return NULL;
    }
  return &lt_api;
}

gpointer
wb_cuda_open_library (const char *soname, char **path, GError **error)
{
  g_autofree char *tried = NULL;
  gpointer         h = open_library (soname, FALSE, path, &tried);

  if (h == NULL)
    g_set_error (error, WB_CUDA_ERROR, WB_CUDA_ERROR_LIBRARY, "%s cannot be opened: %s", soname, tried);
  return h;
}

const char *
wb_cuda_get_library_path (const char *which)
{
  if (g_strcmp0 (which, "cuda") == 0)
    return lib_cuda.handle ? lib_cuda.path : NULL;
  if (g_strcmp0 (which, "nvrtc") == 0)
    return lib_nvrtc.handle ? lib_nvrtc.path : NULL;
  if (g_strcmp0 (which, "cublasLt") == 0)
    return lib_lt.handle ? lib_lt.path : NULL;
  return NULL;
}

gboolean
wb_cuda_result_is_sticky (CUresult rc)
{
  switch (rc)
    {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_ECC_UNCORRECTABLE:
    case CUDA_ERROR_CONTEXT_IS_DESTROYED:
      return TRUE;
    default:
      return FALSE;
    }
}

gboolean
wb_cuda_check (CUresult rc, const char *what, GError **error)
{
  const char *name = NULL, *text = NULL;
  int         code;

  if (rc == CUDA_SUCCESS)
    return TRUE;
  if (lib_cuda.handle != NULL)
    {
      cu_api.cuGetErrorName (rc, &name);
      cu_api.cuGetErrorString (rc, &text);
    }
  code = wb_cuda_result_is_sticky (rc)    ? WB_CUDA_ERROR_FAULT
         : rc == CUDA_ERROR_OUT_OF_MEMORY ? WB_CUDA_ERROR_OUT_OF_MEMORY
         : rc == CUDA_ERROR_NO_DEVICE     ? WB_CUDA_ERROR_NO_DEVICE
                                          : WB_CUDA_ERROR_CALL;
  g_set_error (error, WB_CUDA_ERROR, code, "%s: %s (%d): %s", what, name ? name : "CUDA_ERROR", (int) rc,
               text ? text : "unknown error");
  return FALSE;
}
