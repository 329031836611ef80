/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cordon-exec: the sandbox's first program, bound read-only at
 * /dev/.cordon-exec.
 *
 *   cordon-exec STATUS_FD [--rlimits FSIZE,NOFILE,CORE,NPROC] [--notify LISTENED,PLAIN]
 *               [--verify SPEC_FD GO_FD] COMMAND [ARG...]
 *
 * bwrap reports no difference between a command that exits 1 and a
 * sandbox that could not be set up, nor between "not found" and "not
 * executable": both end bwrap with status 1. This helper makes those
 * visible, and proves the sandbox before the command runs. It joins a
 * fresh session keyring (invariant 4), sets no_new_privs and the
 * policy's rlimits (soft and hard: the sandbox cannot raise them); with
 * --notify it reads the SIZE bytes of a filter cordon wrote on STATUS_FD,
 * loads it with a listener and sends that to cordon (the word "N", SCM_RIGHTS), which answers and names the
 * calls the profile refuses; with --verify it reads the expected denials from SPEC_FD and attempts each
 * (invariant 9), reporting every result on STATUS_FD, then waits on
 * GO_FD for cordon's own checks from outside. Then it writes "R" and
 * execs the command in its own pid; if exec fails it writes "E<errno>"
 * and exits 127 (not found) or 126, as a shell does. Any failure before
 * that runs nothing. Plain libc: it must run under any policy's root. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec-checks.h"
#include "protocol.h"
#include "spec-codec.h"

/* From <linux/keyctl.h>; the helper needs no libkeyutils. */
#define KEYCTL_JOIN_SESSION_KEYRING 1

/* From <linux/seccomp.h> of Linux 6.6, which older headers lack. */
#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW (4, __u64)
#endif
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (1UL << 0)
#endif

static int
parse_fd (const char *text)
{
  char *end = NULL;
  long fd;

  errno = 0;
  fd = strtol (text, &end, 10);
  if (errno != 0 || *end != '\0' || fd < 3 || fd > 1024 || fcntl ((int) fd, F_SETFD, FD_CLOEXEC) != 0)
    return -1;
  return (int) fd;
}

/* One status word: its letter, then `value` unless that is negative. */
static void
say (int status_fd,
     CordonExecWord word,
     int value)
{
  char buf[32];

  if (value < 0)
    snprintf (buf, sizeof buf, "%c\n", (char) word);
  else
    snprintf (buf, sizeof buf, "%c%d\n", (char) word, value);
  cordon_exec_write (status_fd, buf);
}

/* After execvp failed with EACCES on a bare name: whether a file of that
 * name exists in a PATH directory (found, not executable: 126) or the
 * EACCES only came from a directory on PATH the sandbox may not search
 * (a home that is not its own: not found, 127, as a shell says). */
static int
found_on_path (const char *name)
{
  const char *path = getenv ("PATH");
  char candidate[PATH_MAX];
  struct stat st;

  if (strchr (name, '/') != NULL)
    return 1;
  for (const char *p = path != NULL ? path : "/bin:/usr/bin"; ; p++)
    {
      const char *end = strchrnul (p, ':');
      int len = (int) (end - p);

      /* One longer than a path can be is not there. No malloc: this
       * runs in the command's child, on pid 1's memory. */
      if (snprintf (candidate, sizeof candidate, "%.*s%s%s", len, p, len > 0 ? "/" : "", name)
          < (int) sizeof candidate
          && stat (candidate, &st) == 0)
        return 1;
      if (*end == '\0')
        return 0;
      p = end;
    }
}

/* The checks' results, then `word`, in one write. */
static void
say_last (CordonChecker *ck,
          CordonExecWord word)
{
  char text[] = { (char) word, '\n', '\0' };

  cordon_checker_flush (ck, text);
}

