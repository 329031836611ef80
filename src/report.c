/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* report: builds the JSON record of one `cordon run` from what the other
 * stages left behind (plan, probe, run result) and writes it atomically.
 * The environment is reported from the plan's decisions, by name only:
 * plan->envp holds the values and is never read here, because a report is
 * meant to be shared and a value may be a credential. Every string goes
 * through one helper that repairs invalid UTF-8, since paths and names come
 * from the host and JSON is UTF-8. The shape is the one
 * data/report.schema.json describes, of CORDON_REPORT_SCHEMA_VERSION. */
#include "config.h"

#include <string.h>

#include "file-util.h"
#include "json-writer.h"
#include "report.h"
#include "seccomp-filter.h"

static const char * const outcome_names[] = {
  [CORDON_OUTCOME_EXITED] = "exited",
  [CORDON_OUTCOME_TIMED_OUT] = "timed-out",
  [CORDON_OUTCOME_NOT_FOUND] = "not-found",
  [CORDON_OUTCOME_NOT_EXECUTABLE] = "not-executable",
  [CORDON_OUTCOME_LAUNCH_FAILED] = "launch-failed",
  [CORDON_OUTCOME_SIGNALED] = "signaled",
  [CORDON_OUTCOME_VERIFY_FAILED] = "verify-failed",
  [CORDON_OUTCOME_VERIFIED] = "verified",
  [CORDON_OUTCOME_OOM_KILLED] = "oom-killed",
};
G_STATIC_ASSERT (G_N_ELEMENTS (outcome_names) == CORDON_OUTCOME_MAX);

void
cordon_report_init (CordonReport *report)
{
  memset (report, 0, sizeof *report);
  report->overrides = g_ptr_array_new_with_free_func (g_free);
  report->degradations = g_ptr_array_new_with_free_func (g_free);
}

/* Frees only what the report owns; plan, probe and result are borrowed. */
void
cordon_report_clear (CordonReport *report)
{
  if (report == NULL)
    return;
  g_clear_pointer (&report->policy_sha256, g_free);
  g_clear_pointer (&report->overrides, g_ptr_array_unref);
  g_clear_pointer (&report->degradations, g_ptr_array_unref);
  g_clear_pointer (&report->failure_message, g_free);
  g_clear_pointer (&report->started_at, g_date_time_unref);
  g_clear_pointer (&report->ended_at, g_date_time_unref);
  g_clear_pointer (&report->workdir, g_free);
  g_clear_pointer (&report->argv, g_strfreev);
}

/* Each file name and text is followed by a NUL so that moving bytes from
 * one field to the next (or from one file to the next) changes the hash. */
char *
cordon_report_policy_sha256 (const CordonPolicy *policy)
{
  g_autoptr(GChecksum) sum = NULL;

  g_return_val_if_fail (policy != NULL, NULL);
  sum = g_checksum_new (G_CHECKSUM_SHA256);
  for (guint i = 0; i < cordon_policy_n_sources (policy); i++)
    {
      const char *file = cordon_policy_source_file (policy, i);
      const char *text = cordon_policy_source_text (policy, i);

      g_checksum_update (sum, (const guchar *) file, strlen (file) + 1);
      g_checksum_update (sum, (const guchar *) text, strlen (text) + 1);
    }
  return g_strdup (g_checksum_get_string (sum));
}

/* --- builder helpers ----------------------------------------------------- */

static void
add_string (CordonJson *b,
            const char *member,
            const char *value)
{
  g_autofree char *valid = NULL;

  if (member != NULL)
    cordon_json_set_member_name (b, member);
  if (value == NULL)
    {
      cordon_json_add_null_value (b);
      return;
    }
  valid = g_utf8_make_valid (value, -1);
  cordon_json_add_string_value (b, valid);
}

/* An int member, or null when `known` is false. */
static void
add_int_or_null (CordonJson *b,
                 const char *member,
                 gboolean known,
                 gint64 value)
{
  cordon_json_set_member_name (b, member);
  if (known)
    cordon_json_add_int_value (b, value);
  else
    cordon_json_add_null_value (b);
}

static void
add_ms_or_null (CordonJson *b,
                const char *member,
                gboolean known,
                guint64 us)
{
  cordon_json_set_member_name (b, member);
  if (known)
    cordon_json_add_double_value (b, (double) us / 1000.0);
  else
    cordon_json_add_null_value (b);
}

