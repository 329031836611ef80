/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* report-target: the report's destination, resolved and opened when
 * cordon starts, before anything is launched.
 *
 * The report is written after the sandbox ran, and the sandbox may write
 * where the report goes (a report in the workdir): written by path then,
 * a directory of the path swapped for a symlink during the run would take
 * the report, and the replacement of a file there, wherever the symlink
 * points — anywhere on the host for a root caller (a confused deputy). So
 * the path is resolved now, once, and only what it resolves to now is
 * written later:
 *
 * - a name that does not exist yet, or a regular file of the caller's
 *   (followed now when it is reached through symlinks): its real
 *   directory is held open, and the report replaces the name in that
 *   directory, through the fd, only if the name is still nothing or a
 *   regular file of the caller's when the report is written;
 * - a path that names one of cordon's open fds (/dev/stdout, /dev/fd/N,
 *   /proc/self/fd/N, "-", or a symlink to one): that fd, duplicated;
 * - a character device or a FIFO: its directory held open, the node
 *   opened for writing once it is known to be none a sandbox made.
 *
 * Anything else (a directory, another user's file, a dangling symlink, a
 * block device, a socket) is refused before anything runs. Once the plan
 * is known, so is a path resolved through a symlink, or naming a FIFO or
 * a device, that lies in one of its writable paths: an earlier run's
 * sandbox may have left it there for this run's cordon (root, maybe) to
 * follow (cordon_report_target_settle), and only then is a FIFO or a
 * device opened. Every fd held here is close-on-exec, and launch closes
 * all but its own in bwrap's keeper besides: none reaches the sandbox. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cordon-error.h"
#include "file-util.h"
#include "mount-table.h"
#include "path-util.h"
#include "report-target.h"

/* As the kernel's own limit on the symlinks one lookup follows. */
#define MAX_SYMLINKS 40

struct _CordonReportTarget
{
  CordonReportTargetKind kind;
  int fd;           /* FILE: the directory; STREAM: what is written to */
  char *base;       /* FILE: the name in the directory */
  char *name;       /* for messages: the real path, or what names the fd */
  uid_t owner;      /* FILE: whose regular file may be replaced */
  GPtrArray *links; /* every symlink the path was resolved through, as met */
  char *special;    /* STREAM of a FIFO or a device: its path */
  gboolean settled; /* checked against the writable paths */
  int special_dir;  /* ... its directory, held (O_PATH) until it is opened */
  dev_t special_dev;
  ino_t special_ino;
};

static CordonReportTarget *
target_new (CordonReportTargetKind kind,
            int fd,
            const char *base,
            const char *name,
            uid_t owner)
{
  CordonReportTarget *target = g_new0 (CordonReportTarget, 1);

  target->kind = kind;
  target->fd = fd;
  target->base = g_strdup (base);
  target->name = g_strdup (name);
  target->owner = owner;
  target->links = g_ptr_array_new_with_free_func (g_free);
  target->special_dir = -1;
  return target;
}

void
cordon_report_target_free (CordonReportTarget *target)
{
  if (target == NULL)
    return;
  if (target->fd >= 0)
    close (target->fd);
  if (target->special_dir >= 0)
    close (target->special_dir);
  g_free (target->base);
  g_free (target->name);
  g_clear_pointer (&target->links, g_ptr_array_unref);
  g_free (target->special);
  g_free (target);
}

CordonReportTargetKind
cordon_report_target_get_kind (const CordonReportTarget *target)
{
  g_return_val_if_fail (target != NULL, CORDON_REPORT_TARGET_MAX);
  return target->kind;
}

const char *
cordon_report_target_get_name (const CordonReportTarget *target)
{
  g_return_val_if_fail (target != NULL, NULL);
  return target->name;
}

/* A usage error: "cannot write SUBJECT: REASON". NULL, for the callers'
 * return. */
static CordonReportTarget *
refuse (GError **error,
        const char *subject,
        const char *format,
        ...) G_GNUC_PRINTF (3, 4);

static CordonReportTarget *
refuse (GError **error,
        const char *subject,
        const char *format,
        ...)
{
  g_autofree char *reason = NULL;
  va_list ap;

  va_start (ap, format);
  reason = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error (error, CORDON_ERROR, CORDON_ERROR_USAGE, "cannot write %s: %s", subject, reason);
  return NULL;
}

