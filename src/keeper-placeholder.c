/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* keeper-placeholder: see keeper-placeholder.h. Every name is taken in
 * its parent's fd, opened by cordon before anything of the sandbox ran,
 * with O_NOFOLLOW: no path is resolved here. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#if defined(SYS_io_uring_setup) && defined(SYS_io_uring_register)
#include <linux/io_uring.h>
#define HAVE_IO_URING 1
#endif

#include "keeper-placeholder.h"
#include "protocol.h"
#include "spec-codec.h"

/* How often a placeholder another run is removing is waited for (1 ms
 * each): its end holds the lock only for an rmdir. */
#define HOLD_ROUNDS 2000

static int
fail (char *why,
      size_t why_len,
      const char *what,
      const char *name)
{
  int saved = errno;

  snprintf (why, why_len, "%s %s", what, name);
  for (char *p = why; *p != '\0'; p++)
    if ((unsigned char) *p < 0x20 || *p == 0x7f)
      *p = '?';
  errno = saved;
  return -1;
}

static int
plain_name (const char *name)
{
  return name[0] != '\0' && strchr (name, '/') == NULL && strcmp (name, ".") != 0 && strcmp (name, "..") != 0;
}

int
cordon_keeper_placeholders_read (int spec_fd,
                                 KeeperPlaceholders *ph,
                                 char *why,
                                 size_t why_len)
{
  char *spec = cordon_spec_read_fd (spec_fd, 1 << 16), *save = NULL;
  int rc = 0;

  ph->n = 0;
  close (spec_fd);
  if (spec == NULL)
    return fail (why, why_len, "cannot read", "the placeholders");
  for (char *l = strtok_r (spec, "\n", &save); l != NULL && rc == 0; l = strtok_r (NULL, "\n", &save))
    {
      char *f[3];
      size_t index = 0;
      KeeperPlaceholder *p = &ph->items[ph->n];
      /* placeholder<TAB>I<TAB>NAME exactly, I in order, NAME as encoded. */
      int ok = cordon_spec_split (l, f, 3) == 3 && strcmp (f[0], CORDON_PLACEHOLDER_LINE) == 0
               && cordon_spec_index (f[1], &index) == 0 && cordon_spec_decode_strict (f[2]) == 0;
      const char *name = ok ? f[2] : "";

      if (!ok || ph->n == CORDON_KEEPER_MAX_PLACEHOLDERS || index != ph->n
          || !plain_name (name) || strlen (name) >= sizeof p->name)
        {
          errno = EINVAL;
          rc = fail (why, why_len, "cannot read", "the placeholders");
          break;
        }
      p->parent_fd = spec_fd + 1 + (int) ph->n;
      p->fd = -1;
      snprintf (p->name, sizeof p->name, "%s", name);
      if (fcntl (p->parent_fd, F_SETFD, FD_CLOEXEC) != 0)
        rc = fail (why, why_len, "no parent fd for", name);
      else
        ph->n++;
    }
  free (spec);
  /* Nothing is taken of instructions that cannot all be read. */
  if (rc != 0)
    {
      int saved = errno;

      cordon_keeper_placeholders_end (ph);
      errno = saved;
    }
  return rc;
}

/* The directory held (p->dev, p->ino) is still the one its parent names
 * `name`. */
static int
still_named (const KeeperPlaceholder *p)
{
  struct stat named;

  return fstatat (p->parent_fd, p->name, &named, AT_SYMLINK_NOFOLLOW) == 0 && named.st_dev == p->dev
         && named.st_ino == p->ino;
}

/* A try that failed: `fd` closed, and the directory removed if this try
 * made it (it is empty, and nobody else holds it yet). -1, errno kept. */
static int
undo (const KeeperPlaceholder *p,
      int fd,
      int made)
{
  int saved = errno;

  close (fd);
  if (made)
    (void) unlinkat (p->parent_fd, p->name, AT_REMOVEDIR);
  errno = saved;
  return -1;
}

/* One try: 1 once held, 0 to try again (another run is removing it, or
 * just did), -1 with errno. */
