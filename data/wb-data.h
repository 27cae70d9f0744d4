/* wb-data.h — the data module: session files (SQLite), trace import, run storage, comparisons
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Owns: WbSession (a .wbsession file: texts, trace sets, computed stages, regions, assignments, runs,
 * region statistics, kernel records, device ceilings; schema migrations; the checks that make a file
 * from elsewhere safe to open), WbComparison (two runs side by side, Markdown and JSON), exports of a
 * stage (Python, a PyTorch script, DOT, SVG), the profile reports and the baseline gate, and the
 * summaries by symbol and by time range that the views show (WbAggregate, WbRangeStats).
 * Depends on: compiler (traces), profiler (the run data types), SQLite, json-glib,
 * Graphviz (optional, for SVG). Never GTK.
 * Threads: one WbSession per thread (a connection is not shared); several processes may open the same
 * file at once: SQLite's WAL and locks keep them consistent, writers wait (busy timeout). */
#pragma once

#include "wb-compiler.h"
#include "wb-profiler.h"

#define WB_DATA_INSIDE
#include "wb-aggregate.h"
#include "wb-compare.h"
#include "wb-export.h"
#include "wb-gate.h"
#include "wb-report-programs.h"
#include "wb-report-ranks.h"
#include "wb-report.h"
#include "wb-session.h"
#undef WB_DATA_INSIDE