/* A NULL array is written as an empty one: "nothing recorded". */
static void
add_string_array (CordonJson *b,
                  const char *member,
                  const GPtrArray *strings)
{
  cordon_json_set_member_name (b, member);
  cordon_json_begin_array (b);
  for (guint i = 0; strings != NULL && i < strings->len; i++)
    add_string (b, NULL, g_ptr_array_index (strings, i));
  cordon_json_end_array (b);
}

/* NULL is null, not an empty array: "not known", apart from "none". */
static void
add_strv_or_null (CordonJson *b,
                  const char *member,
                  const char * const *strings)
{
  cordon_json_set_member_name (b, member);
  if (strings == NULL)
    {
      cordon_json_add_null_value (b);
      return;
    }
  cordon_json_begin_array (b);
  for (guint i = 0; strings[i] != NULL; i++)
    add_string (b, NULL, strings[i]);
  cordon_json_end_array (b);
}

/* RFC 3339 in UTC with milliseconds, "2024-05-01T12:34:56.789Z": a fixed
 * width, so that the text sorts as the time does. The milliseconds are
 * cut, not rounded: a time never reads later than it was. */
static void
add_timestamp (CordonJson *b,
               const char *member,
               GDateTime *time)
{
  g_autoptr(GDateTime) utc = NULL;
  g_autofree char *seconds = NULL;
  g_autofree char *text = NULL;

  cordon_json_set_member_name (b, member);
  if (time == NULL)
    {
      cordon_json_add_null_value (b);
      return;
    }
  utc = g_date_time_to_utc (time);
  seconds = g_date_time_format (utc, "%Y-%m-%dT%H:%M:%S");
  text = g_strdup_printf ("%s.%03dZ", seconds, g_date_time_get_microsecond (utc) / 1000);
  cordon_json_add_string_value (b, text);
}

/* --- sections ------------------------------------------------------------ */

static void
add_policy (CordonJson *b,
            const CordonReport *report)
{
  cordon_json_set_member_name (b, "policy");
  cordon_json_begin_object (b);
  add_string (b, "name", report->policy_name);
  add_string (b, "sha256", report->policy_sha256);
  cordon_json_end_object (b);
}

static void
add_probe (CordonJson *b,
           const CordonProbe *probe)
{
  cordon_json_set_member_name (b, "probe");
  if (probe == NULL)
    {
      cordon_json_add_null_value (b);
      return;
    }
  cordon_json_begin_object (b);
  add_string (b, "result", cordon_probe_result_name (probe->result));
  cordon_json_set_member_name (b, "cached");
  cordon_json_add_boolean_value (b, probe->cached);
  add_string (b, "detail", probe->detail);
  cordon_json_end_object (b);
}

/* Names only, from the decisions. plan->envp is deliberately not read:
 * it holds the values. */
static void
add_env_names (CordonJson *b,
               const char *member,
               const CordonPlan *plan,
               gboolean passed)
{
  cordon_json_set_member_name (b, member);
  cordon_json_begin_array (b);
  for (guint i = 0; i < plan->env_decisions->len; i++)
    {
      const CordonEnvDecision *d = g_ptr_array_index (plan->env_decisions, i);

      if ((d->passed != FALSE) == passed)
        add_string (b, NULL, d->name);
    }
  cordon_json_end_array (b);
}

/* Why each dropped variable was dropped, in the order of "dropped": the
 * decision's reason names a rule or a socket, never a value. */
static void
add_drop_reasons (CordonJson *b,
                  const CordonPlan *plan)
{
  cordon_json_set_member_name (b, "dropped_reasons");
  cordon_json_begin_array (b);
  for (guint i = 0; i < plan->env_decisions->len; i++)
    {
      const CordonEnvDecision *d = g_ptr_array_index (plan->env_decisions, i);

      if (d->passed)
        continue;
      cordon_json_begin_object (b);
      add_string (b, "name", d->name);
      add_string (b, "reason", d->reason);
      cordon_json_end_object (b);
    }
  cordon_json_end_array (b);
}

static void
add_environment (CordonJson *b,
                 const CordonPlan *plan)
{
  cordon_json_set_member_name (b, "environment");
  if (plan == NULL)
    {
      cordon_json_add_null_value (b);
      return;
    }
  cordon_json_begin_object (b);
  add_env_names (b, "passed", plan, TRUE);
  add_env_names (b, "dropped", plan, FALSE);
  add_drop_reasons (b, plan);
  cordon_json_end_object (b);
}

