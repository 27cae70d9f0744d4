/* wb-runner-shm.c — tensor bytes between the caller and the runner through sealed memfds (wb-runner-shm.h)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE /* memfd_create, F_ADD_SEALS */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wb-runner-protocol.h"

#define SEALS_NEEDED (F_SEAL_SHRINK | F_SEAL_WRITE)

gboolean
wb_runner_shm_disabled (void)
{
  const char *env = g_getenv ("WB_RUNNER_NO_MEMFD");

  return env != NULL && env[0] != '\0' && strcmp (env, "0") != 0;
}

int
wb_runner_shm_socket_from_env (void)
{
  const char *env = g_getenv (WB_RUNNER_SHM_SOCKET_ENV);
  guint64     fd = 0;
  struct stat st;

  if (env == NULL || !g_ascii_string_to_unsigned (env, 10, 0, G_MAXINT, &fd, NULL) || fstat ((int) fd, &st) != 0 || !S_ISSOCK (st.st_mode))
    return -1;
  g_unsetenv (WB_RUNNER_SHM_SOCKET_ENV);
  fcntl ((int) fd, F_SETFD, FD_CLOEXEC);
  if (wb_runner_shm_disabled ())
    {
      close ((int) fd);
      return -1;
    }
  return (int) fd;
}

void
wb_runner_shm_channel_init (WbRunnerShmChannel *chan, int sock)
{
  memset (chan, 0, sizeof *chan);
  chan->sock = sock;
  chan->min_bytes = WB_RUNNER_SHM_MIN_BYTES;
}

void
wb_runner_shm_channel_clear (WbRunnerShmChannel *chan)
{
  if (chan->sock >= 0)
    close (chan->sock);
  chan->sock = -1;
  g_clear_pointer (&chan->last_fallback, g_free);
}

static gpointer
io_error (GError **error, int errsv, const char *what)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv), "%s: %s", what, g_strerror (errsv));
  return NULL;
}

static gpointer
bad (GError **error, const char *format, ...) G_GNUC_PRINTF (2, 3);

static gpointer
bad (GError **error, const char *format, ...)
{
  va_list          ap;
  g_autofree char *msg = NULL;

  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error (error, WB_EXECUTOR_ERROR, WB_EXECUTOR_ERROR_IO, "runner protocol: shared memory: %s", msg);
  return NULL;
}

/* -- reading: a received memfd mapped, tensors over it ------------------------------------------------ */

struct _WbRunnerShmMap
{
  gint    ref_count;
  guint8 *base; /* NULL when empty */
  guint64 size;
};

WbRunnerShmMap *
wb_runner_shm_map_new (int fd, guint64 size, GError **error)
{
  struct stat     st;
  int             seals;
  WbRunnerShmMap *map;
  gpointer        base = NULL;

  if (fstat (fd, &st) != 0)
    {
      int errsv = errno;
      close (fd);
      return io_error (error, errsv, "fstat of the runner's shared memory");
    }
  if ((guint64) st.st_size != size)
    {
      close (fd);
      return bad (error, "the memfd holds %" G_GUINT64_FORMAT " bytes, the message says %" G_GUINT64_FORMAT " (truncated?)",
                  (guint64) st.st_size, size);
    }
  seals = fcntl (fd, F_GET_SEALS);
  if (seals < 0 || (seals & SEALS_NEEDED) != SEALS_NEEDED)
    {
      close (fd);
      return bad (error, "the memfd is not sealed against shrinking and writing (seals %#x)", seals < 0 ? 0 : (guint) seals);
    }
  /* private: a tensor written in place gets its own pages, the sender's stay as they were */
  if (size > 0 && (base = mmap (NULL, (size_t) size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0)) == MAP_FAILED)
    {
      int errsv = errno;
      close (fd);
      return io_error (error, errsv, "mmap of the runner's shared memory");
    }
  close (fd);
  map = g_new0 (WbRunnerShmMap, 1);
  map->ref_count = 1;
  map->base = base;
  map->size = size;
  return map;
}

WbRunnerShmMap *
wb_runner_shm_map_ref (WbRunnerShmMap *map)
{
  g_atomic_int_inc (&map->ref_count);
  return map;
}

