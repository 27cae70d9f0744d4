/* wb-runner-shm.h — tensor bytes between the caller and the GPU runner through sealed shared memory
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The messages of wb-runner-protocol.h travel over pipes; a tensor's bytes inside them are copied several
 * times (the GVariant builder, its normal form, the pipe, the reader's buffer, the decoded tensor). With
 * shared memory the sender writes every large tensor of one message once into a memfd (memfd_create,
 * MFD_CLOEXEC | MFD_ALLOW_SEALING), each at a 64-byte aligned offset, seals it (F_SEAL_SHRINK, _GROW, _WRITE,
 * _SEAL) and passes the descriptor over a unix socket (SOCK_SEQPACKET, SCM_RIGHTS) before the message; the
 * message carries "shm" (tt): the descriptor's sequence number and the memfd's size in bytes, and each such
 * tensor as the value tag 'm' with (s dtype, ax shape, ax strides in elements, t byte offset, t nbytes). The
 * receiver maps the memfd (MAP_PRIVATE: copy-on-write, so a tensor may be written in place without touching
 * the sender's bytes) and wraps the tensors around the mapping (wb_tensor_new_external): no copy before the
 * upload to the device. The mapping goes when the last tensor over it does.
 *
 * Negotiation (protocol version 1 stays): the caller creates the socket pair and hands one end to the runner
 * as descriptor WB_RUNNER_SHM_FD, naming it in the environment variable WB_RUNNER_SHM_SOCKET; a runner that
 * can use it lists WB_RUNNER_CAP_MEMFD in HELLO's `caps` (as). Only then does the caller send 'm' values, and
 * the runner answers with them only when the caller gave it the socket. An older runner (no `caps`) or an
 * older caller (no socket) gets the inline encoding ('t': the bytes inside the message), as does everything
 * when WB_RUNNER_NO_MEMFD=1, memfd_create or the descriptor's passing fails, and tensors smaller than the
 * channel's min_bytes. Numbers, strings and the other non-tensor values are always inline.
 * Threads: a channel is used by one thread at a time; a WbRunnerShmMap may be shared (atomic refcount). */
#pragma once

#if !defined(WB_PROFILER_INSIDE) && !defined(WB_PROFILER_COMPILATION)
#error "Only <wb-profiler.h> can be included directly."
#endif

#include <gio/gio.h>

#include "wb-executors.h"

G_BEGIN_DECLS

/* HELLO's capability: the runner takes and sends 'm' values over the socket */
#define WB_RUNNER_CAP_MEMFD "memfd"
/* the environment variable naming the runner's end of the socket, and the descriptor number it gets */
#define WB_RUNNER_SHM_SOCKET_ENV "WB_RUNNER_SHM_SOCKET"
#define WB_RUNNER_SHM_FD 3
/* the offset alignment of every tensor in the memfd, bytes */
#define WB_RUNNER_SHM_ALIGN 64
/* tensors below this many bytes travel inline by default (the memfd's page and the descriptor cost more) */
#define WB_RUNNER_SHM_MIN_BYTES 4096

/* wb_runner_shm_disabled: TRUE when WB_RUNNER_NO_MEMFD is set to anything but "" or "0". */
gboolean wb_runner_shm_disabled (void);

/* wb_runner_shm_socket_from_env: the runner's end of the socket, from WB_RUNNER_SHM_SOCKET (then unset, and
 * the descriptor made close-on-exec), or -1: not set, not a socket, or WB_RUNNER_NO_MEMFD set (then closed). */
int wb_runner_shm_socket_from_env (void);

/* One side's end of the descriptor socket and its sequence numbers. */
typedef struct
{
  int     sock;      /* -1: none (everything inline) */
  gsize   min_bytes; /* tensors of fewer bytes go inline */
  guint64 sent;      /* the sequence number of the last descriptor sent (0: none yet) */
  guint64 received;  /* that of the last one received */
  /* what the last message sent used: tensors and bytes placed in a memfd, tensors inline, and why shared memory
   * failed (nullable, owned by the channel: "memfd_create: ..."; NULL when unused for want of a socket or of
   * large tensors) */
  guint  last_mapped, last_inline;
  gint64 last_bytes;
  char  *last_fallback;
} WbRunnerShmChannel;

/* wb_runner_shm_channel_init: @chan over @sock (-1: none; the channel owns it and closes it in _clear). */
void wb_runner_shm_channel_init (WbRunnerShmChannel *chan, int sock);
void wb_runner_shm_channel_clear (WbRunnerShmChannel *chan);

/* WbRunnerShmMap: a received memfd mapped for reading (refcounted; the tensors over it hold references). */
typedef struct _WbRunnerShmMap WbRunnerShmMap;

/* wb_runner_shm_map_new: (transfer full) maps @fd (transfer full: closed here, also on error) of @size bytes
 * as the message said. NULL with WB_EXECUTOR_ERROR_IO when the memfd's size differs from @size (a truncated
 * memfd), it is not sealed against shrinking and writing (a later truncation would kill the reader with
 * SIGBUS), or mmap fails. */
