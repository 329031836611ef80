/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* userns-fork: how a root caller's bwrap becomes the sandbox's host user.
 *
 * Not by setuid(2) to that user: a user namespace is owned by the uid that
 * makes it, and bwrap would make the sandbox's as the host user, so every
 * other process of that user on the host (any process of a named account;
 * of uid 99999, whoever can map it) would hold capabilities over the
 * sandbox, reach its mounts through /proc/PID/root and write, through the
 * idmapped workdir, files that are root's on the host (a set-user-ID
 * shell). Instead the child makes the user namespace while it is still
 * root, so root owns it; the parent, root of the host's namespace, writes
 * the one-line maps (uid and gid 0 inside are the host user's); then the
 * child becomes that uid 0. bwrap started there is root to itself, with
 * capabilities over that namespace only, and runs the sandbox as the host
 * user, whom no process outside holds any capability over.
 *
 * cordon_userns_clone makes the same child without a fork: a clone that
 * shares the caller's memory and is born in the new namespace, so that
 * the parent writes the maps at once (no round trip), then releases it.
 * Its ids are changed by the system calls themselves: glibc's wrappers
 * would, in a caller that ever had a thread, signal the caller's threads
 * (the child's view of "its" threads, through the shared memory) and
 * wait for them. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "userns-fork.h"

static int
write_map (pid_t pid,
           const char *file,
           unsigned id)
{
  char path[64], line[32];
  int fd, n, ok;

  snprintf (path, sizeof path, "/proc/%d/%s", (int) pid, file);
  n = snprintf (line, sizeof line, "0 %u 1\n", id);
  if ((fd = open (path, O_WRONLY | O_CLOEXEC)) < 0)
    return -1;
  ok = write (fd, line, (size_t) n) == n;
  close (fd);
  return ok ? 0 : -1;
}

/* In the child: the namespace, then, once the maps are written, uid 0 of
 * it. Exits 127 on any failure (the parent has seen the sync byte fail). */
static void
child_become (int sv)
{
  char byte = 'U';

  if (unshare (CLONE_NEWUSER) != 0)
    byte = 'E';
  if (write (sv, &byte, 1) != 1 || byte == 'E' || read (sv, &byte, 1) != 1 || byte != 'G'
      || setgroups (0, NULL) != 0 || setresgid (0, 0, 0) != 0 || setresuid (0, 0, 0) != 0)
    _exit (127);
  close (sv);
}

pid_t
cordon_userns_fork (uid_t uid,
                    gid_t gid,
                    int *out_errno)
{
  int sv[2];
  char byte = 0;
  pid_t pid;
  int saved = 0;

  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    {
      *out_errno = errno;
      return -1;
    }
  if ((pid = fork ()) == 0)
    {
      close (sv[0]);
      child_become (sv[1]);
      return 0;
    }
  close (sv[1]);
  if (pid < 0)
    saved = errno;
  else if (read (sv[0], &byte, 1) != 1 || byte != 'U')
    saved = EPERM;
  else if (write_map (pid, "uid_map", uid) != 0 || write_map (pid, "gid_map", gid) != 0)
    saved = errno;
  else if (write (sv[0], "G", 1) != 1)
    saved = errno;
  close (sv[0]);
  if (saved == 0)
    return pid;
  if (pid > 0)
    {
      kill (pid, SIGKILL);
      while (waitpid (pid, NULL, 0) < 0 && errno == EINTR)
        ;
    }
  *out_errno = saved;
  return -1;
}

/* The child's instructions, at the bottom of its stack (its frames grow
 * down from the top): they outlive the caller's call. */
typedef struct
{
  int hold;          /* the read end of the hold */
  int release_end;   /* the write end: the child's copy is closed */
  int report_fd;
  int (*fn) (void *);
  void *data;
} HeldChild;

/* The ids of uid and gid 0 of the child's namespace, by the system calls
 * (see above): 0, or -1 with errno. */
static int
become_root_of_userns (void)
{
#ifdef SYS_setresuid32
  long set_uid = SYS_setresuid32, set_gid = SYS_setresgid32, set_groups = SYS_setgroups32;
#else
  long set_uid = SYS_setresuid, set_gid = SYS_setresgid, set_groups = SYS_setgroups;
#endif

  if (syscall (set_groups, 0, NULL) != 0 || syscall (set_gid, 0, 0, 0) != 0 || syscall (set_uid, 0, 0, 0) != 0)
    return -1;
  return 0;
}

static int
held_child (void *p)
{
  const HeldChild *h = p;
  char byte;

  close (h->release_end);
  if (read (h->hold, &byte, 1) != 1)
    _exit (127);
  close (h->hold);
  if (become_root_of_userns () != 0)
    {
      int err = errno;

      if (h->report_fd >= 0 && write (h->report_fd, &err, sizeof err) < 0)
        {
          /* The caller learns of it from the status 127 instead. */
        }
      _exit (127);
    }
  _exit (h->fn (h->data));
}

int
cordon_userns_may_share_memory (const char *path)
{
  char buf[8] = "";
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  ssize_t n = fd >= 0 ? read (fd, buf, sizeof buf - 1) : -1;

  if (fd >= 0)
    close (fd);
  return n == 2 && buf[0] == '0' && buf[1] == '\n';
}

int
cordon_userns_clone (uid_t uid,
                     gid_t gid,
                     int (*fn) (void *),
                     void *data,
                     int report_fd,
                     void *stack,
                     CordonUsernsChild *out_child)
{
  HeldChild *h = stack;
  CordonUsernsChild child;
  int hold[2], saved;

  if (pipe2 (hold, O_CLOEXEC) != 0)
    return -1;
  *h = (HeldChild) { hold[0], hold[1], report_fd, fn, data };
  child.pid = clone (held_child, (char *) stack + CORDON_USERNS_CHILD_STACK,
                     CLONE_VM | CLONE_NEWUSER | SIGCHLD, h);
  saved = errno;
  close (hold[0]);
  child.hold_fd = hold[1];
  if (child.pid < 0)
    {
      close (hold[1]);
      errno = saved;
      return -1;
    }
  if (write_map (child.pid, "uid_map", uid) != 0 || write_map (child.pid, "gid_map", gid) != 0)
    {
      saved = errno;
      cordon_userns_child_end (&child);
      errno = saved;
      return -1;
    }
  *out_child = child;
  return 0;
}

int
cordon_userns_child_release (CordonUsernsChild *child)
{
  int rc = write (child->hold_fd, "G", 1) == 1 ? 0 : -1;
  int saved = errno;

  close (child->hold_fd);
  child->hold_fd = -1;
  errno = saved;
  return rc;
}

void
cordon_userns_child_kill (CordonUsernsChild *child)
{
  kill (child->pid, SIGKILL);
  if (child->hold_fd >= 0)
    close (child->hold_fd);
  child->hold_fd = -1;
}

void
cordon_userns_child_end (CordonUsernsChild *child)
{
  cordon_userns_child_kill (child);
  while (waitpid (child->pid, NULL, 0) < 0 && errno == EINTR)
    ;
}