static gboolean
is_mask (const CordonOp *op)
{
  return (op->kind == CORDON_OP_MASK_FILE || op->kind == CORDON_OP_MASK_DIR) && !op->pinned;
}

static gboolean
is_hidden (const CordonOp *op)
{
  return op->kind == CORDON_OP_HIDE_DIR;
}

/* Every mask (or hidden directory) the plan applies, beside its rule:
 * with "skipped", every decision about a socket, a secret or what of
 * the host is in view is in the report. */
static void
add_masked (CordonJson *b,
            const char *name,
            gboolean (*wanted) (const CordonOp *op),
            const CordonPlan *plan)
{
  cordon_json_set_member_name (b, name);
  if (plan == NULL)
    {
      cordon_json_add_null_value (b);
      return;
    }
  cordon_json_begin_array (b);
  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);
      g_autofree char *rule = NULL;

      if (!wanted (op))
        continue;
      if (op->rule.file != NULL)
        rule = cordon_location_to_string (&op->rule);
      cordon_json_begin_object (b);
      add_string (b, "path", op->dest);
      add_string (b, "rule", rule);
      add_string (b, "why", op->why);
      cordon_json_end_object (b);
    }
  cordon_json_end_array (b);
}

/* Each check of the live sandbox, beside the rule it proves. */
static void
add_verification (CordonJson *b,
                  const CordonVerify *verify)
{
  cordon_json_set_member_name (b, "verification");
  if (verify == NULL)
    {
      cordon_json_add_null_value (b);
      return;
    }
  cordon_json_begin_object (b);
  cordon_json_set_member_name (b, "passed");
  cordon_json_add_boolean_value (b, cordon_verify_passed (verify));
  cordon_json_set_member_name (b, "checks");
  cordon_json_begin_array (b);
  for (guint i = 0; i < cordon_verify_n_checks (verify); i++)
    {
      const CordonCheck *c = cordon_verify_get_check (verify, i);
      g_autofree char *rule = c->rule.file != NULL ? cordon_location_to_string (&c->rule) : NULL;

      cordon_json_begin_object (b);
      add_string (b, "check", c->id);
      add_string (b, "target", c->target);
      add_string (b, "expect", c->expect);
      add_string (b, "rule", rule);
      add_string (b, "outcome", !c->done ? "not-run" : c->ok ? "ok" : "fail");
      cordon_json_set_member_name (b, "errno");
      cordon_json_add_int_value (b, c->err);
      add_string (b, "detail", c->detail);
      cordon_json_end_object (b);
    }
  cordon_json_end_array (b);
  cordon_json_end_object (b);
}

static void
add_skipped (CordonJson *b,
             const CordonPlan *plan)
{
  cordon_json_set_member_name (b, "skipped");
  if (plan == NULL)
    {
      cordon_json_add_null_value (b);
      return;
    }
  cordon_json_begin_array (b);
  for (guint i = 0; i < plan->skipped->len; i++)
    {
      const CordonSkip *skip = g_ptr_array_index (plan->skipped, i);
      g_autofree char *rule = NULL;

      if (skip->rule.file != NULL)
        rule = cordon_location_to_string (&skip->rule);
      cordon_json_begin_object (b);
      add_string (b, "path", skip->path);
      add_string (b, "rule", rule);
      add_string (b, "reason", skip->reason);
      cordon_json_end_object (b);
    }
  cordon_json_end_array (b);
}

static void
add_size (CordonJson *b,
          const char *name,
          gboolean set,
          guint64 value)
{
  cordon_json_set_member_name (b, name);
  if (set)
    cordon_json_add_int_value (b, (gint64) value);
  else
    cordon_json_add_null_value (b);
}

/* What the plan bounds ([limits]): each value, or null where none is;
 * the mechanism that holds the sandbox's own, and what its cgroups
 * counted (null without one). */