/* What a file is, in words, for a refusal. */
static char *
describe (const struct stat *st)
{
  if (S_ISLNK (st->st_mode))
    return g_strdup ("a symlink");
  if (S_ISDIR (st->st_mode))
    return g_strdup ("a directory");
  if (S_ISFIFO (st->st_mode))
    return g_strdup ("a FIFO");
  if (S_ISSOCK (st->st_mode))
    return g_strdup ("a socket");
  if (S_ISCHR (st->st_mode))
    return g_strdup ("a character device");
  if (S_ISBLK (st->st_mode))
    return g_strdup ("a block device");
  if (S_ISREG (st->st_mode))
    return g_strdup_printf ("a regular file of uid %u", (unsigned) st->st_uid);
  return g_strdup ("a file of an unknown type");
}

static gboolean
is_digits (const char *s,
           gsize len)
{
  if (len == 0)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isdigit (s[i]))
      return FALSE;
  return TRUE;
}

/* TRUE with *out_fd when `dir`/`base` is one of cordon's own open fds:
 * `dir` is real (no symlink), so /dev/fd and /proc/self/fd have become
 * /proc/PID/fd, and /proc/thread-self/fd /proc/PID/task/TID/fd. Such a
 * path is a magic link: what it "points to" may be a pipe, a socket or a
 * file opened with an offset, which only the fd itself can write to as
 * the caller meant. */
static gboolean
names_own_fd (const char *dir,
              const char *base,
              int *out_fd)
{
  g_autofree char *own = g_strdup_printf ("/proc/%d/fd", (int) getpid ());
  g_autofree char *tasks = g_strdup_printf ("/proc/%d/task/", (int) getpid ());
  const char *tid = g_str_has_prefix (dir, tasks) ? dir + strlen (tasks) : NULL;
  guint64 n = 0;
  g_autofree char *canonical = NULL;

  if (!g_str_equal (dir, own)
      && !(tid != NULL && g_str_has_suffix (tid, "/fd") && is_digits (tid, strlen (tid) - 3)))
    return FALSE;
  if (!g_ascii_string_to_unsigned (base, 10, 0, G_MAXINT, &n, NULL))
    return FALSE;
  /* "01" is not an fd's name in /proc: only the number as written there. */
  canonical = g_strdup_printf ("%d", (int) n);
  if (!g_str_equal (canonical, base))
    return FALSE;
  *out_fd = (int) n;
  return TRUE;
}

/* fd `n`, duplicated (close-on-exec), when it is open for writing. Above
 * 2 the caller's own fd `n` is made close-on-exec too: it is cordon's to
 * write the report to, never bwrap's nor the sandbox's. */
static CordonReportTarget *
hold_fd (int n,
         const char *name,
         const char *subject,
         GError **error)
{
  int flags = n >= 0 ? fcntl (n, F_GETFL) : -1;
  int fd;

  if (flags < 0)
    return refuse (error, subject, "fd %d is not open", n);
  if ((flags & O_ACCMODE) == O_RDONLY)
    return refuse (error, subject, "fd %d is not open for writing", n);
  if (n > 2 && fcntl (n, F_SETFD, FD_CLOEXEC) != 0)
    return refuse (error, subject, "fd %d: %s", n, g_strerror (errno));
  fd = fcntl (n, F_DUPFD_CLOEXEC, 3);
  if (fd < 0)
    return refuse (error, subject, "fd %d: %s", n, g_strerror (errno));
  return target_new (CORDON_REPORT_TARGET_STREAM, fd, NULL, name, 0);
}

/* The real directory of the report (or of what a symlink to it points
 * to): its symlinks are resolved now, never again. */
static char *
real_dir_of (const char *path,
             const char *subject,
             GError **error)
{
  g_autofree char *parent = g_path_get_dirname (path);
  char *real = realpath (parent, NULL);

  if (real != NULL)
    return real;
  if (errno == ENOENT || errno == ENOTDIR)
    refuse (error, subject, "its directory %s does not exist", parent);
  else
    refuse (error, subject, "its directory %s: %s", parent, g_strerror (errno));
  return NULL;
}

