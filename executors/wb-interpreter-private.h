/* wb-interpreter-private.h — running one trace's bound symbols (used by wb-program.c)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "wb-executors-private.h"

G_BEGIN_DECLS

typedef struct _WbInterp WbInterp;

/* WbCotangentFunc: the cotangent for forward output @index (like @output) for prims.get_grad; (transfer
 * full) or NULL with @error set. */
typedef WbRtValue *(*WbCotangentFunc) (guint index, WbRtValue *output, gpointer data, GError **error);

/* WbLastUses: each body's names by the bound symbol that uses them last, computed once per body (a walk of
 * every nested subsymbol: tens of µs of host time per region call) and kept by the program across runs.
 * Bodies are found by address: the program's traces must outlive it (they do: it holds references). */
typedef struct _WbLastUses WbLastUses;
WbLastUses                *_wb_last_uses_new (void);
void                       _wb_last_uses_free (WbLastUses *cache);

struct _WbInterp
{
  WbRunState          state;
  const WbRunOptions *options;
  GHashTable         *assignment; /* name -> WbExecutor* (borrowed) */
  GHashTable         *by_call;    /* (nullable) top-level WbBsym* -> WbExecutor* (borrowed), before @assignment */
  WbExecutor         *default_executor;
  GHashTable         *grad_index; /* JOINT: fw_flat_out name -> index + 1 */
  WbCotangentFunc     cotangent;
  gpointer            cotangent_data;
  GHashTable         *stats;         /* name -> WbKernelStat* */
  const WbTrace      *trace;         /* the trace being run */
  WbLastUses         *last_uses;     /* (nullable) the program's; NULL: computed per body and run */
  gboolean            checking; /* running WbRunOptions.check_call on check_executor: no hooks */
  GHashTable         *dtensor_types; /* (nullable) name -> const WbType* of @trace's DTensor annotations, built on first use */
};

/* _wb_last_uses_of: for each of @body's @n bound symbols, the names whose last use it is (NULL-terminated
 * arrays, or NULL); transfer none when @in has the program's cache, else full (_wb_last_uses_release). */
GPtrArray **_wb_last_uses_of (WbInterp *in, const WbBsym *const *body, guint n);
void        _wb_last_uses_release (GPtrArray **last, guint n);

/* _wb_interp_run_trace: binds @args to @trace's parameters and runs its body. Returns the RETURN value
 * (transfer full; NONE when the trace returns nothing) or NULL with @error set. */
WbRtValue *_wb_interp_run_trace (WbInterp *in, const WbTrace *trace, GPtrArray *args, GError **error);

/* _wb_find_return: (transfer none) the RETURN bound symbol of @trace, or NULL. */
const WbBsym *_wb_find_return (const WbTrace *trace);
/* _wb_value_dict_get: (transfer none) the value of string key @key in a printed dict, or NULL. */
const WbValue *_wb_value_dict_get (const WbValue *dict, const char *key);
/* _wb_param_name: a parameter's name (the base name of *args / **kwargs) (transfer none). */
const char *_wb_param_name (const WbValue *param);

G_END_DECLS
