/* wb-output.c — writing an output file that the user named: atomically, or in place for a FIFO or terminal
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every report, export and saved tensor file goes through wb_output_write(). Renaming a temporary file
 * over the target is right for a regular file (a reader never sees half a file) and wrong for anything
 * else: it would replace a FIFO, a terminal (/dev/stdout) or a symbolic link with a regular file. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wb-compiler.h"

static gboolean
errno_error (GError **error, const char *path, int saved_errno, const char *what)
{
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno), "%s: %s: %s", path, what, g_strerror (saved_errno));
  return FALSE;
}

static const char *
file_kind (mode_t mode)
{
  if (S_ISDIR (mode))
    return "a directory";
  if (S_ISCHR (mode))
    return "a device that is not a terminal";
  if (S_ISBLK (mode))
    return "a block device";
  if (S_ISSOCK (mode))
    return "a socket";
  return "not a regular file";
}

/* A regular file (or none yet): a temporary file beside @target, written, synced and renamed over it.
 * Every message names @path, the path the user asked for, never the temporary file; on any error the
 * temporary file is removed and @target left as it was. */
static gboolean
write_replace (const char *path, const char *target, const char *data, gsize len, GError **error)
{
  g_autofree char *tmp = g_strconcat (target, ".XXXXXX", NULL);
  const char      *what = "cannot write";
  int              fd = g_mkstemp_full (tmp, O_WRONLY | O_CLOEXEC, 0666); /* the umask applies */
  int              saved;

  if (fd < 0)
    return errno_error (error, path, errno, "cannot write: cannot create a file beside it");
  for (gsize done = 0; done < len;)
    {
      gssize n = write (fd, data + done, len - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          what = "cannot write";
          goto fail;
        }
      done += (gsize) n;
    }
  if (fsync (fd) != 0 && errno != EINVAL)
    goto fail;
  if (close (fd) != 0)
    {
      fd = -1;
      goto fail;
    }
  fd = -1;
  what = "cannot replace it";
  if (g_rename (tmp, target) != 0)
    goto fail;
  return TRUE;

fail:
  saved = errno;
  if (fd >= 0)
    close (fd);
  g_unlink (tmp);
  return errno_error (error, path, saved, what);
}

/* A FIFO or a terminal (@append: a regular file reached through /dev/ or /proc/): written where it is. */
static gboolean
write_in_place (const char *path, const char *data, gsize len, gboolean append, GError **error)
{
  int      fd = g_open (path, O_WRONLY | O_NOCTTY | O_CLOEXEC | (append ? O_APPEND : 0), 0);
  GStatBuf st;

  if (fd < 0)
    return errno_error (error, path, errno, "cannot open");
  if (fstat (fd, &st) != 0)
    {
      int e = errno;
      close (fd);
      return errno_error (error, path, e, "cannot stat");
    }
  if (!(S_ISFIFO (st.st_mode) || (S_ISCHR (st.st_mode) && isatty (fd)) || (append && S_ISREG (st.st_mode))))
    {
      close (fd);
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s: not written: it is %s", path, file_kind (st.st_mode));
      return FALSE;
    }
  while (len > 0)
    {
      gssize n = write (fd, data, len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          int e = n < 0 ? errno : EIO;
          close (fd);
          return errno_error (error, path, e, "cannot write");
        }
      data += n;
      len -= (gsize) n;
    }
  if (close (fd) != 0 && errno != EINTR)
    return errno_error (error, path, errno, "cannot write");
  return TRUE;
}

gboolean
wb_output_write (const char *path, const char *data, gssize len, GError **error)
{
  GStatBuf st;

  g_return_val_if_fail (path != NULL && data != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (len < 0)
    len = (gssize) strlen (data);
  if (g_lstat (path, &st) != 0)
    {
      if (errno == ENOENT)
        return write_replace (path, path, data, (gsize) len, error);
      return errno_error (error, path, errno, "cannot write");
    }
  if (S_ISLNK (st.st_mode))
    {
      g_autofree char *target = NULL;
      /* stat, not realpath: /dev/stdout -> /proc/self/fd/1 -> "pipe:[N]" is no path, yet it opens */
      if (g_stat (path, &st) != 0)
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "%s: not written: a symbolic link to a missing file", path);
          return FALSE;
        }
      if (S_ISREG (st.st_mode))
        {
          if (g_str_has_prefix (path, "/dev/") || g_str_has_prefix (path, "/proc/"))
            return write_in_place (path, data, (gsize) len, TRUE, error);
          if ((target = realpath (path, NULL)) == NULL)
            return errno_error (error, path, errno, "cannot resolve the symbolic link");
          return write_replace (path, target, data, (gsize) len, error);
        }
    }
  if (S_ISREG (st.st_mode))
    return write_replace (path, path, data, (gsize) len, error);
  if (S_ISFIFO (st.st_mode) || S_ISCHR (st.st_mode))
    return write_in_place (path, data, (gsize) len, FALSE, error);
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s: not written: it is %s", path, file_kind (st.st_mode));
  return FALSE;
}

/* -- text for terminals and reports ------------------------------------------------------------ */

static void
append_byte_escapes (GString *out, const char *p, const char *next)
{
  for (; p < next; p++)
    g_string_append_printf (out, "\\x%02x", (guchar) *p);
}

char *
wb_output_escape_text (const char *text, gssize len, WbEscapeFlags flags)
{
  GString    *out;
  const char *p, *end;

  if (text == NULL)
    return NULL;
  if (len < 0)
    len = (gssize) strlen (text);
  out = g_string_sized_new ((gsize) len);
  end = text + len;
  for (p = text; p < end;)
    {
      guchar   c = (guchar) *p;
      gunichar u;

      if ((c == '\n' || c == '\t') && (flags & WB_ESCAPE_KEEP_LAYOUT))
        {
          g_string_append_c (out, (char) c);
          p++;
          continue;
        }
      if (c >= 0x20 && c < 0x7f)
        {
          if ((flags & WB_ESCAPE_MARKDOWN) && strchr ("\\`*[]<>|&", c) != NULL)
            g_string_append_c (out, '\\');
          g_string_append_c (out, (char) c);
          p++;
          continue;
        }
      u = c < 0x80 ? c : g_utf8_get_char_validated (p, end - p);
      if (u == (gunichar) -1 || u == (gunichar) -2)
        {
          /* a byte that is not UTF-8 */
          append_byte_escapes (out, p, p + 1);
          p++;
          continue;
        }
      if (u < 0x20 || u == 0x7f || (u >= 0x80 && u <= 0x9f))
        append_byte_escapes (out, p, g_utf8_next_char (p)); /* C0, DEL, C1 */
      else
        g_string_append_len (out, p, g_utf8_next_char (p) - p);
      p = g_utf8_next_char (p);
    }
  return g_string_free (out, FALSE);
}