void
wb_runner_shm_map_unref (WbRunnerShmMap *map)
{
  if (map == NULL || !g_atomic_int_dec_and_test (&map->ref_count))
    return;
  if (map->base != NULL)
    munmap (map->base, (size_t) map->size);
  g_free (map);
}

guint64
wb_runner_shm_map_get_size (WbRunnerShmMap *map)
{
  return map->size;
}

WbTensor *
wb_runner_shm_map_tensor (WbRunnerShmMap *map, GVariant *payload, GError **error)
{
  const char *dtn;
  g_autoptr (GVariant) shape_v = NULL;
  g_autoptr (GVariant) strides_v = NULL;
  g_autoptr (WbTensor) flat = NULL;
  const gint64  *shape, *strides;
  gsize          rank = 0, n_strides = 0;
  guint64        offset, nbytes, elsize, span = 1;
  WbDtype        dt;
  gint64         numel = 1, n;
  const WbDevice cpu = { .type = WB_DEVICE_CPU, .index = -1 };

  if (!g_variant_is_of_type (payload, G_VARIANT_TYPE ("(saxaxtt)")))
    return bad (error, "a mapped tensor is not (saxaxtt)");
  g_variant_get (payload, "(&s@ax@axtt)", &dtn, &shape_v, &strides_v, &offset, &nbytes);
  dt = wb_dtype_from_shortname (dtn, -1);
  shape = g_variant_get_fixed_array (shape_v, &rank, sizeof (gint64));
  strides = g_variant_get_fixed_array (strides_v, &n_strides, sizeof (gint64));
  if (dt == WB_DTYPE_UNKNOWN || (elsize = wb_dtype_size (dt)) == 0)
    return bad (error, "unknown dtype '%s'", dtn);
  if (rank > WB_MAX_RANK || n_strides != rank)
    return bad (error, "rank %zu with %zu strides", rank, n_strides);
  for (gsize d = 0; d < rank; d++)
    {
      if (shape[d] < 0 || strides[d] < 0 || (shape[d] > 0 && numel > G_MAXINT64 / 16 / shape[d]))
        return bad (error, "dim %zu: size %" G_GINT64_FORMAT ", stride %" G_GINT64_FORMAT, d, shape[d], strides[d]);
      numel *= shape[d];
    }
  if (numel == 0)
    return wb_tensor_new (dt, (guint) rank, shape, error);
  for (gsize d = 0; d < rank; d++)
    {
      if (strides[d] > 0 && (guint64) (shape[d] - 1) > (G_MAXUINT64 / 16 - span) / (guint64) strides[d])
        return bad (error, "dim %zu: stride %" G_GINT64_FORMAT " overflows", d, strides[d]);
      span += (guint64) (shape[d] - 1) * (guint64) strides[d];
    }
  if (map == NULL || map->base == NULL)
    return bad (error, "a tensor of %" G_GUINT64_FORMAT " bytes in shared memory, but no memfd came with the message", nbytes);
  if (offset % WB_RUNNER_SHM_ALIGN != 0)
    return bad (error, "offset %" G_GUINT64_FORMAT " is not a multiple of %d", offset, WB_RUNNER_SHM_ALIGN);
  if (offset > map->size || nbytes > map->size - offset)
    return bad (error, "bytes [%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT ") outside the memfd's %" G_GUINT64_FORMAT, offset,
                offset + nbytes, map->size);
  if (nbytes % elsize != 0 || span > nbytes / elsize)
    return bad (error, "a layout of %" G_GUINT64_FORMAT " elements of %" G_GUINT64_FORMAT " bytes in %" G_GUINT64_FORMAT " bytes", span,
                elsize, nbytes);
  n = (gint64) (nbytes / elsize);
  flat = wb_tensor_new_external (dt, &cpu, 1, &n, map->base + offset, (gsize) nbytes, (GDestroyNotify) wb_runner_shm_map_unref,
                                 wb_runner_shm_map_ref (map));
  return wb_tensor_new_view (flat, dt, (guint) rank, shape, strides, 0);
}

/* -- writing: one message's tensors into a memfd ------------------------------------------------------ */

