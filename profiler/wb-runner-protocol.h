/* wb-runner-protocol.h — the messages between a caller and the GPU runner process (thunder-wb-runner)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Framing (both directions, over the runner's stdin and stdout): a 16-byte header — the magic "WBR1",
 * the message type (u32, little endian), the payload length in bytes (u64, little endian) — then the
 * payload: one serialized GVariant of type a{sv} (normal form, little endian). docs/ARCHITECTURE.md
 * ("The GPU runner") lists every message and key. Values (arguments, outputs, gradients) are encoded
 * as (yv): a tag and a payload — 'n' None "()", 'b' bool, 'i' int64, 'f' double, 's' string, 't' tensor
 * (s dtype shortname, ax shape, ay row-major data), 'T' tuple / 'L' list (av of (yv)), 'D' dict (the same,
 * keys and values alternating), 'y' dtype (s), 'd' device (s), 'o' opaque (s), and 'm' a tensor whose bytes
 * are in the message's shared memory (wb-runner-shm.h: only when both sides said they can). Reading checks the magic,
 * the type, a length limit and that every tensor's data matches its dtype and shape.
 * Threads: the functions keep no state; one channel is used by one thread at a time. */
#pragma once

#if !defined(WB_PROFILER_INSIDE) && !defined(WB_PROFILER_COMPILATION)
#error "Only <wb-profiler.h> can be included directly."
#endif

#include <gio/gio.h>

#include "wb-executors.h"
#include "wb-runner-shm.h"

G_BEGIN_DECLS

#define WB_RUNNER_PROTOCOL_VERSION 1
/* Largest payload accepted (a message is one GVariant in memory). */
#define WB_RUNNER_MAX_MESSAGE (G_GUINT64_CONSTANT (16) << 30)

typedef enum
{
  WB_RUNNER_MSG_HELLO = 1,     /* runner -> caller, once at start: version, pid */
  WB_RUNNER_MSG_PROBE,         /* caller -> runner: is CUDA usable? */
  WB_RUNNER_MSG_PROBE_REPLY,   /* runner -> caller: ok, message, device, arch, code */
  WB_RUNNER_MSG_RUN,           /* caller -> runner: a program, its assignment, options and inputs */
  WB_RUNNER_MSG_PROGRESS,      /* runner -> caller: the checked run's next call, or an iteration done (phase) */
  WB_RUNNER_MSG_RESULT,        /* runner -> caller: outputs, gradients, timings, statistics */
  WB_RUNNER_MSG_ERROR,         /* runner -> caller: domain, code, message, region, exit */
  WB_RUNNER_MSG_QUIT,          /* caller -> runner: exit now */
  WB_RUNNER_MSG_NCCL_ID,       /* caller -> runner: make NCCL's unique id (rank 0 of a multi-GPU run) */
  WB_RUNNER_MSG_NCCL_ID_REPLY, /* runner -> caller: ok, id ay (128 bytes) or message, nccl_version */
} WbRunnerMsgType;

/* wb_runner_write_message: writes one message; @payload (nullable: an empty a{sv}) is sunk if floating. */
gboolean wb_runner_write_message (GOutputStream *out, WbRunnerMsgType type, GVariant *payload, GError **error);
/* wb_runner_read_message: reads one message into @type and @payload (transfer full, a{sv}). At a clean end
 * of stream before any byte of a header: FALSE with G_IO_ERROR_CLOSED. */
gboolean wb_runner_read_message (GInputStream *in, WbRunnerMsgType *type, GVariant **payload, GError **error);

/* The phases of a run's iterations after its checked run, in the order the runner runs them; PROGRESS's
 * `phase` names them (wb_runner_phase_to_string). */
typedef enum
{
  WB_RUNNER_PHASE_NONE = 0,   /* not an iteration: a call of the checked run */
  WB_RUNNER_PHASE_WARMUP,     /* "warmup": the warm-up runs after the checked one */
  WB_RUNNER_PHASE_UNPROFILED, /* "unprofiled": profiling's plain iterations (events only at start and end) */
  WB_RUNNER_PHASE_TIMED,      /* "timed": the timed iterations, graph replays or call by call */
  WB_RUNNER_PHASE_TRACED,     /* "traced": profiling's iterations under CUPTI, for the kernel records */
} WbRunnerPhase;

