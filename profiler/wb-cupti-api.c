/* wb-cupti-api.c — the host's CUDA API calls out of CUPTI's API records (DRIVER and RUNTIME activity kinds)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A CUpti_ActivityAPI record (cupti_activity.h) holds kind, cbid, start, end (ns), processId, threadId,
 * correlationId and returnValue. Its function name is cuptiGetCallbackName's (DRIVER and RUNTIME domains
 * only) once libcupti is loaded, else this file's table (wb-cupti-private.h's lists), else
 * "driver API call N". CUPTI names the runtime's callbacks with their version ("cudaLaunchKernel_v7000");
 * that suffix (_v and four or more digits) is dropped, as Nsight Systems shows them. */
#include "config.h"

#include <string.h>

#include "wb-cupti-private.h"

static WbCuptiCallbackNameFunc callback_name; /* (nullable) libcupti's cuptiGetCallbackName */

void
_wb_cupti_set_callback_name_func (WbCuptiCallbackNameFunc func)
{
  callback_name = func;
}

#ifdef WB_HAVE_CUPTI

#include <cupti.h>

/* interned @name without a trailing "_v" and four or more digits */
static const char *
intern_call_name (const char *name)
{
  const char *v = strrchr (name, '_');
  gsize       digits = v ? strspn (v + 2, "0123456789") : 0;

  if (v != NULL && v > name && v[1] == 'v' && digits >= 4 && v[2 + digits] == '\0')
    {
      g_autofree char *cut = g_strndup (name, (gsize) (v - name));
      return g_intern_string (cut);
    }
  return g_intern_string (name);
}

typedef struct
{
  CUpti_CallbackId id;
  const char      *name;
} CallName;

#define WB_CUPTI_DRIVER_ENTRY(f) { CUPTI_DRIVER_TRACE_CBID_##f, #f },
#define WB_CUPTI_RUNTIME_ENTRY(f) { CUPTI_RUNTIME_TRACE_CBID_##f, #f },

static const CallName driver_names[] = { WB_CUPTI_DRIVER_CALLS (WB_CUPTI_DRIVER_ENTRY) WB_CUPTI_DRIVER_OTHER_CALLS (WB_CUPTI_DRIVER_ENTRY) };
static const CallName runtime_names[] = { WB_CUPTI_RUNTIME_CALLS (WB_CUPTI_RUNTIME_ENTRY) WB_CUPTI_RUNTIME_OTHER_CALLS (WB_CUPTI_RUNTIME_ENTRY) };

static const char *
call_name (WbCuptiApiDomain domain, guint32 cbid)
{
  const CallName  *table = domain == WB_CUPTI_API_DRIVER ? driver_names : runtime_names;
  guint            n = domain == WB_CUPTI_API_DRIVER ? G_N_ELEMENTS (driver_names) : G_N_ELEMENTS (runtime_names);
  const char      *name = NULL;
  g_autofree char *fallback = NULL;

  if (callback_name != NULL &&
      callback_name (domain == WB_CUPTI_API_DRIVER ? CUPTI_CB_DOMAIN_DRIVER_API : CUPTI_CB_DOMAIN_RUNTIME_API, cbid, &name) == CUPTI_SUCCESS &&
      name != NULL && name[0] != '\0')
    return intern_call_name (name);
  for (guint i = 0; i < n; i++)
    if (table[i].id == cbid)
      return intern_call_name (table[i].name);
  fallback = g_strdup_printf ("%s API call %u", domain == WB_CUPTI_API_DRIVER ? "driver" : "runtime", cbid);
  return g_intern_string (fallback);
}

gboolean
wb_cupti_api_call_from_record (const void *record, WbCuptiApiCall *out)
{
  const CUpti_ActivityAPI *a = record;

  g_return_val_if_fail (record != NULL && out != NULL, FALSE);
  if (a->kind != CUPTI_ACTIVITY_KIND_DRIVER && a->kind != CUPTI_ACTIVITY_KIND_RUNTIME)
    return FALSE;
  memset (out, 0, sizeof *out);
  out->domain = a->kind == CUPTI_ACTIVITY_KIND_DRIVER ? WB_CUPTI_API_DRIVER : WB_CUPTI_API_RUNTIME;
  out->cbid = a->cbid;
  out->name = call_name (out->domain, a->cbid);
  out->start_ns = (gint64) a->start;
  out->end_ns = MAX ((gint64) a->end, (gint64) a->start);
  out->thread = a->threadId;
  out->correlation_id = a->correlationId;
  return TRUE;
}

#else /* !WB_HAVE_CUPTI */

gboolean
wb_cupti_api_call_from_record (const void *record, WbCuptiApiCall *out)
{
  (void) record;
  (void) out;
  return FALSE;
}

#endif
