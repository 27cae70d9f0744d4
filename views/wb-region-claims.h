/* wb-region-claims.h — what each executor choice says of the regions of one pipeline, computed once
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#if !defined(WB_VIEWS_INSIDE) && !defined(WB_VIEWS_COMPILATION)
#error "Only <wb-views.h> can be included directly."
#endif

#include "wb-compiler.h"

G_BEGIN_DECLS

/* WbRegionClaims: the answers of wb_region_table_can_run for one pipeline, cached. The claim rule reads
 * the types of every stage that holds the region; those are built once per set of such stages (not per
 * row and choice), and each answer once per region and choice. The pipeline is immutable: the cache is
 * never stale while it lives, and a new pipeline (another assignment, another case) takes a new cache
 * (WbDocument drops it when it installs one). No GTK: usable without a display; one thread at a time. */
typedef struct _WbRegionClaims WbRegionClaims;

/* wb_region_claims_new: (transfer full) an empty cache over @pipeline (transfer none), which must outlive it. */
WbRegionClaims *wb_region_claims_new (const WbPipeline *pipeline);
void            wb_region_claims_free (WbRegionClaims *self);
/* wb_region_claims_can_run: wb_region_table_can_run (@region of the cache's pipeline, choice @executor,
 * "unfuse" too), the same answer and reason; *why_not (transfer full; may be NULL) as there. */
gboolean wb_region_claims_can_run (WbRegionClaims *self, const WbRegion *region, const char *executor, char **why_not);
/* wb_region_claims_get_n_envs: how many type environments the cache built (one per set of stages). */
guint wb_region_claims_get_n_envs (WbRegionClaims *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbRegionClaims, wb_region_claims_free)

G_END_DECLS
