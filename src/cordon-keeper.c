/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cordon-keeper: bwrap's parent, so that a SIGKILL of cordon cannot
 * strand a half-made sandbox.
 *
 *   cordon-keeper LIFE_FD PGID kill|leave BWRAP [BWRAP-ARG...]
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
 * own child's. It ignores the signals a terminal sends, which are
 * cordon's to forward. Plain libc, static where the toolchain can be. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* The fds bwrap is given are those below LIFE_FD; see launch.c. */
enum { FIRST_BWRAP_FD = 3 };

/* How long teardown may take before the keeper gives up: a process that
 * SIGKILL does not end within this is stuck in the kernel. */
#define TEARDOWN_LIMIT_MS 10000

static void
say (int fd,
     char tag,
     long value)
{
  char buf[32];
  int n = snprintf (buf, sizeof buf, "%c%ld\n", tag, value);

  while (write (fd, buf, (size_t) n) < 0 && errno == EINTR)
    ;
}

/* SIGKILL to each child of this process, as the kernel lists them
 * (CONFIG_PROC_CHILDREN), else as a scan of /proc finds them. */
static void
kill_children (void)
{
  char path[64], buf[4096];
  pid_t self = getpid ();
  ssize_t n;
  int fd;

  snprintf (path, sizeof path, "/proc/%d/task/%d/children", (int) self, (int) self);
  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd >= 0)
    {
      size_t len = 0;

      while (len < sizeof buf - 1 && (n = read (fd, buf + len, sizeof buf - 1 - len)) > 0)
        len += (size_t) n;
      close (fd);
      buf[len] = '\0';
      /* "PID PID ": only a number its separator ends is whole. A list
       * that filled the buffer may have been cut in a number, which is
       * left for the next round's listing. */
      for (char *p = buf, *sep; (sep = strpbrk (p, " \n")) != NULL; p = sep + 1)
        {
          *sep = '\0';
          if (atoi (p) > 0)
            kill ((pid_t) atoi (p), SIGKILL);
        }
      return;
    }
  DIR *dir = opendir ("/proc");
  struct dirent *entry;

  while (dir != NULL && (entry = readdir (dir)) != NULL)
    {
      pid_t pid = (pid_t) atoi (entry->d_name);
      char *paren;

      if (pid <= 0)
        continue;
      snprintf (path, sizeof path, "/proc/%d/stat", (int) pid);
      if ((fd = open (path, O_RDONLY | O_CLOEXEC)) < 0)
        continue;
      n = read (fd, buf, sizeof buf - 1);
      close (fd);
      if (n <= 0)
        continue;
      buf[n] = '\0';
      /* "PID (NAME) S PPID ...": NAME may hold spaces and parentheses. */
      if ((paren = strrchr (buf, ')')) != NULL && strlen (paren) > 4
          && (pid_t) atoi (paren + 4) == self)
        kill (pid, SIGKILL);
    }
  if (dir != NULL)
    closedir (dir);
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

      kill_children ();
      while ((pid = waitpid (-1, NULL, WNOHANG)) > 0)
        ;
      if (pid < 0 && errno == ECHILD)
        return;
      nanosleep (&nap, NULL);
    }
}

/* cordon is gone: nothing it started may stay. Kill bwrap (and its group:
 * a child stranded before its release is still in it), then every
 * process that comes to us. */
