/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* keeper-cgroup: see keeper-cgroup.h. Every path is below a parent's fd
 * cordon opened before anything of the sandbox ran (invariant 10) — but
 * a systemd scope's, whose parent the keeper opens again by path at the
 * end (holding none while the sandbox runs: see cordon_keeper_cgroups_
 * read) — and names only what the spec names: a cgroup's name and its
 * files, none of them with a '/' or a leading '.'; the keeper goes back
 * from a cgroup v2 cgroup it made to cordon's own through another fd
 * opened so (its "home"). The processes left in a cgroup it made are
 * killed at once through cgroup.kill where the kernel has it (v2), and
 * those cgroup.procs still lists through a pidfd, each only once /proc
 * shows it in that cgroup still, so that a pid reused after its process
 * ended is never hit. A made cgroup's own children are emptied and
 * removed before it; a scope's are left to its manager (the sandbox
 * cannot make any: verification refuses a writable cgroup file system
 * in it). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "keeper-cgroup.h"
#include "proc-read.h"
#include "protocol.h"
#include "spec-codec.h"

#define MAX_DEPTH 16

static int
fail (char *why,
      size_t why_len,
      const char *what,
      const KeeperCgroup *dir,
      const char *file)
{
  int saved = errno;

  snprintf (why, why_len, "%s %s%s%s", what, dir != NULL ? dir->name : "", file != NULL ? "/" : "",
            file != NULL ? file : "");
  errno = saved;
  return -1;
}

static int
plain_name (const char *s)
{
  return s[0] != '\0' && s[0] != '.' && strchr (s, '/') == NULL && strlen (s) < 64;
}

static long
now_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (long) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Calls `each` on every line of the spec of `verb`, with its fields. */
static int
each_line (KeeperCgroups *cg,
           const char *verb,
           int (*each) (KeeperCgroups *, KeeperCgroup *, char **, size_t, char *, size_t),
           char *why,
           size_t why_len)
{
  char *copy = strdup (cg->spec), *save = NULL;
  int rc = 0;

  if (copy == NULL)
    return fail (why, why_len, "out of memory in", NULL, NULL);
  for (char *l = strtok_r (copy, "\n", &save); l != NULL && rc == 0; l = strtok_r (NULL, "\n", &save))
    {
      char *f[4], *s2 = NULL;
      size_t n = 0;

      for (char *tok = strtok_r (l, "\t", &s2); tok != NULL && n < 4; tok = strtok_r (NULL, "\t", &s2))
        f[n++] = tok;
      if (n >= 2 && strcmp (f[0], verb) == 0)
        {
          size_t i = strtoul (f[1], NULL, 10);

          if (i >= cg->n || (n > 2 && !plain_name (f[2])))
            rc = (errno = EINVAL, fail (why, why_len, "cannot read the instruction", NULL, f[0]));
          else
            rc = each (cg, &cg->dirs[i], f, n, why, why_len);
        }
    }
  free (copy);
  return rc;
}

/* A "home" line: the fd after the parents' is the way back of its dir. */
static int
take_home (KeeperCgroups *cg,
           int spec_fd,
           char *why,
           size_t why_len)
{
  char *copy = strdup (cg->spec), *save = NULL;
  int home = spec_fd + 1 + (int) cg->n, rc = 0;

  if (copy == NULL)
    return fail (why, why_len, "out of memory in", NULL, NULL);
  for (char *l = strtok_r (copy, "\n", &save); l != NULL && rc == 0; l = strtok_r (NULL, "\n", &save))
    {
      char *s2 = NULL, *verb = strtok_r (l, "\t", &s2), *index = strtok_r (NULL, "\t", &s2);
      size_t i = index != NULL ? strtoul (index, NULL, 10) : cg->n;

      if (verb == NULL || strcmp (verb, CORDON_CGROUP_LINE_HOME) != 0)
        continue;
      if (i >= cg->n || cg->scope || home < 0 || fcntl (home, F_SETFD, FD_CLOEXEC) != 0)
        rc = (errno = EINVAL, fail (why, why_len, "cannot read", NULL, "the cgroup instructions"));
      else
        cg->dirs[i].home_fd = home, home = -1;
    }
  free (copy);
  return rc;
}

/* Every line one of protocol.h's, with its number of fields, none
 * empty, its index digits, its names plain and its parent as encoded:
 * the passes below then read each field where it is. */
