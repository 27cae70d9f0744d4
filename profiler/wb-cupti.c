/* wb-cupti.c — CUPTI activity tracing (dlopen'd libcupti): the collector (attribution: wb-cupti-attribute.c)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wb-cupti-private.h"

/* clang-format off */
G_DEFINE_QUARK (wb-cupti-error-quark, wb_cupti_error)
/* clang-format on */

/* -- the collector ------------------------------------------------------------------------------- */

#ifdef WB_HAVE_CUPTI

#include <cupti.h>
#include <dlfcn.h>
#include <link.h>

#ifndef WB_CUDA_TOOLKIT
#define WB_CUDA_TOOLKIT "/usr/local/cuda"
#endif
#ifndef WB_CUDA_MAJOR
#define WB_CUDA_MAJOR 13
#endif

#define WB_CUPTI_BUFFER_SIZE ((size_t) 8 << 20)

#define WB_CUPTI_FUNCTIONS(X)                \
  X (cuptiGetVersion)                        \
  X (cuptiGetResultString)                   \
  X (cuptiActivityRegisterCallbacks)         \
  X (cuptiActivityRegisterTimestampCallback) \
  X (cuptiActivityEnable)                    \
  X (cuptiActivityDisable)                   \
  X (cuptiActivityFlushAll)                  \
  X (cuptiActivityGetNextRecord)             \
  X (cuptiActivityGetNumDroppedRecords)      \
  X (cuptiActivityPushExternalCorrelationId) \
  X (cuptiActivityPopExternalCorrelationId)
/* optional: fine-grained API records (KIND_DRIVER / KIND_RUNTIME without them) */
/* optional: the callback API (correlation by callbacks; without it, by API records); host calls' names */
#define WB_CUPTI_OPTIONAL(X)        \
  X (cuptiActivityEnableDriverApi)  \
  X (cuptiActivityEnableRuntimeApi) \
  X (cuptiGetTimestamp)             \
  X (cuptiSubscribe)                \
  X (cuptiUnsubscribe)              \
  X (cuptiEnableCallback)           \
  X (cuptiGetCallbackName)

#define WB_CUPTI_MEMBER(f) __typeof__ (&f) f;
#define WB_CUPTI_NAME(f) #f,

typedef struct
{
  WB_CUPTI_FUNCTIONS (WB_CUPTI_MEMBER)
  WB_CUPTI_OPTIONAL (WB_CUPTI_MEMBER)
} CuptiApi;

static const char *const cupti_names[] = { WB_CUPTI_FUNCTIONS (WB_CUPTI_NAME) WB_CUPTI_OPTIONAL (WB_CUPTI_NAME) };
#define N_REQUIRED (G_N_ELEMENTS (cupti_names) - 7)
G_STATIC_ASSERT (sizeof (CuptiApi) == G_N_ELEMENTS (cupti_names) * sizeof (gpointer));

static gsize    cupti_once;
static CuptiApi api;
static char    *cupti_path;
static char    *cupti_load_error;
static gboolean callbacks_registered;
static gint64   clock_offset; /* CUPTI's clock - ours, when our timestamp callback was refused (else 0) */

/* what the buffer callback fills (under the lock) */
static GMutex      lock;
static GArray     *pending;       /* (element-type WbCuptiActivity) */
static GHashTable *pending_corr;  /* correlation id -> ext id */
static GArray     *pending_pairs; /* (element-type guint64) correlation id, ext id, ... from the API callback */
static guint64     dropped;
static GArray     *pending_api; /* (element-type WbCuptiApiCall) the host's calls */
static guint64     api_lost;    /* host calls beyond WB_CUPTI_MAX_API_CALLS since the last collect */
static WbCupti    *active;

#define EXT_STACK_DEPTH 16

