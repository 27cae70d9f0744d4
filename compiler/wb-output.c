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

/* A regular file (or none yet): a temporary file beside @target renamed over it. */
static gboolean
write_replace (const char *path, const char *target, const char *data, gsize len, GError **error)
{
  g_autoptr (GError) local = NULL;

  if (g_file_set_contents (target, data, (gssize) len, &local))
    return TRUE;
  g_set_error (error, G_FILE_ERROR, local->code, "%s: cannot write: %s", path, local->message);
  return FALSE;
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