static int
well_formed (const char *spec)
{
  static const struct { const char *verb; int n; } lines[] = {
    { CORDON_CGROUP_LINE_DIR, 3 }, { CORDON_CGROUP_LINE_SCOPE, 4 }, { CORDON_CGROUP_LINE_HOME, 2 },
    { CORDON_CGROUP_LINE_SET, 4 }, { CORDON_CGROUP_LINE_STAT, 3 },
  };
  char *copy = strdup (spec), *save = NULL;
  int ok = copy != NULL;

  for (char *l = ok ? strtok_r (copy, "\n", &save) : NULL; l != NULL && ok; l = strtok_r (NULL, "\n", &save))
    {
      char *f[4];
      int n = cordon_spec_split (l, f, 4);
      size_t index, k = 0;

      while (n > 0 && k < sizeof lines / sizeof lines[0] && strcmp (f[0], lines[k].verb) != 0)
        k++;
      ok = n > 0 && k < sizeof lines / sizeof lines[0] && n == lines[k].n && cordon_spec_index (f[1], &index) == 0
           && (n < 3 || plain_name (f[2]))
           && (strcmp (f[0], CORDON_CGROUP_LINE_SCOPE) != 0 || cordon_spec_decode_strict (f[3]) == 0);
    }
  free (copy);
  return ok;
}

int
cordon_keeper_cgroups_read (int spec_fd,
                            KeeperCgroups *cg,
                            char *why,
                            size_t why_len)
{
  char *save = NULL, *copy;

  cg->n = 0;
  cg->spec = cordon_spec_read_fd (spec_fd, 1 << 14);
  close (spec_fd);
  if (cg->spec != NULL && !well_formed (cg->spec))
    return (errno = EINVAL, fail (why, why_len, "cannot read", NULL, "the cgroup instructions"));
  if (cg->spec == NULL || (copy = strdup (cg->spec)) == NULL)
    return fail (why, why_len, "cannot read", NULL, "the cgroup instructions");
  for (char *l = strtok_r (copy, "\n", &save); l != NULL; l = strtok_r (NULL, "\n", &save))
    {
      char *s2 = NULL, *verb = strtok_r (l, "\t", &s2), *index = strtok_r (NULL, "\t", &s2);
      char *name = strtok_r (NULL, "\t", &s2), *parent = strtok_r (NULL, "\t", &s2);
      KeeperCgroup *dir = &cg->dirs[cg->n];

      if (verb == NULL || (strcmp (verb, CORDON_CGROUP_LINE_DIR) != 0 && strcmp (verb, CORDON_CGROUP_LINE_SCOPE) != 0))
        continue;
      cg->scope = strcmp (verb, CORDON_CGROUP_LINE_SCOPE) == 0;
      if (cg->n == CORDON_KEEPER_MAX_CGROUPS || index == NULL || name == NULL || !plain_name (name)
          || strtoul (index, NULL, 10) != cg->n)
        {
          free (copy);
          return (errno = EINVAL, fail (why, why_len, "cannot read", NULL, "the cgroup instructions"));
        }
      dir->parent_fd = spec_fd + 1 + (int) cg->n;
      dir->home_fd = -1;
      snprintf (dir->name, sizeof dir->name, "%s", name);
      dir->made = 0;
      if (fcntl (dir->parent_fd, F_SETFD, FD_CLOEXEC) != 0)
        {
          free (copy);
          return fail (why, why_len, "no parent fd for", dir, NULL);
        }
      /* A scope's files are the user's, as the keeper is: no fd of its
       * parent stays open here while the sandbox runs (a sandbox that
       * could reach the keeper's fds would reach them through it); the
       * end opens it again by its path. */
      if (cg->scope)
        {
          if (parent == NULL || strlen (parent) >= sizeof dir->parent_path || parent[0] != '/')
            {
              free (copy);
              return (errno = EINVAL, fail (why, why_len, "cannot read", NULL, "the cgroup instructions"));
            }
          (void) cordon_spec_decode_strict (parent);   /* well_formed took it */
          snprintf (dir->parent_path, sizeof dir->parent_path, "%s", parent);
          close (dir->parent_fd);
          dir->parent_fd = -1;
        }
      cg->n++;
    }
  free (copy);
  return take_home (cg, spec_fd, why, why_len);
}

/* All of `text` into `path` below `dir_fd` (AT_FDCWD: an absolute path):
 * 0, or -1 with errno. */
