/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cordon-exec: the sandbox's first program, bound read-only at
 * /dev/.cordon-exec. Usage: cordon-exec STATUS_FD COMMAND [ARG...].
 *
 * bwrap reports no difference between a command that exits 1 and a
 * sandbox that could not be set up, nor between "not found" and "not
 * executable": both end bwrap with status 1. This helper makes the
 * difference visible. It joins a fresh session keyring, writes "R" on
 * STATUS_FD (so the sandbox is set up), marks the fd close-on-exec (the
 * command never holds it), and execs the command in its own pid. If the
 * keyring cannot be had it writes "K<errno>" and runs nothing. If exec fails it writes
 * "E<errno>" and exits 127 (not found) or 126 (not executable), as a
 * shell does. Plain libc: it must run under any policy's root. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* From <linux/keyctl.h>; the helper needs no libkeyutils. */
#define KEYCTL_JOIN_SESSION_KEYRING 1

static void
say (int fd,
     const char *text)
{
  size_t len = strlen (text);

  while (len > 0)
    {
      ssize_t n = write (fd, text, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return;
      text += n;
      len -= (size_t) n;
    }
}

int
main (int argc,
      char **argv)
{
  char buf[32];
  char *end = NULL;
  long fd;
  int saved;

  if (argc < 3)
    {
      fputs ("usage: cordon-exec STATUS_FD COMMAND [ARG...]\n", stderr);
      return 125;
    }
  errno = 0;
  fd = strtol (argv[1], &end, 10);
  if (errno != 0 || *end != '\0' || fd < 3 || fd > 1024
      || fcntl ((int) fd, F_SETFD, FD_CLOEXEC) != 0)
    {
      fputs ("cordon-exec: bad status fd\n", stderr);
      return 125;
    }
  /* Invariant 4: the sandbox starts in a fresh, empty session keyring,
   * so the caller's keys (Kerberos tickets, anything in @s) are out of
   * reach. Fail closed: without it, nothing runs. */
  if (syscall (SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, NULL) < 0)
    {
      snprintf (buf, sizeof buf, "K%d", errno);
      say ((int) fd, buf);
      return 125;
    }
  say ((int) fd, "R");
  execvp (argv[2], argv + 2);
  saved = errno;
  snprintf (buf, sizeof buf, "E%d", saved);
  say ((int) fd, buf);
  return saved == ENOENT || saved == ENOTDIR ? 127 : 126;
}
