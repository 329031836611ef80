/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* report: the JSON record of one `cordon run`, for trial runners. It
 * names variables, never their values; it names the reason of every 125
 * (policy, host, probe, launch, verify). Written atomically. */
#pragma once

#include <glib.h>

#include "audit.h"
#include "plan.h"
#include "policy.h"
#include "probe.h"
#include "report-target.h"
#include "stopwatch.h"
#include "supervisor.h"
#include "verify.h"

G_BEGIN_DECLS

/* The version of the report's shape (its first member): raised when a
 * member is removed or changes meaning, so that a reader can tell.
 * data/report.schema.json describes it. */
#define CORDON_REPORT_SCHEMA_VERSION 1

typedef struct
{
  GDateTime *started_at;        /* when cordon run (or verify) began, UTC */
  GDateTime *ended_at;          /* when the run ended, before the report was written */
  char *workdir;                /* absolute; NULL when cordon stopped before reading it */
  GStrv argv;                   /* the command as given; NULL for cordon verify, or before */
  const char *policy_name;
  char *policy_sha256;          /* of the resolved sources, in merge order */
  GPtrArray *overrides;         /* char*: "--allow-env NAME", ... (no values) */
  const CordonPlan *plan;       /* NULL when cordon stopped before compiling */
  const CordonProbe *probe;     /* NULL when no probe was needed */
  const char *proc_mode;        /* the mode actually used */
  GPtrArray *degradations;      /* char*: "host /proc", ... */
  const CordonRunResult *result;/* NULL when the command never started */
  const CordonCgroupStats *cgroup_stats; /* the keeper's counters, NULL without cgroups */
  const CordonVerify *verify;   /* NULL without verification (--no-verify) */
  const CordonAudit *audit;     /* NULL when the writable paths were not walked after the run */
  const CordonSeccompDenials *seccomp_denials; /* NULL when no listener answered the run's refusals */
  const char *failure_reason;   /* usage | policy | host | probe | launch | verify | audit | NULL */
  char *failure_message;
  int exit_status;
  CordonStopwatch times;        /* durations_ms: where the run's time went */
} CordonReport;

void cordon_report_init (CordonReport *report);
void cordon_report_clear (CordonReport *report);
char *cordon_report_policy_sha256 (const CordonPolicy *policy);
char *cordon_report_to_json (const CordonReport *report,
                             GError **error);
gboolean cordon_report_write_target (const CordonReport *report,
                                     CordonReportTarget *target,
                                     GError **error);

G_END_DECLS