static int
write_whole (int dir_fd,
             const char *path,
             const char *text)
{
  int fd, rc = 0;
  size_t n = strlen (text);

  if ((fd = openat (dir_fd, path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)) < 0)
    return -1;
  if (write (fd, text, n) != (ssize_t) n)
    rc = -1;
  if (close (fd) != 0 && rc == 0)
    rc = -1;
  return rc;
}

/* `text` into FILE of the cgroup (or, with `parent`, of the one the
 * keeper goes back to: its home, else the parent). */
static int
write_file (const KeeperCgroup *dir,
            int parent,
            const char *file,
            const char *text)
{
  char path[160];

  snprintf (path, sizeof path, "%s%s%s", parent ? "" : dir->name, parent ? "" : "/", file);
  return write_whole (parent && dir->home_fd >= 0 ? dir->home_fd : dir->parent_fd, path, text);
}

/* `text` into FILE below `dir_fd`; nothing said of a failure (a file
 * this kernel has not). */
static void
write_at (int dir_fd,
          const char *file,
          const char *text)
{
  int fd = openat (dir_fd, file, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);

  if (fd < 0)
    return;
  (void) !write (fd, text, strlen (text));
  close (fd);
}

static int
make_one (KeeperCgroups *cg,
          KeeperCgroup *dir,
          char **f,
          size_t n,
          char *why,
          size_t why_len)
{
  (void) cg;
  (void) f;
  (void) n;
  if (mkdirat (dir->parent_fd, dir->name, 0755) != 0)
    return fail (why, why_len, "cannot make the cgroup", dir, NULL);
  dir->made = 1;
  return 0;
}

static int
set_one (KeeperCgroups *cg,
         KeeperCgroup *dir,
         char **f,
         size_t n,
         char *why,
         size_t why_len)
{
  (void) cg;
  if (n != 4 || !plain_name (f[2]))
    return (errno = EINVAL, fail (why, why_len, "cannot read the instruction", NULL, f[0]));
  if (write_file (dir, 0, f[2], f[3]) != 0)
    return fail (why, why_len, "cannot write the limit", dir, f[2]);
  return 0;
}

/* Does `proc_cgroup` (a /proc/PID/cgroup) put its process in a cgroup
 * named `name`? */
static int
names_cgroup (const char *proc_cgroup,
              const char *name)
{
  char needle[80];
  size_t n;

  snprintf (needle, sizeof needle, "/%s", name);
  n = strlen (needle);
  for (const char *p = strstr (proc_cgroup, needle); p != NULL; p = strstr (p + 1, needle))
    if (p[n] == '\n' || p[n] == '/' || p[n] == '\0')
      return 1;
  return 0;
}

/* Is `pid` (pinned by a pidfd) in a cgroup named `name` still? */
static int
still_in (pid_t pid,
          const char *name)
{
  char *text = cordon_proc_read (pid, "cgroup", NULL);
  int in = text != NULL && names_cgroup (text, name);

  free (text);
  return in;
}

/* cordon is gone while the manager may be placing the keeper in the
 * scope. A scope whose one process leaves it the moment it is placed can
 * stay "running", empty, for ever (systemd 252 misses that cgroup's
 * empty event): so the keeper, if placed within 3 s, stays a second
 * there before it goes, and the manager sees the scope empty once it
 * runs. Not placed by then, it goes: the call then fails, no scope. */
static void
settle_in_scope (const char *name)
{
  const struct timespec tick = { 0, 10000000 }, settle = { 1, 0 };

  for (int i = 0; i < 300; i++)
    {
      if (still_in (getpid (), name))
        {
          nanosleep (&settle, NULL);
          return;
        }
      nanosleep (&tick, NULL);
    }
}

/* A scope: cordon's "M" once the manager has placed the keeper, then
 * /proc's word for it. */
static int
wait_placed (KeeperCgroups *cg,
             int life_fd,
             char *why,
             size_t why_len)
{
  char byte = 0;
  ssize_t n;

  while ((n = read (life_fd, &byte, 1)) < 0 && errno == EINTR)
    ;
  if (n != 1 || byte != CORDON_KEEPER_PLACED)
    {
      settle_in_scope (cg->dirs[0].name);
      return (errno = ECANCELED, fail (why, why_len, "was not placed in", &cg->dirs[0], NULL));
    }
  if (!still_in (getpid (), cg->dirs[0].name))
    return (errno = ESRCH, fail (why, why_len, "is not in its scope", &cg->dirs[0], NULL));
  return 0;
}

/* In a scope: `text` into FILE of its child SUB, by the scope's path
 * (the keeper holds no fd of it). */
