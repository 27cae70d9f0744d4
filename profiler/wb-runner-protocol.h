/* wb-runner-protocol.h — the messages between a caller and the GPU runner process (thunder-wb-runner)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Framing (both directions, over the runner's stdin and stdout): a 16-byte header — the magic "WBR1",
 * the message type (u32, little endian), the payload length in bytes (u64, little endian) — then the
 * payload: one serialized GVariant of type a{sv} (normal form, little endian). docs/ARCHITECTURE.md
 * ("The GPU runner") lists every message and key. Values (arguments, outputs, gradients) are encoded
 * as (yv): a tag and a payload — 'n' None "()", 'b' bool, 'i' int64, 'f' double, 's' string, 't' tensor
 * (s dtype shortname, ax shape, ay row-major data), 'T' tuple / 'L' list (av of (yv)), 'D' dict (the same,
 * keys and values alternating), 'y' dtype (s), 'd' device (s), 'o' opaque (s). Reading checks the magic,
 * the type, a length limit and that every tensor's data matches its dtype and shape.
 * Threads: the functions keep no state; one channel is used by one thread at a time. */
#pragma once

#if !defined(WB_PROFILER_INSIDE) && !defined(WB_PROFILER_COMPILATION)
#error "Only <wb-profiler.h> can be included directly."
#endif

#include <gio/gio.h>

#include "wb-executors.h"

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
  WB_RUNNER_MSG_PROGRESS,      /* runner -> caller: the top-level call about to run (checked pass) */
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

/* wb_runner_value_to_variant: (transfer floating) the (yv) encoding of @value; host tensors only. */
GVariant *wb_runner_value_to_variant (WbRtValue *value);
/* wb_runner_value_from_variant: (transfer full) the value, or NULL with WB_EXECUTOR_ERROR_IO when malformed. */
WbRtValue *wb_runner_value_from_variant (GVariant *variant, GError **error);
/* wb_runner_values_to_variant: (transfer floating) av of the values of @values (element-type WbRtValue). */
GVariant *wb_runner_values_to_variant (GPtrArray *values);
/* wb_runner_values_from_variant: (transfer full) (element-type WbRtValue), or NULL with an error. */
GPtrArray *wb_runner_values_from_variant (GVariant *av, GError **error);

G_END_DECLS