struct _WbCupti
{
  guint32                version;
  WbCuptiCorrelation     correlation;
  gboolean               whole_driver, whole_runtime; /* KIND_DRIVER / KIND_RUNTIME instead of fine-grained */
  GPtrArray             *enabled;                     /* (element-type CUpti_ActivityKind as pointer) kinds to disable */
  guint                  pushed;                      /* external ids on the stack */
  CUpti_SubscriberHandle subscriber;                  /* WB_CUPTI_CORRELATION_CALLBACKS */
  guint64                ext_stack[EXT_STACK_DEPTH];  /* WB_CUPTI_CORRELATION_CALLBACKS: the pushed ids */
  gboolean               paused;
};

/* The driver's and the runtime's calls whose API records carry an external id (wb-cupti-private.h) */
#define WB_CUPTI_DRIVER_CBID(f) CUPTI_DRIVER_TRACE_CBID_##f,
#define WB_CUPTI_RUNTIME_CBID(f) CUPTI_RUNTIME_TRACE_CBID_##f,
static const CUpti_CallbackId driver_cbids[] = { WB_CUPTI_DRIVER_CALLS (WB_CUPTI_DRIVER_CBID) };
static const CUpti_CallbackId runtime_cbids[] = { WB_CUPTI_RUNTIME_CALLS (WB_CUPTI_RUNTIME_CBID) };

static const CUpti_ActivityKind kinds[] = {
  CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
  CUPTI_ACTIVITY_KIND_MEMCPY,
  CUPTI_ACTIVITY_KIND_MEMSET,
  CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION,
};

static const char *
kind_name (CUpti_ActivityKind k)
{
  switch (k)
    {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      return "CONCURRENT_KERNEL";
    case CUPTI_ACTIVITY_KIND_MEMCPY:
      return "MEMCPY";
    case CUPTI_ACTIVITY_KIND_MEMSET:
      return "MEMSET";
    case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION:
      return "EXTERNAL_CORRELATION";
    case CUPTI_ACTIVITY_KIND_DRIVER:
      return "DRIVER";
    case CUPTI_ACTIVITY_KIND_RUNTIME:
      return "RUNTIME";
    default:
      return "?";
    }
}

static gboolean
check (CUptiResult rc, const char *what, const char *arg, GError **error)
{
  const char *text = NULL;

  if (rc == CUPTI_SUCCESS)
    return TRUE;
  if (api.cuptiGetResultString == NULL || api.cuptiGetResultString (rc, &text) != CUPTI_SUCCESS)
    text = NULL;
  g_set_error (error, WB_CUPTI_ERROR, WB_CUPTI_ERROR_CALL, "%s%s%s%s: %s (%d)", what, arg ? " (" : "", arg ? arg : "", arg ? ")" : "",
               text ? text : "CUPTI error", (int) rc);
  return FALSE;
}

