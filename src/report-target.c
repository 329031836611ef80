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
  GPtrArray *links; /* Link: every symlink the path was resolved through, as met */
  gboolean special_fifo; /* STREAM of a FIFO (else of a device; its path is `name`) */
  gboolean settled; /* checked against the writable paths */
  int special_dir;  /* ... its directory, held (O_PATH) until it is opened */
  dev_t special_dev;
  ino_t special_ino;
};

/* A symlink met on the way: the directory it is in (held, O_PATH, so
 * that where that directory is can be asked again once the plan is
 * known, wherever it has been moved), its name there, and the path it
 * was met at, for messages. */
typedef struct
{
  int dir_fd;
  char *name;
  char *path;
} Link;

static void
link_free (gpointer p)
{
  Link *l = p;

  if (l->dir_fd >= 0)
    close (l->dir_fd);
  g_free (l->name);
  g_free (l->path);
  g_free (l);
}

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
  target->links = g_ptr_array_new_with_free_func (link_free);
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

/* A usage error: "cannot write SUBJECT: REASON". refused () returns
 * FALSE and refuse () NULL, for their callers' return. */
static void
set_refusal (GError **error,
             const char *subject,
             const char *format,
             va_list ap) G_GNUC_PRINTF (3, 0);

static void
set_refusal (GError **error,
             const char *subject,
             const char *format,
             va_list ap)
{
  g_autofree char *reason = g_strdup_vprintf (format, ap);

  g_set_error (error, CORDON_ERROR, CORDON_ERROR_USAGE, "cannot write %s: %s", subject, reason);
}

static gboolean
refused (GError **error,
         const char *subject,
         const char *format,
         ...) G_GNUC_PRINTF (3, 4);

static gboolean
refused (GError **error,
         const char *subject,
         const char *format,
         ...)
{
  va_list ap;

  va_start (ap, format);
  set_refusal (error, subject, format, ap);
  va_end (ap);
  return FALSE;
}

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
  va_list ap;

  va_start (ap, format);
  set_refusal (error, subject, format, ap);
  va_end (ap);
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
  g_autofree char *tid_number = tid != NULL && g_str_has_suffix (tid, "/fd")
                                ? g_strndup (tid, strlen (tid) - 3) : NULL;
  guint64 n = 0;
  g_autofree char *canonical = NULL;

  if (!g_str_equal (dir, own)
      && !(tid_number != NULL && g_ascii_string_to_unsigned (tid_number, 10, 1, G_MAXINT, NULL, NULL)))
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

/* The directory held open for a report that replaces `base` in it:
 * `dir_fd`, reached without following any symlink, reopened to write in. */
