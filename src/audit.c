/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* audit: see audit.h. Everything is reached from the directory fd opened
 * before the run, one openat() at a time with O_NOFOLLOW: no path the
 * sandbox could have replaced is resolved, and a FIFO is never opened
 * (a config file is opened with O_NONBLOCK, and read only when fstat()
 * shows a regular file). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "audit.h"
#include "file-util.h"
#include "git-config.h"
#include "path-util.h"

#define MAX_DEPTH 128
#define MAX_CONFIG (1024 * 1024)

typedef struct
{
  CordonAudit *audit;
  const char *root;
  struct timespec since;
  guint max;
  gboolean quarantine;
  dev_t dev;
  GPtrArray *moves;           /* Move: this directory's findings, moved once it is read */
} Walk;

/* Renamed only once the directory is read whole: a name renamed while
 * readdir() goes on may come back under its new name. */
typedef struct
{
  int dirfd;
  char *name;
  gboolean strip_setid;
  gboolean is_dir;
  CordonPlanted *finding;
} Move;

#define MAX_FINDINGS 1000

static void
finding_free (gpointer data)
{
  CordonPlanted *f = data;

  g_free (f->path);
  g_free (f->what);
  g_free (f->quarantined);
  g_free (f);
}

void
cordon_audit_init (CordonAudit *audit)
{
  audit->findings = g_ptr_array_new_with_free_func (finding_free);
  audit->entries = 0;
  audit->complete = TRUE;
  audit->duration_us = 0;
  audit->unheld = 0;
}

void
cordon_audit_clear (CordonAudit *audit)
{
  g_clear_pointer (&audit->findings, g_ptr_array_unref);
}

static gboolean
at_or_after (const struct statx_timestamp *t,
             const struct timespec *since)
{
  return t->tv_sec > since->tv_sec || (t->tv_sec == since->tv_sec && (long) t->tv_nsec >= since->tv_nsec);
}

static gboolean
changed (const Walk *w,
         const struct statx *sx)
{
  return at_or_after (&sx->stx_ctime, &w->since);
}

/* Made during the run: its birth time, where the file system keeps one. */
static gboolean
born (const Walk *w,
      const struct statx *sx)
{
  return (sx->stx_mask & STATX_BTIME) ? at_or_after (&sx->stx_btime, &w->since) : changed (w, sx);
}

static gboolean
stat_at (int dirfd,
         const char *name,
         struct statx *sx)
{
  return statx (dirfd, name, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT,
                STATX_TYPE | STATX_MODE | STATX_CTIME | STATX_BTIME | STATX_INO, sx) == 0;
}

/* NAME.cordon-quarantine-RANDOM, never over anything (a name the
 * sandbox cannot have taken ahead), and no set-ID bit left on it. */
static char *
move_aside (int dirfd,
            const char *name,
            gboolean strip_setid)
{
  for (guint n = 0; n < 8; n++)
    {
      g_autofree char *aside = g_strdup_printf ("%s.cordon-quarantine-%08x", name, g_random_int ());

      if (renameat2 (dirfd, name, dirfd, aside, RENAME_NOREPLACE) == 0)
        {
          int fd = strip_setid ? openat (dirfd, aside, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) : -1;
          struct stat st;

          if (fd >= 0 && fstat (fd, &st) == 0 && S_ISREG (st.st_mode))
            (void) fchmod (fd, st.st_mode & 01777);
          if (fd >= 0)
            close (fd);
          return g_steal_pointer (&aside);
        }
      if (errno != EEXIST)
        return NULL;
    }
  return NULL;
}

/* What was moved aside in a directory that is then moved aside itself
 * (a protected one) is where that directory went. */
static void
rehome (Walk *w,
        const char *from,
        const char *to)
{
  gsize len = strlen (from);

  for (guint i = 0; i < w->audit->findings->len; i++)
    {
      CordonPlanted *f = g_ptr_array_index (w->audit->findings, i);

      if (f->quarantined != NULL && cordon_path_is_ancestor (from, f->quarantined, FALSE))
        {
          char *moved = g_strconcat (to, f->quarantined + len, NULL);

          g_free (f->quarantined);
          f->quarantined = moved;
        }
    }
}