static void
add_limits (CordonJson *b,
            const CordonPlan *plan,
            const CordonCgroupStats *stats)
{
  cordon_json_set_member_name (b, "limits");
  if (plan == NULL)
    {
      cordon_json_add_null_value (b);
      return;
    }
  cordon_json_begin_object (b);
  add_string (b, "mechanism", cordon_cgroup_mechanism_name (plan->cgroup_mechanism));
  add_size (b, "scratch", plan->scratch > 0, plan->scratch);
  add_size (b, "file_size", plan->rlimits[CORDON_RLIMIT_FSIZE].set, plan->rlimits[CORDON_RLIMIT_FSIZE].value);
  add_size (b, "open_files", plan->rlimits[CORDON_RLIMIT_NOFILE].set, plan->rlimits[CORDON_RLIMIT_NOFILE].value);
  add_size (b, "core", plan->rlimits[CORDON_RLIMIT_CORE].set, plan->rlimits[CORDON_RLIMIT_CORE].value);
  /* The sandbox's own: each held, else null (its degradation is named). */
  for (guint i = 0; i < CORDON_LIMIT_MAX; i++)
    {
      static const char * const names[CORDON_LIMIT_MAX] = { "memory", "swap", "cpu_percent", "pids" };
      const CordonLimit *l = &plan->limits[i];

      add_size (b, names[i], l->set && l->held_by != CORDON_HELD_NOT, l->value);
    }
  add_size (b, "memory_peak", stats != NULL && stats->memory_peak >= 0, stats != NULL ? (guint64) stats->memory_peak : 0);
  add_size (b, "oom_kills", stats != NULL && stats->oom_kills >= 0, stats != NULL ? (guint64) stats->oom_kills : 0);
  add_size (b, "pids_max_hits", stats != NULL && stats->pids_max_hits >= 0,
            stats != NULL ? (guint64) stats->pids_max_hits : 0);
  add_size (b, "cpu_usec", stats != NULL && stats->cpu_usec >= 0, stats != NULL ? (guint64) stats->cpu_usec : 0);
  cordon_json_end_object (b);
}

static const char *
outcome_name (CordonOutcome outcome)
{
  if ((guint) outcome >= CORDON_OUTCOME_MAX)
    return NULL;
  return outcome_names[outcome];
}

/* The outcome of a run that stopped before cordon supervised bwrap: the
 * stage that failed, as "launch-failed" and "verify-failed" name theirs.
 * verify and audit fail only with a result, so they are not here. */
static const char *
failure_outcome (const char *failure_reason)
{
  static const char * const names[][2] = {
    { "usage", "usage-failed" }, { "policy", "policy-failed" }, { "host", "host-failed" },
    { "probe", "probe-failed" }, { "launch", "launch-failed" },
  };

  for (guint i = 0; failure_reason != NULL && i < G_N_ELEMENTS (names); i++)
    if (g_str_equal (names[i][0], failure_reason))
      return names[i][1];
  return NULL;
}

/* child_pid .. exec_errno. Without a result the command never started,
 * so everything but exit_status is unknown. */
static void
add_run (CordonJson *b,
         const CordonReport *report)
{
  const CordonRunResult *r = report->result;

  add_int_or_null (b, "child_pid", r != NULL && r->child_pid > 0,
                   r != NULL ? r->child_pid : 0);
  cordon_json_set_member_name (b, "exit_status");
  cordon_json_add_int_value (b, report->exit_status);
  add_int_or_null (b, "signal", r != NULL && r->term_signal != 0,
                   r != NULL ? r->term_signal : 0);
  cordon_json_set_member_name (b, "timed_out");
  cordon_json_add_boolean_value (b, r != NULL && r->outcome == CORDON_OUTCOME_TIMED_OUT);
  add_string (b, "outcome", r != NULL ? outcome_name (r->outcome) : failure_outcome (report->failure_reason));
  add_int_or_null (b, "exec_errno", r != NULL && r->exec_errno != 0,
                   r != NULL ? r->exec_errno : 0);
}

static void
add_failure (CordonJson *b,
             const CordonReport *report)
{
  cordon_json_set_member_name (b, "failure");
  if (report->failure_reason == NULL)
    {
      cordon_json_add_null_value (b);
      return;
    }
  cordon_json_begin_object (b);
  add_string (b, "reason", report->failure_reason);
  add_string (b, "message", report->failure_message);
  cordon_json_end_object (b);
}

/* Whom the sandbox ran as on the host: null before a plan. */
static void
add_identity (CordonJson *b,
              const CordonPlan *plan)
{
  cordon_json_set_member_name (b, "identity");
  if (plan == NULL)
    {
      cordon_json_add_null_value (b);
      return;
    }
  cordon_json_begin_object (b);
  cordon_json_set_member_name (b, "host_uid");
  cordon_json_add_int_value (b, plan->host_uid);
  cordon_json_set_member_name (b, "host_gid");
  cordon_json_add_int_value (b, plan->host_gid);
  cordon_json_set_member_name (b, "host_root");
  cordon_json_add_boolean_value (b, plan->host_root);
  cordon_json_set_member_name (b, "switched");
  cordon_json_add_boolean_value (b, plan->switch_identity);
  cordon_json_end_object (b);
}

