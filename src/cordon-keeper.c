/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cordon-keeper: bwrap's parent, so that a SIGKILL of cordon cannot
 * strand a half-made sandbox.
 *
 *   cordon-keeper LIFE_FD PGID kill|leave [--stage FD] [--cgroup FD] [--placeholders FD] BWRAP [BWRAP-ARG...]
 *
 * With --die-with-parent, bwrap's outer process dies with its parent; but
 * if that happens between its clone() and the write that releases the
 * child (the new namespaces' pid 1, which sets its own parent-death signal
 * only once released), the child blocks for ever on that read, reparented
 * to init. Nothing of cordon's runs there yet, and nobody knows its pid.
 *
 * So cordon starts this keeper, and the keeper starts bwrap. The keeper
 * is a subreaper: whatever bwrap leaves orphaned comes to it. It watches
 * LIFE_FD, its end of a socket whose other end only cordon holds; EOF
 * there means cordon is gone, and the keeper kills bwrap (its process
 * group too when it has one of its own: the stranded child is still in
 * it) and every process that comes to it, then exits; with "leave" (a
 * policy's die-with-parent=false) it exits and leaves the sandbox
 * running, if cordon said the sandbox was released (one byte, "R", on
 * LIFE_FD), else it kills it all the same: a bwrap killed between its
 * clone() and the release strands its child whatever its options. bwrap is put in a
 * new process group when PGID is 0, else in group PGID (cordon's). The
 * keeper itself is started in a process group of its own, so a SIGKILL
 * sent to cordon's whole group leaves it alive to clean up. While cordon
 * lives, the
 * keeper only relays: it writes "P<pid>\n" (bwrap's pid) or "E<errno>\n"
 * (bwrap could not be started) on LIFE_FD, and ends as bwrap ended, with
 * its exit code or by its signal, so cordon reads bwrap's status as its
 * own child's; just before, it writes what the sandbox used ("U", the
 * rusage of all it reaped: bwrap and everything below). It ignores the
 * signals a terminal sends, which are cordon's to forward.
 *
 * With --stage (a root caller's sandbox, run as another user: see
 * src/identity.c), FD is a sealed memfd of instructions (src/stage.h) and
 * the detached mount trees they name follow it, at FD+1 on. Before bwrap
 * starts, the keeper makes a mount namespace of its own (nothing of it
 * propagates to the host), lays the shadows and attaches the trees; then
 * it starts bwrap as uid 0 of a user namespace of its own, owned by root,
 * whose uid 0 is the host user (src/userns-fork.c). The keeper stays
 * root, outside.
 *
 * With --placeholders, before anything else, it makes the mount points of
 * absent protected paths (src/keeper-placeholder.h), and removes them
 * once the sandbox is gone, whichever way it ends. Plain libc, static
 * where the toolchain can be. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "keeper-cgroup.h"
#include "keeper-placeholder.h"
#include "proc-read.h"
#include "protocol.h"
#include "spec-codec.h"
#include "userns-fork.h"

extern char **environ;

/* The fds bwrap is given are those below LIFE_FD; see protocol.h. */
enum { FIRST_BWRAP_FD = CORDON_FD_ARGS };

/* The signals the keeper ignores (the terminal's are cordon's to
 * forward, and a write to cordon's closed pipe must not kill it): every
 * other is at its default, as cordon starts the keeper. bwrap gets these
 * back at their default, and its exec resets nothing else: a clean
 * signal state for the cost of five system calls, not one per signal. */
static const int keeper_ignores[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };

/* How long teardown may take before the keeper gives up: a process that
 * SIGKILL does not end within this is stuck in the kernel. */
#define TEARDOWN_LIMIT_MS 10000

static void
say_why (int fd,
         CordonKeeperWord tag,
         long value,
         const char *why)
{
  char buf[CORDON_KEEPER_WORD_MAX];
  int n = snprintf (buf, sizeof buf, "%c%ld%s%s", (char) tag, value, why[0] != '\0' ? " " : "", why);

  if (n < 0 || (size_t) n > sizeof buf - 2)
    n = (int) sizeof buf - 2;
  buf[n++] = '\n';
  while (write (fd, buf, (size_t) n) < 0 && errno == EINTR)
    ;
}

static void
say (int fd,
     CordonKeeperWord tag,
     long value)
{
  say_why (fd, tag, value, "");
}

/* SIGKILL to each child of this process, as the kernel lists them
 * (CONFIG_PROC_CHILDREN), else as a scan of /proc finds them. Only the
 * children: what is below them comes to the keeper when they die, and is
 * found on the next round. */
static void
kill_children (void)
{
  CordonPidList children = { 0 };

  if (cordon_proc_children (getpid (), &children) != 0)
    cordon_proc_children_by_scan (getpid (), 0, &children);
  for (size_t i = 0; i < children.len; i++)
    kill (children.pids[i], SIGKILL);
  cordon_pid_list_clear (&children);
}

static long
now_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (long) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* SIGKILL to every process that is or becomes ours, until none is left
 * (bounded: one that SIGKILL does not end is stuck in the kernel). */
static void
end_children (void)
{
  long deadline = now_ms () + TEARDOWN_LIMIT_MS;
  struct timespec nap = { 0, 1000000 };

  while (now_ms () < deadline)
    {
      pid_t pid;

      /* None left (bwrap reaped, nothing came here): no list to read. */
      while ((pid = waitpid (-1, NULL, WNOHANG)) > 0)
        ;
      if (pid < 0 && errno == ECHILD)
        return;
      kill_children ();
      nanosleep (&nap, NULL);
    }
}

/* cordon is gone: nothing it started may stay. Kill bwrap (and its group:
 * a child stranded before its release is still in it), then every
 * process that comes to us, and what is left in the sandbox's cgroups
 * (then removed); then its placeholders are removed. */
static int
teardown (pid_t bwrap,
          int own_group,
          KeeperCgroups *cg,
          KeeperPlaceholders *ph)
{
  if (bwrap > 0 && own_group)
    kill (-bwrap, SIGKILL);
  if (bwrap > 0)
    kill (bwrap, SIGKILL);
  end_children ();
  cordon_keeper_cgroups_end (cg, -1, now_ms () + TEARDOWN_LIMIT_MS);
  cordon_keeper_placeholders_end (ph);
  return 137;
}

/* What bwrap and every process below it used: getrusage's count of the
 * keeper's children, which is theirs once all are reaped (bwrap's own
 * count holds what it reaped; an orphan came here, a subreaper, and was
 * reaped here). The keeper's own time is not in it. RUSAGE_CHILDREN's
 * ru_maxrss is the largest resident set of any one of them, in KiB. */
static void
say_usage (int fd)
{
  struct rusage ru;
  char buf[96];
  int n;

  if (getrusage (RUSAGE_CHILDREN, &ru) != 0)
    return;
  n = snprintf (buf, sizeof buf, "%c%lld %lld %ld\n", (char) CORDON_KEEPER_USAGE,
                (long long) ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec,
                (long long) ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec, ru.ru_maxrss);
  if (n <= 0 || (size_t) n >= sizeof buf)
    return;
  while (write (fd, buf, (size_t) n) < 0 && errno == EINTR)
    ;
}

/* Ends this process as bwrap ended: its exit code, or its signal. */
static int
relay (int status)
{
  if (WIFSIGNALED (status))
    {
      struct rlimit none = { 0, 0 };
      sigset_t set;
      int sig = WTERMSIG (status);

      /* The keeper dies of bwrap's signal, but leaves no core of its own. */
      setrlimit (RLIMIT_CORE, &none);
      signal (sig, SIG_DFL);
      sigemptyset (&set);
      sigaddset (&set, sig);
      sigprocmask (SIG_UNBLOCK, &set, NULL);
      raise (sig);
      return 128 + sig;
    }
  return WIFEXITED (status) ? WEXITSTATUS (status) : 125;
}

static pid_t
spawn_bwrap (char **argv,
             int life_fd,
             pid_t pgid,
             int *out_errno)
{
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  sigset_t none, ignored;
  pid_t pid = -1;
  int rc;

  posix_spawn_file_actions_init (&actions);
  posix_spawnattr_init (&attr);
  sigemptyset (&none);
  sigemptyset (&ignored);
  for (size_t i = 0; i < sizeof keeper_ignores / sizeof keeper_ignores[0]; i++)
    sigaddset (&ignored, keeper_ignores[i]);
  /* bwrap keeps the fds below LIFE_FD, which are its own; not LIFE_FD. */
  rc = posix_spawn_file_actions_addclosefrom_np (&actions, life_fd);
  if (rc == 0)
    rc = posix_spawnattr_setsigmask (&attr, &none);
  if (rc == 0)
    rc = posix_spawnattr_setsigdefault (&attr, &ignored);
  if (rc == 0)
    rc = posix_spawnattr_setpgroup (&attr, pgid);
  if (rc == 0)
    rc = posix_spawnattr_setflags (&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
                                   | POSIX_SPAWN_SETPGROUP);
  if (rc == 0)
    rc = posix_spawn (&pid, argv[0], &actions, &attr, argv, environ);
  posix_spawn_file_actions_destroy (&actions);
  posix_spawnattr_destroy (&attr);
  *out_errno = rc;
  return rc == 0 ? pid : -1;
}

/* In the child of a staged launch: what posix_spawn's attributes do for
 * the other (a clean signal state, bwrap's group, only bwrap's fds, and
 * `report`, close-on-exec, to say why exec failed). It shares the
 * keeper's memory until its exec (see userns-fork.h): plain system
 * calls only, and the keeper waits on `report` meanwhile. */
typedef struct
{
  char **argv;
  int life_fd;
  pid_t pgid;
  int report;
} BwrapChild;

static int
exec_bwrap_child (void *data)
{
  const BwrapChild *c = data;
  struct sigaction dfl = { .sa_handler = SIG_DFL };
  sigset_t none;
  int err;

  sigemptyset (&none);
  for (size_t i = 0; i < sizeof keeper_ignores / sizeof keeper_ignores[0]; i++)
    sigaction (keeper_ignores[i], &dfl, NULL);
  sigprocmask (SIG_SETMASK, &none, NULL);
  setpgid (0, c->pgid);
  if (c->report > c->life_fd)
    close_range ((unsigned) c->life_fd, (unsigned) c->report - 1, 0);
  close_range ((unsigned) (c->report > c->life_fd ? c->report + 1 : c->life_fd), ~0U, 0);
  execve (c->argv[0], c->argv, environ);
  err = errno;
  if (write (c->report, &err, sizeof err) < 0)
    {
      /* Nothing else to try: the parent then reads end of file and
       * learns of the failure from the status 127 instead. */
    }
  return 127;
}

/* spawn_bwrap_as's way where the child may not share the keeper's
 * memory (cordon_userns_may_share_memory): a fork. */
static pid_t
fork_bwrap_as (char **argv,
               int life_fd,
               pid_t pgid,
               uid_t uid,
               gid_t gid,
               int *out_errno)
{
  int report[2], err = 0;
  BwrapChild c;
  pid_t pid;

  if (pipe2 (report, O_CLOEXEC) != 0)
    return *out_errno = errno, -1;
  c = (BwrapChild) { argv, life_fd, pgid, report[1] };
  if ((pid = cordon_userns_fork (uid, gid, out_errno)) == 0)
    {
      close (report[0]);
      _exit (exec_bwrap_child (&c));
    }
  close (report[1]);
  if (pid > 0)
    setpgid (pid, pgid);
  while (pid > 0 && read (report[0], &err, sizeof err) < 0 && errno == EINTR)
    ;
  close (report[0]);
  if (pid > 0 && err != 0)
    {
      while (waitpid (pid, NULL, 0) < 0 && errno == EINTR)
        ;
      *out_errno = err;
      return -1;
    }
  return pid;
}

/* bwrap as uid 0 of a user namespace of root's whose uid 0 is the host
 * user (see src/userns-fork.c): its pid, else -1 with *out_errno. The
 * child is a clone sharing the keeper's memory (its own stack, below),
 * not a fork: no page table is copied before bwrap's exec; but only
 * where its change of ids makes that memory undumpable. */
static pid_t
spawn_bwrap_as (char **argv,
                int life_fd,
                pid_t pgid,
                uid_t uid,
                gid_t gid,
                int *out_errno)
{
  static char stack[CORDON_USERNS_CHILD_STACK] __attribute__ ((aligned (16)));
  static BwrapChild c;
  CordonUsernsChild child;
  int report[2], err = 0;

  if (!cordon_userns_may_share_memory ("/proc/sys/fs/suid_dumpable"))
    return fork_bwrap_as (argv, life_fd, pgid, uid, gid, out_errno);
  if (pipe2 (report, O_CLOEXEC) != 0)
    return *out_errno = errno, -1;
  c = (BwrapChild) { argv, life_fd, pgid, report[1] };
  if (cordon_userns_clone (uid, gid, exec_bwrap_child, &c, report[1], stack, &child) != 0)
    {
      *out_errno = errno;
      close (report[0]);
      close (report[1]);
      return -1;
    }
  close (report[1]);
  setpgid (child.pid, pgid);
  if (cordon_userns_child_release (&child) != 0)
    err = errno;
  /* End of file once bwrap is exec'd; an errno if it could not be. */
  while (err == 0 && read (report[0], &err, sizeof err) < 0 && errno == EINTR)
    ;
  close (report[0]);
  if (err != 0)
    {
      kill (child.pid, SIGKILL);
      while (waitpid (child.pid, NULL, 0) < 0 && errno == EINTR)
        ;
      *out_errno = err;
      return -1;
    }
  return child.pid;
}

/* --- the stage: see src/stage.h ---------------------------------------- */

#define MAX_STAGE_LINES 256

/* -1, with errno kept, once the reason is on stderr. */
/* Why the stage failed, for cordon's message: what was done, and where
 * (a line of its own: no control character). */
static char stage_why[CORDON_KEEPER_WORD_MAX - 32];

static int
stage_fail (const char *what,
            const char *path)
{
  int saved = errno;

  snprintf (stage_why, sizeof stage_why, "%s %s", what, path);
  for (char *p = stage_why; *p != '\0'; p++)
    if ((unsigned char) *p < 0x20 || *p == 0x7f)
      *p = '?';
  errno = saved;
  return -1;
}

static int
below (const char *dir,
       const char *path)
{
  size_t n = strlen (dir);

  return strncmp (dir, path, n) == 0 && path[n] == '/';
}

/* The mount point of a tree inside a shadow (an empty tmpfs of ours):
 * its parents, 0711, then the point itself. Nowhere else is anything
 * made: outside a shadow the point is the path the tree was cut from. */
static int
make_point (char *path,
            int is_file,
            char **shadows,
            size_t n_shadows)
{
  struct stat st;
  int inside = 0;

  if (lstat (path, &st) == 0)
    return 0;
  for (size_t i = 0; i < n_shadows; i++)
    inside = inside || below (shadows[i], path);
  if (!inside)
    return -1;
  for (char *slash = strchr (path + 1, '/'); slash != NULL; slash = strchr (slash + 1, '/'))
    {
      *slash = '\0';
      if (mkdir (path, 0711) != 0 && errno != EEXIST)
        {
          *slash = '/';
          return -1;
        }
      *slash = '/';
    }
  if (is_file)
    {
      int fd = open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0400);

      if (fd < 0)
        return -1;
      close (fd);
      return 0;
    }
  return mkdir (path, 0711);
}

/* One instruction: its words, paths decoded. */
typedef struct
{
  char *f[4];
  size_t n;
} StageLine;

static int
split_spec (char *spec,
            StageLine *lines,
            size_t *out_n)
{
  size_t n = 0;

  for (char *save = NULL, *l = strtok_r (spec, "\n", &save); l != NULL; l = strtok_r (NULL, "\n", &save))
    {
      StageLine *line = &lines[n];

      if (n == MAX_STAGE_LINES)
        return errno = E2BIG, -1;
      line->n = 0;
      for (char *s2 = NULL, *tok = strtok_r (l, "\t", &s2); tok != NULL && line->n < 4;
           tok = strtok_r (NULL, "\t", &s2))
        line->f[line->n++] = tok;
      if (line->n > 1)
        cordon_spec_decode (line->f[line->n - 1]);
      n++;
    }
  *out_n = n;
  return 0;
}

/* The shadows and trees, in order, then the shadows made read-only: the
 * sandbox's user cannot add to them. */
static int
apply_mounts (const StageLine *lines,
              size_t n_lines,
              int stage_fd)
{
  char *shadows[MAX_STAGE_LINES];
  size_t n_shadows = 0;

  for (size_t i = 0; i < n_lines; i++)
    {
      const StageLine *l = &lines[i];

      if (l->n == 2 && strcmp (l->f[0], CORDON_STAGE_LINE_SHADOW) == 0)
        {
          if (mount ("cordon-shadow", l->f[1], "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0711,size=1m") != 0)
            return stage_fail ("cannot lay a shadow over", l->f[1]);
          shadows[n_shadows++] = l->f[1];
        }
      else if (l->n == 4 && strcmp (l->f[0], CORDON_STAGE_LINE_ATTACH) == 0)
        {
          int tree = stage_fd + 1 + atoi (l->f[1]);

          if (make_point (l->f[3], strcmp (l->f[2], "file") == 0, shadows, n_shadows) != 0
              || move_mount (tree, "", AT_FDCWD, l->f[3], MOVE_MOUNT_F_EMPTY_PATH) != 0)
            return stage_fail ("cannot attach", l->f[3]);
          close (tree);
        }
      else if (!(l->n == 3 && strcmp (l->f[0], CORDON_STAGE_LINE_IDS) == 0))
        return errno = EINVAL, stage_fail ("cannot read the instruction", l->f[0]);
    }
  for (size_t i = 0; i < n_shadows; i++)
    if (mount (NULL, shadows[i], NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
               NULL) != 0)
      return stage_fail ("cannot make read-only the shadow over", shadows[i]);
  return 0;
}

/* 0 once every instruction is done, with the host user's ids in
 * *out_uid and *out_gid; else -1 with errno, and why on stderr. */
static int
stage (int stage_fd,
       uid_t *out_uid,
       gid_t *out_gid)
{
  static StageLine lines[MAX_STAGE_LINES];
  char *spec = cordon_spec_read_fd (stage_fd, 1 << 16);
  const StageLine *ids;
  size_t n_lines = 0;
  int mounts = 0;
  uid_t uid;
  gid_t gid;

  /* The lines point into the spec: it is kept for the keeper's life
   * (64 KiB at most). */
  if (spec == NULL || split_spec (spec, lines, &n_lines) != 0)
    return errno = E2BIG, stage_fail ("cannot read", "the stage");
  close (stage_fd);
  for (size_t i = 0; i < n_lines; i++)
    mounts = mounts || strcmp (lines[i].f[0], CORDON_STAGE_LINE_IDS) != 0;
  /* A mount namespace of the keeper's own, receiving the host's mounts
   * but sending none back: the shadows and trees never reach the host. */
  if (mounts && (unshare (CLONE_NEWNS) != 0 || mount (NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) != 0))
    return stage_fail ("cannot make a mount namespace for", "the sandbox");
  if (apply_mounts (lines, n_lines, stage_fd) != 0)
    return -1;
  ids = n_lines > 0 ? &lines[n_lines - 1] : NULL;
  if (ids == NULL || ids->n != 3 || strcmp (ids->f[0], CORDON_STAGE_LINE_IDS) != 0)
    return errno = EINVAL, stage_fail ("no identity in", "the stage");
  uid = (uid_t) strtoul (ids->f[1], NULL, 10);
  gid = (gid_t) strtoul (ids->f[2], NULL, 10);
  /* Never root, nor root's group: that is what the stage is for. */
  if (uid == 0 || gid == 0)
    return errno = EINVAL, stage_fail ("refusing the host user of", "the stage");
  *out_uid = uid;
  *out_gid = gid;
  return 0;
}

typedef struct
{
  int life_fd;
  pid_t pgid;       /* bwrap's group: 0, a group of its own */
  int leave;        /* "leave": a released sandbox may outlive cordon */
  int stage_fd;     /* --stage: the instructions, or -1 */
  int cgroup_fd;    /* --cgroup: the instructions, or -1 */
  int placeholder_fd; /* --placeholders: the instructions, or -1 */
  KeeperCgroups cgroups;
  KeeperPlaceholders placeholders;
  char **bwrap_argv;
  pid_t bwrap;
} Keeper;

/* An option's fd: above LIFE_FD, and a number. */
static int
option_fd (const char *text,
           long life_fd)
{
  char *end = NULL;
  long fd = strtol (text, &end, 10);

  return fd > life_fd && fd <= 1024 && end != text && *end == '\0' ? (int) fd : -1;
}

/* FALSE (after the usage line) unless argv is LIFE_FD PGID kill|leave
 * [--stage FD] [--cgroup FD] [--placeholders FD] BWRAP...; LIFE_FD is
 * made close-on-exec. */
static int
parse_args (int argc,
            char **argv,
            Keeper *k)
{
  char *end = NULL, *pgid_end = NULL;
  long life_fd = argc >= 5 ? strtol (argv[1], &end, 10) : -1;
  long pgid = argc >= 5 ? strtol (argv[2], &pgid_end, 10) : -1;
  int i = 4, ok = argc >= 5;

  k->stage_fd = k->cgroup_fd = k->placeholder_fd = -1;
  for (; ok && i + 2 < argc && strncmp (argv[i], "--", 2) == 0; i += 2)
    if (strcmp (argv[i], CORDON_KEEPER_ARG_STAGE) == 0 && k->stage_fd < 0)
      ok = (k->stage_fd = option_fd (argv[i + 1], life_fd)) >= 0;
    else if (strcmp (argv[i], CORDON_KEEPER_ARG_CGROUP) == 0 && k->cgroup_fd < 0)
      ok = (k->cgroup_fd = option_fd (argv[i + 1], life_fd)) >= 0;
    else if (strcmp (argv[i], CORDON_KEEPER_ARG_PLACEHOLDERS) == 0 && k->placeholder_fd < 0)
      ok = (k->placeholder_fd = option_fd (argv[i + 1], life_fd)) >= 0;
    else
      ok = 0;
  if (!ok || i >= argc || life_fd < FIRST_BWRAP_FD || life_fd > 1024 || end == NULL || *end != '\0'
      || fcntl ((int) life_fd, F_SETFD, FD_CLOEXEC) != 0
      || pgid < 0 || pgid_end == NULL || *pgid_end != '\0' || argv[2][0] == '\0'
      || (strcmp (argv[3], CORDON_KEEPER_KILL) != 0 && strcmp (argv[3], CORDON_KEEPER_LEAVE) != 0))
    {
      fputs ("usage: cordon-keeper LIFE_FD PGID kill|leave [--stage FD] [--cgroup FD] [--placeholders FD] "
             "BWRAP [BWRAP-ARG...]\n", stderr);
      return 0;
    }
  k->life_fd = (int) life_fd;
  k->pgid = (pid_t) pgid;
  k->leave = strcmp (argv[3], CORDON_KEEPER_LEAVE) == 0;
  k->bwrap_argv = argv + i;
  return 1;
}

static char cgroup_why[CORDON_KEEPER_WORD_MAX - 32];

/* The cgroups made, their limits written, and the keeper in them, so
 * that bwrap starts there; else "G<errno> WHY" said, and -1. */
static int
make_cgroups (Keeper *k)
{
  if (cordon_keeper_cgroups_read (k->cgroup_fd, &k->cgroups, cgroup_why, sizeof cgroup_why) == 0
      && cordon_keeper_cgroups_make (&k->cgroups, k->life_fd, cgroup_why, sizeof cgroup_why) == 0)
    {
      if (cordon_keeper_cgroups_enter (&k->cgroups, cgroup_why, sizeof cgroup_why) == 0)
        return 0;
      {
        int saved = errno;

        cordon_keeper_cgroups_leave (&k->cgroups, cgroup_why + strlen (cgroup_why), 1);
        cordon_keeper_cgroups_end (&k->cgroups, -1, now_ms () + TEARDOWN_LIMIT_MS);
        errno = saved;
      }
    }
  say_why (k->life_fd, CORDON_KEEPER_CGROUP_ERRNO, errno != 0 ? errno : EINVAL, cgroup_why);
  return -1;
}

static char placeholder_why[CORDON_KEEPER_WORD_MAX - 32];

/* The placeholders made (or shared) and held; else "H<errno> WHY" said,
 * and -1. The keeper's fds reach the host's side of them, uncovered: a
 * sandbox in a user namespace of its own cannot follow another's fds
 * (no CAP_SYS_PTRACE over the keeper's), and one without sees the
 * host's /proc only under a degradation the policy names. */
static int
hold_placeholders (Keeper *k)
{
  if (cordon_keeper_placeholders_read (k->placeholder_fd, &k->placeholders, placeholder_why,
                                       sizeof placeholder_why) == 0
      && cordon_keeper_placeholders_hold (&k->placeholders, placeholder_why, sizeof placeholder_why) == 0)
    return 0;
  say_why (k->life_fd, CORDON_KEEPER_PLACEHOLDER_ERRNO, errno != 0 ? errno : EINVAL, placeholder_why);
  return -1;
}

/* teardown() of a keeper's sandbox. */
static int
end_all (const Keeper *k)
{
  return teardown (k->bwrap, k->pgid == 0, (KeeperCgroups *) &k->cgroups, (KeeperPlaceholders *) &k->placeholders);
}

/* A released sandbox left running by cordon's leave: the keeper waits
 * for bwrap (its parent still) and then removes the cgroups and the
 * placeholders. */
static int
outlive (const Keeper *k,
         int sigfd)
{
  for (;;)
    {
      struct pollfd fds[1] = { { sigfd, POLLIN, 0 } };
      struct signalfd_siginfo info;
      pid_t pid;

      if (poll (fds, 1, -1) < 0 && errno != EINTR)
        return end_all (k);
      while (read (sigfd, &info, sizeof info) > 0)
        ;
      while ((pid = waitpid (-1, NULL, WNOHANG)) > 0)
        if (pid == k->bwrap)
          {
            end_children ();
            cordon_keeper_cgroups_end ((KeeperCgroups *) &k->cgroups, -1, now_ms () + TEARDOWN_LIMIT_MS);
            cordon_keeper_placeholders_end ((KeeperPlaceholders *) &k->placeholders);
            return 0;
          }
    }
}

/* Until bwrap ends (relayed) or cordon is gone (teardown, or leave). */
static int
watch (const Keeper *k,
       int sigfd)
{
  int released = 0;

  for (;;)
    {
      struct pollfd fds[2] = { { k->life_fd, POLLIN, 0 }, { sigfd, POLLIN, 0 } };
      struct signalfd_siginfo info;
      int status;
      pid_t pid;

      /* Neither fd can fail while this process lives; should one, the
       * keeper cannot do its work: it ends the sandbox rather than spin. */
      if ((poll (fds, 2, -1) < 0 && errno != EINTR) || (fds[1].revents & (POLLERR | POLLNVAL))
          || (fds[0].revents & POLLNVAL))
        return end_all (k);
      while (read (sigfd, &info, sizeof info) > 0)
        ;
      /* bwrap is done, and so is the sandbox: what bwrap left orphaned
       * (here, with us) is killed now. Left to cordon, it would go to
       * init should cordon die before reaping us. */
      while ((pid = waitpid (-1, &status, WNOHANG)) > 0)
        if (pid == k->bwrap)
          {
            end_children ();
            cordon_keeper_cgroups_end ((KeeperCgroups *) &k->cgroups, k->life_fd, now_ms () + TEARDOWN_LIMIT_MS);
            /* Every process of the sandbox is reaped now (the cgroups'
             * last ones too): what they used is complete. */
            say_usage (k->life_fd);
            cordon_keeper_placeholders_end ((KeeperPlaceholders *) &k->placeholders);
            return relay (status);
          }
      /* cordon writes one byte here, "R", once the sandbox is released
       * and the command starts; EOF means cordon is gone. Only a released
       * sandbox may be left running: before, bwrap may be between its
       * clone() and the release (a write to cordon's closed pipe kills
       * it there, --die-with-parent or not). */
      if (fds[0].revents & (POLLIN | POLLHUP | POLLERR))
        {
          char byte;
          ssize_t n = read (k->life_fd, &byte, 1);

          if (n == 1 && byte == CORDON_KEEPER_RELEASED)
            released = 1;
          else if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
            {
              if (!(k->leave && released))
                return end_all (k);
              if (k->cgroups.n == 0 && k->placeholders.n == 0)
                return 0;
              /* Left running: its cgroups and placeholders are still the
               * keeper's to remove once it ends; nobody hears of their
               * counters. */
              return outlive (k, sigfd);
            }
        }
    }
}

/* What comes before bwrap, in order: the placeholders, the stage (its
 * host user in *uid and *gid), the cgroups. 0, or -1 once the reason is
 * said and the placeholders are removed again. */
static int
prepare (Keeper *k,
         uid_t *uid,
         gid_t *gid)
{
  if (k->placeholder_fd >= 0 && hold_placeholders (k) != 0)
    return -1;
  if (k->stage_fd >= 0 && stage (k->stage_fd, uid, gid) != 0)
    say_why (k->life_fd, CORDON_KEEPER_STAGE_ERRNO, errno != 0 ? errno : EINVAL, stage_why);
  else if (k->cgroup_fd < 0 || make_cgroups (k) == 0)
    return 0;
  cordon_keeper_placeholders_end (&k->placeholders);
  return -1;
}

int
main (int argc,
      char **argv)
{
  Keeper k = { 0 };
  int spawn_errno = 0, sigfd;
  uid_t uid = 0;
  gid_t gid = 0;
  sigset_t chld;

  if (!parse_args (argc, argv, &k))
    return 125;
  /* Orphans of the sandbox come here; the terminal's signals are
   * cordon's. The keeper stays dumpable, as bwrap is: cordon, without
   * privileges, must read its children list to find the sandbox. */
  for (size_t i = 0; i < sizeof keeper_ignores / sizeof keeper_ignores[0]; i++)
    signal (keeper_ignores[i], SIG_IGN);
  sigemptyset (&chld);
  sigaddset (&chld, SIGCHLD);
  /* SIGCHLD is blocked before bwrap exists, so its exit is never missed:
   * it waits, pending, for the signalfd made below. */
  if (prctl (PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0 || sigprocmask (SIG_BLOCK, &chld, NULL) != 0)
    {
      say (k.life_fd, CORDON_KEEPER_ERRNO, errno);
      return 125;
    }
  if (prepare (&k, &uid, &gid) != 0)
    return 125;
  k.bwrap = k.stage_fd >= 0 ? spawn_bwrap_as (k.bwrap_argv, k.life_fd, k.pgid, uid, gid, &spawn_errno)
                            : spawn_bwrap (k.bwrap_argv, k.life_fd, k.pgid, &spawn_errno);
  /* bwrap started in the cgroups (it and all it forks stay there); the
   * keeper goes back, whose own life is cordon's business. */
  if (k.cgroups.n > 0 && cordon_keeper_cgroups_leave (&k.cgroups, cgroup_why, sizeof cgroup_why) != 0)
    {
      say_why (k.life_fd, CORDON_KEEPER_CGROUP_ERRNO, errno, cgroup_why);
      return teardown (k.bwrap, k.pgid == 0, &k.cgroups, &k.placeholders);
    }
  /* bwrap's fds are bwrap's alone now: a pipe end kept open here would
   * hide bwrap's exit from cordon. (Any fd of the keeper's own is made
   * after this, so that none is among them.) */
  for (int fd = FIRST_BWRAP_FD; fd < k.life_fd; fd++)
    close (fd);
  if (k.bwrap < 0)
    {
      say (k.life_fd, CORDON_KEEPER_ERRNO, spawn_errno);
      cordon_keeper_cgroups_end (&k.cgroups, -1, now_ms () + TEARDOWN_LIMIT_MS);
      cordon_keeper_placeholders_end (&k.placeholders);
      return 125;
    }
  if ((sigfd = signalfd (-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK)) < 0)
    {
      say (k.life_fd, CORDON_KEEPER_ERRNO, errno);
      return teardown (k.bwrap, k.pgid == 0, &k.cgroups, &k.placeholders);
    }
  say (k.life_fd, CORDON_KEEPER_PID, (long) k.bwrap);
  /* Beside bwrap's setup: what makes their end cheap. */
  cordon_keeper_placeholders_pin (&k.placeholders);
  return watch (&k, sigfd);
}