static int
teardown (pid_t bwrap,
          int own_group)
{
  if (bwrap > 0 && own_group)
    kill (-bwrap, SIGKILL);
  if (bwrap > 0)
    kill (bwrap, SIGKILL);
  end_children ();
  return 137;
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
  sigset_t none, all;
  pid_t pid = -1;
  int rc;

  posix_spawn_file_actions_init (&actions);
  posix_spawnattr_init (&attr);
  sigemptyset (&none);
  sigfillset (&all);
  /* bwrap keeps the fds below LIFE_FD, which are its own; not LIFE_FD. */
  rc = posix_spawn_file_actions_addclosefrom_np (&actions, life_fd);
  if (rc == 0)
    rc = posix_spawnattr_setsigmask (&attr, &none);
  if (rc == 0)
    rc = posix_spawnattr_setsigdefault (&attr, &all);
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

typedef struct
{
  int life_fd;
  pid_t pgid;       /* bwrap's group: 0, a group of its own */
  int leave;        /* "leave": a released sandbox may outlive cordon */
  pid_t bwrap;
} Keeper;

/* FALSE (after the usage line) unless argv is LIFE_FD PGID kill|leave
 * BWRAP...; LIFE_FD is made close-on-exec. */
static int
parse_args (int argc,
            char **argv,
            Keeper *k)
{
  char *end = NULL, *pgid_end = NULL;
  long life_fd = argc >= 5 ? strtol (argv[1], &end, 10) : -1;
  long pgid = argc >= 5 ? strtol (argv[2], &pgid_end, 10) : -1;

  if (life_fd < FIRST_BWRAP_FD || life_fd > 1024 || end == NULL || *end != '\0'
      || fcntl ((int) life_fd, F_SETFD, FD_CLOEXEC) != 0
      || pgid < 0 || pgid_end == NULL || *pgid_end != '\0' || argv[2][0] == '\0'
      || (strcmp (argv[3], "kill") != 0 && strcmp (argv[3], "leave") != 0))
    {
      fputs ("usage: cordon-keeper LIFE_FD PGID kill|leave BWRAP [BWRAP-ARG...]\n", stderr);
      return 0;
    }
  k->life_fd = (int) life_fd;
  k->pgid = (pid_t) pgid;
  k->leave = strcmp (argv[3], "leave") == 0;
  return 1;
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
        return teardown (k->bwrap, k->pgid == 0);
      while (read (sigfd, &info, sizeof info) > 0)
        ;
      /* bwrap is done, and so is the sandbox: what bwrap left orphaned
       * (here, with us) is killed now. Left to cordon, it would go to
       * init should cordon die before reaping us. */
      while ((pid = waitpid (-1, &status, WNOHANG)) > 0)
        if (pid == k->bwrap)
          {
            end_children ();
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

          if (n == 1 && byte == 'R')
            released = 1;
          else if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
            return k->leave && released ? 0 : teardown (k->bwrap, k->pgid == 0);
        }
    }
}

int
main (int argc,
      char **argv)
{
  static const int ignored[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
  Keeper k = { 0 };
  int spawn_errno = 0, sigfd;
  sigset_t chld;

  if (!parse_args (argc, argv, &k))
    return 125;
  /* Orphans of the sandbox come here; the terminal's signals are
   * cordon's. The keeper stays dumpable, as bwrap is: cordon, without
   * privileges, must read its children list to find the sandbox. */
  for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++)
    signal (ignored[i], SIG_IGN);
  sigemptyset (&chld);
  sigaddset (&chld, SIGCHLD);
  /* SIGCHLD is blocked before bwrap exists, so its exit is never missed:
   * it waits, pending, for the signalfd made below. */
  if (prctl (PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0 || sigprocmask (SIG_BLOCK, &chld, NULL) != 0)
    {
      say (k.life_fd, 'E', errno);
      return 125;
    }
  k.bwrap = spawn_bwrap (argv + 4, k.life_fd, k.pgid, &spawn_errno);
  /* bwrap's fds are bwrap's alone now: a pipe end kept open here would
   * hide bwrap's exit from cordon. (Any fd of the keeper's own is made
   * after this, so that none is among them.) */
  for (int fd = FIRST_BWRAP_FD; fd < k.life_fd; fd++)
    close (fd);
  if (k.bwrap < 0)
    {
      say (k.life_fd, 'E', spawn_errno);
      return 125;
    }
  if ((sigfd = signalfd (-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK)) < 0)
    {
      say (k.life_fd, 'E', errno);
      return teardown (k.bwrap, k.pgid == 0);
    }
  say (k.life_fd, 'P', (long) k.bwrap);
  return watch (&k, sigfd);
}
