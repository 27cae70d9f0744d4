/* wb-input.c — reading a file the user named: only regular files, never blocking, within a size limit
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A trace path may name anything: a FIFO (a plain open() would wait for a writer forever), a device
 * that never ends (/dev/zero: g_file_get_contents() reads until memory runs out), or a file of many
 * gigabytes. wb_input_read_file() opens without blocking, decides by fstat() on the descriptor it
 * opened (no window between a check and the open) and bounds what it reads. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wb-compiler.h"

/* The limit set by wb_input_set_max_trace_bytes() as a pointer-sized number (NULL: not set). */
static gpointer max_trace_bytes_override;

gboolean
wb_input_parse_size (const char *text, guint64 *out)
{
  g_autofree char *s = NULL;
  guint64          unit = 1, value = 0;
  gsize            n;

  g_return_val_if_fail (out != NULL, FALSE);
  if (text == NULL)
    return FALSE;
  s = g_strstrip (g_strdup (text));
  n = strlen (s);
  switch (n > 0 ? g_ascii_tolower (s[n - 1]) : 0)
    {
    case 'k':
      unit = 1024;
      break;
    case 'm':
      unit = 1024 * 1024;
      break;
    case 'g':
      unit = 1024 * 1024 * 1024;
      break;
    default:
      break;
    }
  if (unit > 1)
    s[--n] = '\0';
  if (n == 0 || !g_ascii_string_to_unsigned (s, 10, 1, (G_GUINT64_CONSTANT (1) << 62) / unit, &value, NULL))
    return FALSE;
  *out = value * unit;
  return TRUE;
}

guint64
wb_input_get_max_trace_bytes (void)
{
  guint64 v = (guint64) GPOINTER_TO_SIZE (g_atomic_pointer_get (&max_trace_bytes_override));
  guint64 env = 0;

  if (v != 0)
    return v;
  if (wb_input_parse_size (g_getenv ("WB_MAX_TRACE_BYTES"), &env))
    return env;
  return WB_INPUT_DEFAULT_MAX_TRACE_BYTES;
}

void
wb_input_set_max_trace_bytes (guint64 max_bytes)
{
  g_atomic_pointer_set (&max_trace_bytes_override, GSIZE_TO_POINTER ((gsize) max_bytes));
}

static const char *
special_kind (mode_t mode)
{
  if (S_ISDIR (mode))
    return "a directory";
  if (S_ISFIFO (mode))
    return "a FIFO";
  if (S_ISCHR (mode) || S_ISBLK (mode))
    return "a device";
  if (S_ISSOCK (mode))
    return "a socket";
  return "a special file";
}

static gboolean
too_large (const char *path, guint64 size, guint64 max_bytes, GError **error)
{
  g_set_error (error, WB_TRACE_ERROR, WB_TRACE_ERROR_TOO_LARGE,
               "%s:1:1: file too large: %" G_GUINT64_FORMAT " bytes or more, over the limit of %" G_GUINT64_FORMAT
               " bytes per trace file (raise it with --max-trace-bytes or $WB_MAX_TRACE_BYTES)",
               path, size, max_bytes);
  return FALSE;
}

/* Reads @fd to its end, at most @max_bytes + 1 bytes (one more tells that it grew past the limit). */
static gboolean
read_all (int fd, const char *path, gsize expected, guint64 max_bytes, char **contents, gsize *length, GError **error)
{
  gsize capacity = MIN ((guint64) expected, max_bytes) + 1;
  gsize len = 0;
  char *buf = g_malloc (capacity + 1);

  for (;;)
    {
      gssize got;

      if (len == capacity)
        {
          if ((guint64) len > max_bytes)
            break;
          capacity = (gsize) MIN ((guint64) capacity * 2, max_bytes + 1);
          buf = g_realloc (buf, capacity + 1);
        }
      got = read (fd, buf + len, capacity - len);
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        {
          int saved = errno;

          g_free (buf);
          g_set_error (error, WB_TRACE_ERROR, WB_TRACE_ERROR_IO, "%s:1:1: cannot read: %s", path, g_strerror (saved));
          return FALSE;
        }
      if (got == 0)
        break;
      len += (gsize) got;
    }
  if ((guint64) len > max_bytes)
    {
      g_free (buf);
      return too_large (path, len, max_bytes, error);
    }
  buf[len] = '\0';
  *contents = buf;
  *length = len;
  return TRUE;
}

int
wb_input_open (const char *path, guint64 *size, GError **error)
{
  GStatBuf st;
  int      fd;

  g_return_val_if_fail (path != NULL, -1);

  /* O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one */
  fd = g_open (path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      int saved = errno;

      g_set_error (error, WB_TRACE_ERROR, WB_TRACE_ERROR_IO, "%s:1:1: cannot read: %s", path,
                   saved == EISDIR ? "not a regular file (a directory)" : g_strerror (saved));
      return -1;
    }
  if (fstat (fd, &st) != 0)
    {
      int saved = errno;

      close (fd);
      g_set_error (error, WB_TRACE_ERROR, WB_TRACE_ERROR_IO, "%s:1:1: cannot read: %s", path, g_strerror (saved));
      return -1;
    }
  if (!S_ISREG (st.st_mode))
    {
      close (fd);
      g_set_error (error, WB_TRACE_ERROR, WB_TRACE_ERROR_IO, "%s:1:1: cannot read: not a regular file (%s)", path,
                   special_kind (st.st_mode));
      return -1;
    }
  /* a regular file never blocks; reads go on as usual */
  fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK);
  if (size != NULL)
    *size = (guint64) st.st_size;
  return fd;
}

gboolean
wb_input_read_file (const char *path, guint64 max_bytes, char **contents, gsize *length, GError **error)
{
  guint64  size = 0;
  int      fd;
  gboolean ok;

  g_return_val_if_fail (path != NULL && contents != NULL && length != NULL, FALSE);

  if ((fd = wb_input_open (path, &size, error)) < 0)
    return FALSE;
  if (size > max_bytes)
    {
      close (fd);
      return too_large (path, size, max_bytes, error);
    }
  ok = read_all (fd, path, (gsize) size, max_bytes, contents, length, error);
  close (fd);
  return ok;
}

char *
wb_input_json_finite (const char *text, gsize length, gsize *out_length)
{
  GString *out = g_string_sized_new (length + 16);
  gboolean in_string = FALSE;

  for (gsize i = 0; i < length; i++)
    {
      const char *p = text + i;
      gsize       left = length - i, skip = 0;

      if (in_string)
        {
          g_string_append_c (out, *p);
          if (*p == '\\' && left > 1)
            g_string_append_c (out, p[1]), i++;
          else if (*p == '"')
            in_string = FALSE;
          continue;
        }
      if (*p == '"')
        in_string = TRUE;
      else if (left >= 3 && memcmp (p, "NaN", 3) == 0)
        skip = 3;
      else if (left >= 8 && memcmp (p, "Infinity", 8) == 0)
        skip = 8;
      else if (left >= 9 && memcmp (p, "-Infinity", 9) == 0)
        skip = 9;
      if (skip > 0)
        {
          g_string_append (out, "null");
          i += skip - 1;
        }
      else
        g_string_append_c (out, *p);
    }
  if (out_length != NULL)
    *out_length = out->len;
  return g_string_free (out, FALSE);
}