/* The directory held open for a report that replaces `base` in it. */
static CordonReportTarget *
hold_dir (const char *dir,
          const char *base,
          uid_t owner,
          const char *subject,
          GError **error)
{
  g_autofree char *name = g_build_filename (dir, base, NULL);
  /* `dir` is real now; a directory of it swapped for a symlink since is
   * not followed. */
  int fd = cordon_file_open_dir_no_symlinks (dir, O_RDONLY);

  if (fd < 0)
    return refuse (error, subject, "its directory %s: %s", dir, g_strerror (errno));
  /* Checked now so that a report that cannot be written is a usage
   * error, not a surprise after the command ran. */
  if (faccessat (fd, ".", W_OK | X_OK, AT_EACCESS) != 0)
    {
      int saved = errno;

      close (fd);
      if (saved == EACCES || saved == EROFS || saved == EPERM)
        return refuse (error, subject, "its directory %s is not writable", dir);
      return refuse (error, subject, "its directory %s: %s", dir, g_strerror (saved));
    }
  return target_new (CORDON_REPORT_TARGET_FILE, fd, base, name, owner);
}

/* `base` in `dir_fd` opened for writing, never blocking: a FIFO with
 * no reader yet gets two seconds for one to come (one a sandbox left in
 * the workdir would hold cordon for ever), then ENXIO. Blocking again
 * once open. */
static int
open_writer_at (int dir_fd,
                const char *base)
{
  for (guint tries = 0; ; tries++)
    {
      int fd = openat (dir_fd, base, O_WRONLY | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);

      if (fd >= 0)
        {
          int flags = fcntl (fd, F_GETFL);

          if (flags >= 0)
            (void) fcntl (fd, F_SETFL, flags & ~O_NONBLOCK);
          return fd;
        }
      if (errno != ENXIO || tries >= 200)
        return -1;
      g_usleep (10000);
    }
}

/* A character device or a FIFO: examined now, opened only once the
 * writable paths are known not to hold it (open_special). Opening is
 * not harmless: a FIFO blocks, a device may act on open (a watchdog, a
 * tape that rewinds), and an earlier run's sandbox may have left a
 * symlink to one. Its directory is held meanwhile, and the node must
 * still be the one examined. */
static CordonReportTarget *
hold_special (const char *dir,
              const char *base,
              const struct stat *st,
              const char *subject,
              GError **error)
{
  g_autofree char *full = g_build_filename (dir, base, NULL);
  CordonReportTarget *target;
  struct stat now;
  int dir_fd;

  if (S_ISSOCK (st->st_mode))
    return refuse (error, subject, "it is a socket, which cannot be opened (connect to it and "
                                   "pass the fd with --report-fd)");
  if (!S_ISCHR (st->st_mode) && !S_ISFIFO (st->st_mode))
    {
      g_autofree char *what = describe (st);

      return refuse (error, subject, "it is %s", what);
    }
  dir_fd = cordon_file_open_dir_no_symlinks (dir, O_PATH);
  if (dir_fd < 0)
    return refuse (error, subject, "its directory %s: %s", dir, g_strerror (errno));
  if (fstatat (dir_fd, base, &now, AT_SYMLINK_NOFOLLOW) != 0
      || now.st_dev != st->st_dev || now.st_ino != st->st_ino)
    {
      close (dir_fd);
      return refuse (error, subject, "%s changed while it was examined", full);
    }
  target = target_new (CORDON_REPORT_TARGET_STREAM, -1, base, full, 0);
  target->special = g_strdup (full);
  target->special_dir = dir_fd;
  target->special_dev = st->st_dev;
  target->special_ino = st->st_ino;
  return target;
}

/* The FIFO or device held, opened for writing (a FIFO must have its
 * reader now, before anything runs): what was opened must be what was
 * examined. */
static gboolean
open_special (CordonReportTarget *target,
              GError **error)
{
  g_autofree char *subject = g_strdup_printf ("the report %s", target->special);
  struct stat now;
  int fd = open_writer_at (target->special_dir, target->base);

  if (fd < 0 && errno == ENXIO)
    return refuse (error, subject, "%s is a FIFO that nobody reads (start its reader first)",
                   target->special) != NULL;
  if (fd < 0)
    return refuse (error, subject, "%s: %s", target->special, g_strerror (errno)) != NULL;
  if (fstat (fd, &now) != 0 || now.st_dev != target->special_dev || now.st_ino != target->special_ino)
    {
      close (fd);
      return refuse (error, subject, "%s changed while it was opened", target->special) != NULL;
    }
  target->fd = fd;
  close (target->special_dir);
  target->special_dir = -1;
  return TRUE;
}