/* wb_runner_phase_to_string: (transfer none) "warmup", "unprofiled", "timed", "traced"; NULL for NONE. */
const char *wb_runner_phase_to_string (WbRunnerPhase phase);
/* wb_runner_phase_from_string: the phase @name (nullable) names; NONE when none. */
WbRunnerPhase wb_runner_phase_from_string (const char *name);

/* The least time between two iteration PROGRESS messages of a run, µs: a loop of tiny iterations sends at
 * most one per interval (and the last of each phase), so that the pipe and the caller are not flooded. */
#define WB_RUNNER_PROGRESS_INTERVAL_US (G_USEC_PER_SEC / 20)

/* The rate limit of a run's iteration messages: init once per RUN. */
typedef struct
{
  gint64 interval_us; /* WB_RUNNER_PROGRESS_INTERVAL_US unless a test sets another */
  gint64 last_us;     /* monotonic time of the last message sent, 0: none yet */
  guint  sent;        /* messages sent */
} WbRunnerProgressLimit;

void wb_runner_progress_limit_init (WbRunnerProgressLimit *limit);

/* wb_runner_send_call: the PROGRESS of the checked run's next top-level call: `region` @name, `line` @line
 * (0: unknown), `trace` @trace (nullable: omitted). Never rate-limited: a fault must name its call. Errors:
 * the stream's. */
gboolean wb_runner_send_call (GOutputStream *out, const char *name, guint line, const char *trace, GError **error);
/* wb_runner_send_iteration: iteration @done (1-based) of @total of @phase ended, after @iteration_ns of host
 * wall time (ns, 0: unknown). Writes the PROGRESS `phase`, `iteration`, `iterations`, `iteration_ns` when it
 * is the phase's last or @limit's interval has passed since the last one sent; otherwise writes nothing.
 * TRUE when a message was written; FALSE when held back, or with @error (the stream's) when writing failed.
 * The real runner and the fake one of the tests both send through this. */
gboolean wb_runner_send_iteration (GOutputStream         *out,
                                   WbRunnerProgressLimit *limit,
                                   WbRunnerPhase          phase,
                                   guint                  done,
                                   guint                  total,
                                   gint64                 iteration_ns,
                                   GError               **error);

/* wb_runner_value_to_variant: (transfer floating) the (yv) encoding of @value; host tensors only. */
GVariant *wb_runner_value_to_variant (WbRtValue *value);
/* wb_runner_value_from_variant: (transfer full) the value, or NULL with WB_EXECUTOR_ERROR_IO when malformed. */
WbRtValue *wb_runner_value_from_variant (GVariant *variant, GError **error);
/* wb_runner_values_to_variant: (transfer floating) av of the values of @values (element-type WbRtValue). */
GVariant *wb_runner_values_to_variant (GPtrArray *values);
/* wb_runner_values_from_variant: (transfer full) (element-type WbRtValue), or NULL with an error. */
GPtrArray *wb_runner_values_from_variant (GVariant *av, GError **error);
/* wb_runner_value_to_variant_shm: wb_runner_value_to_variant with the tensors @shm (nullable) takes placed in
 * it and encoded as 'm' (saxaxtt: dtype, shape, strides, offset, nbytes; wb-runner-shm.h); the others inline. */
GVariant *wb_runner_value_to_variant_shm (WbRtValue *value, WbRunnerShmWriter *shm);
GVariant *wb_runner_values_to_variant_shm (GPtrArray *values, WbRunnerShmWriter *shm);
/* wb_runner_value_from_variant_shm: wb_runner_value_from_variant reading 'm' tensors over @map (nullable:
 * then an 'm' tensor with elements is an error); those tensors share the mapping, no copy. */
WbRtValue *wb_runner_value_from_variant_shm (GVariant *variant, WbRunnerShmMap *map, GError **error);
GPtrArray *wb_runner_values_from_variant_shm (GVariant *av, WbRunnerShmMap *map, GError **error);

G_END_DECLS
