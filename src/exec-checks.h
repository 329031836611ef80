/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* exec-checks: the escape attempts cordon-exec makes inside the sandbox,
 * as the sandbox, before the command runs (invariant 9). Plain libc. */
#pragma once

#include <stddef.h>
#include <sys/types.h>

/* The result lines a checker holds before it writes them: more than a
 * whole run's (68 lines for trial), so that cordon reads them at once. */
#define CORDON_CHECKER_OUT_SIZE 16384

typedef struct
{
  int status_fd;      /* results go here, one line each */
  int failed;         /* checks that failed */
  char **allowed;     /* environment names that may be set */
  size_t n_allowed;
  char **digests;     /* sha256 hex of values that must appear nowhere */
  size_t n_digests;
  int pid_ns_new;     /* only the sandbox's processes may be visible */
  int host_proc;      /* /proc is the host's, read-only (a named degradation) */
  long cordon_pid;    /* with host_proc: cordon's pid, as the host's /proc shows it */
  int outside_shown;  /* processes outside the sandbox show in /proc: none may be open */
  unsigned long long cap_eff; /* the capabilities the policy keeps */
  int seccomp;        /* the filter is in force (spec line "seccomp") */
  int listened;       /* cordon-exec loaded it again with cordon's listener */
  char probe_name[32];          /* ".cordon-verify-PID", what the checks try to create */
  int cgroupfs_looked;          /* mountinfo was read for the cgroup lines */
  char cgroupfs_why[320];       /* what it shows of a writable cgroup file system, or "" */
  char out[CORDON_CHECKER_OUT_SIZE]; /* result lines not yet written */
  size_t out_len;
} CordonChecker;

/* All of `text` to `fd`, across short writes and EINTR. */
void cordon_exec_write (int fd,
                        const char *text);

/* Runs `fn (arg)` in a child that shares this process's memory and
 * stack (vfork: the child's frames go below this process's, on pages it
 * has touched already, which it does not use while it waits), and
 * returns once the child has exec'd or ended: its pid, to be reaped, or
 * -1 with errno. A fork() would copy the page tables first, which on a
 * virtual machine costs milliseconds, for a child that only makes a few
 * calls or execs. `fn` must not return (it execs or calls _exit), and
 * leaves errno (this thread's) as it left it. */
pid_t cordon_exec_spawn (void (*fn) (void *),
                         void *arg);

/* The result lines held, then `last` (NULL: nothing more), in one
 * write: one wake-up of cordon's for a whole run's results, not one a
 * line. */
void cordon_checker_flush (CordonChecker *ck,
                           const char *last);

/* Runs one line of the spec (its verbs: protocol.h); unknown lines fail.
 * The results are held until a flush, or until they fill `out`. */
void cordon_checker_run_line (CordonChecker *ck,
                              char *line);
/* The checks every sandbox gets, whatever the spec lists. */
void cordon_checker_run_fixed (CordonChecker *ck,
                               const int *own_fds,
                               size_t n_own_fds);