/* FALSE (after reporting) when the sandbox is not what was promised. */
static int
verify (int status_fd,
        int spec_fd,
        int go_fd,
        int listened)
{
  CordonChecker ck = { .status_fd = status_fd, .listened = listened };
  int own[] = { status_fd, go_fd };
  char *spec = cordon_spec_read_fd (spec_fd, 1 << 24);
  char go = 0;

  close (spec_fd);
  if (spec == NULL)
    return 0;
  for (char *save = NULL, *line = strtok_r (spec, "\n", &save); line != NULL;
       line = strtok_r (NULL, "\n", &save))
    cordon_checker_run_line (&ck, line);
  cordon_checker_run_fixed (&ck, own, sizeof own / sizeof own[0]);
  free (spec);
  if (ck.failed > 0)
    {
      say_last (&ck, CORDON_EXEC_FAILED);
      return 0;
    }
  /* cordon checks this process from outside before releasing it. */
  say_last (&ck, CORDON_EXEC_WAITING);
  while (read (go_fd, &go, 1) < 0 && errno == EINTR)
    ;
  close (go_fd);
  return go == CORDON_EXEC_GO;
}

/* 0 once `len` bytes are read, else -1 (EINVAL at an early end). */
static int
read_exactly (int fd,
              char *buf,
              size_t len)
{
  while (len > 0)
    {
      ssize_t n = read (fd, buf, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return n == 0 ? (errno = EINVAL, -1) : -1;
      buf += n;
      len -= (size_t) n;
    }
  return 0;
}

/* One filter of `size` bytes from the status socket (NULL, with errno:
 * EINVAL for a size that is not whole instructions). */
static struct sock_filter *
read_filter (int status_fd,
             unsigned long size)
{
  struct sock_filter *insns = NULL;
  int saved;

  errno = EINVAL;
  if (size == 0 || size % sizeof *insns != 0 || size > BPF_MAXINSNS * sizeof *insns
      || (insns = malloc (size)) == NULL)
    return NULL;
  if (read_exactly (status_fd, (char *) insns, size) == 0)
    return insns;
  saved = errno;
  free (insns);
  errno = saved;
  return NULL;
}

/* A filter of `size` bytes loaded with `flags`: its result (a listener,
 * or 0), or -1 with errno. */
static int
load_one (struct sock_filter *insns,
          unsigned long size,
          unsigned int flags)
{
  struct sock_fprog prog = { (unsigned short) (size / sizeof *insns), insns };

  return (int) syscall (SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
}

/* "N" with the listener (SCM_RIGHTS), then no copy of it here. 0, or -1
 * with errno. */
static int
send_listener (int status_fd,
               int listener)
{
  char word[] = { (char) CORDON_EXEC_LISTENER, '\n' };
  struct iovec iov = { word, sizeof word };
  union { char buf[CMSG_SPACE (sizeof (int))]; struct cmsghdr align; } control;
  struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf,
                        .msg_controllen = sizeof control.buf };
  struct cmsghdr *cmsg = CMSG_FIRSTHDR (&msg);
  ssize_t n;
  int saved;

  cmsg->cmsg_level = SOL_SOCKET;
  cmsg->cmsg_type = SCM_RIGHTS;
  cmsg->cmsg_len = CMSG_LEN (sizeof (int));
  memcpy (CMSG_DATA (cmsg), &listener, sizeof listener);
  while ((n = sendmsg (status_fd, &msg, MSG_NOSIGNAL)) < 0 && errno == EINTR)
    ;
  /* A stream socket takes 2 bytes whole or not at all; a short send is
   * no listener passed. */
  saved = n == (ssize_t) sizeof word ? 0 : n < 0 ? errno : EIO;
  close (listener);
  return saved == 0 ? 0 : (errno = saved, -1);
}

/* "LISTENED,PLAIN": the sizes of the two filters cordon wrote on the
 * status socket before the sandbox started. The first is loaded with a
 * listener, sent back with "N"; where the kernel refuses one (EBUSY: a
 * filter above cordon's has one already), the second, whose refusals are
 * errors of their own, is loaded instead and "L<errno>" says why: the
 * calls are refused all the same, unnamed (without either, bwrap's
 * filter would fail them with ENOSYS). 1 (listened), 0 (plain), or -1
 * with errno. */
static int
load_filters (int status_fd,
              const char *sizes)
{
  char *end = NULL;
  unsigned long size[2] = { 0, 0 };
  struct sock_filter *insns[2] = { NULL, NULL };
  int listener = -1, rc = -1, saved = EINVAL;

  errno = 0;
  size[0] = strtoul (sizes, &end, 10);
  if (errno == 0 && *end == ',')
    size[1] = strtoul (end + 1, &end, 10);
  if (errno != 0 || *end != '\0')
    return errno = EINVAL, -1;
  /* Both read first: the stream is whole before either is loaded. */
  if ((insns[0] = read_filter (status_fd, size[0])) != NULL
      && (insns[1] = read_filter (status_fd, size[1])) != NULL)
    {
      if ((listener = load_one (insns[0], size[0], SECCOMP_FILTER_FLAG_NEW_LISTENER)) >= 0)
        {
          /* The caller stopped in a refused call hands its CPU to cordon,
           * which answers there (Linux 6.6): no wake-up of cordon on the
           * other CPU, no wake-up of the caller back. Only how fast the
           * answer comes: an older kernel refuses the flag, and that is
           * all. */
          (void) ioctl (listener, SECCOMP_IOCTL_NOTIF_SET_FLAGS, SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP);
          rc = send_listener (status_fd, listener) == 0 ? 1 : -1;
        }
      else if ((saved = errno) != EINVAL && load_one (insns[1], size[1], 0) == 0)
        {
          say (status_fd, CORDON_EXEC_UNLISTENED, saved);
          rc = 0;
        }
    }
  saved = errno;
  free (insns[0]);
  free (insns[1]);
  errno = saved;
  return rc;
}

/* "FSIZE,NOFILE,CORE,NPROC", each a number or "-": set, soft and hard. 0, or
 * -1 with errno (EINVAL for a malformed list). */
static int
set_rlimits (const char *list)
{
  static const int resources[] = { RLIMIT_FSIZE, RLIMIT_NOFILE, RLIMIT_CORE, RLIMIT_NPROC };
  const char *p = list;

  for (size_t i = 0; i < sizeof resources / sizeof resources[0]; i++)
    {
      char *end = (char *) p;
      struct rlimit r;

      if (*p == '-')
        end = (char *) p + 1;
      else if (*p >= '0' && *p <= '9')
        {
          errno = 0;
          r.rlim_cur = r.rlim_max = strtoull (p, &end, 10);
          if (errno != 0 || setrlimit (resources[i], &r) != 0)
            return -1;
        }
      if (end == p || *end != (i + 1 < sizeof resources / sizeof resources[0] ? ',' : '\0'))
        return errno = EINVAL, -1;
      p = end + 1;
    }
  return 0;
}

/* Invariant 4: a fresh, empty session keyring, so the caller's keys are
 * out of reach; no_new_privs, so no setuid program inside gains what the
 * sandbox lacks; then the listened filter (--notify), before the checks
 * whose seccomp probes cordon answers through it. Fail closed: without
 * any of them, nothing runs ("K<errno>"). */
static int
set_up (int status_fd,
        const char *notify,
        int *out_listened)
{
  if (syscall (SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, NULL) < 0
      || prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
      || (notify != NULL && (*out_listened = load_filters (status_fd, notify)) < 0))
    {
      say (status_fd, CORDON_EXEC_SETUP_ERRNO, errno);
      return 0;
    }
  return 1;
}

/* After execvp of `name` failed with `err`: "E<errno>", and the status
 * a shell gives, 127 (not found) or 126. */
static int
exec_failed (int status_fd,
             const char *name,
             int err)
{
  if (err == EACCES && !found_on_path (name))
    err = ENOENT;
  say (status_fd, CORDON_EXEC_EXEC_ERRNO, err);
  return err == ENOENT || err == ENOTDIR ? 127 : 126;
}

typedef struct
{
  char **argv;
  int status_fd;
  const struct sigaction *sigchld;   /* SIGCHLD as cordon-exec inherited it */
} Command;

/* The command's process, in a child that shares pid 1's memory while pid
 * 1 waits (cordon_exec_spawn): SIGCHLD as inherited, "R", the command,
 * or "E<errno>" and 127 or 126. It changes nothing of pid 1's: not
 * dumpability, which belongs to the memory they share (the exec makes
 * the command's own memory dumpable again), nor fds or signal
 * dispositions, its own copies. It tells all it has to tell itself, so
 * it does as well as a fork's child (valgrind runs it as one). */
static void
command_child (void *data)
{
  Command *cmd = data;

  sigaction (SIGCHLD, cmd->sigchld, NULL);
  say (cmd->status_fd, CORDON_EXEC_RUNNING, -1);
  execvp (cmd->argv[0], cmd->argv);
  _exit (exec_failed (cmd->status_fd, cmd->argv[0], errno));
}

/* As the sandbox's pid 1, in place of bwrap's own init, which would be
 * the one process inside without cordon-exec's filter, rlimits and
 * keyring: code inside may write the memory of a process of its uid,
 * and a listener of its own loaded there would answer the refusals of
 * the profile's with "continue". So this process has all of them before
 * the command's starts, in a child. It returns only when there is no
 * child ("F<errno>"); else it keeps nothing open, is undumpable (its
 * memory and fds closed to the sandbox), reaps every process left to it
 * and ends as the command ended: its status, or 128+N for a signal N, as
 * bwrap's init and a shell say, and the kernel then kills whatever the
 * command left behind (127 or 126 from a command that could not be
 * exec'd). */
static int
be_init (int status_fd,
         char **argv)
{
  struct sigaction dfl = { .sa_handler = SIG_DFL }, inherited;
  Command cmd = { argv, status_fd, &inherited };
  int status = 0;
  pid_t child, pid;

  /* Not dumpable before the child: no moment when the command's code
   * could open this process's memory. SIGCHLD at its default here, as
   * inherited in the command: ignored, the kernel would reap the command
   * before wait() saw it. */
  prctl (PR_SET_DUMPABLE, 0, 0, 0, 0);
  sigaction (SIGCHLD, &dfl, &inherited);
  child = cordon_exec_spawn (command_child, &cmd);
  if (child < 0)
    {
      say (status_fd, CORDON_EXEC_FORK_ERRNO, errno);
      return 125;
    }
  close_range (0, ~0U, 0);
  while ((pid = wait (&status)) != child)
    if (pid < 0 && errno != EINTR)
      _exit (125);
  _exit (WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status));
}

