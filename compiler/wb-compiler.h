/* wb-compiler.h — the compiler module: trace IR, symbol table, parser, printer, verifier, passes
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Owns: traces (WbTrace, WbBsym, WbValue, WbType), dtypes and devices, the symbol table with meta
 * functions, the printed-trace parser and printer, trace sets (files and directories), the verifier,
 * and (later) the passes and the pipeline.
 * Depends on: GLib only. Nothing here knows an executor, SQLite or GTK.
 * Threads: a WbTrace is immutable after parsing and may be read from any thread; the symbol table is
 * built once (thread-safe g_once) and then read-only. */
#pragma once

#define WB_COMPILER_INSIDE
#include "wb-assignment.h"
#include "wb-decomposition.h"
#include "wb-distributed.h"
#include "wb-dtensor.h"
#include "wb-dtype.h"
#include "wb-executor-info.h"
#include "wb-identity.h"
#include "wb-input.h"
#include "wb-output.h"
#include "wb-pipeline.h"
#include "wb-stage-pair.h"
#include "wb-symbol.h"
#include "wb-trace-builder.h"
#include "wb-trace-set.h"
#include "wb-trace.h"
#include "wb-type.h"
#include "wb-value.h"
#include "wb-verifier.h"
#undef WB_COMPILER_INSIDE