/* The directory libcuda.so.1 was loaded from (transfer full), or NULL. */
static char *
driver_dir (void)
{
  void *h = dlopen ("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
  char  origin[4096] = "";

  if (h == NULL)
    return NULL;
  if (dlinfo (h, RTLD_DI_ORIGIN, origin) != 0)
    origin[0] = '\0';
  dlclose (h);
  return origin[0] ? g_strdup (origin) : NULL;
}

static gpointer
open_cupti (void)
{
  g_autofree char *soname = g_strdup_printf ("libcupti.so.%d", WB_CUDA_MAJOR);
  g_autofree char *home = g_strdup (g_getenv ("CUDA_HOME"));
  g_autofree char *drv = driver_dir ();
  const char      *names[] = { soname, "libcupti.so" };
  const char      *dirs[] = { home, WB_CUDA_TOOLKIT "/lib64", WB_CUDA_TOOLKIT "/extras/CUPTI/lib64", "/usr/local/cuda/lib64", drv };
  GString         *tried = g_string_new (NULL);
  gpointer         h = NULL;

  if (home != NULL && home[0] != '\0')
    {
      char *lib = g_build_filename (home, "lib64", NULL);
      g_free (home);
      dirs[0] = home = lib;
    }
  for (guint i = 0; h == NULL && i < G_N_ELEMENTS (names); i++)
    {
      h = dlopen (names[i], RTLD_NOW | RTLD_LOCAL);
      if (h != NULL)
        cupti_path = g_strdup (names[i]);
      else
        g_string_append_printf (tried, "%s%s", tried->len ? "; " : "", dlerror ());
    }
  for (guint i = 0; h == NULL && i < G_N_ELEMENTS (dirs); i++)
    for (guint j = 0; h == NULL && dirs[i] != NULL && dirs[i][0] != '\0' && j < G_N_ELEMENTS (names); j++)
      {
        g_autofree char *p = g_build_filename (dirs[i], names[j], NULL);
        if (!g_file_test (p, G_FILE_TEST_EXISTS))
          continue;
        h = dlopen (p, RTLD_NOW | RTLD_LOCAL);
        if (h != NULL)
          cupti_path = g_steal_pointer (&p);
        else
          g_string_append_printf (tried, "; %s", dlerror ());
      }
  if (h == NULL)
    cupti_load_error = g_strdup_printf ("libcupti cannot be opened: %s", tried->str);
  g_string_free (tried, TRUE);
  return h;
}

static gboolean
load (GError **error)
{
  if (g_once_init_enter (&cupti_once))
    {
      gpointer h = open_cupti ();
      for (guint i = 0; h != NULL && i < G_N_ELEMENTS (cupti_names); i++)
        {
          ((gpointer *) &api)[i] = dlsym (h, cupti_names[i]);
          if (((gpointer *) &api)[i] == NULL && i < N_REQUIRED)
            {
              cupti_load_error = g_strdup_printf ("%s lacks %s", cupti_path, cupti_names[i]);
              memset (&api, 0, sizeof api);
              break;
            }
        }
      _wb_cupti_set_callback_name_func ((WbCuptiCallbackNameFunc) api.cuptiGetCallbackName);
      g_once_init_leave (&cupti_once, 1);
    }
  if (api.cuptiGetVersion == NULL)
    {
      g_set_error (error, WB_CUPTI_ERROR, WB_CUPTI_ERROR_UNAVAILABLE, "%s", cupti_load_error ? cupti_load_error : "libcupti is not loaded");
      return FALSE;
    }
  return TRUE;
}

static uint64_t CUPTIAPI
timestamp_ns (void)
{
  return (uint64_t) wb_cupti_now_ns ();
}

static void CUPTIAPI
on_buffer_requested (uint8_t **buffer, size_t *size, size_t *max_records)
{
  *buffer = aligned_alloc (ACTIVITY_RECORD_ALIGNMENT, WB_CUPTI_BUFFER_SIZE);
  *size = *buffer ? WB_CUPTI_BUFFER_SIZE : 0;
  *max_records = 0;
}

static guint debug_counts[64]; /* records per kind since the last collect (WB_CUPTI_DEBUG=1) */

static void
copy_record (const CUpti_Activity *rec)
{
  WbCuptiActivity a = { 0 };

  debug_counts[MIN ((guint) rec->kind, G_N_ELEMENTS (debug_counts) - 1)]++;
  a.entry = -1;
  a.start_ns = a.end_ns = 0;
  switch (rec->kind)
    {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      {
        const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *) rec;
        a.kind = WB_CUPTI_KERNEL;
        a.name = g_intern_string (k->name ? k->name : "(unnamed kernel)");
        a.start_ns = (gint64) k->start;
        a.end_ns = (gint64) k->end;
        a.correlation_id = k->correlationId;
        a.stream = k->streamId;
        a.grid[0] = (guint32) k->gridX, a.grid[1] = (guint32) k->gridY, a.grid[2] = (guint32) k->gridZ;
        a.block[0] = (guint32) k->blockX, a.block[1] = (guint32) k->blockY, a.block[2] = (guint32) k->blockZ;
        a.registers = k->registersPerThread;
        a.shared_bytes = (guint32) k->staticSharedMemory + k->dynamicSharedMemory;
        break;
      }
    case CUPTI_ACTIVITY_KIND_MEMCPY:
      {
        const CUpti_ActivityMemcpy6 *m = (const CUpti_ActivityMemcpy6 *) rec;
        a.kind = WB_CUPTI_MEMCPY;
        a.start_ns = (gint64) m->start;
        a.end_ns = (gint64) m->end;
        a.correlation_id = m->correlationId;
        a.stream = m->streamId;
        a.bytes = m->bytes;
        a.copy_kind = m->copyKind;
        break;
      }
    case CUPTI_ACTIVITY_KIND_MEMSET:
      {
        const CUpti_ActivityMemset4 *m = (const CUpti_ActivityMemset4 *) rec;
        a.kind = WB_CUPTI_MEMSET;
        a.start_ns = (gint64) m->start;
        a.end_ns = (gint64) m->end;
        a.correlation_id = m->correlationId;
        a.stream = m->streamId;
        a.bytes = m->bytes;
        break;
      }
    case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION:
      {
        const CUpti_ActivityExternalCorrelation *e = (const CUpti_ActivityExternalCorrelation *) rec;
        if (e->externalKind == CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0)
          wb_cupti_correlations_insert (pending_corr, e->correlationId, e->externalId);
        return;
      }
    case CUPTI_ACTIVITY_KIND_DRIVER:
    case CUPTI_ACTIVITY_KIND_RUNTIME:
      {
        WbCuptiApiCall call;
        if (!wb_cupti_api_call_from_record (rec, &call))
          return;
        if (pending_api->len >= WB_CUPTI_MAX_API_CALLS)
          {
            api_lost++;
            return;
          }
        if (clock_offset != 0 && call.start_ns > 0)
          {
            call.start_ns -= clock_offset;
            call.end_ns -= clock_offset;
          }
        g_array_append_val (pending_api, call);
        return;
      }
    default:
      return;
    }
  if (clock_offset != 0 && a.start_ns > 0)
    {
      a.start_ns -= clock_offset;
      a.end_ns -= clock_offset;
    }
  g_array_append_val (pending, a);
}