/* The symlinks among the directories of `path` (realpath follows them,
 * silently), each named by where it really is: its real directory and
 * its name. */
static void
add_dir_links (const char *path,
               GPtrArray *links)
{
  g_autofree char *parent = g_path_get_dirname (path);
  g_auto(GStrv) parts = g_strsplit (parent, "/", -1);
  g_autoptr(GString) at = g_string_new ("");
  struct stat st;

  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_autofree char *up = NULL;
      char *real_up;

      if (parts[i][0] == '\0')
        continue;
      up = g_strdup (at->len > 0 ? at->str : "/");
      g_string_append_printf (at, "/%s", parts[i]);
      if (lstat (at->str, &st) != 0 || !S_ISLNK (st.st_mode))
        continue;
      real_up = realpath (up, NULL);
      g_ptr_array_add (links, g_build_filename (real_up != NULL ? real_up : up, parts[i], NULL));
      free (real_up);
    }
}

/* One step of the resolution: `current` is the path as given, or what a
 * symlink met on the way points to (`hops` > 0). Sets *out_next (and
 * returns NULL without an error) to follow a symlink. */
static CordonReportTarget *
resolve_step (const char *current,
              guint hops,
              uid_t owner,
              const char *subject,
              GPtrArray *links,
              char **out_next,
              GError **error)
{
  g_autofree char *base = g_path_get_basename (current);
  g_autofree char *dir = real_dir_of (current, subject, error);
  g_autofree char *full = NULL;
  g_autofree char *link = NULL;
  g_autoptr(GError) local = NULL;
  struct stat st;
  int n;

  if (dir == NULL)
    return NULL;
  add_dir_links (current, links);
  if (names_own_fd (dir, base, &n))
    return hold_fd (n, current, subject, error);
  full = g_build_filename (dir, base, NULL);
  if (lstat (full, &st) != 0)
    {
      if (errno == ENOENT && hops == 0)
        return hold_dir (dir, base, owner, subject, error);
      if (errno == ENOENT)
        return refuse (error, subject, "it is a dangling symlink (%s does not exist)", full);
      return refuse (error, subject, "%s: %s", full, g_strerror (errno));
    }
  if (S_ISREG (st.st_mode) && st.st_uid != owner)
    return refuse (error, subject, "%s is a regular file of uid %u, not the caller's (uid %u): "
                   "cordon replaces only the caller's own files", full, (unsigned) st.st_uid,
                   (unsigned) owner);
  if (S_ISREG (st.st_mode))
    return hold_dir (dir, base, owner, subject, error);
  if (!S_ISLNK (st.st_mode))
    return hold_special (dir, base, &st, subject, error);
  g_ptr_array_add (links, g_strdup (full));
  link = g_file_read_link (full, &local);
  if (link == NULL)
    return refuse (error, subject, "%s", local->message);
  *out_next = g_path_is_absolute (link) ? g_steal_pointer (&link) : g_build_filename (dir, link, NULL);
  return NULL;
}

/* The report's destination for `--report PATH`; `owner` is the caller
 * (cordon's effective uid), whose regular file alone may be replaced. */
CordonReportTarget *
cordon_report_target_open (const char *path,
                           uid_t owner,
                           GError **error)
{
  g_autofree char *subject = NULL;
  g_autofree char *current = NULL;
  g_autoptr(GPtrArray) links = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (path != NULL, NULL);
  subject = g_strdup_printf ("the report %s", path);
  if (g_str_equal (path, "-"))
    return hold_fd (STDOUT_FILENO, "standard output", subject, error);
  /* "out/" names a directory, never a file "out" to create. */
  if (path[0] == '\0' || g_str_has_suffix (path, "/"))
    return refuse (error, subject, "it names a directory, not a file");
  current = g_path_is_absolute (path) ? g_strdup (path) : g_canonicalize_filename (path, NULL);
  for (guint hops = 0; hops <= MAX_SYMLINKS; hops++)
    {
      char *next = NULL;
      CordonReportTarget *target = resolve_step (current, hops, owner, subject, links, &next, error);

      if (target != NULL)
        {
          g_ptr_array_extend_and_steal (target->links, g_steal_pointer (&links));
          return target;
        }
      if (next == NULL)
        return NULL;
      g_free (current);
      current = next;
    }
  return refuse (error, subject, "%s", g_strerror (ELOOP));
}