static int
scope_write (const KeeperCgroup *dir,
             const char *sub,
             const char *file,
             const char *text)
{
  char path[800];

  snprintf (path, sizeof path, "%s/%s/%s/%s", dir->parent_path, dir->name, sub, file);
  return write_whole (AT_FDCWD, path, text);
}

/* A scope the keeper is in, split in two: the keeper in a leaf of its
 * own, the sandbox in another whose first OOM kill takes all of it
 * (memory.oom.group), the controllers on for both (cgroup v2 lets a
 * cgroup that hands on controllers hold no process: hence the keeper's
 * leaf). The scope's limits bound both. A controller the scope has not
 * is left off; verification reads what holds. */
static int
split_scope (KeeperCgroups *cg,
             char *why,
             size_t why_len)
{
  static const char * const controllers[] = { "+memory", "+pids", "+cpu" };
  KeeperCgroup *dir = &cg->dirs[0];
  char path[700], file[760];
  int fd, fail_errno = 0;

  snprintf (path, sizeof path, "%s/%s", dir->parent_path, dir->name);
  if ((fd = open (path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
    return fail (why, why_len, "cannot open its scope", dir, NULL);
  if (mkdirat (fd, CORDON_SCOPE_KEEPER, 0755) != 0 || mkdirat (fd, CORDON_SCOPE_SANDBOX, 0755) != 0)
    fail_errno = errno;
  close (fd);
  if (fail_errno != 0)
    return (errno = fail_errno, fail (why, why_len, "cannot make the leaves of its scope", dir, NULL));
  if (scope_write (dir, CORDON_SCOPE_KEEPER, "cgroup.procs", "0") != 0)
    return fail (why, why_len, "cannot move to its leaf of", dir, CORDON_SCOPE_KEEPER);
  snprintf (file, sizeof file, "%s/cgroup.subtree_control", path);
  for (size_t i = 0; i < sizeof controllers / sizeof controllers[0]; i++)
    if ((fd = open (file, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)) >= 0)
      {
        (void) !write (fd, controllers[i], strlen (controllers[i]));
        close (fd);
      }
  (void) scope_write (dir, CORDON_SCOPE_SANDBOX, "memory.oom.group", "1");
  return 0;
}

int
cordon_keeper_cgroups_make (KeeperCgroups *cg,
                            int life_fd,
                            char *why,
                            size_t why_len)
{
  if (cg->scope && cg->n != 1)
    return (errno = EINVAL, fail (why, why_len, "cannot read", NULL, "the cgroup instructions"));
  if (cg->scope)
    return wait_placed (cg, life_fd, why, why_len) == 0 ? split_scope (cg, why, why_len) : -1;
  if (each_line (cg, CORDON_CGROUP_LINE_DIR, make_one, why, why_len) == 0
      && each_line (cg, CORDON_CGROUP_LINE_SET, set_one, why, why_len) == 0)
    return 0;
  {
    int saved = errno;

    cordon_keeper_cgroups_end (cg, -1, now_ms () + 1000);
    errno = saved;
  }
  return -1;
}

/* This process into each cgroup (or, with `parent`, back into each
 * parent). */
static int
move_self (KeeperCgroups *cg,
           int parent,
           char *why,
           size_t why_len)
{
  if (cg->scope && scope_write (&cg->dirs[0], parent ? CORDON_SCOPE_KEEPER : CORDON_SCOPE_SANDBOX,
                                "cgroup.procs", "0") != 0)
    return fail (why, why_len, parent ? "cannot leave the cgroup" : "cannot enter the cgroup", &cg->dirs[0],
                 parent ? CORDON_SCOPE_KEEPER : CORDON_SCOPE_SANDBOX);
  for (size_t i = 0; i < cg->n && !cg->scope; i++)
    if (write_file (&cg->dirs[i], parent, "cgroup.procs", "0") != 0)
      return fail (why, why_len, parent ? "cannot leave the cgroup" : "cannot enter the cgroup", &cg->dirs[i],
                   "cgroup.procs");
  return 0;
}

int
cordon_keeper_cgroups_enter (KeeperCgroups *cg,
                             char *why,
                             size_t why_len)
{
  return move_self (cg, 0, why, why_len);
}

int
cordon_keeper_cgroups_leave (KeeperCgroups *cg,
                             char *why,
                             size_t why_len)
{
  return move_self (cg, 1, why, why_len);
}

/* --- the end ---------------------------------------------------------------- */

/* The keeper is a subreaper: what is killed may be its to reap. */
static void
reap_a_while (const struct timespec *nap)
{
  while (waitpid (-1, NULL, WNOHANG) > 0)
    ;
  nanosleep (nap, NULL);
}

/* SIGKILL to each process cgroup.procs of `fd` (a cgroup dir) lists;
 * how many it lists. */
static int
kill_listed (int fd,
             const char *name)
{
  int procs = openat (fd, "cgroup.procs", O_RDONLY | O_CLOEXEC);
  char buf[8192];
  ssize_t len;
  int n = 0;

  if (procs < 0)
    return 0;
  len = read (procs, buf, sizeof buf - 1);
  close (procs);
  if (len <= 0)
    return 0;
  buf[len] = '\0';
  for (char *save = NULL, *l = strtok_r (buf, "\n", &save); l != NULL; l = strtok_r (NULL, "\n", &save))
    {
      pid_t pid = (pid_t) strtol (l, NULL, 10);
      int pidfd = pid > 0 ? (int) syscall (SYS_pidfd_open, pid, 0) : -1;

      /* Never the keeper itself (in the cgroup still, should it have
       * failed to leave): it is the one that removes it. */
      if (pid == getpid ())
        continue;
      n++;
      if (pidfd >= 0 && still_in (pid, name))
        syscall (SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0);
      if (pidfd >= 0)
        close (pidfd);
    }
  return n;
}

/* May `target` below `parent_fd` hold a process but the keeper? cgroup
 * v2 tells of it and its children at once (cgroup.events: populated);
 * v1 of it alone (cgroup.procs: its children are remove_tree's, which
 * looks into them). One that cannot be read may: the end looks closer. */
static int
may_hold_others (int parent_fd,
                 const char *target)
{
  char path[100], buf[8192];
  int fd, events;
  ssize_t len;

  snprintf (path, sizeof path, "%s/cgroup.events", target);
  if (!(events = (fd = openat (parent_fd, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) >= 0))
    {
      snprintf (path, sizeof path, "%s/cgroup.procs", target);
      if (errno != ENOENT || (fd = openat (parent_fd, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) < 0)
        return errno != ENOENT;
    }
  len = read (fd, buf, sizeof buf - 1);
  close (fd);
  if (len < 0)
    return 1;
  buf[len] = '\0';
  if (events)
    return strstr (buf, "populated 0") == NULL;
  for (char *save = NULL, *l = strtok_r (buf, "\n", &save); l != NULL; l = strtok_r (NULL, "\n", &save))
    if ((pid_t) strtol (l, NULL, 10) != getpid ())
      return 1;
  return 0;
}

/* Empties and removes `name` below `parent_fd`, its own children first
 * (depth-bounded); `top` is the name /proc shows the processes under. */
static void
remove_tree (int parent_fd,
             const char *name,
             const char *top,
             int depth,
             long deadline)
{
  const struct timespec nap = { 0, 2000000 };
  int fd;
  DIR *d;
  struct dirent *e;

  /* Empty and without children, as the end leaves a sandbox's once its
   * processes are reaped: removed at once, with nothing to look at. */
  if (unlinkat (parent_fd, name, AT_REMOVEDIR) == 0 || errno == ENOENT)
    return;
  if ((fd = openat (parent_fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)) < 0)
    return;
  if (depth < MAX_DEPTH && (d = fdopendir (dup (fd))) != NULL)
    {
      while ((e = readdir (d)) != NULL)
        if (e->d_type == DT_DIR && e->d_name[0] != '.')
          remove_tree (fd, e->d_name, top, depth + 1, deadline);
      closedir (d);
    }
  while (kill_listed (fd, top) > 0 && now_ms () < deadline)
    reap_a_while (&nap);
  close (fd);
  /* A process just killed leaves its cgroup once it is reaped. */
  while (unlinkat (parent_fd, name, AT_REMOVEDIR) != 0 && errno == EBUSY && now_ms () < deadline)
    nanosleep (&nap, NULL);
}

/* "C<I> FILE TEXT" of one counter file, its lines joined by ';'. */
static int
send_one (KeeperCgroups *cg,
          KeeperCgroup *dir,
          char **f,
          size_t n,
          char *why,
          size_t why_len)
{
  char path[160], text[CORDON_KEEPER_WORD_MAX - 200], line[CORDON_KEEPER_WORD_MAX];
  int fd, len;
  ssize_t got;

  (void) why;
  (void) why_len;
  if (n != 3)
    return 0;
  /* A scope's pids and CPU from the sandbox's leaf: a fork refused there
   * is counted in its own pids.events (before Linux 6.9), not the
   * scope's. Its memory from the scope, which holds the limit: a leaf's
   * memory.peak takes a charge its parent then refuses. */
  snprintf (path, sizeof path, "%s/%s%s", dir->name,
            cg->scope && strncmp (f[2], "memory.", 7) != 0 ? CORDON_SCOPE_SANDBOX "/" : "", f[2]);
  if ((fd = openat (dir->parent_fd, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) < 0)
    return 0;
  got = read (fd, text, sizeof text - 1);
  close (fd);
  if (got <= 0)
    return 0;
  text[got] = '\0';
  while (got > 0 && text[got - 1] == '\n')
    text[--got] = '\0';
  for (char *p = text; *p != '\0'; p++)
    if (*p == '\n' || (unsigned char) *p < 0x20)
      *p = ';';
  len = snprintf (line, sizeof line, "%c%d %s %s\n", (char) CORDON_KEEPER_COUNTER, (int) (dir - cg->dirs),
                  f[2], text);
  if (len > 0 && (size_t) len < sizeof line)
    while (write (cg->life_fd, line, (size_t) len) < 0 && errno == EINTR)
      ;
  return 0;
}

/* Every process left in `dir` (a scope's sandbox: in its leaf) killed
 * and reaped, bounded by `deadline`. *mine: the keeper's own
 * /proc/PID/cgroup, read at the first cgroup that holds a process. */
static void
empty_one (const KeeperCgroups *cg,
           const KeeperCgroup *dir,
           char **mine,
           long deadline)
{
  const struct timespec nap = { 0, 2000000 };
  char target[80];
  int fd;

  /* One that holds no process (bwrap's pid namespace ended them all)
   * has nothing to kill: no cgroup.kill, no list to read. */
  snprintf (target, sizeof target, "%s%s%s", dir->name, cg->scope ? "/" : "", cg->scope ? CORDON_SCOPE_SANDBOX : "");
  if (!may_hold_others (dir->parent_fd, target))
    return;
  if (*mine == NULL)
    *mine = cordon_proc_read (getpid (), "cgroup", NULL);
  if ((fd = openat (dir->parent_fd, target, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
    return;
  /* cgroup v2 (5.14 on) kills all of a cgroup at once, forks in flight
   * too; what it lists after is killed one by one, as in v1. Never one
   * the keeper is in (one it failed to leave: it would kill itself, and
   * remove nothing). */
  if (*mine != NULL && !names_cgroup (*mine, target))
    write_at (fd, "cgroup.kill", "1");
  while (kill_listed (fd, target) > 0 && now_ms () < deadline)
    reap_a_while (&nap);
  close (fd);
}

void
cordon_keeper_cgroups_end (KeeperCgroups *cg,
                           int life_fd,
                           long deadline_ms)
{
  char unused[1];
  char *mine = NULL;   /* where the keeper is: read once, if any cgroup holds a process */

  if (cg->spec == NULL)
    return;
  for (size_t i = 0; cg->scope && i < cg->n; i++)
    if (cg->dirs[i].parent_fd < 0)
      cg->dirs[i].parent_fd = open (cg->dirs[i].parent_path, O_PATH | O_DIRECTORY | O_CLOEXEC);
  for (size_t i = 0; i < cg->n; i++)
    if (cg->dirs[i].made || cg->scope)
      empty_one (cg, &cg->dirs[i], &mine, deadline_ms);
  free (mine);
  /* The counters once nothing runs there any more, then the cgroups. */
  cg->life_fd = life_fd;
  if (life_fd >= 0)
    each_line (cg, CORDON_CGROUP_LINE_STAT, send_one, unused, sizeof unused);
  for (size_t i = 0; i < cg->n; i++)
    if (cg->dirs[i].made)
      {
        remove_tree (cg->dirs[i].parent_fd, cg->dirs[i].name, cg->dirs[i].name, 0, deadline_ms);
        cg->dirs[i].made = 0;
      }
  /* Done with them: a second end (a teardown after a failed make) finds
   * nothing to do. */
  for (size_t i = 0; i < cg->n; i++)
    if (cg->dirs[i].home_fd >= 0)
      {
        close (cg->dirs[i].home_fd);
        cg->dirs[i].home_fd = -1;
      }
  free (cg->spec);
  cg->spec = NULL;
}