static void CUPTIAPI
on_buffer_completed (CUcontext ctx, uint32_t stream_id, uint8_t *buffer, size_t size, size_t valid)
{
  CUpti_Activity *rec = NULL;
  size_t          lost = 0;

  (void) ctx;
  (void) stream_id;
  (void) size;
  g_mutex_lock (&lock);
  if (active != NULL && valid > 0)
    while (api.cuptiActivityGetNextRecord (buffer, valid, &rec) == CUPTI_SUCCESS)
      copy_record (rec);
  if (api.cuptiActivityGetNumDroppedRecords (NULL, 0, &lost) == CUPTI_SUCCESS && active != NULL)
    dropped += lost;
  g_mutex_unlock (&lock);
  free (buffer);
}

/* The callback API (WB_CUPTI_CORRELATION_CALLBACKS): runs on the calling thread, inside the API call. */
static void CUPTIAPI
on_api_call (void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *cbdata)
{
  WbCupti                  *c = userdata;
  const CUpti_CallbackData *d = cbdata;
  guint64                   pair[2];

  (void) cbid;
  if ((domain != CUPTI_CB_DOMAIN_DRIVER_API && domain != CUPTI_CB_DOMAIN_RUNTIME_API) || d->callbackSite != CUPTI_API_ENTER ||
      c->pushed == 0 || c->pushed > EXT_STACK_DEPTH)
    return;
  pair[0] = d->correlationId;
  pair[1] = c->ext_stack[c->pushed - 1];
  g_mutex_lock (&lock);
  g_array_append_vals (pending_pairs, pair, 2);
  g_mutex_unlock (&lock);
}

/* Turns the subscriber's callbacks of driver_cbids and runtime_cbids on or off (a refused id is skipped). */
static void
set_callbacks (WbCupti *c, uint32_t on)
{
  for (guint i = 0; i < G_N_ELEMENTS (driver_cbids); i++)
    api.cuptiEnableCallback (on, c->subscriber, CUPTI_CB_DOMAIN_DRIVER_API, driver_cbids[i]);
  for (guint i = 0; i < G_N_ELEMENTS (runtime_cbids); i++)
    api.cuptiEnableCallback (on, c->subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, runtime_cbids[i]);
}