/* A part of a file system the sandbox may write: the tree below `inner`
 * (or that one file) of the file system `dev`, wherever it is mounted. */
typedef struct
{
  char *dev;
  char *inner;
} Region;

static void
region_free (gpointer p)
{
  Region *r = p;

  g_free (r->dev);
  g_free (r->inner);
  g_free (r);
}

static void
add_region (GPtrArray *regions,
            const char *dev,
            char *inner)
{
  Region *r = g_new0 (Region, 1);

  r->dev = g_strdup (dev);
  r->inner = inner;
  g_ptr_array_add (regions, r);
}

/* What the sandbox may write, as places in file systems rather than as
 * paths: the same tree shows at other paths too (a bind mount of the
 * workdir, of a directory in it, of a file system mounted in it), and a
 * symlink left there is the sandbox's wherever the caller's path meets
 * it. Each writable path's own place, and that of every mount below it
 * (bwrap binds recursively). */
static GPtrArray *
writable_regions (GPtrArray *mounts,
                  const char * const *real_roots)
{
  GPtrArray *regions = g_ptr_array_new_with_free_func (region_free);

  for (guint w = 0; real_roots[w] != NULL; w++)
    {
      const CordonMount *home = cordon_mount_table_holding (mounts, real_roots[w]);

      if (home != NULL)
        add_region (regions, home->dev, cordon_mount_inner_path (home, real_roots[w]));
      for (guint i = 0; i < mounts->len; i++)
        {
          const CordonMount *m = g_ptr_array_index (mounts, i);

          if (cordon_path_is_ancestor (real_roots[w], m->point, FALSE))
            add_region (regions, m->dev, g_strdup (m->root));
        }
    }
  return regions;
}

/* The writable path `path` (real: its directories are) is in, by its
 * path or by its place; NULL if none. */
static const char *
writable_holding (const char *path,
                  const char * const *roots,
                  const char * const *real_roots,
                  GPtrArray *mounts,
                  GPtrArray *regions)
{
  const CordonMount *home = cordon_mount_table_holding (mounts, path);
  g_autofree char *inner = home != NULL ? cordon_mount_inner_path (home, path) : NULL;

  for (guint w = 0; roots[w] != NULL; w++)
    if (cordon_path_is_ancestor (roots[w], path, TRUE) || cordon_path_is_ancestor (real_roots[w], path, TRUE))
      return roots[w];
  for (guint i = 0; inner != NULL && i < regions->len; i++)
    {
      const Region *r = g_ptr_array_index (regions, i);

      if (g_str_equal (r->dev, home->dev) && cordon_path_is_ancestor (r->inner, inner, TRUE))
        return "(the same file system tree, mounted elsewhere)";
    }
  return NULL;
}

static gboolean
check_writable (const CordonReportTarget *target,
                const char * const *roots,
                const char * const *real_roots,
                GError **error)
{
  g_autofree char *info = NULL;
  g_autoptr(GPtrArray) mounts = NULL;
  g_autoptr(GPtrArray) regions = NULL;
  const char *in;

  (void) g_file_get_contents ("/proc/self/mountinfo", &info, NULL, NULL);
  mounts = cordon_mount_table_parse (info);
  regions = writable_regions (mounts, real_roots);
  for (guint i = 0; i < target->links->len; i++)
    {
      const char *link = g_ptr_array_index (target->links, i);

      if ((in = writable_holding (link, roots, real_roots, mounts, regions)) != NULL)
        {
          g_set_error (error, CORDON_ERROR, CORDON_ERROR_USAGE, "cannot write the report: its path "
                       "goes through the symlink %s, in the writable path %s (a sandbox may have "
                       "made it); give the path without it", link, in);
          return FALSE;
        }
    }
  if (target->special != NULL
      && (in = writable_holding (target->special, roots, real_roots, mounts, regions)) != NULL)
    {
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_USAGE, "cannot write the report: %s, a FIFO "
                   "or device, is in the writable path %s (a sandbox may have made it)",
                   target->special, in);
      return FALSE;
    }
  return TRUE;
}

/* Once the plan is known: a symlink the path was resolved through, or a
 * FIFO or device it names, that lies in one of `writable` (the paths
 * the sandbox may write, wherever else their trees show) may have been
 * left there by an earlier run's sandbox, to have cordon write where it
 * chose (a root caller's cordon anywhere): refused. Then, and only then,
 * a FIFO or device is opened. (A symlink left in a tree the sandbox
 * cannot write but another user's sandbox could is not seen: only this
 * plan's writable paths are known.) */
