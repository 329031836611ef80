/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* seccomp-wrap: runs a program under a seccomp filter of its own that
 * refuses the named system calls with EPERM, as an enclosing sandbox's
 * would (firejail --seccomp refuses mount): the integration tests run
 * cordon under it. With --listener, the calls notify a listener instead,
 * as a supervisor's filter (a container runtime's) would: this process
 * keeps it and answers each with EPERM while PROGRAM runs in a child,
 * then ends as it ended. No filter loaded below may then have a
 * listener of its own (the kernel says EBUSY). Not installed.
 *
 * With --kill, the first of the calls kills the process that makes it
 * (SECCOMP_RET_KILL_PROCESS): a SIGKILL at that very point, as a runner
 * killing cordon at a bad moment would.
 *
 *   seccomp-wrap [--listener|--kill] SYSCALL[,SYSCALL...] PROGRAM [ARG...] */
#include "config.h"

#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* Answers the listener's notifications with EPERM until `child` ends;
 * its status. */
static int
serve (int listener,
       pid_t child)
{
  struct seccomp_notif *req = NULL;
  struct seccomp_notif_resp *resp = NULL;
  int status;

  if (seccomp_notify_alloc (&req, &resp) != 0)
    return 2;
  while (waitpid (child, &status, WNOHANG) == 0)
    {
      struct pollfd p = { listener, POLLIN, 0 };

      if (poll (&p, 1, 50) <= 0 || !(p.revents & POLLIN) || seccomp_notify_receive (listener, req) != 0)
        continue;
      resp->id = req->id;
      resp->error = -EPERM;
      resp->val = 0;
      resp->flags = 0;
      seccomp_notify_respond (listener, resp);
    }
  seccomp_notify_free (req, resp);
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
}

int
main (int argc,
      char **argv)
{
  scmp_filter_ctx ctx;
  char *names;
  int listen = argc > 1 && strcmp (argv[1], "--listener") == 0;
  int kill_it = argc > 1 && strcmp (argv[1], "--kill") == 0;
  pid_t child;
  int listener;

  argv += listen || kill_it;
  argc -= listen || kill_it;
  if (argc < 3)
    {
      fprintf (stderr, "usage: seccomp-wrap [--listener|--kill] SYSCALL[,SYSCALL...] PROGRAM [ARG...]\n");
      return 2;
    }
  ctx = seccomp_init (SCMP_ACT_ALLOW);
  names = strdup (argv[1]);
  if (ctx == NULL || names == NULL)
    return 2;
  for (char *save = NULL, *n = strtok_r (names, ",", &save); n != NULL; n = strtok_r (NULL, ",", &save))
    {
      int nr = seccomp_syscall_resolve_name (n);

      if (nr == __NR_SCMP_ERROR || seccomp_rule_add (ctx, listen ? SCMP_ACT_NOTIFY : kill_it ? SCMP_ACT_KILL_PROCESS : SCMP_ACT_ERRNO (EPERM), nr, 0) != 0)
        {
          fprintf (stderr, "seccomp-wrap: cannot refuse '%s'\n", n);
          return 2;
        }
    }
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || seccomp_load (ctx) != 0)
    {
      fprintf (stderr, "seccomp-wrap: cannot load the filter: %s\n", strerror (errno));
      return 2;
    }
  free (names);
  if (listen)
    {
      if ((listener = seccomp_notify_fd (ctx)) < 0 || (child = fork ()) < 0)
        {
          fprintf (stderr, "seccomp-wrap: no listener: %s\n", strerror (errno));
          return 2;
        }
      seccomp_release (ctx);
      if (child > 0)
        return serve (listener, child);
      close (listener);
    }
  else
    seccomp_release (ctx);
  execvp (argv[2], argv + 2);
  fprintf (stderr, "seccomp-wrap: %s: %s\n", argv[2], strerror (errno));
  return 127;
}
