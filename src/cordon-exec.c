/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cordon-exec: the sandbox's first program, bound read-only at
 * /dev/.cordon-exec.
 *
 *   cordon-exec STATUS_FD [--rlimits FSIZE,NOFILE,CORE,NPROC] [--verify SPEC_FD GO_FD] COMMAND [ARG...]
 *
 * bwrap reports no difference between a command that exits 1 and a
 * sandbox that could not be set up, nor between "not found" and "not
 * executable": both end bwrap with status 1. This helper makes those
 * visible, and proves the sandbox before the command runs. It joins a
 * fresh session keyring (invariant 4), sets no_new_privs and the
 * policy's rlimits (soft and hard: the sandbox cannot raise them); with
 * --verify it reads the expected denials from SPEC_FD and attempts each
 * (invariant 9), reporting every result on STATUS_FD, then waits on
 * GO_FD for cordon's own checks from outside. Then it writes "R" and
 * execs the command in its own pid; if exec fails it writes "E<errno>"
 * and exits 127 (not found) or 126, as a shell does. Any failure before
 * that runs nothing. Plain libc: it must run under any policy's root. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "exec-checks.h"
#include "protocol.h"
#include "spec-codec.h"

/* From <linux/keyctl.h>; the helper needs no libkeyutils. */
#define KEYCTL_JOIN_SESSION_KEYRING 1

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
  struct stat st;

  if (strchr (name, '/') != NULL)
    return 1;
  for (const char *p = path != NULL ? path : "/bin:/usr/bin"; ; p++)
    {
      const char *end = strchrnul (p, ':');
      size_t len = (size_t) (end - p);
      char *candidate = malloc (len + strlen (name) + 2);
      int found;

      if (candidate == NULL)
        return 1;
      snprintf (candidate, len + strlen (name) + 2, "%.*s%s%s", (int) len, p, len > 0 ? "/" : "", name);
      found = stat (candidate, &st) == 0;
      free (candidate);
      if (found)
        return 1;
      if (*end == '\0')
        return 0;
      p = end;
    }
}

/* FALSE (after reporting) when the sandbox is not what was promised. */
static int
verify (int status_fd,
        int spec_fd,
        int go_fd)
{
  CordonChecker ck = { .status_fd = status_fd };
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
      say (status_fd, CORDON_EXEC_FAILED, -1);
      return 0;
    }
  /* cordon checks this process from outside before releasing it. */
  say (status_fd, CORDON_EXEC_WAITING, -1);
  while (read (go_fd, &go, 1) < 0 && errno == EINTR)
    ;
  close (go_fd);
  return go == CORDON_EXEC_GO;
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

int
main (int argc,
      char **argv)
{
  int status_fd, spec_fd = -1, go_fd = -1, first = 2;
  int saved;

  if (argc < 3 || (status_fd = parse_fd (argv[1])) < 0)
    {
      fputs ("usage: cordon-exec STATUS_FD [--rlimits FSIZE,NOFILE,CORE,NPROC] [--verify SPEC_FD GO_FD] "
             "COMMAND [ARG...]\n", stderr);
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
  if (strcmp (argv[first], CORDON_EXEC_ARG_VERIFY) == 0)
    {
      if (argc < first + 4 || (spec_fd = parse_fd (argv[first + 1])) < 0
          || (go_fd = parse_fd (argv[first + 2])) < 0)
        return 125;
      first += 3;
    }
  /* Invariant 4: a fresh, empty session keyring, so the caller's keys
   * are out of reach; no_new_privs, so no setuid program inside gains
   * what the sandbox lacks. Fail closed: without them, nothing runs. */
  if (syscall (SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, NULL) < 0)
    {
      say (status_fd, CORDON_EXEC_SETUP_ERRNO, errno);
      return 125;
    }
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    {
      say (status_fd, CORDON_EXEC_SETUP_ERRNO, errno);
      return 125;
    }
  if (spec_fd >= 0 && !verify (status_fd, spec_fd, go_fd))
    return 125;
  say (status_fd, CORDON_EXEC_RUNNING, -1);
  execvp (argv[first], argv + first);
  saved = errno;
  if (saved == EACCES && !found_on_path (argv[first]))
    saved = ENOENT;
  say (status_fd, CORDON_EXEC_EXEC_ERRNO, saved);
  return saved == ENOENT || saved == ENOTDIR ? 127 : 126;
}