gboolean
cordon_report_target_settle (CordonReportTarget *target,
                             const char * const *writable,
                             GError **error)
{
  g_autoptr(GPtrArray) real = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) given = g_ptr_array_new ();

  g_return_val_if_fail (target != NULL, FALSE);
  for (guint w = 0; writable != NULL && writable[w] != NULL; w++)
    {
      char *r = realpath (writable[w], NULL);

      g_ptr_array_add (given, (gpointer) writable[w]);
      g_ptr_array_add (real, r != NULL ? r : g_strdup (writable[w]));
    }
  g_ptr_array_add (given, NULL);
  g_ptr_array_add (real, NULL);
  if (!check_writable (target, (const char * const *) given->pdata, (const char * const *) real->pdata, error))
    return FALSE;
  target->settled = TRUE;
  return target->special_dir < 0 || open_special (target, error);
}

/* The report's destination for `--report-fd N`: fd N, inherited. */
CordonReportTarget *
cordon_report_target_open_fd (int fd,
                              GError **error)
{
  g_autofree char *subject = g_strdup_printf ("the report to fd %d", fd);
  g_autofree char *name = g_strdup_printf ("fd %d", fd);

  return hold_fd (fd, name, subject, error);
}

/* All of `data` to a stream; one that is non-blocking (the caller's
 * stdout may be) is waited for. */
static gboolean
write_stream (const CordonReportTarget *target,
              const char *data,
              gsize len,
              GError **error)
{
  while (len > 0)
    {
      ssize_t n = write (target->fd, data, len);

      if (n < 0 && errno == EAGAIN)
        {
          struct pollfd p = { target->fd, POLLOUT, 0 };

          (void) poll (&p, 1, -1);
          continue;
        }
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "cannot write the report to %s: %s",
                       target->name, g_strerror (n == 0 ? EIO : errno));
          return FALSE;
        }
      data += n;
      len -= (gsize) n;
    }
  return TRUE;
}

/* The name in the held directory is replaced only if it is still nothing
 * or a regular file of the caller's: the sandbox ran since it was
 * examined, and may have left a symlink, a directory or a FIFO there, or
 * a file of its own identity, none of which is cordon's to replace. The
 * sandbox is gone by now (the supervisor killed everything below cordon),
 * so nothing of it can change the name between this check and the write. */
static gboolean
replace_in_dir (const CordonReportTarget *target,
                const char *data,
                gsize len,
                GError **error)
{
  struct stat st;
  int rc = fstatat (target->fd, target->base, &st, AT_SYMLINK_NOFOLLOW);

  if (rc == 0 && (!S_ISREG (st.st_mode) || st.st_uid != target->owner))
    {
      g_autofree char *what = describe (&st);

      g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST,
                   "not written: %s is now %s, and cordon replaces only a regular file of the "
                   "caller's (uid %u); it was left as it is", target->name, what,
                   (unsigned) target->owner);
      return FALSE;
    }
  if (rc != 0 && errno != ENOENT)
    {
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "cannot write the report %s: %s",
                   target->name, g_strerror (errno));
      return FALSE;
    }
  return cordon_file_replace_at (target->fd, target->base, data, len, 0600, error);
}

gboolean
cordon_report_target_write (CordonReportTarget *target,
                            const char *data,
                            gsize len,
                            GError **error)
{
  g_return_val_if_fail (target != NULL, FALSE);
  /* Never settled (cordon stopped before the plan was known): a file or
   * a FIFO named as given is written now; one reached through a symlink
   * is not, since whether a sandbox left that symlink was never checked.
   * (An fd is the caller's, however it was named.) */
  if (!target->settled && target->links->len > 0
      && (target->kind == CORDON_REPORT_TARGET_FILE || target->special_dir >= 0))
    {
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "not written: %s was reached through "
                   "a symlink, and cordon stopped before it could check that no sandbox made it",
                   target->name);
      return FALSE;
    }
  if (target->special_dir >= 0 && !open_special (target, error))
    return FALSE;
  if (target->kind == CORDON_REPORT_TARGET_STREAM)
    return write_stream (target, data, len, error);
  return replace_in_dir (target, data, len, error);
}