/* Subscribes and enables the callbacks of driver_cbids and runtime_cbids. FALSE (nothing left enabled)
 * when this CUPTI has no callback API or refuses cuLaunchKernel's. */
static gboolean
enable_callbacks (WbCupti *c)
{
  if (api.cuptiSubscribe == NULL || api.cuptiEnableCallback == NULL || api.cuptiUnsubscribe == NULL)
    return FALSE;
  if (api.cuptiSubscribe (&c->subscriber, (CUpti_CallbackFunc) on_api_call, c) != CUPTI_SUCCESS)
    {
      c->subscriber = NULL;
      return FALSE;
    }
  if (api.cuptiEnableCallback (1, c->subscriber, CUPTI_CB_DOMAIN_DRIVER_API, driver_cbids[0]) != CUPTI_SUCCESS)
    {
      api.cuptiUnsubscribe (c->subscriber);
      c->subscriber = NULL;
      return FALSE;
    }
  set_callbacks (c, 1);
  return TRUE;
}

static void
disable_all (WbCupti *c)
{
  if (c->subscriber != NULL)
    {
      api.cuptiUnsubscribe (c->subscriber); /* disables its callbacks */
      c->subscriber = NULL;
    }
  for (guint i = 0; i < c->enabled->len; i++)
    api.cuptiActivityDisable ((CUpti_ActivityKind) GPOINTER_TO_INT (c->enabled->pdata[i]));
  g_ptr_array_set_size (c->enabled, 0);
  if (c->correlation != WB_CUPTI_CORRELATION_FINE_GRAINED)
    return;
  if (api.cuptiActivityEnableDriverApi && !c->whole_driver)
    for (guint i = 0; i < G_N_ELEMENTS (driver_cbids); i++)
      api.cuptiActivityEnableDriverApi (driver_cbids[i], 0);
  if (api.cuptiActivityEnableRuntimeApi && !c->whole_runtime)
    for (guint i = 0; i < G_N_ELEMENTS (runtime_cbids); i++)
      api.cuptiActivityEnableRuntimeApi (runtime_cbids[i], 0);
}

static gboolean
enable_kind (WbCupti *c, CUpti_ActivityKind k, GError **error)
{
  if (!check (api.cuptiActivityEnable (k), "cuptiActivityEnable", kind_name (k), error))
    return FALSE;
  g_ptr_array_add (c->enabled, GINT_TO_POINTER ((int) k));
  return TRUE;
}