/* compile and probe are 0 when not reached; launch and run null without
 * a supervised bwrap (0 when the command never started); every other
 * stage of the split null when not reached (stopwatch.h says which). */
static void
add_durations (CordonJson *b,
               const CordonReport *report)
{
  const CordonRunResult *r = report->result;
  gint64 us;

  cordon_json_set_member_name (b, "durations_ms");
  cordon_json_begin_object (b);
  add_ms_or_null (b, "compile", TRUE,
                  cordon_stopwatch_get (&report->times, CORDON_PHASE_COMPILE, &us) ? (guint64) us : 0);
  add_ms_or_null (b, "probe", TRUE,
                  cordon_stopwatch_get (&report->times, CORDON_PHASE_PROBE, &us) ? (guint64) us : 0);
  add_ms_or_null (b, "launch", r != NULL, r != NULL ? r->launch_us : 0);
  add_ms_or_null (b, "run", r != NULL,
                  r != NULL && cordon_stopwatch_get (&report->times, CORDON_PHASE_RUN, &us) ? (guint64) us : 0);
  for (guint i = 0; i < CORDON_PHASE_MAX; i++)
    if (i != CORDON_PHASE_COMPILE && i != CORDON_PHASE_PROBE && i != CORDON_PHASE_RUN)
      {
        gboolean known = cordon_stopwatch_get (&report->times, i, &us);

        add_ms_or_null (b, cordon_phase_name (i), known, known ? (guint64) us : 0);
      }
  cordon_json_end_object (b);
}

/* What the sandbox's processes used, as the keeper counted them (see
 * CordonUsage): null when it did not say, or the sandbox never ran. */
static void
add_usage (CordonJson *b,
           const CordonRunResult *r)
{
  cordon_json_set_member_name (b, "usage");
  if (r == NULL || !r->usage.known)
    {
      cordon_json_add_null_value (b);
      return;
    }
  cordon_json_begin_object (b);
  add_ms_or_null (b, "user_ms", TRUE, r->usage.user_us);
  add_ms_or_null (b, "system_ms", TRUE, r->usage.system_us);
  add_size (b, "max_rss_kib", TRUE, r->usage.max_rss_kib);
  cordon_json_end_object (b);
}

/* The post-run audit: how far it walked, and "planted", what the
 * sandbox left for the host (null: not audited). */
static void
add_audit (CordonJson *b,
           const CordonReport *report)
{
  const CordonAudit *audit = report->audit;

  cordon_json_set_member_name (b, "audit");
  if (audit == NULL)
    cordon_json_add_null_value (b);
  else
    {
      cordon_json_begin_object (b);
      add_string (b, "on_finding", cordon_key_info (CORDON_KEY_AUDIT_ON_FINDING)->words[report->plan->audit_mode]);
      cordon_json_set_member_name (b, "entries");
      cordon_json_add_int_value (b, audit->entries);
      cordon_json_set_member_name (b, "complete");
      cordon_json_add_boolean_value (b, audit->complete);
      cordon_json_set_member_name (b, "duration_ms");
      cordon_json_add_double_value (b, (double) audit->duration_us / 1000.0);
      cordon_json_end_object (b);
    }
  cordon_json_set_member_name (b, "planted");
  if (audit == NULL)
    {
      cordon_json_add_null_value (b);
      return;
    }
  cordon_json_begin_array (b);
  for (guint i = 0; i < audit->findings->len; i++)
    {
      const CordonPlanted *f = g_ptr_array_index (audit->findings, i);

      cordon_json_begin_object (b);
      add_string (b, "path", f->path);
      add_string (b, "what", f->what);
      add_string (b, "quarantined", f->quarantined);
      cordon_json_end_object (b);
    }
  cordon_json_end_array (b);
}

/* One refused call: its name, what it got, how often, and the rule that
 * refused it with what would let it through; the calls beyond the names
 * told apart are one entry of null names. */