WbRunnerShmMap *wb_runner_shm_map_new (int fd, guint64 size, GError **error);
WbRunnerShmMap *wb_runner_shm_map_ref (WbRunnerShmMap *map);
void            wb_runner_shm_map_unref (WbRunnerShmMap *map);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbRunnerShmMap, wb_runner_shm_map_unref)
/* wb_runner_shm_map_get_size: bytes mapped. */
guint64 wb_runner_shm_map_get_size (WbRunnerShmMap *map);

/* wb_runner_shm_map_tensor: (transfer full) the tensor of an 'm' payload (saxaxtt) over @map: the storage is
 * the @nbytes at @offset, the layout @shape and @strides (elements, >= 0) from its first byte. NULL with
 * WB_EXECUTOR_ERROR_IO naming what is wrong: an unknown dtype, a rank above WB_MAX_RANK, a negative size or
 * stride, an offset not a multiple of WB_RUNNER_SHM_ALIGN, bytes outside the mapping or a layout reaching past
 * @nbytes. A tensor without elements needs no mapping (@map may then be NULL). */
WbTensor *wb_runner_shm_map_tensor (WbRunnerShmMap *map, GVariant *payload, GError **error);

/* WbRunnerShmWriter: the memfd of one message being built. */
typedef struct _WbRunnerShmWriter WbRunnerShmWriter;

/* wb_runner_shm_writer_new: (transfer full) an empty memfd, or NULL with a G_IO_ERROR when memfd_create fails
 * (or G_IO_ERROR_NOT_SUPPORTED when WB_RUNNER_NO_MEMFD is set). Tensors of fewer than @min_bytes are left
 * inline. */
WbRunnerShmWriter *wb_runner_shm_writer_new (gsize min_bytes, GError **error);
void               wb_runner_shm_writer_free (WbRunnerShmWriter *w);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WbRunnerShmWriter, wb_runner_shm_writer_free)
/* wb_runner_shm_writer_place: (transfer floating) (nullable) the 'm' payload (saxaxtt) of @tensor (a host
 * tensor) with a place in the memfd reserved for it, or NULL when it stays inline (fewer than min_bytes). A
 * dense view (a permutation or a broadcast: its storage span no larger than its elements) keeps its strides
 * and only its span is written; any other view is made contiguous. Its bytes are written by _finish. */
GVariant *wb_runner_shm_writer_place (WbRunnerShmWriter *w, WbTensor *tensor);
/* wb_runner_shm_writer_get_n: tensors placed. _get_size: the memfd's size, bytes (after the last one). */
guint   wb_runner_shm_writer_get_n (WbRunnerShmWriter *w);
guint64 wb_runner_shm_writer_get_size (WbRunnerShmWriter *w);
/* wb_runner_shm_writer_finish: sizes the memfd, writes every placed tensor's bytes (pwrite: one copy) and
 * seals it. FALSE with a G_IO_ERROR (ENOSPC, ENOMEM from ftruncate or pwrite) otherwise. */
gboolean wb_runner_shm_writer_finish (WbRunnerShmWriter *w, GError **error);
/* wb_runner_shm_writer_get_fd: (transfer none) the memfd. */
int wb_runner_shm_writer_get_fd (WbRunnerShmWriter *w);

/* wb_runner_shm_send_fd: sends @fd (not closed) over @sock with the 8-byte @seq as data. FALSE with a
 * G_IO_ERROR (the peer is gone: G_IO_ERROR_BROKEN_PIPE; never SIGPIPE). */
gboolean wb_runner_shm_send_fd (int sock, int fd, guint64 seq, GError **error);
/* wb_runner_shm_receive_fd: (transfer full) the descriptor sent with @seq, without waiting (the sender passes
 * it before the message that names it); older ones still queued (their message failed before using them)
 * are closed. -1 with WB_EXECUTOR_ERROR_IO when none is queued, a newer one comes first, or the data is not a
 * sequence number with one descriptor. */
int wb_runner_shm_receive_fd (int sock, guint64 seq, GError **error);

/* wb_runner_shm_add_values: adds to @b, for each of the @n keys, "{KEY: av}" of @values[i] (element-type
 * WbRtValue; nullable: the key is left out): through one memfd sent over @chan when @chan has a socket (then
 * also "shm" (tt)), otherwise, and whenever shared memory fails, inline. @chan's last_* say what happened.
 * Never fails: the inline encoding always works. */
void wb_runner_shm_add_values (GVariantBuilder    *b,
                               WbRunnerShmChannel *chan,
                               const char *const  *keys,
                               GPtrArray *const   *values,
                               guint               n);
/* wb_runner_shm_receive_for: (transfer full) (nullable) the mapping @msg's "shm" key names, received over
 * @chan; NULL without error when @msg has none. NULL with WB_EXECUTOR_ERROR_IO when it has one and the
 * channel has no socket, or the descriptor or the memfd is wrong (wb_runner_shm_receive_fd, _map_new). */
WbRunnerShmMap *wb_runner_shm_receive_for (GVariant *msg, WbRunnerShmChannel *chan, GError **error);

G_END_DECLS