WbCupti *
wb_cupti_start (GError **error)
{
  WbCupti *c;
  uint32_t version = 0;

  if (!load (error))
    return NULL;
  if (active != NULL)
    {
      g_set_error (error, WB_CUPTI_ERROR, WB_CUPTI_ERROR_CALL, "CUPTI is already tracing in this process");
      return NULL;
    }
  if (!check (api.cuptiGetVersion (&version), "cuptiGetVersion", NULL, error))
    return NULL;
  if (!callbacks_registered)
    {
      /* the clock first: every record then uses it; if CUPTI refuses ours, its records are moved onto ours
       * by the offset between the two clocks now */
      CUptiResult rc = api.cuptiActivityRegisterTimestampCallback (timestamp_ns);
      uint64_t    theirs = 0;
      if (rc != CUPTI_SUCCESS && api.cuptiGetTimestamp != NULL && api.cuptiGetTimestamp (&theirs) == CUPTI_SUCCESS && theirs > 0)
        {
          clock_offset = (gint64) theirs - wb_cupti_now_ns ();
          g_printerr ("thunder-wb-runner: CUPTI kept its own clock (%d); its timestamps are shifted by %" G_GINT64_FORMAT " ns\n", (int) rc, clock_offset);
        }
      else if (!check (rc, "cuptiActivityRegisterTimestampCallback", NULL, error))
        return NULL;
      if (!check (api.cuptiActivityRegisterCallbacks (on_buffer_requested, on_buffer_completed), "cuptiActivityRegisterCallbacks", NULL, error))
        return NULL;
      callbacks_registered = TRUE;
    }
  c = g_new0 (WbCupti, 1);
  c->version = version;
  c->enabled = g_ptr_array_new ();
  g_mutex_lock (&lock);
  if (pending == NULL)
    {
      pending = g_array_new (FALSE, FALSE, sizeof (WbCuptiActivity));
      pending_corr = wb_cupti_correlations_new ();
      pending_pairs = g_array_sized_new (FALSE, FALSE, sizeof (guint64), 4096);
      pending_api = g_array_new (FALSE, FALSE, sizeof (WbCuptiApiCall));
    }
  g_array_set_size (pending_api, 0);
  api_lost = 0;
  g_array_set_size (pending, 0);
  g_array_set_size (pending_pairs, 0);
  g_hash_table_remove_all (pending_corr);
  dropped = 0;
  active = c;
  g_mutex_unlock (&lock);

  {
    const char *mode = g_getenv ("WB_CUPTI_CORRELATION");
    if (g_strcmp0 (g_getenv ("WB_CUPTI_FINE_GRAINED"), "1") == 0 || g_strcmp0 (mode, "fine-grained") == 0)
      c->correlation = WB_CUPTI_CORRELATION_FINE_GRAINED;
    else if (g_strcmp0 (mode, "callbacks") == 0)
      c->correlation = WB_CUPTI_CORRELATION_CALLBACKS;
    else if (g_strcmp0 (mode, "none") == 0)
      c->correlation = WB_CUPTI_CORRELATION_NONE;
    else
      c->correlation = WB_CUPTI_CORRELATION_RECORDS;
  }
  /* kernels, copies, memsets; EXTERNAL_CORRELATION only where CUPTI's own stack joins them */
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    if ((kinds[i] != CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION ||
         (c->correlation != WB_CUPTI_CORRELATION_CALLBACKS && c->correlation != WB_CUPTI_CORRELATION_NONE)) &&
        !enable_kind (c, kinds[i], error))
      goto fail;
  if (c->correlation == WB_CUPTI_CORRELATION_NONE)
    return c;
  if (c->correlation == WB_CUPTI_CORRELATION_CALLBACKS)
    {
      if (enable_callbacks (c))
        return c;
      g_printerr ("thunder-wb-runner: CUPTI's callback API is unavailable here; kernels are joined through API records\n");
      c->correlation = WB_CUPTI_CORRELATION_RECORDS;
      if (!enable_kind (c, CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION, error))
        goto fail;
    }
  /* API records, so that external correlation records are written (gpu-apis.md §1). Seen on the H200
   * (CUPTI 13.0, driver 580): the per-callback switches return success but write no API records, hence no
   * EXTERNAL_CORRELATION records either (0 of 15 kernels joined); the whole DRIVER and RUNTIME kinds do.
   * Fine-grained: the first id of each list (cuLaunchKernel, cudaLaunchKernel) must be taken, else the whole
   * kind is enabled instead; another id this CUPTI refuses is skipped. */
  if (c->correlation == WB_CUPTI_CORRELATION_FINE_GRAINED && api.cuptiActivityEnableDriverApi != NULL &&
      api.cuptiActivityEnableDriverApi (driver_cbids[0], 1) == CUPTI_SUCCESS)
    for (guint i = 1; i < G_N_ELEMENTS (driver_cbids); i++)
      api.cuptiActivityEnableDriverApi (driver_cbids[i], 1);
  else
    {
      c->whole_driver = TRUE;
      if (!enable_kind (c, CUPTI_ACTIVITY_KIND_DRIVER, error))
        goto fail;
    }
  if (c->correlation == WB_CUPTI_CORRELATION_FINE_GRAINED && api.cuptiActivityEnableRuntimeApi != NULL &&
      api.cuptiActivityEnableRuntimeApi (runtime_cbids[0], 1) == CUPTI_SUCCESS)
    for (guint i = 1; i < G_N_ELEMENTS (runtime_cbids); i++)
      api.cuptiActivityEnableRuntimeApi (runtime_cbids[i], 1);
  else
    {
      c->whole_runtime = TRUE;
      if (!enable_kind (c, CUPTI_ACTIVITY_KIND_RUNTIME, error))
        goto fail;
    }
  return c;

fail:
  disable_all (c);
  g_mutex_lock (&lock);
  active = NULL;
  g_mutex_unlock (&lock);
  g_ptr_array_unref (c->enabled);
  g_free (c);
  return NULL;
}