static void
apply_moves (Walk *w,
             GPtrArray *moves)
{
  for (guint i = 0; i < moves->len; i++)
    {
      Move *m = g_ptr_array_index (moves, i);
      g_autofree char *aside = move_aside (m->dirfd, m->name, m->strip_setid);
      g_autofree char *dir = g_path_get_dirname (m->finding->path);

      if (aside == NULL)
        w->audit->unheld++;
      else
        {
          m->finding->quarantined = g_build_filename (dir, aside, NULL);
          if (m->is_dir)
            rehome (w, m->finding->path, m->finding->quarantined);
        }
      g_free (m->name);
      g_free (m);
    }
  g_ptr_array_set_size (moves, 0);
}

/* A repository made during the run is left where it is, quarantine or
 * not: what in it would run (its config, its hooks) is a finding of its
 * own, moved aside by itself; the rest is the command's work. */
static void
add_finding (Walk *w,
             int dirfd,
             const char *dir,
             const char *name,
             const char *what,
             const struct statx *sx)
{
  CordonPlanted *f;

  if (w->audit->findings->len >= MAX_FINDINGS)
    {
      w->audit->complete = FALSE;
      return;
    }
  f = g_new0 (CordonPlanted, 1);
  f->path = g_build_filename (dir, name, NULL);
  f->what = g_strdup (what);
  g_ptr_array_add (w->audit->findings, f);
  if (w->quarantine && sx != NULL && !g_str_equal (name, ".git"))
    {
      Move *m = g_new0 (Move, 1);

      m->dirfd = dirfd;
      m->name = g_strdup (name);
      m->strip_setid = S_ISREG (sx->stx_mode);
      m->is_dir = S_ISDIR (sx->stx_mode);
      m->finding = f;
      g_ptr_array_add (w->moves, m);
    }
  else if (sx == NULL)
    w->audit->unheld++;   /* what was not looked at: nothing to move */
}

/* The keys of a repository's config file that run a program; a
 * symlink there (git reads what it names), or one too big to read. */
static void
check_git_config (Walk *w,
                  int gitfd,
                  const char *gitdir,
                  const char *name)
{
  struct statx sx;
  g_autofree char *text = NULL;
  g_autoptr(GPtrArray) keys = NULL;
  g_autofree char *joined = NULL;
  g_autofree char *what = NULL;
  gboolean too_big = FALSE;
  gsize len = 0;

  if (!stat_at (gitfd, name, &sx) || !changed (w, &sx))
    return;
  if (S_ISLNK (sx.stx_mode))
    {
      add_finding (w, gitfd, gitdir, name, "a git config made a symlink during the run: git reads what it names",
                   &sx);
      return;
    }
  text = cordon_file_read_small_at (gitfd, name, MAX_CONFIG, &len, &too_big);
  if (too_big)
    add_finding (w, gitfd, gitdir, name, "a git config of more than 1 MiB written during the run: not read", &sx);
  if (text == NULL)
    return;
  keys = cordon_git_config_runners (text, len);
  if (keys->len == 0)
    return;
  g_ptr_array_add (keys, NULL);
  joined = g_strjoinv (", ", (char **) keys->pdata);
  what = g_strdup_printf ("git config written during the run sets %s: a program the next git command "
                          "there runs", joined);
  add_finding (w, gitfd, gitdir, name, what, &sx);
}

/* A repository directory (.git, a bare one, .git/modules/NAME): one
 * named .git, or with a HEAD of any kind (git takes a symlink). */
static gboolean
repository_dir (int fd,
                const char *path)
{
  struct statx head;

  return g_str_has_suffix (path, "/.git") || stat_at (fd, "HEAD", &head);
}

