/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* seccomp-wrap: runs a program under a seccomp filter of its own that
 * refuses the named system calls with EPERM, as an enclosing sandbox's
 * would (firejail --seccomp refuses mount): the integration tests run
 * cordon under it. Not installed.
 *
 *   seccomp-wrap SYSCALL[,SYSCALL...] PROGRAM [ARG...] */
#include "config.h"

#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

int
main (int argc,
      char **argv)
{
  scmp_filter_ctx ctx;
  char *names;

  if (argc < 3)
    {
      fprintf (stderr, "usage: seccomp-wrap SYSCALL[,SYSCALL...] PROGRAM [ARG...]\n");
      return 2;
    }
  ctx = seccomp_init (SCMP_ACT_ALLOW);
  names = strdup (argv[1]);
  if (ctx == NULL || names == NULL)
    return 2;
  for (char *save = NULL, *n = strtok_r (names, ",", &save); n != NULL; n = strtok_r (NULL, ",", &save))
    {
      int nr = seccomp_syscall_resolve_name (n);

      if (nr == __NR_SCMP_ERROR || seccomp_rule_add (ctx, SCMP_ACT_ERRNO (EPERM), nr, 0) != 0)
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
  seccomp_release (ctx);
  free (names);
  execvp (argv[2], argv + 2);
  fprintf (stderr, "seccomp-wrap: %s: %s\n", argv[2], strerror (errno));
  return 127;
}