void
wb_cupti_stop (WbCupti *c)
{
  if (c == NULL)
    return;
  while (c->pushed > 0 && wb_cupti_pop (c, NULL))
    ;
  disable_all (c);
  api.cuptiActivityFlushAll (CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  g_mutex_lock (&lock);
  active = NULL;
  g_array_set_size (pending, 0);
  g_array_set_size (pending_pairs, 0);
  g_array_set_size (pending_api, 0);
  g_hash_table_remove_all (pending_corr);
  g_mutex_unlock (&lock);
  g_ptr_array_unref (c->enabled);
  g_free (c);
}

guint32
wb_cupti_get_version (WbCupti *c)
{
  return c->version;
}

WbCuptiCorrelation
wb_cupti_get_correlation (WbCupti *c)
{
  return c->correlation;
}

gboolean
wb_cupti_set_paused (WbCupti *c, gboolean paused, GError **error)
{
  if (c->paused == paused)
    return TRUE;
  for (guint i = 0; i < c->enabled->len; i++)
    {
      CUpti_ActivityKind k = (CUpti_ActivityKind) GPOINTER_TO_INT (c->enabled->pdata[i]);
      if (paused)
        api.cuptiActivityDisable (k);
      else if (!check (api.cuptiActivityEnable (k), "cuptiActivityEnable", kind_name (k), error))
        {
          for (guint j = 0; j < i; j++)
            api.cuptiActivityDisable ((CUpti_ActivityKind) GPOINTER_TO_INT (c->enabled->pdata[j]));
          return FALSE;
        }
    }
  if (c->subscriber != NULL)
    set_callbacks (c, paused ? 0 : 1);
  c->paused = paused;
  return TRUE;
}

const char *
wb_cupti_get_library (WbCupti *c)
{
  (void) c;
  return cupti_path;
}

gboolean
wb_cupti_push (WbCupti *c, guint64 ext_id, GError **error)
{
  if (c->correlation == WB_CUPTI_CORRELATION_CALLBACKS || c->correlation == WB_CUPTI_CORRELATION_NONE)
    {
      if (c->pushed < EXT_STACK_DEPTH)
        c->ext_stack[c->pushed] = ext_id;
      c->pushed++;
      return TRUE;
    }
  if (!check (api.cuptiActivityPushExternalCorrelationId (CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, ext_id),
              "cuptiActivityPushExternalCorrelationId", NULL, error))
    return FALSE;
  c->pushed++;
  return TRUE;
}

gboolean
wb_cupti_pop (WbCupti *c, GError **error)
{
  uint64_t last = 0;

  if (c->pushed == 0)
    return TRUE;
  c->pushed--;
  if (c->correlation == WB_CUPTI_CORRELATION_CALLBACKS || c->correlation == WB_CUPTI_CORRELATION_NONE)
    return TRUE;
  return check (api.cuptiActivityPopExternalCorrelationId (CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &last),
                "cuptiActivityPopExternalCorrelationId", NULL, error);
}

gboolean
wb_cupti_flush (WbCupti *c, GError **error)
{
  (void) c;
  return check (api.cuptiActivityFlushAll (CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "cuptiActivityFlushAll", "FORCED", error);
}

guint64
wb_cupti_collect (WbCupti *c, GArray *acts, GHashTable *correlations)
{
  guint64 lost;

  (void) c;
  g_mutex_lock (&lock);
  if (acts != NULL && pending->len > 0)
    g_array_append_vals (acts, pending->data, pending->len);
  g_array_set_size (pending, 0);
  if (correlations != NULL)
    {
      GHashTableIter it;
      gpointer       k, v;
      g_hash_table_iter_init (&it, pending_corr);
      while (g_hash_table_iter_next (&it, &k, &v))
        wb_cupti_correlations_insert (correlations, GPOINTER_TO_UINT (k), *(const guint64 *) v);
      for (guint i = 0; i + 1 < pending_pairs->len; i += 2)
        wb_cupti_correlations_insert (correlations, (guint32) g_array_index (pending_pairs, guint64, i),
                                      g_array_index (pending_pairs, guint64, i + 1));
    }
  g_array_set_size (pending_pairs, 0);
  g_hash_table_remove_all (pending_corr);
  if (g_strcmp0 (g_getenv ("WB_CUPTI_DEBUG"), "1") == 0)
    {
      g_printerr ("wb-cupti: records by kind since the last collect:");
      for (guint k = 0; k < G_N_ELEMENTS (debug_counts); k++)
        if (debug_counts[k])
          g_printerr (" %u:%u", k, debug_counts[k]);
      g_printerr (" (kept %u activities, %u correlations)\n", acts ? acts->len : 0, correlations ? g_hash_table_size (correlations) : 0);
    }
  memset (debug_counts, 0, sizeof debug_counts);
  lost = dropped;
  dropped = 0;
  g_mutex_unlock (&lock);
  return lost;
}

guint64
wb_cupti_collect_api (WbCupti *c, GArray *calls)
{
  guint64 lost;

  (void) c;
  g_mutex_lock (&lock);
  if (calls != NULL && pending_api->len > 0)
    g_array_append_vals (calls, pending_api->data, pending_api->len);
  g_array_set_size (pending_api, 0);
  lost = api_lost;
  api_lost = 0;
  g_mutex_unlock (&lock);
  return lost;
}

#else /* !WB_HAVE_CUPTI */

struct _WbCupti
{
  int unused;
};

WbCupti *
wb_cupti_start (GError **error)
{
  g_set_error (error, WB_CUPTI_ERROR, WB_CUPTI_ERROR_UNAVAILABLE, "this build has no CUPTI support (no cupti.h in the CUDA toolkit)");
  return NULL;
}

void
wb_cupti_stop (WbCupti *c)
{
  g_free (c);
}

guint32
wb_cupti_get_version (WbCupti *c)
{
  (void) c;
  return 0;
}

WbCuptiCorrelation
wb_cupti_get_correlation (WbCupti *c)
{
  (void) c;
  return WB_CUPTI_CORRELATION_RECORDS;
}

gboolean
wb_cupti_set_paused (WbCupti *c, gboolean paused, GError **error)
{
  (void) c;
  (void) paused;
  (void) error;
  return TRUE;
}

const char *
wb_cupti_get_library (WbCupti *c)
{
  (void) c;
  return NULL;
}

gboolean
wb_cupti_push (WbCupti *c, guint64 ext_id, GError **error)
{
  (void) c;
  (void) ext_id;
  (void) error;
  return TRUE;
}

gboolean
wb_cupti_pop (WbCupti *c, GError **error)
{
  (void) c;
  (void) error;
  return TRUE;
}

gboolean
wb_cupti_flush (WbCupti *c, GError **error)
{
  (void) c;
  (void) error;
  return TRUE;
}

guint64
wb_cupti_collect (WbCupti *c, GArray *acts, GHashTable *correlations)
{
  (void) c;
  (void) acts;
  (void) correlations;
  return 0;
}

guint64
wb_cupti_collect_api (WbCupti *c, GArray *calls)
{
  (void) c;
  (void) calls;
  return 0;
}

#endif
