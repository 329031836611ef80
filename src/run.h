/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* run: the engine of `cordon run` and `cordon verify`, and the part of it
 * `compile` and `explain` share: prepare (the policy with the command
 * line's overrides, the host facts) -> compile -> probe (its answer and a
 * setuid bwrap's shape reach compile as typed options) -> launch ->
 * supervise -> report. Every outcome is recorded in the run: the failure
 * as a reason derived from the error, the degradations, the result; the
 * report is written from it on every exit path. It prints nothing:
 * main.c is told of the diagnostics and the degradations as they occur
 * (they come before the command's own output) and prints the rest. */
#pragma once

#include <glib.h>

#include "audit.h"
#include "bwrap-argv.h"
#include "cgroup-run.h"
#include "compile.h"
#include "diagnostic.h"
#include "host-facts.h"
#include "plan.h"
#include "policy.h"
#include "probe.h"
#include "report.h"
#include "report-target.h"
#include "supervisor.h"
#include "verify.h"

G_BEGIN_DECLS

/* 125: cordon itself failed before any command ran. */
#define CORDON_EXIT_FAILED 125

/* The reason of a 125, as the report and stderr name it. */
typedef enum
{
  CORDON_FAILURE_NONE,
  CORDON_FAILURE_USAGE,
  CORDON_FAILURE_POLICY,
  CORDON_FAILURE_HOST,
  CORDON_FAILURE_PROBE,
  CORDON_FAILURE_LAUNCH,
  CORDON_FAILURE_VERIFY,
  CORDON_FAILURE_AUDIT,       /* after the run: what the sandbox left, under [audit] on-finding=fail */
  CORDON_FAILURE_MAX
} CordonFailure;

typedef enum
{
  CORDON_RUN_COMMAND,         /* cordon run */
  CORDON_RUN_VERIFY_ONLY,     /* cordon verify: prove, run nothing */
  CORDON_RUN_SHOW,            /* compile, explain: prepare only; the probe's refusal is a note */
} CordonRunPurpose;

typedef struct
{
  CordonRunPurpose purpose;
  char *policy;
  char *workdir;
  char *bwrap;
  gboolean reprobe;
  char **allow_env;
  char **setenv;
  char **writable;
  gboolean share_net;
  gboolean no_cache;          /* --no-cache: [cache] enable=false */
  char *memory;               /* --memory SIZE: [limits] memory for this run */
  char *pids;                 /* --pids N: [limits] pids for this run */
  gboolean no_verify;
  gboolean no_audit;          /* --no-audit: no walk of the writable paths after the run */
  const char * const *command;
  const char * const *environ;
  gboolean timeout_given;     /* --timeout, even 0 (none), wins over [limits] timeout */
  guint64 timeout_ms;
  guint64 kill_after_ms;
  gint64 began_us;            /* when main() began (monotonic), or 0: the report's "start" and "total" */
  /* Told as they occur, before the command runs. */
  void (*diagnostics) (CordonDiagnostics *diags, gpointer data);
  void (*degraded) (const char *what, gpointer data);
  void (*note) (const char *what, gpointer data);   /* what an option came to: a --allow-env dropped */
  /* Told after the run, before the report: each finding of the audit. */
  void (*finding) (const CordonPlanted *finding, gpointer data);
  gpointer data;
} CordonRunOptions;

typedef struct
{
  CordonReport report;
  CordonPolicy *policy;
  CordonHostFacts *facts;
  CordonCompileOptions compile_options;
  CordonPlan *plan;
  CordonProbe *probe;
  CordonBwrapArgv *argv;
  CordonVerify *verify;
  CordonCgroupRun cgroups;            /* the sandbox's, named at launch; their counters after */
  CordonAudit audit;                  /* after the run: what it left in the writable paths */
  gboolean audited;
  GArray *audit_fds;                  /* int: each writable path, opened before the run */
  GPtrArray *audit_roots;             /* char*: their host paths */
  struct timespec audit_since;        /* the run's start, CLOCK_REALTIME_COARSE */
  CordonReportTarget *report_target;  /* opened before anything else */
  CordonRunResult result;
  gboolean has_result;                /* the command was supervised */
  CordonSeccompDenials seccomp_denials; /* what the filter refused after release, by name */
  guint64 timeout_ms;                 /* the timeout it was supervised with */
  CordonFailure failure;
  char *failure_message;
  gboolean diagnosed;                 /* the failure is the policy's errors, told as diagnostics */
  char *probe_note;                   /* CORDON_RUN_SHOW: why the probe's answer is missing */
  char *report_error;                 /* the report could not be written */
} CordonRun;

void cordon_run_init (CordonRun *run);
void cordon_run_clear (CordonRun *run);
gboolean cordon_run_open_report (CordonRun *run,
                                 const char *path,
                                 const char *fd_text);
gboolean cordon_run_prepare (CordonRun *run,
                             const CordonRunOptions *options);
int cordon_run_execute (CordonRun *run,
                        const CordonRunOptions *options);
int cordon_run_fail (CordonRun *run,
                     CordonFailure failure,
                     const char *message);

const char *cordon_failure_name (CordonFailure failure);
CordonFailure cordon_failure_of (const GError *error,
                                 CordonFailure stage);
char *cordon_run_overrides_text (const CordonRunOptions *options,
                                 GPtrArray *recorded);
GPtrArray *cordon_run_allow_env_notes (const CordonPlan *plan,
                                       const char * const *allow_env);
GPtrArray *cordon_run_degradations (const CordonPlan *plan,
                                    const CordonCompileOptions *compile_options,
                                    gboolean no_verify,
                                    gboolean no_audit,
                                    const char * const *environ);
gboolean cordon_seconds_to_ms (const char *text,
                               guint64 fallback,
                               guint64 *out_ms);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CordonRun, cordon_run_clear)

G_END_DECLS
