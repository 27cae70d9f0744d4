/* wb-views.h — the views module: GTK 4 widgets over the compiler's immutable traces
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Owns: WbDocument (what a window shows: the trace set, the workbench's stages, runs, the selection
 * every view shares), WbStagePair (line diff and bound-symbol pairing), WbSidebar, WbStageView (two
 * stage panes), WbRegionTable with WbRegionClaims (its executor answers, cached per pipeline), and the
 * graph and timeline views.
 * Depends on: compiler/, executors/ and profiler/ (cpu runs), GTK 4.8, libadwaita 1.2, GtkSourceView 5.6,
 * Graphviz. Never on executors' GPU code.
 * Threads: GTK only on the main context; loading, the pipeline, profiles and graph layout run on
 * GTask worker threads over immutable traces. */
#pragma once

#define WB_VIEWS_INSIDE
#include "wb-compare-view.h"
#include "wb-document.h"
#include "wb-graph-view.h"
#include "wb-kernel-table.h"
#include "wb-region-claims.h"
#include "wb-region-table.h"
#include "wb-sidebar.h"
#include "wb-stage-view.h"
#include "wb-symbol-view.h"
#include "wb-timeline.h"
#undef WB_VIEWS_INSIDE