typedef struct
{
  WbTensor     *tensor; /* holds @data */
  const guint8 *data;
  guint64       offset, nbytes;
} Placed;

struct _WbRunnerShmWriter
{
  int     fd;
  gsize   min_bytes;
  guint64 size;
  GArray *placed; /* Placed */
};

static void
placed_clear (gpointer p)
{
  g_clear_pointer (&((Placed *) p)->tensor, wb_tensor_unref);
}

WbRunnerShmWriter *
wb_runner_shm_writer_new (gsize min_bytes, GError **error)
{
  WbRunnerShmWriter *w;
  int                fd;

  if (wb_runner_shm_disabled ())
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "WB_RUNNER_NO_MEMFD is set");
      return NULL;
    }
  if ((fd = memfd_create ("thunder-wb-runner-values", MFD_CLOEXEC | MFD_ALLOW_SEALING)) < 0)
    return io_error (error, errno, "memfd_create");
  w = g_new0 (WbRunnerShmWriter, 1);
  w->fd = fd;
  w->min_bytes = min_bytes;
  w->placed = g_array_new (FALSE, TRUE, sizeof (Placed));
  g_array_set_clear_func (w->placed, placed_clear);
  return w;
}

void
wb_runner_shm_writer_free (WbRunnerShmWriter *w)
{
  if (w == NULL)
    return;
  close (w->fd);
  g_array_unref (w->placed);
  g_free (w);
}

GVariant *
wb_runner_shm_writer_place (WbRunnerShmWriter *w, WbTensor *t)
{
  gint64    numel = wb_tensor_numel (t), span = 1;
  guint64   elsize = wb_dtype_size (t->dtype);
  gint64    contiguous[WB_MAX_RANK];
  Placed    p = { 0 };
  GVariant *shape, *strides;

  if ((guint64) numel * elsize < w->min_bytes || elsize == 0)
    return NULL;
  for (guint d = 0; d < t->rank; d++)
    span += (t->shape[d] - 1) * t->strides[d];
  if (numel > 0 && span <= numel)
    {
      /* dense (maybe permuted or broadcast): its span as it is, strides kept */
      p.tensor = wb_tensor_ref (t);
      p.nbytes = (guint64) span * elsize;
      strides = g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, t->strides, t->rank, sizeof (gint64));
    }
  else
    {
      if (numel > 0 && (p.tensor = wb_tensor_contiguous (t, NULL)) == NULL)
        return NULL; /* inline: the same copy fails there with its own message */
      p.nbytes = (guint64) numel * elsize;
      for (gint64 d = (gint64) t->rank - 1, s = 1; d >= 0; d--)
        {
          contiguous[d] = s;
          s *= MAX (t->shape[d], 1);
        }
      strides = g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, contiguous, t->rank, sizeof (gint64));
    }
  shape = g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, t->shape, t->rank, sizeof (gint64));
  if (p.nbytes > 0)
    {
      p.data = wb_tensor_get_data (p.tensor);
      p.offset = (w->size + WB_RUNNER_SHM_ALIGN - 1) / WB_RUNNER_SHM_ALIGN * WB_RUNNER_SHM_ALIGN;
      w->size = p.offset + p.nbytes;
    }
  g_array_append_val (w->placed, p);
  return g_variant_new ("(s@ax@axtt)", wb_dtype_shortname (t->dtype), shape, strides, p.offset, p.nbytes);
}

guint
wb_runner_shm_writer_get_n (WbRunnerShmWriter *w)
{
  return w->placed->len;
}

guint64
wb_runner_shm_writer_get_size (WbRunnerShmWriter *w)
{
  return w->size;
}

int
wb_runner_shm_writer_get_fd (WbRunnerShmWriter *w)
{
  return w->fd;
}

