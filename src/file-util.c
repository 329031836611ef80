/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* file-util: a file written whole, under its name, or not at all, and no
 * temporary name left behind by a process killed while writing it.
 *
 * The data goes into an unnamed file (O_TMPFILE) in the target's
 * directory, which is then linked in under the target's name; a file
 * already there is unlinked first (a reader in between finds no file,
 * never half of one). Killed at any point, the writer leaves either the
 * old file, no file, or the new one: nothing else. Where the file system
 * has no O_TMPFILE, a named temporary file is renamed over the target,
 * which leaves that name behind if the writer is killed in between; so
 * does a host without /proc, by which the unnamed file is linked in.
 * Nothing is synced to disk: the probe cache is checked whenever it is
 * read, and a report is read as soon as cordon exits. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cordon-error.h"
#include "file-util.h"

/* All of `data` to `fd`, across short writes and EINTR; an fd that is
 * non-blocking (a caller's stdout may be) is waited for. FALSE with
 * errno otherwise. */
gboolean
cordon_file_write_all (int fd,
                       const char *data,
                       gsize len)
{
  while (len > 0)
    {
      ssize_t n = write (fd, data, len);

      if (n < 0 && errno == EAGAIN)
        {
          struct pollfd p = { fd, POLLOUT, 0 };

          if (poll (&p, 1, -1) < 0 && errno != EINTR)
            return FALSE;
          continue;
        }
      if (n < 0 && errno == EINTR)
        continue;
      if (n == 0)
        errno = EIO;
      if (n <= 0)
        return FALSE;
      data += n;
      len -= (gsize) n;
    }
  return TRUE;
}

/* Everything `fd` holds from its offset to the end (a memfd, a pipe). */
GBytes *
cordon_file_read_fd (int fd,
                     GError **error)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  guint8 buf[8192];
  ssize_t n;

  while ((n = read (fd, buf, sizeof buf)) != 0)
    {
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "read: %s", g_strerror (errno));
          return NULL;
        }
      g_byte_array_append (out, buf, (guint) n);
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

static gboolean
fail (GError **error,
      const char *base,
      int saved)
{
  g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "cannot write %s: %s", base, g_strerror (saved));
  return FALSE;
}

/* An unnamed file's contents linked in as `base`, replacing what is
 * there: 0, or an errno. ENOENT on the first try: no /proc to name the
 * unnamed file by (nothing was unlinked yet). */
static int
link_in (int fd,
         int dir_fd,
         const char *base)
{
  char self[64];

  snprintf (self, sizeof self, "/proc/self/fd/%d", fd);
  for (guint attempt = 0; attempt < 8; attempt++)
    {
      if (linkat (AT_FDCWD, self, dir_fd, base, AT_SYMLINK_FOLLOW) == 0)
        return 0;
      if (errno != EEXIST)
        return errno;
      if (unlinkat (dir_fd, base, 0) != 0 && errno != ENOENT)
        return errno;
    }
  return EEXIST;
}

static gboolean
replace_by_rename (int dir_fd,
                   const char *base,
                   const char *data,
                   gsize len,
                   mode_t mode,
                   GError **error)
{
  g_autofree char *tmp = g_strdup_printf (".%s.%d.tmp", base, (int) getpid ());
  int fd = openat (dir_fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode);
  int saved;

  if (fd < 0)
    return fail (error, base, errno);
  if (!cordon_file_write_all (fd, data, len) || fchmod (fd, mode) != 0)
    {
      saved = errno;
      close (fd);
      unlinkat (dir_fd, tmp, 0);
      return fail (error, base, saved);
    }
  close (fd);
  if (renameat (dir_fd, tmp, dir_fd, base) != 0)
    {
      saved = errno;
      unlinkat (dir_fd, tmp, 0);
      return fail (error, base, saved);
    }
  return TRUE;
}

/* `data` as the file `base` in `dir_fd`, with `mode`, whole or not at all. */
gboolean
cordon_file_replace_at (int dir_fd,
                        const char *base,
                        const char *data,
                        gsize len,
                        mode_t mode,
                        GError **error)
{
  int fd = openat (dir_fd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
  int err;

  if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL))
    return replace_by_rename (dir_fd, base, data, len, mode, error);
  if (fd < 0)
    return fail (error, base, errno);
  /* The mode given to openat is masked by the umask: set it exactly. */
  err = cordon_file_write_all (fd, data, len) && fchmod (fd, mode) == 0 ? link_in (fd, dir_fd, base) : errno;
  close (fd);
  if (err == ENOENT)
    return replace_by_rename (dir_fd, base, data, len, mode, error);
  return err == 0 || fail (error, base, err);
}

/* `owner` (uid_t) -1: whoever owns the file. Checked through the fd it is
 * read from: a file swapped in after the check is not the one read. */
static char *
read_small_at (int dir_fd,
               const char *name,
               uid_t owner,
               gsize max,
               gsize *len,
               gboolean *too_big)
{
  int fd = openat (dir_fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  struct stat st;
  char *buf;
  gsize got = 0;

  if (too_big != NULL)
    *too_big = FALSE;
  if (fd < 0)
    return NULL;
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode)
      || (owner != (uid_t) -1 && (st.st_uid != owner || (st.st_mode & (S_IWGRP | S_IWOTH)) != 0)))
    {
      close (fd);
      return NULL;
    }
  buf = g_malloc (max + 2);
  while (got <= max)
    {
      ssize_t n = read (fd, buf + got, max + 1 - got);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      got += (gsize) n;
    }
  close (fd);
  if (got > max)
    {
      if (too_big != NULL)
        *too_big = TRUE;
      g_free (buf);
      return NULL;
    }
  buf[got] = '\0';
  if (len != NULL)
    *len = got;
  return buf;
}

char *
cordon_file_read_small_at (int dir_fd,
                           const char *name,
                           gsize max,
                           gsize *len,
                           gboolean *too_big)
{
  return read_small_at (dir_fd, name, (uid_t) -1, max, len, too_big);
}

char *
cordon_file_read_owned_at (int dir_fd,
                           const char *name,
                           uid_t owner,
                           gsize max,
                           gsize *len)
{
  return read_small_at (dir_fd, name, owner, max, len, NULL);
}

int
cordon_file_open_dir_no_symlink (const char *path)
{
  g_auto(GStrv) parts = g_strsplit (path, "/", -1);
  int fd = path[0] == '/' ? open ("/", O_PATH | O_DIRECTORY | O_CLOEXEC) : (errno = EINVAL, -1);

  for (guint i = 0; fd >= 0 && parts[i] != NULL; i++)
    {
      int next;

      if (parts[i][0] == '\0' || g_str_equal (parts[i], "."))
        continue;
      /* ".." would climb back out of what was checked. */
      next = g_str_equal (parts[i], "..") ? (errno = EINVAL, -1)
                                          : openat (fd, parts[i], O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      close (fd);
      fd = next;
    }
  if (fd >= 0)
    {
      int dir = openat (fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      int saved = errno;

      close (fd);
      errno = saved;
      fd = dir;
    }
  return fd;
}