/* hooks/ of a repository directory: what was made or changed there. */
static void
check_hooks (Walk *w,
             int gitfd,
             const char *gitdir)
{
  g_autofree char *path = g_build_filename (gitdir, "hooks", NULL);
  g_autoptr(GPtrArray) moves = g_ptr_array_new ();
  GPtrArray *outer = w->moves;
  struct statx hsx;
  int fd = openat (gitfd, "hooks", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  DIR *dir = fd >= 0 ? fdopendir (fd) : NULL;
  struct dirent *de;

  if (dir == NULL)
    {
      if (fd >= 0)
        close (fd);
      if (stat_at (gitfd, "hooks", &hsx) && S_ISLNK (hsx.stx_mode) && changed (w, &hsx))
        add_finding (w, gitfd, gitdir, "hooks", "git hooks made a symlink during the run: git runs what it names",
                     &hsx);
      return;
    }
  w->moves = moves;
  while ((de = readdir (dir)) != NULL)
    {
      struct statx sx;

      if (de->d_name[0] == '.' || g_str_has_suffix (de->d_name, ".sample"))
        continue;
      if (stat_at (dirfd (dir), de->d_name, &sx) && !S_ISDIR (sx.stx_mode) && changed (w, &sx))
        add_finding (w, dirfd (dir), path, de->d_name, "a git hook made or changed during the run", &sx);
    }
  apply_moves (w, moves);
  w->moves = outer;
  closedir (dir);
}

static gboolean
escapes (const Walk *w,
         const char *dir,
         const char *name,
         const char *target)
{
  static const char * const system[] = { "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", NULL };
  g_autofree char *lexical = g_canonicalize_filename (target, dir);
  g_autofree char *link = g_build_filename (dir, name, NULL);
  /* Where it leads on the host, through every symlink (a /usr path may
   * lead to /etc: /usr/lib/ssl/private); where that cannot be told, as
   * written. Nothing is opened. */
  char *real = realpath (link, NULL);
  g_autofree char *where = real != NULL ? real : g_strdup (lexical);
  gboolean system_path = FALSE;

  for (guint i = 0; system[i] != NULL; i++)
    if (g_str_equal (where, system[i])
        || (g_str_has_prefix (where, system[i]) && where[strlen (system[i])] == '/'))
      system_path = TRUE;
  return !system_path && !(g_str_equal (where, w->root)
                           || (g_str_has_prefix (where, w->root) && where[strlen (w->root)] == '/'));
}

/* What an entry that is no directory to walk says, if anything. */
static void
check_entry (Walk *w,
             int dirfd,
             const char *dir,
             const char *name,
             const struct statx *sx)
{
  char target[4096];
  ssize_t len;

  if (g_str_equal (name, ".git") && born (w, sx))
    add_finding (w, dirfd, dir, name, "a repository made during the run: the host's next git command there "
                                      "reads its config and runs its hooks (left in place; each of those "
                                      "that runs a program is named)", sx);
  else if ((S_ISFIFO (sx->stx_mode) || S_ISCHR (sx->stx_mode) || S_ISBLK (sx->stx_mode)) && born (w, sx))
    add_finding (w, dirfd, dir, name, S_ISFIFO (sx->stx_mode) ? "a FIFO made during the run: a reader "
                                      "on the host blocks, or reads what the sandbox left"
                                      : "a device node made during the run", sx);
  else if (S_ISREG (sx->stx_mode) && (sx->stx_mode & (S_ISUID | S_ISGID)) && changed (w, sx))
    add_finding (w, dirfd, dir, name, "a set-user-ID or set-group-ID file made or changed during the run", sx);
  else if (S_ISREG (sx->stx_mode) && (sx->stx_mode & 0111) && changed (w, sx))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (lgetxattr (path, "security.capability", NULL, 0) >= 0)
        add_finding (w, dirfd, dir, name, "a file with capabilities made or changed during the run", sx);
    }
  else if (S_ISLNK (sx->stx_mode) && changed (w, sx)
           && (len = readlinkat (dirfd, name, target, sizeof target - 1)) > 0)
    {
      target[len] = '\0';
      if (escapes (w, dir, name, target))
        add_finding (w, dirfd, dir, name, "a symlink made during the run that points out of the writable path: "
                                          "what follows it reads or writes the host", sx);
    }
}

static void walk_dir (Walk *w, int fd, const char *path, guint depth);

/* A mount point below the root: the host's (a sandbox makes none there),
 * not walked. Where the kernel does not say, a device of its own. */
static gboolean
is_mount_point (const Walk *w,
                const struct statx *sx)
{
  if (sx->stx_attributes_mask & STATX_ATTR_MOUNT_ROOT)
    return (sx->stx_attributes & STATX_ATTR_MOUNT_ROOT) != 0;
  return makedev (sx->stx_dev_major, sx->stx_dev_minor) != w->dev;
}