int
main (int argc,
      char **argv)
{
  int status_fd, spec_fd = -1, go_fd = -1, first = 2;
  const char *notify = NULL;
  int listened = 0;

  if (argc < 3 || (status_fd = parse_fd (argv[1])) < 0)
    {
      fputs ("usage: cordon-exec STATUS_FD [--rlimits FSIZE,NOFILE,CORE,NPROC] [--notify LISTENED,PLAIN] "
             "[--verify SPEC_FD GO_FD] COMMAND [ARG...]\n", stderr);
      return 125;
    }
  /* Before anything of the sandbox runs, the checks too: cordon reads
   * them back from outside. */
  if (strcmp (argv[first], CORDON_EXEC_ARG_RLIMITS) == 0)
    {
      if (argc < first + 3 || set_rlimits (argv[first + 1]) != 0)
        {
          say (status_fd, CORDON_EXEC_SETUP_ERRNO, errno != 0 ? errno : EINVAL);
          return 125;
        }
      first += 2;
    }
  if (strcmp (argv[first], CORDON_EXEC_ARG_NOTIFY) == 0)
    {
      if (argc < first + 3)
        return 125;
      notify = argv[first + 1];
      first += 2;
    }
  if (strcmp (argv[first], CORDON_EXEC_ARG_VERIFY) == 0)
    {
      if (argc < first + 4 || (spec_fd = parse_fd (argv[first + 1])) < 0
          || (go_fd = parse_fd (argv[first + 2])) < 0)
        return 125;
      first += 3;
    }
  if (!set_up (status_fd, notify, &listened))
    return 125;
  if (spec_fd >= 0 && !verify (status_fd, spec_fd, go_fd, listened))
    return 125;
  /* The pid namespace's init (bwrap --as-pid-1): the command runs in a
   * child, this process only reaps. */
  if (getpid () == 1)
    return be_init (status_fd, argv + first);
  say (status_fd, CORDON_EXEC_RUNNING, -1);
  execvp (argv[first], argv + first);
  return exec_failed (status_fd, argv[first], errno);
}