gboolean
wb_runner_shm_writer_finish (WbRunnerShmWriter *w, GError **error)
{
  if (ftruncate (w->fd, (off_t) w->size) != 0)
    return io_error (error, errno, "ftruncate of the shared memory") != NULL;
  for (guint i = 0; i < w->placed->len; i++)
    {
      Placed *p = &g_array_index (w->placed, Placed, i);
      guint64 done = 0;

      while (done < p->nbytes)
        {
          ssize_t n = pwrite (w->fd, p->data + done, (size_t) MIN (p->nbytes - done, (guint64) 1 << 30), (off_t) (p->offset + done));
          if (n < 0 && errno == EINTR)
            continue;
          if (n <= 0)
            return io_error (error, n < 0 ? errno : ENOSPC, "writing the shared memory") != NULL;
          done += (guint64) n;
        }
      placed_clear (p); /* the bytes are in the memfd: the tensor may go */
    }
  if (fcntl (w->fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0)
    return io_error (error, errno, "sealing the shared memory") != NULL;
  return TRUE;
}

/* -- the descriptors over the socket ------------------------------------------------------------------- */

gboolean
wb_runner_shm_send_fd (int sock, int fd, guint64 seq, GError **error)
{
  guint64      le = GUINT64_TO_LE (seq);
  struct iovec iov = { &le, sizeof le };
  union
  {
    char           buf[CMSG_SPACE (sizeof (int))];
    struct cmsghdr align;
  } ctl;
  struct msghdr   mh = { 0 };
  struct cmsghdr *c;
  ssize_t         n;

  memset (&ctl, 0, sizeof ctl);
  mh.msg_iov = &iov;
  mh.msg_iovlen = 1;
  mh.msg_control = ctl.buf;
  mh.msg_controllen = sizeof ctl.buf;
  c = CMSG_FIRSTHDR (&mh);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN (sizeof (int));
  memcpy (CMSG_DATA (c), &fd, sizeof (int));
  do
    n = sendmsg (sock, &mh, MSG_NOSIGNAL);
  while (n < 0 && errno == EINTR);
  if (n != (ssize_t) sizeof le)
    return io_error (error, n < 0 ? errno : EPIPE, "sending the shared memory's descriptor") != NULL;
  return TRUE;
}

/* one queued message: its sequence number and descriptor (-1: none), or FALSE when nothing is queued */
static gboolean
receive_one (int sock, guint64 *seq, int *fd, GError **error)
{
  guint64      le = 0;
  struct iovec iov = { &le, sizeof le };
  union
  {
    char           buf[CMSG_SPACE (4 * sizeof (int))];
    struct cmsghdr align;
  } ctl;
  struct msghdr mh = { 0 };
  ssize_t       n;

  *fd = -1;
  mh.msg_iov = &iov;
  mh.msg_iovlen = 1;
  mh.msg_control = ctl.buf;
  mh.msg_controllen = sizeof ctl.buf;
  do
    n = recvmsg (sock, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
  while (n < 0 && errno == EINTR);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
    return FALSE;
  if (n < 0)
    return io_error (error, errno, "receiving the shared memory's descriptor") != NULL;
  for (struct cmsghdr *c = CMSG_FIRSTHDR (&mh); c != NULL; c = CMSG_NXTHDR (&mh, c))
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
      for (gsize k = 0; k < (c->cmsg_len - CMSG_LEN (0)) / sizeof (int); k++)
        {
          int got;
          memcpy (&got, CMSG_DATA (c) + k * sizeof (int), sizeof (int));
          if (*fd < 0)
            *fd = got;
          else
            close (got); /* one per message: any other is dropped */
        }
  if (n != (ssize_t) sizeof le || (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) != 0 || *fd < 0)
    {
      if (*fd >= 0)
        close (*fd);
      *fd = -1;
      *seq = 0;
      return TRUE;
    }
  *seq = GUINT64_FROM_LE (le);
  return TRUE;
}

int
wb_runner_shm_receive_fd (int sock, guint64 seq, GError **error)
{
  for (;;)
    {
      g_autoptr (GError) local = NULL;
      guint64 got = 0;
      int     fd = -1;

      if (!receive_one (sock, &got, &fd, &local))
        {
          if (local != NULL)
            g_propagate_error (error, g_steal_pointer (&local));
          else
            bad (error, "no descriptor came with message %" G_GUINT64_FORMAT, seq);
          return -1;
        }
      if (fd < 0)
        {
          bad (error, "a descriptor message without one descriptor and a sequence number (waiting for %" G_GUINT64_FORMAT ")", seq);
          return -1;
        }
      if (got == seq)
        return fd;
      close (fd);
      if (got > seq)
        {
          bad (error, "descriptor %" G_GUINT64_FORMAT " came before %" G_GUINT64_FORMAT, got, seq);
          return -1;
        }
      /* an older one whose message was never read: dropped */
    }
}

/* -- whole messages ------------------------------------------------------------------------------------ */

static guint
count_tensors (WbRtValue *v)
{
  guint n = 0;

  if (v->kind == WB_RT_TENSOR)
    return 1;
  if (v->kind == WB_RT_TUPLE || v->kind == WB_RT_LIST || v->kind == WB_RT_DICT || v->kind == WB_RT_SLICE)
    for (guint i = 0; v->items && i < v->items->len; i++)
      n += count_tensors (v->items->pdata[i]);
  return n;
}

static void
variant_unref0 (gpointer v)
{
  if (v != NULL)
    g_variant_unref (v);
}

void
wb_runner_shm_add_values (GVariantBuilder *b, WbRunnerShmChannel *chan, const char *const *keys, GPtrArray *const *values, guint n)
{
  g_autoptr (WbRunnerShmWriter) w = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) encoded = g_ptr_array_new_with_free_func (variant_unref0);
  guint total = 0;

  for (guint i = 0; i < n; i++)
    for (guint k = 0; values[i] != NULL && k < values[i]->len; k++)
      total += count_tensors (values[i]->pdata[k]);
  chan->last_mapped = 0;
  chan->last_bytes = 0;
  g_clear_pointer (&chan->last_fallback, g_free);
  if (chan->sock >= 0 && total > 0)
    w = wb_runner_shm_writer_new (chan->min_bytes, &error);
  if (w != NULL)
    {
      for (guint i = 0; i < n; i++)
        g_ptr_array_add (encoded, values[i] ? g_variant_ref_sink (wb_runner_values_to_variant_shm (values[i], w)) : NULL);
      if (wb_runner_shm_writer_get_n (w) == 0)
        g_clear_pointer (&w, wb_runner_shm_writer_free); /* all small: inline as they are */
      else if (!wb_runner_shm_writer_finish (w, &error) || !wb_runner_shm_send_fd (chan->sock, wb_runner_shm_writer_get_fd (w), chan->sent + 1, &error))
        {
          g_clear_pointer (&w, wb_runner_shm_writer_free);
          g_ptr_array_set_size (encoded, 0);
        }
    }
  if (error != NULL)
    {
      chan->last_fallback = g_strdup (error->message);
      g_debug ("runner protocol: values inline: %s", error->message);
    }
  if (encoded->len == 0)
    for (guint i = 0; i < n; i++)
      g_ptr_array_add (encoded, values[i] ? g_variant_ref_sink (wb_runner_values_to_variant (values[i])) : NULL);
  for (guint i = 0; i < n; i++)
    if (encoded->pdata[i] != NULL)
      g_variant_builder_add (b, "{sv}", keys[i], encoded->pdata[i]);
  if (w != NULL)
    {
      chan->sent++;
      chan->last_mapped = wb_runner_shm_writer_get_n (w);
      chan->last_bytes = (gint64) wb_runner_shm_writer_get_size (w);
      g_variant_builder_add (b, "{sv}", "shm", g_variant_new ("(tt)", chan->sent, wb_runner_shm_writer_get_size (w)));
    }
  chan->last_inline = total - chan->last_mapped;
}

WbRunnerShmMap *
wb_runner_shm_receive_for (GVariant *msg, WbRunnerShmChannel *chan, GError **error)
{
  guint64 seq, size;
  int     fd;

  if (!g_variant_lookup (msg, "shm", "(tt)", &seq, &size))
    return NULL;
  if (chan == NULL || chan->sock < 0)
    return bad (error, "the message names memfd %" G_GUINT64_FORMAT " but there is no descriptor socket", seq);
  if ((fd = wb_runner_shm_receive_fd (chan->sock, seq, error)) < 0)
    return NULL;
  chan->received = seq;
  return wb_runner_shm_map_new (fd, size, error);
}