static int
try_hold (KeeperPlaceholder *p)
{
  struct stat st;
  int made = mkdirat (p->parent_fd, p->name, CORDON_PLACEHOLDER_MODE) == 0;
  int fd;

  if (!made && errno != EEXIST)
    return -1;
  fd = openat (p->parent_fd, p->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return errno == ENOENT ? 0 : (errno == ELOOP || errno == ENOTDIR ? (errno = EEXIST, -1) : -1);
  /* The mode is the one asked for (a umask, a default ACL or the
   * parent's set-group-ID bit may have changed it: then set); one found
   * must be of that mode: a placeholder, not a directory made since
   * cordon looked. */
  if (fstat (fd, &st) != 0
      || (made && (st.st_mode & 07777) != CORDON_PLACEHOLDER_MODE
          && (fchmod (fd, CORDON_PLACEHOLDER_MODE) != 0 || fstat (fd, &st) != 0)))
    return undo (p, fd, made);
  if ((st.st_mode & 07777) != CORDON_PLACEHOLDER_MODE)
    return close (fd), errno = EEXIST, -1;
  p->dev = st.st_dev;
  p->ino = st.st_ino;
  if (flock (fd, LOCK_SH | LOCK_NB) != 0)
    return errno == EWOULDBLOCK ? (close (fd), 0) : undo (p, fd, made);
  if (!still_named (p))
    return close (fd), 0;
  p->fd = fd;
  return 1;
}

static int
hold (KeeperPlaceholder *p)
{
  struct timespec nap = { 0, 1000000 };

  for (int round = 0; round < HOLD_ROUNDS; round++)
    {
      int rc = try_hold (p);

      if (rc != 0)
        return rc > 0 ? 0 : -1;
      nanosleep (&nap, NULL);
    }
  errno = EBUSY;
  return -1;
}

int
cordon_keeper_placeholders_hold (KeeperPlaceholders *ph,
                                 char *why,
                                 size_t why_len)
{
  for (size_t i = 0; i < ph->n; i++)
    if (hold (&ph->items[i]) != 0)
      {
        int saved = errno;

        fail (why, why_len, saved == EEXIST ? "cannot make (something else is there now)" : "cannot make",
              ph->items[i].name);
        cordon_keeper_placeholders_end (ph);
        errno = saved;
        return -1;
      }
  return 0;
}

/* Let go; removed if no other run holds it (the lock, converted to
 * exclusive without waiting, is ours alone: the conversion lets go of
 * the shared one first, so one that fails holds none) and the name is
 * still the one held. One that is not empty (the host put something
 * there during the run) stays: the audit after the run names it. The
 * lock is let go before the close: a pinned file outlives it. */
static void
let_go (KeeperPlaceholder *p)
{
  if (flock (p->fd, LOCK_EX | LOCK_NB) == 0)
    {
      if (still_named (p))
        (void) unlinkat (p->parent_fd, p->name, AT_REMOVEDIR);
      flock (p->fd, LOCK_UN);
    }
  close (p->fd);
  p->fd = -1;
}

void
cordon_keeper_placeholders_pin (KeeperPlaceholders *ph)
{
#ifdef HAVE_IO_URING
  struct io_uring_params params;
  int fds[CORDON_KEEPER_MAX_PLACEHOLDERS];
  unsigned n = 0;
  int ring;

  for (size_t i = 0; i < ph->n; i++)
    if (ph->items[i].fd >= 0)
      fds[n++] = ph->items[i].fd;
  /* Not under a seccomp filter: one may kill what makes a call it does
   * not allow (io_uring is a usual one), and the keeper must outlive
   * cordon to remove what it made. */
  if (ph->pinned || n == 0 || prctl (PR_GET_SECCOMP, 0, 0, 0, 0) != 0)
    return;
  memset (&params, 0, sizeof params);
  /* The ring's fd is close-on-exec; no request is ever queued on it. */
  if ((ring = (int) syscall (SYS_io_uring_setup, 1, &params)) < 0)
    return;
  if (syscall (SYS_io_uring_register, ring, IORING_REGISTER_FILES, fds, n) != 0)
    {
      close (ring);
      return;
    }
  ph->ring = ring;
  ph->pinned = 1;
#else
  (void) ph;
#endif
}

void
cordon_keeper_placeholders_end (KeeperPlaceholders *ph)
{
  for (size_t i = 0; i < ph->n; i++)
    {
      if (ph->items[i].fd >= 0)
        let_go (&ph->items[i]);
      close (ph->items[i].parent_fd);
    }
  ph->n = 0;
  if (ph->pinned)
    close (ph->ring);
  ph->pinned = 0;
}