/* One entry of a directory; FALSE once the walk must stop. */
static gboolean
visit (Walk *w,
       int fd,
       const char *path,
       const char *name,
       guint depth)
{
  struct statx sx;
  int child;

  if (++w->audit->entries > w->max)
    {
      g_autofree char *what = g_strdup_printf ("the walk stopped after %u entries ([audit] max-entries): "
                                               "what lies beyond was not looked at", w->max);

      add_finding (w, fd, w->root, "", what, NULL);
      w->audit->complete = FALSE;
      return FALSE;
    }
  if (!stat_at (fd, name, &sx))
    return TRUE;
  check_entry (w, fd, path, name, &sx);
  if (!S_ISDIR (sx.stx_mode) || is_mount_point (w, &sx))
    return w->audit->complete;
  child = depth < MAX_DEPTH ? openat (fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
  if (child >= 0)
    {
      g_autofree char *sub = g_build_filename (path, name, NULL);

      walk_dir (w, child, sub, depth + 1);
      close (child);
    }
  else
    {
      g_autofree char *what = depth >= MAX_DEPTH
        ? g_strdup ("a directory deeper than 128: what is in it was not looked at")
        : g_strdup_printf ("a directory the walk cannot read (%s): what is in it was not looked at",
                           g_strerror (errno));

      add_finding (w, fd, path, name, what, &sx);
    }
  return w->audit->complete;
}

static void
walk_dir (Walk *w,
          int fd,
          const char *path,
          guint depth)
{
  g_autoptr(GPtrArray) moves = g_ptr_array_new ();
  GPtrArray *outer = w->moves;
  /* Its own offset: a second walk of the same fd reads it whole again. */
  int copy = openat (fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR *dir = copy >= 0 ? fdopendir (copy) : NULL;
  struct dirent *de;

  if (dir == NULL)
    {
      if (copy >= 0)
        close (copy);
      return;
    }
  w->moves = moves;
  if (repository_dir (fd, path))
    {
      struct statx common;

      check_git_config (w, fd, path, "config");
      check_git_config (w, fd, path, "config.worktree");
      check_hooks (w, fd, path);
      if (stat_at (fd, "commondir", &common) && changed (w, &common))
        add_finding (w, fd, path, "commondir", "a commondir written during the run: git takes the config "
                                               "and hooks of the directory it names", &common);
    }
  while ((de = readdir (dir)) != NULL)
    if (!g_str_equal (de->d_name, ".") && !g_str_equal (de->d_name, "..")
        && !visit (w, fd, path, de->d_name, depth))
      break;
  apply_moves (w, moves);
  w->moves = outer;
  closedir (dir);
}

/* --- protected paths ---------------------------------------------------- */

/* Already named by the walk: the path itself (a config that runs a
 * program, a commondir, hooks/ or .git made a symlink: the one finding
 * is the more precise one), or a directory it is in (a repository made
 * during the run, left in place: the rules of a repository name what in
 * it runs, where a fresh git init's config and sample hooks run
 * nothing). Not the root, where the walk's own "stopped" findings are. */
static gboolean
named (const Walk *w,
       const char *path)
{
  for (guint i = 0; i < w->audit->findings->len; i++)
    {
      const char *p = ((CordonPlanted *) g_ptr_array_index (w->audit->findings, i))->path;

      if (!g_str_equal (p, w->root) && cordon_path_is_ancestor (p, path, TRUE))
        return TRUE;
    }
  return FALSE;
}

/* Holds nothing but "." and ".."; FALSE where it cannot be read (what
 * it holds cannot be told). */
static gboolean
empty_dir (int dirfd,
           const char *name)
{
  int fd = openat (dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  DIR *dir = fd >= 0 ? fdopendir (fd) : NULL;
  gboolean empty = dir != NULL;
  struct dirent *de;

  if (dir == NULL && fd >= 0)
    close (fd);
  while (empty && (de = readdir (dir)) != NULL)
    empty = g_str_equal (de->d_name, ".") || g_str_equal (de->d_name, "..");
  if (dir != NULL)
    closedir (dir);
  return empty;
}

/* The protected entry `entry`, at `name` of the directory `dirfd` (the
 * host path `dir`): made or changed during the run, a symlink too. Not
 * an empty directory, which runs nothing (cordon's own mount points, an
 * absent .git/hooks/ made empty and read-only, are such), nor a mount
 * point (the host's). A repository's hooks/ is the hook rule's, once the
 * walk has looked at the whole tree: it names each file there that git
 * could run (all but a *.sample), and a hooks/ of samples runs nothing. */
static void
check_protected_at (Walk *w,
                    int dirfd,
                    const char *dir,
                    const char *name,
                    const char *entry)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *what = NULL;
  struct statx sx;

  if (!stat_at (dirfd, name, &sx) || !changed (w, &sx) || named (w, path))
    return;
  if (S_ISDIR (sx.stx_mode)
      && (is_mount_point (w, &sx) || empty_dir (dirfd, name)
          || (w->audit->complete && g_str_equal (name, "hooks") && repository_dir (dirfd, dir))))
    return;
  what = g_strdup_printf ("a protected path made or changed during the run ([filesystem] protect=%s)", entry);
  add_finding (w, dirfd, dir, name, what, &sx);
}

/* A plain relative path: no empty, "." or ".." component (the policy's
 * parser refuses them; what names nothing below the root is left). */
static gboolean
plain_entry (char **parts)
{
  for (guint i = 0; parts[i] != NULL; i++)
    if (parts[i][0] == '\0' || g_str_equal (parts[i], ".") || g_str_equal (parts[i], ".."))
      return FALSE;
  return parts[0] != NULL;
}

/* One protected entry of the root: each directory on its path reached
 * from the root fd, one openat() at a time with O_NOFOLLOW, never into a
 * mount point. A symlink made on the way is named: the host that goes
 * to the entry goes where it points. Each finding is moved at once: no
 * directory is being read. */
static void
check_protected (Walk *w,
                 int root_fd,
                 const char *entry)
{
  g_auto(GStrv) parts = g_strsplit (entry, "/", -1);
  g_autofree char *dir = g_strdup (w->root);
  int fd = plain_entry (parts) ? root_fd : -1;
  guint i;

  for (i = 0; fd >= 0 && parts[i + 1] != NULL; i++)
    {
      g_autofree char *sub = g_build_filename (dir, parts[i], NULL);
      struct statx sx;
      gboolean there = stat_at (fd, parts[i], &sx);
      int next = -1;

      if (there && S_ISDIR (sx.stx_mode) && !is_mount_point (w, &sx))
        next = openat (fd, parts[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      else if (there && S_ISLNK (sx.stx_mode) && changed (w, &sx) && !named (w, sub))
        {
          g_autofree char *what = g_strdup_printf ("a symlink made during the run on the way to a protected "
                                                   "path ([filesystem] protect=%s)", entry);

          add_finding (w, fd, dir, parts[i], what, &sx);
          apply_moves (w, w->moves);
        }
      if (fd != root_fd)
        close (fd);
      fd = next;
      g_free (dir);
      dir = g_steal_pointer (&sub);
    }
  if (fd < 0)
    return;
  check_protected_at (w, fd, dir, parts[i], entry);
  apply_moves (w, w->moves);
  if (fd != root_fd)
    close (fd);
}

static void
check_protected_entries (Walk *w,
                         int root_fd,
                         const char * const *protect)
{
  g_autoptr(GPtrArray) moves = g_ptr_array_new ();
  GPtrArray *outer = w->moves;

  w->moves = moves;
  for (guint i = 0; protect != NULL && protect[i] != NULL; i++)
    check_protected (w, root_fd, protect[i]);
  w->moves = outer;
}

static int
compare_findings (gconstpointer a,
                  gconstpointer b)
{
  return strcmp ((*(CordonPlanted * const *) a)->path, (*(CordonPlanted * const *) b)->path);
}

void
cordon_audit_walk (CordonAudit *audit,
                   int root_fd,
                   const char *root,
                   const char * const *protect,
                   const struct timespec *since,
                   guint max_entries,
                   gboolean quarantine)
{
  Walk w = { audit, root, *since, max_entries, quarantine, 0, NULL };
  gint64 t0 = g_get_monotonic_time ();
  gboolean walked = audit->complete;
  struct stat st;

  if (fstat (root_fd, &st) != 0 || !S_ISDIR (st.st_mode))
    return;
  w.dev = st.st_dev;
  /* A file system of whole seconds (no fraction on the root's times)
   * would put what the first second made before the start. */
  if (st.st_ctim.tv_nsec == 0 && st.st_mtim.tv_nsec == 0)
    {
      w.since.tv_sec -= 1;
      w.since.tv_nsec = 0;
    }
  /* The bound is for all the walks of one audit; the protected entries,
   * a few statx() each, are looked at in every root all the same. After
   * the walk: what it named is not named again, and what it moved is
   * moved before a directory around it is. */
  if (walked)
    walk_dir (&w, root_fd, root, 0);
  check_protected_entries (&w, root_fd, protect);
  if (walked && audit->findings->len >= MAX_FINDINGS)
    {
      CordonPlanted *f = g_new0 (CordonPlanted, 1);

      f->path = g_strdup (root);
      f->what = g_strdup ("more than 1000 findings: the walk stopped there, and the rest were not looked at");
      g_ptr_array_add (audit->findings, f);
      audit->unheld++;
    }
  g_ptr_array_sort (audit->findings, compare_findings);
  audit->duration_us += g_get_monotonic_time () - t0;
}