static void
add_denial (CordonJson *b,
            const CordonPlan *plan,
            const char *name,
            int err,
            guint64 count)
{
  CordonLocation at = { 0 };
  gboolean by_deny = name != NULL && cordon_seccomp_refused_by_deny (plan, name, &at);
  g_autofree char *rule = name != NULL && at.file != NULL ? cordon_location_to_string (&at) : NULL;
  g_autofree char *permit = name == NULL ? NULL : by_deny ? g_strdup_printf ("deny= without %s", name)
                                                          : g_strdup_printf ("allow=%s", name);

  cordon_json_begin_object (b);
  add_string (b, "syscall", name);
  add_string (b, "errno", name != NULL ? cordon_seccomp_errno_name (err) : NULL);
  cordon_json_set_member_name (b, "count");
  cordon_json_add_int_value (b, (gint64) count);
  add_string (b, "key", name == NULL ? NULL : by_deny ? "deny" : "profile");
  add_string (b, "profile", cordon_key_info (CORDON_KEY_SECCOMP_PROFILE)->words[plan->seccomp]);
  add_string (b, "rule", rule);
  add_string (b, "permit", permit);
  cordon_json_end_object (b);
}

/* The calls the seccomp filter refused after the command was released,
 * as cordon answered them: null when no listener did (no filter, none to
 * be had — a kernel without SECCOMP_RET_USER_NOTIF, a supervisor's
 * listener above cordon, a policy's allow= or deny= of seccomp — or no
 * run). */
static void
add_seccomp_denials (CordonJson *b,
                     const CordonReport *report)
{
  const CordonSeccompDenials *d = report->seccomp_denials;

  cordon_json_set_member_name (b, "seccomp_denials");
  if (d == NULL || report->plan == NULL)
    {
      cordon_json_add_null_value (b);
      return;
    }
  cordon_json_begin_array (b);
  for (guint i = 0; d->denials != NULL && i < d->denials->len; i++)
    {
      const CordonSeccompDenial *one = g_ptr_array_index (d->denials, i);

      add_denial (b, report->plan, one->syscall, one->err, one->count);
    }
  if (d->others > 0)
    add_denial (b, report->plan, NULL, 0, d->others);
  cordon_json_end_array (b);
}

/* --- public -------------------------------------------------------------- */

/* The report's text; NULL where JSON cannot be written (json-writer.h). */
char *
cordon_report_to_json (const CordonReport *report,
                       GError **error)
{
  g_autoptr(CordonJson) b = cordon_json_new ();

  cordon_json_begin_object (b);
  cordon_json_set_member_name (b, "schema_version");
  cordon_json_add_int_value (b, CORDON_REPORT_SCHEMA_VERSION);
  add_string (b, "cordon_version", PACKAGE_VERSION);
  add_timestamp (b, "started_at", report->started_at);
  add_timestamp (b, "ended_at", report->ended_at);
  add_string (b, "workdir", report->workdir);
  add_strv_or_null (b, "argv", (const char * const *) report->argv);
  add_policy (b, report);
  add_string_array (b, "overrides", report->overrides);
  add_probe (b, report->probe);
  add_string (b, "proc", report->proc_mode);
  add_string_array (b, "degradations", report->degradations);
  add_identity (b, report->plan);
  add_environment (b, report->plan);
  add_masked (b, "masked", is_mask, report->plan);
  add_masked (b, "hidden", is_hidden, report->plan);
  add_skipped (b, report->plan);
  add_string_array (b, "abstract_sockets", report->plan != NULL ? report->plan->abstract_sockets : NULL);
  add_limits (b, report->plan, report->cgroup_stats);
  add_verification (b, report->verify);
  add_run (b, report);
  add_audit (b, report);
  add_failure (b, report);
  add_durations (b, report);
  add_usage (b, report->result);
  add_seccomp_denials (b, report);
  cordon_json_end_object (b);

  return cordon_json_to_text (b, error);
}

/* To the destination cordon settled before the sandbox ran (see
 * report-target.c): what `cordon run --report` writes. Never by path:
 * the sandbox may have changed what a path names since. */
gboolean
cordon_report_write_target (const CordonReport *report,
                            CordonReportTarget *target,
                            GError **error)
{
  g_autofree char *json = cordon_report_to_json (report, error);
  g_autofree char *text = NULL;

  if (json == NULL)
    return FALSE;
  text = g_strconcat (json, "\n", NULL);
  return cordon_report_target_write (target, text, strlen (text), error);
}