static CordonReportTarget *
hold_dir (int dir_fd,
          const char *dir,
          const char *base,
          uid_t owner,
          const char *subject,
          GError **error)
{
  g_autofree char *name = g_build_filename (dir, base, NULL);
  int fd = openat (dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

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

/* The node `path_fd` (O_PATH) opened for writing, never blocking: a FIFO
 * with no reader yet gets two seconds for one to come (one a sandbox left
 * in the workdir would hold cordon for ever), then ENXIO. Blocking again
 * once open. Through /proc/self/fd: the very node held, nothing that has
 * taken its name since. */
static int
open_writer (int path_fd)
{
  g_autofree char *proc = g_strdup_printf ("/proc/self/fd/%d", path_fd);

  for (guint tries = 0; ; tries++)
    {
      int fd = open (proc, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);

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
 * tape that rewinds), and an earlier run's sandbox may have left one, or
 * a symlink to one. Its directory is held meanwhile. */
static CordonReportTarget *
hold_special (int dir_fd,
              const char *dir,
              const char *base,
              const struct stat *st,
              const char *subject,
              GError **error)
{
  g_autofree char *full = g_build_filename (dir, base, NULL);
  CordonReportTarget *target;
  int held;

  if (S_ISSOCK (st->st_mode))
    return refuse (error, subject, "it is a socket, which cannot be opened (connect to it and "
                                   "pass the fd with --report-fd)");
  if (!S_ISCHR (st->st_mode) && !S_ISFIFO (st->st_mode))
    {
      g_autofree char *what = describe (st);

      return refuse (error, subject, "it is %s", what);
    }
  if ((held = fcntl (dir_fd, F_DUPFD_CLOEXEC, 3)) < 0)
    return refuse (error, subject, "its directory %s: %s", dir, g_strerror (errno));
  target = target_new (CORDON_REPORT_TARGET_STREAM, -1, base, full, 0);
  target->special_fifo = S_ISFIFO (st->st_mode);
  target->special_dir = held;
  target->special_dev = st->st_dev;
  target->special_ino = st->st_ino;
  return target;
}

/* The FIFO or device held, opened for writing (a FIFO must have its
 * reader now, before anything runs): the node is taken without opening
 * it (O_PATH), compared with the one examined, and only then opened. */
static gboolean
open_special (CordonReportTarget *target,
              GError **error)
{
  g_autofree char *subject = g_strdup_printf ("the report %s", target->name);
  struct stat now;
  int node = openat (target->special_dir, target->base, O_PATH | O_NOFOLLOW | O_CLOEXEC);
  int fd;

  if (node < 0)
    return refused (error, subject, "%s: %s", target->name, g_strerror (errno));
  if (fstat (node, &now) != 0 || now.st_dev != target->special_dev || now.st_ino != target->special_ino)
    {
      close (node);
      return refused (error, subject, "%s changed while it was opened", target->name);
    }
  fd = open_writer (node);
  close (node);
  /* ENXIO: a FIFO without its reader; a device without one (a tty). */
  if (fd < 0 && errno == ENXIO && target->special_fifo)
    return refused (error, subject, "%s is a FIFO that nobody reads (start its reader first)",
                    target->name);
  if (fd < 0)
    return refused (error, subject, "%s: %s", target->name, g_strerror (errno));
  target->fd = fd;
  close (target->special_dir);
  target->special_dir = -1;
  return TRUE;
}

/* The walk of a report's path: one component at a time, each directory
 * opened (O_PATH, O_NOFOLLOW) from the one before, so that what is
 * examined is what is held. A symlink is followed by the text read from
 * the directory it is in, and recorded; nothing is resolved twice (a
 * realpath() and a later look at the same path could each meet another
 * tree, one swapped in between). */
typedef struct
{
  int dir;             /* O_PATH: the directory reached */
  GPtrArray *at;       /* its path, component by component (real: no symlink) */
  GQueue todo;         /* the components still to walk */
  guint hops;          /* symlinks followed */
  gboolean from_link;  /* the last component is a symlink's text */
  GPtrArray *links;    /* Link */
} Walk;

static void
walk_clear (Walk *w)
{
  if (w->dir >= 0)
    close (w->dir);
  g_clear_pointer (&w->at, g_ptr_array_unref);
  g_queue_clear_full (&w->todo, g_free);
  g_clear_pointer (&w->links, g_ptr_array_unref);
}

static char *
walk_dir_path (const Walk *w)
{
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < w->at->len; i++)
    g_string_append_printf (out, "/%s", (const char *) g_ptr_array_index (w->at, i));
  return out->len > 0 ? g_string_free (g_steal_pointer (&out), FALSE) : g_strdup ("/");
}

/* `path`'s components, before those still to walk. */
static void
walk_push (Walk *w,
           const char *path)
{
  g_auto(GStrv) parts = g_strsplit (path, "/", -1);

  for (guint i = g_strv_length (parts); i-- > 0;)
    if (parts[i][0] != '\0')
      g_queue_push_head (&w->todo, g_strdup (parts[i]));
}

static gboolean
walk_to_root (Walk *w)
{
  if (w->dir >= 0)
    close (w->dir);
  g_ptr_array_set_size (w->at, 0);
  return (w->dir = open ("/", O_PATH | O_DIRECTORY | O_CLOEXEC)) >= 0;
}

/* Into `name` of the directory reached (or up, for "..", or nowhere,
 * for "."): FALSE with errno where it is no directory (ENOTDIR: a
 * symlink among them, or a file). */
static gboolean
walk_into (Walk *w,
           const char *name)
{
  int next = openat (w->dir, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

  if (next < 0)
    return FALSE;
  close (w->dir);
  w->dir = next;
  if (g_str_equal (name, ".."))
    {
      if (w->at->len > 0)
        g_ptr_array_set_size (w->at, w->at->len - 1);
    }
  else if (!g_str_equal (name, "."))
    g_ptr_array_add (w->at, g_strdup (name));
  return TRUE;
}

/* The text of the symlink `name` in `dir_fd`, or NULL with errno. */
static char *
read_link_at (int dir_fd,
              const char *name)
{
  for (gsize size = 256; size <= 1 << 20; size *= 2)
    {
      g_autofree char *text = g_malloc (size);
      ssize_t n = readlinkat (dir_fd, name, text, size);

      if (n < 0)
        return NULL;
      if ((gsize) n < size)
        {
          text[n] = '\0';
          return g_steal_pointer (&text);
        }
    }
  errno = ENAMETOOLONG;
  return NULL;
}

/* The symlink `name` of the directory reached, recorded and followed. */
static gboolean
walk_follow (Walk *w,
             const char *name,
             gboolean last,
             const char *subject,
             GError **error)
{
  g_autofree char *dir = walk_dir_path (w);
  g_autofree char *text = NULL;
  Link *l;

  if (++w->hops > MAX_SYMLINKS)
    return refused (error, subject, "%s", g_strerror (ELOOP));
  if ((text = read_link_at (w->dir, name)) == NULL)
    return refused (error, subject, "%s/%s changed while it was examined", g_str_equal (dir, "/") ? "" : dir,
                    name);
  l = g_new0 (Link, 1);
  l->dir_fd = fcntl (w->dir, F_DUPFD_CLOEXEC, 3);
  l->name = g_strdup (name);
  l->path = g_build_filename (dir, name, NULL);
  g_ptr_array_add (w->links, l);
  if (l->dir_fd < 0)
    return refused (error, subject, "%s: %s", dir, g_strerror (errno));
  if (text[0] == '/' && !walk_to_root (w))
    return refused (error, subject, "/: %s", g_strerror (errno));
  walk_push (w, text);
  if (last)
    w->from_link = TRUE;
  return TRUE;
}

/* Every component but the last; FALSE (with `error`) on a refusal. */
static gboolean
walk_dirs (Walk *w,
           const char *subject,
           GError **error)
{
  while (g_queue_get_length (&w->todo) > 1
         || (g_queue_get_length (&w->todo) == 1 && (g_str_equal (g_queue_peek_head (&w->todo), "..")
                                                    || g_str_equal (g_queue_peek_head (&w->todo), "."))))
    {
      g_autofree char *name = g_queue_pop_head (&w->todo);
      g_autofree char *dir = NULL;
      struct stat st;

      if (walk_into (w, name))
        continue;
      dir = walk_dir_path (w);
      if (errno == ENOTDIR && fstatat (w->dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK (st.st_mode))
        {
          if (!walk_follow (w, name, FALSE, subject, error))
            return FALSE;
          continue;
        }
      if (errno == ENOENT)
        return refused (error, subject, "its directory %s/%s does not exist", g_str_equal (dir, "/") ? "" : dir,
                        name);
      if (errno == ENOTDIR)
        return refused (error, subject, "%s/%s is not a directory", g_str_equal (dir, "/") ? "" : dir, name);
      return refused (error, subject, "%s/%s: %s", g_str_equal (dir, "/") ? "" : dir, name,
                      g_strerror (errno));
    }
  if (g_queue_is_empty (&w->todo))
    return refused (error, subject, "it names a directory, not a file");
  return TRUE;
}

/* The last component, `base` in the directory reached: examined, never
 * opened (but a directory to hold). NULL with *out_again: a symlink,
 * followed; walk on. */
static CordonReportTarget *
walk_last (Walk *w,
           uid_t owner,
           const char *subject,
           gboolean *out_again,
           GError **error)
{
  g_autofree char *base = g_queue_pop_head (&w->todo);
  g_autofree char *dir = walk_dir_path (w);
  g_autofree char *full = g_build_filename (dir, base, NULL);
  struct stat st;
  int n;

  if (names_own_fd (dir, base, &n))
    return hold_fd (n, full, subject, error);
  if (fstatat (w->dir, base, &st, AT_SYMLINK_NOFOLLOW) != 0)
    {
      if (errno == ENOENT && !w->from_link)
        return hold_dir (w->dir, dir, base, owner, subject, error);
      if (errno == ENOENT)
        return refuse (error, subject, "it is a dangling symlink (%s does not exist)", full);
      return refuse (error, subject, "%s: %s", full, g_strerror (errno));
    }
  if (S_ISREG (st.st_mode) && st.st_uid != owner)
    return refuse (error, subject, "%s is a regular file of uid %u, not the caller's (uid %u): "
                   "cordon replaces only the caller's own files", full, (unsigned) st.st_uid,
                   (unsigned) owner);
  if (S_ISREG (st.st_mode))
    return hold_dir (w->dir, dir, base, owner, subject, error);
  if (S_ISDIR (st.st_mode))
    return refuse (error, subject, "it is a directory");
  if (!S_ISLNK (st.st_mode))
    return hold_special (w->dir, dir, base, &st, subject, error);
  if (walk_follow (w, base, TRUE, subject, error))
    *out_again = TRUE;
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
  g_autofree char *absolute = NULL;
  Walk w = { .dir = -1, .at = g_ptr_array_new_with_free_func (g_free), .todo = G_QUEUE_INIT,
             .links = g_ptr_array_new_with_free_func (link_free) };
  CordonReportTarget *target = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  subject = g_strdup_printf ("the report %s", path);
  if (g_str_equal (path, "-"))
    target = hold_fd (STDOUT_FILENO, "standard output", subject, error);
  /* "out/" names a directory, never a file "out" to create. */
  else if (path[0] == '\0' || g_str_has_suffix (path, "/"))
    refuse (error, subject, "it names a directory, not a file");
  else if (!walk_to_root (&w))
    refuse (error, subject, "/: %s", g_strerror (errno));
  else
    {
      g_autofree char *cwd = g_get_current_dir ();

      absolute = g_path_is_absolute (path) ? g_strdup (path) : g_build_filename (cwd, path, NULL);
      walk_push (&w, absolute);
      for (gboolean again = TRUE; again && walk_dirs (&w, subject, error);)
        {
          again = FALSE;
          target = walk_last (&w, owner, subject, &again, error);
        }
    }
  /* An fd is the caller's, however it was named: its links are nobody's
   * concern. Otherwise they go with the target, to be checked. */
  if (target != NULL && (target->kind == CORDON_REPORT_TARGET_FILE || target->special_dir >= 0))
    g_ptr_array_extend_and_steal (target->links, g_steal_pointer (&w.links));
  walk_clear (&w);
  return target;
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
        add_region (regions, home->dev, cordon_mount_table_inner_path (home, real_roots[w]));
      for (guint i = 0; i < mounts->len; i++)
        {
          const CordonMount *m = g_ptr_array_index (mounts, i);

          /* A read-only mount below stays read-only in the sandbox. */
          if (cordon_path_is_ancestor (real_roots[w], m->point, FALSE) && !m->ro)
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
  g_autofree char *inner = home != NULL ? cordon_mount_table_inner_path (home, path) : NULL;

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

/* Where the directory held as `dir_fd` is now (it may have been moved
 * since it was met), NULL if it is gone. */
static char *
where_now (int dir_fd)
{
  g_autofree char *proc = g_strdup_printf ("/proc/self/fd/%d", dir_fd);
  g_autofree char *at = g_file_read_link (proc, NULL);

  if (at == NULL || at[0] != '/' || g_str_has_suffix (at, " (deleted)"))
    return NULL;
  return g_steal_pointer (&at);
}

/* The directory of `path`, held since it was met, is no more: moved away
 * and removed, since cordon started. */
static gboolean
gone (GError **error,
      const char *path)
{
  g_set_error (error, CORDON_ERROR, CORDON_ERROR_USAGE, "cannot write the report: the directory "
               "of %s was removed since cordon met it", path);
  return FALSE;
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

  if (!g_file_get_contents ("/proc/self/mountinfo", &info, NULL, NULL))
    {
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "cannot write the report: "
                   "/proc/self/mountinfo cannot be read, so the writable paths cannot be told apart");
      return FALSE;
    }
  mounts = cordon_mount_table_parse (info);
  regions = writable_regions (mounts, real_roots);
  for (guint i = 0; i < target->links->len; i++)
    {
      const Link *l = g_ptr_array_index (target->links, i);
      g_autofree char *dir = where_now (l->dir_fd);
      g_autofree char *now = dir != NULL ? g_build_filename (dir, l->name, NULL) : NULL;

      if (now == NULL)
        return gone (error, l->path);
      if ((in = writable_holding (now, roots, real_roots, mounts, regions)) != NULL)
        {
          g_set_error (error, CORDON_ERROR, CORDON_ERROR_USAGE, "cannot write the report: its path "
                       "goes through the symlink %s, in the writable path %s (a sandbox may have "
                       "made it); give the path without it", l->path, in);
          return FALSE;
        }
    }
  if (target->special_dir >= 0)
    {
      g_autofree char *dir = where_now (target->special_dir);
      g_autofree char *now = dir != NULL ? g_build_filename (dir, target->base, NULL) : NULL;

      if (now == NULL)
        return gone (error, target->name);
      if ((in = writable_holding (now, roots, real_roots, mounts, regions)) != NULL)
        {
          g_set_error (error, CORDON_ERROR, CORDON_ERROR_USAGE, "cannot write the report: %s, a FIFO "
                       "or device, is in the writable path %s (a sandbox may have made it)",
                       target->name, in);
          return FALSE;
        }
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

static gboolean
write_stream (const CordonReportTarget *target,
              const char *data,
              gsize len,
              GError **error)
{
  if (cordon_file_write_all (target->fd, data, len))
    return TRUE;
  g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "cannot write the report to %s: %s",
               target->name, g_strerror (errno));
  return FALSE;
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
  /* Never settled (cordon stopped before the plan was known): a file
   * named as given is written now; one reached through a symlink is not,
   * nor is a FIFO or a device at all, since whether a sandbox left them
   * was never checked. (An fd is the caller's, however it was named.) */
  if (!target->settled && target->special_dir >= 0)
    {
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "not written: %s is a FIFO or a device, "
                   "and cordon stopped before it could check that no sandbox made it", target->name);
      return FALSE;
    }
  if (!target->settled && target->links->len > 0 && target->kind == CORDON_REPORT_TARGET_FILE)
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
