/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* supervisor: waits on a launched sandbox. It forwards SIGINT, SIGTERM,
 * SIGHUP and SIGQUIT to the sandbox's processes, enforces the timeout
 * (SIGTERM to all, SIGKILL after the grace period), and makes sure that
 * nothing of the sandbox survives it: cordon is a subreaper, so even a
 * grandchild that called setsid() and double-forked is found among its
 * descendants and killed. */
#pragma once

#include <glib.h>
#include <sys/types.h>

#include "stopwatch.h"
#include "launch.h"
#include "seccomp-notify.h"
#include "verify.h"

G_BEGIN_DECLS

typedef enum
{
  CORDON_OUTCOME_EXITED,        /* the command ran; exit_status is its own */
  CORDON_OUTCOME_TIMED_OUT,     /* 124 */
  CORDON_OUTCOME_NOT_FOUND,     /* 127: the command could not be found */
  CORDON_OUTCOME_NOT_EXECUTABLE,/* 126 */
  CORDON_OUTCOME_LAUNCH_FAILED, /* 125: bwrap failed before the command */
  CORDON_OUTCOME_SIGNALED,      /* cordon got a signal before the command started */
  CORDON_OUTCOME_VERIFY_FAILED, /* 125: a denial did not hold; the command never ran */
  CORDON_OUTCOME_VERIFIED,      /* 0: cordon verify: every denial held, nothing ran */
  CORDON_OUTCOME_OOM_KILLED,    /* 137: the command was killed by the memory limit (run.c) */
  CORDON_OUTCOME_MAX
} CordonOutcome;

typedef struct
{
  guint64 timeout_ms;       /* 0: none */
  guint64 kill_after_ms;
  gboolean pid_namespace;   /* the sandbox has its own: cordon-exec is its pid 1 */
  CordonVerify *verify;     /* the checks to prove before release, or NULL */
  gboolean verify_only;     /* prove, then stop without running the command */
  CordonCgroupStats *counters; /* where the keeper's counters of the cgroups go, or NULL */
  gboolean seccomp_notify;  /* the helper sends the filter's listener: cordon answers it */
  CordonSeccompDenials *denials; /* where the refusals after release are counted, or NULL */
  CordonStopwatch *times;   /* the stages from bwrap's setup to teardown are timed here, or NULL */
  gboolean load_json;       /* a report will be written: json-glib loaded before release (json-writer.h) */
} CordonSuperviseOptions;

/* What bwrap and every process below it used, as the keeper's
 * getrusage (RUSAGE_CHILDREN) counted them once it had reaped them all
 * (see src/cordon-keeper.c): unknown when the keeper did not say. */
typedef struct
{
  gboolean known;
  guint64 user_us;          /* CPU time in user mode */
  guint64 system_us;        /* CPU time in the kernel */
  guint64 max_rss_kib;      /* the largest resident set of any one of them */
} CordonUsage;

typedef struct
{
  CordonOutcome outcome;
  int exit_status;          /* what cordon exits with */
  int term_signal;          /* N when the command died of signal N, else 0 */
  int exec_errno;           /* NOT_FOUND / NOT_EXECUTABLE */
  int keyring_errno;        /* LAUNCH_FAILED: no fresh session keyring */
  int fork_errno;           /* LAUNCH_FAILED: pid 1 could not fork the command */
  pid_t child_pid;          /* the sandbox's first process, as bwrap reported */
  int forwarded_signal;     /* last signal forwarded, 0 if none */
  guint64 launch_us;        /* fork to "ready" */

  guint n_killed;           /* processes killed at teardown */
  CordonUsage usage;        /* the keeper's word "U", after the run */
} CordonRunResult;

/* What the supervisor saw of one run, from which the result follows:
 * the pure half of cordon_supervise, apart so that the mapping to exit
 * statuses can be tested without a sandbox. */
typedef struct
{
  gboolean ready;           /* the helper said "R": the command was released */
  gboolean timed_out;
  int bwrap_status;         /* the keeper's wait status, which is bwrap's */
  int early_signal;         /* a signal cordon got before the command started */
  int exec_errno;           /* "E<errno>" of the helper */
  int keyring_errno;        /* "K<errno>" of the helper */
  int fork_errno;           /* "F<errno>" of the helper */
  gboolean verify_failed;
  gboolean verify_only;     /* cordon verify: prove, never run */
  gboolean verified_only;   /* every denial held, and nothing was run */
  pid_t child_pid;
} CordonRunFacts;

gboolean cordon_supervisor_prepare (GError **error);
gboolean cordon_supervise (CordonLaunch *launch,
                           const CordonSuperviseOptions *options,
                           CordonRunResult *out_result,
                           GError **error);
void cordon_supervisor_fill_result (const CordonRunFacts *facts,
                                    CordonRunResult *out_result);
gboolean cordon_supervisor_parse_usage (const char *text,
                                        CordonUsage *out_usage);

G_END_DECLS
