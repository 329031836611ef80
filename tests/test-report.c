/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-report: the JSON record of a run, read back with json-glib's
 * parser the way a trial runner would. Each case checks one member's
 * presence, type and value. The plan under test carries a value-bearing
 * envp ("SECRET=hunter2") next to a decision that drops SECRET, because
 * the one thing a shared report must never do is leak a value. The policy
 * hash is checked on policies loaded through an in-memory resolver, so no
 * test reads the host's policy directories. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "cordon-error.h"
#include "fixture-host.h"
#include "mem-store.h"
#include "policy-parse.h"
#include "report.h"
#include "report-target.h"
#include "run.h"

/* --- fixture ------------------------------------------------------------ */

typedef struct
{
  CordonPlan *plan;
  CordonProbe probe;
  CordonRunResult result;
  CordonReport report;
} Fixture;

static void
add_decision (CordonPlan *plan,
              const char *name,
              gboolean passed,
              const char *reason)
{
  CordonEnvDecision *d = g_new0 (CordonEnvDecision, 1);

  d->name = g_strdup (name);
  d->passed = passed;
  d->reason = g_strdup (reason);
  g_ptr_array_add (plan->env_decisions, d);
}

static CordonPlan *
make_plan (void)
{
  CordonPlan *plan = cordon_plan_new ("trial");
  CordonLocation at = { g_intern_string ("mem/trial.policy"), 3, 12 };

  g_ptr_array_add (plan->envp, g_strdup ("PATH=/usr/bin:/bin"));
  g_ptr_array_add (plan->envp, g_strdup ("SECRET=hunter2"));
  add_decision (plan, "PATH", TRUE, "allowed by allow=PATH");
  add_decision (plan, "SECRET", FALSE, "not allowed");
  cordon_plan_add_skip_at (plan, CORDON_KEY_FS_READ_ONLY_TRY, &at,
                           "/opt/missing", "does not exist");
  cordon_plan_add_skip_at (plan, CORDON_KEY_INVALID, NULL,
                           "/proc/sys", "no /proc");
  return plan;
}

static int
setup (void **state)
{
  Fixture *f = g_new0 (Fixture, 1);

  f->plan = make_plan ();
  f->probe.result = CORDON_PROBE_PROC_MASKED;
  f->probe.cached = TRUE;
  f->probe.detail = (char *) "procfs cannot be mounted";
  f->result.outcome = CORDON_OUTCOME_EXITED;
  f->result.exit_status = 3;
  f->result.child_pid = 4242;
  f->result.launch_us = 1500;

  cordon_report_init (&f->report);
  f->report.policy_name = "trial";
  f->report.policy_sha256 = g_strdup ("00ff");
  g_ptr_array_add (f->report.overrides, g_strdup ("--allow-env PATH"));
  g_ptr_array_add (f->report.degradations, g_strdup ("host /proc"));
  f->report.plan = f->plan;
  f->report.probe = &f->probe;
  f->report.proc_mode = "host-ro";
  f->report.result = &f->result;
  f->report.exit_status = 3;
  cordon_stopwatch_add (&f->report.times, CORDON_PHASE_COMPILE, 2500);
  cordon_stopwatch_add (&f->report.times, CORDON_PHASE_PROBE, 125);
  cordon_stopwatch_add (&f->report.times, CORDON_PHASE_RUN, 250250);
  *state = f;
  return 0;
}

static int
teardown (void **state)
{
  Fixture *f = *state;

  cordon_report_clear (&f->report);
  cordon_plan_free (f->plan);
  g_free (f);
  return 0;
}

/* --- JSON helpers ------------------------------------------------------- */

static JsonNode *
parse_json (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  if (!json_parser_load_from_data (parser, text, -1, &error))
    fail_msg ("not JSON (%s):\n%s", error->message, text);
  assert_int_equal (json_node_get_node_type (json_parser_get_root (parser)), JSON_NODE_OBJECT);
  return json_parser_steal_root (parser);
}

static JsonNode *
report_json (const CordonReport *report)
{
  g_autofree char *text = cordon_report_to_json (report, NULL);

  return parse_json (text);
}

static JsonNode *
member (JsonNode *object,
        const char *name)
{
  JsonObject *o = json_node_get_object (object);

  if (!json_object_has_member (o, name))
    fail_msg ("no member '%s'", name);
  return json_object_get_member (o, name);
}

static void
assert_member_null (JsonNode *object,
                    const char *name)
{
  if (!JSON_NODE_HOLDS_NULL (member (object, name)))
    fail_msg ("'%s' is not null", name);
}

static void
assert_member_string (JsonNode *object,
                      const char *name,
                      const char *value)
{
  JsonNode *n = member (object, name);

  if (json_node_get_value_type (n) != G_TYPE_STRING)
    fail_msg ("'%s' is not a string", name);
  assert_string_equal (json_node_get_string (n), value);
}

static void
assert_member_int (JsonNode *object,
                   const char *name,
                   gint64 value)
{
  JsonNode *n = member (object, name);

  if (json_node_get_value_type (n) != G_TYPE_INT64)
    fail_msg ("'%s' is not an integer", name);
  assert_int_equal (json_node_get_int (n), value);
}

static void
assert_member_bool (JsonNode *object,
                    const char *name,
                    gboolean value)
{
  JsonNode *n = member (object, name);

  if (json_node_get_value_type (n) != G_TYPE_BOOLEAN)
    fail_msg ("'%s' is not a boolean", name);
  assert_int_equal (json_node_get_boolean (n), value);
}

static void
assert_member_double (JsonNode *object,
                      const char *name,
                      double value)
{
  JsonNode *n = member (object, name);

  if (json_node_get_value_type (n) != G_TYPE_DOUBLE)
    fail_msg ("'%s' is not a double", name);
  assert_float_equal (json_node_get_double (n), value, 1e-9);
}

/* The array's elements, each a string, joined by ','. */
static char *
string_array (JsonNode *object,
              const char *name)
{
  JsonNode *n = member (object, name);
  JsonArray *a;
  g_autoptr(GString) s = g_string_new (NULL);

  if (!JSON_NODE_HOLDS_ARRAY (n))
    fail_msg ("'%s' is not an array", name);
  a = json_node_get_array (n);
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonNode *e = json_array_get_element (a, i);

      if (json_node_get_value_type (e) != G_TYPE_STRING)
        fail_msg ("'%s'[%u] is not a string", name, i);
      g_string_append_printf (s, "%s%s", i > 0 ? "," : "", json_node_get_string (e));
    }
  return g_strdup (s->str);
}

/* --- members ------------------------------------------------------------ */

static void
test_report_lists_every_member_in_schema_order (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) root = report_json (&f->report);
  g_autoptr(GList) names = json_object_get_members (json_node_get_object (root));
  g_autoptr(GString) joined = g_string_new (NULL);

  for (GList *l = names; l != NULL; l = l->next)
    g_string_append_printf (joined, "%s%s", l == names ? "" : ",", (char *) l->data);
  assert_string_equal (joined->str,
                       "schema_version,cordon_version,started_at,ended_at,workdir,argv,policy,overrides,probe,proc,"
                       "degradations,identity,"
                       "environment,masked,hidden,skipped,abstract_sockets,limits,verification,child_pid,exit_status,signal,timed_out,"
                       "outcome,exec_errno,audit,planted,failure,durations_ms,usage,seccomp_denials");
}

/* Not audited: both null. Audited: how far, and each finding with where
 * it was moved (null: left in place). */
static void
test_report_lists_what_the_audit_found (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) before = report_json (&f->report);
  g_autoptr(JsonNode) root = NULL;
  CordonAudit audit;
  CordonPlanted *p = g_new0 (CordonPlanted, 1);
  JsonArray *planted;
  JsonObject *first;

  assert_member_null (before, "audit");
  assert_member_null (before, "planted");
  cordon_audit_init (&audit);
  audit.entries = 12;
  p->path = g_strdup ("/w/.git/hooks/pre-commit");
  p->what = g_strdup ("a git hook made or changed during the run");
  p->quarantined = g_strdup ("/w/.git/hooks/pre-commit.cordon-quarantine");
  g_ptr_array_add (audit.findings, p);
  f->plan->audit_mode = CORDON_AUDIT_QUARANTINE;
  f->report.audit = &audit;
  root = report_json (&f->report);
  assert_member_string (member (root, "audit"), "on_finding", "quarantine");
  assert_int_equal (json_object_get_int_member (json_node_get_object (member (root, "audit")), "entries"), 12);
  assert_true (json_object_get_boolean_member (json_node_get_object (member (root, "audit")), "complete"));
  planted = json_object_get_array_member (json_node_get_object (root), "planted");
  assert_int_equal (json_array_get_length (planted), 1);
  first = json_array_get_object_element (planted, 0);
  assert_string_equal (json_object_get_string_member (first, "path"), "/w/.git/hooks/pre-commit");
  assert_string_equal (json_object_get_string_member (first, "quarantined"),
                       "/w/.git/hooks/pre-commit.cordon-quarantine");
  f->report.audit = NULL;
  cordon_audit_clear (&audit);
}

static void
test_report_states_the_cordon_version (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) root = report_json (&f->report);

  assert_member_string (root, "cordon_version", PACKAGE_VERSION);
}

/* The names of an object's members, in order, joined by ','. */
static char *
joined_members (JsonNode *object)
{
  g_autoptr(GList) names = json_object_get_members (json_node_get_object (object));
  g_autoptr(GString) joined = g_string_new (NULL);

  for (GList *l = names; l != NULL; l = l->next)
    g_string_append_printf (joined, "%s%s", l == names ? "" : ",", (char *) l->data);
  return g_strdup (joined->str);
}

/* The first member, an integer, so that a reader can tell the shape
 * before it reads anything else. */
static void
test_report_states_the_schema_version_first (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) root = report_json (&f->report);
  g_autoptr(GList) names = json_object_get_members (json_node_get_object (root));

  assert_string_equal (names->data, "schema_version");
  assert_member_int (root, "schema_version", 1);
}

/* A time at `usec` microseconds past 2024-05-01 12:34:56 in `tz`. */
static GDateTime *
time_at (const char *tz,
         int usec)
{
  g_autoptr(GTimeZone) zone = g_time_zone_new_identifier (tz);
  g_autoptr(GDateTime) whole = g_date_time_new (zone, 2024, 5, 1, 12, 34, 56);

  return g_date_time_add (whole, usec);
}

/* RFC 3339 in UTC, milliseconds always three digits and cut, never
 * rounded up into the next second. */
static void
test_report_gives_the_times_in_utc_with_milliseconds (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) root = NULL;

  f->report.started_at = time_at ("+02:00", 999999);
  f->report.ended_at = time_at ("Z", 5000);
  root = report_json (&f->report);
  assert_member_string (root, "started_at", "2024-05-01T10:34:56.999Z");
  assert_member_string (root, "ended_at", "2024-05-01T12:34:56.005Z");
}

static void
test_report_writes_null_for_a_time_not_known (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) root = report_json (&f->report);

  assert_member_null (root, "started_at");
  assert_member_null (root, "ended_at");
}

static void
test_report_gives_the_workdir_and_the_command_as_given (void **state)
{
  Fixture *f = *state;
  const char * const argv[] = { "sh", "-c", "exit 3", "", "caf\xe9", NULL };
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *joined = NULL;

  f->report.workdir = g_strdup ("/w/job");
  f->report.argv = g_strdupv ((char **) argv);
  root = report_json (&f->report);
  assert_member_string (root, "workdir", "/w/job");
  joined = string_array (root, "argv");
  /* The empty word stays; a byte that is not UTF-8 is repaired. */
  assert_string_equal (joined, "sh,-c,exit 3,,caf\xef\xbf\xbd");
}

/* No command (cordon verify) is null, apart from an empty command. */
static void
test_report_writes_null_argv_without_a_command (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) none = report_json (&f->report);
  g_autoptr(JsonNode) empty = NULL;
  g_autofree char *joined = NULL;

  assert_member_null (none, "argv");
  assert_member_null (none, "workdir");
  f->report.argv = g_new0 (char *, 1);
  empty = report_json (&f->report);
  joined = string_array (empty, "argv");
  assert_string_equal (joined, "");
}

static void
test_report_names_the_policy_and_its_hash (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) root = report_json (&f->report);
  JsonNode *policy = member (root, "policy");

  assert_true (JSON_NODE_HOLDS_OBJECT (policy));
  assert_member_string (policy, "name", "trial");
  assert_member_string (policy, "sha256", "00ff");
}

static void
test_report_writes_null_for_an_unknown_policy (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) root = NULL;

  f->report.policy_name = NULL;
  g_clear_pointer (&f->report.policy_sha256, g_free);
  root = report_json (&f->report);
  assert_member_null (member (root, "policy"), "name");
  assert_member_null (member (root, "policy"), "sha256");
}

static void
test_report_lists_overrides_and_degradations (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *overrides = NULL;
  g_autofree char *degradations = NULL;

  g_ptr_array_add (f->report.degradations, g_strdup ("no pid namespace"));
  root = report_json (&f->report);
  overrides = string_array (root, "overrides");
  degradations = string_array (root, "degradations");
  assert_string_equal (overrides, "--allow-env PATH");
  assert_string_equal (degradations, "host /proc,no pid namespace");
}

static void
test_report_states_the_proc_mode_used (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) root = report_json (&f->report);

  assert_member_string (root, "proc", "host-ro");
}

static void
test_report_writes_null_proc_when_the_mode_is_unknown (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) root = NULL;

  f->report.proc_mode = NULL;
  root = report_json (&f->report);
  assert_member_null (root, "proc");
}

/* --- probe -------------------------------------------------------------- */

static void
test_report_describes_the_probe_result (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) root = report_json (&f->report);
  JsonNode *probe = member (root, "probe");

  assert_true (JSON_NODE_HOLDS_OBJECT (probe));
  assert_member_string (probe, "result", cordon_probe_result_name (CORDON_PROBE_PROC_MASKED));
  assert_member_bool (probe, "cached", TRUE);
  assert_member_string (probe, "detail", "procfs cannot be mounted");
}

static void
test_report_writes_null_detail_for_a_probe_without_one (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) root = NULL;

  f->probe.result = CORDON_PROBE_OK;
  f->probe.cached = FALSE;
  f->probe.detail = NULL;
  root = report_json (&f->report);
  assert_member_string (member (root, "probe"), "result", cordon_probe_result_name (CORDON_PROBE_OK));
  assert_member_bool (member (root, "probe"), "cached", FALSE);
  assert_member_null (member (root, "probe"), "detail");
}

static void
test_report_writes_null_probe_when_none_was_needed (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) root = NULL;

  f->report.probe = NULL;
  root = report_json (&f->report);
  assert_member_null (root, "probe");
}

/* --- environment and skipped -------------------------------------------- */

static void
test_report_sorts_variable_names_into_passed_and_dropped (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) root = report_json (&f->report);
  JsonNode *env = member (root, "environment");
  g_autofree char *passed = NULL;
  g_autofree char *dropped = NULL;

  assert_true (JSON_NODE_HOLDS_OBJECT (env));
  passed = string_array (env, "passed");
  dropped = string_array (env, "dropped");
  assert_string_equal (passed, "PATH");
  assert_string_equal (dropped, "SECRET");
}

/* Each dropped variable with its decision's reason, in the order of
 * "dropped"; a passed one is not there. */
static void
test_report_gives_why_each_variable_was_dropped (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *members = NULL;
  JsonArray *reasons;

  add_decision (f->plan, "TOKEN", FALSE, "dropped: never-pass (runs code of the caller's choosing)");
  root = report_json (&f->report);
  members = joined_members (member (root, "environment"));
  assert_string_equal (members, "passed,dropped,dropped_reasons");
  reasons = json_node_get_array (member (member (root, "environment"), "dropped_reasons"));
  assert_int_equal (json_array_get_length (reasons), 2);
  assert_member_string (json_array_get_element (reasons, 0), "name", "SECRET");
  assert_member_string (json_array_get_element (reasons, 0), "reason", "not allowed");
  assert_member_string (json_array_get_element (reasons, 1), "name", "TOKEN");
  assert_member_string (json_array_get_element (reasons, 1), "reason",
                        "dropped: never-pass (runs code of the caller's choosing)");
  assert_int_equal (json_object_get_size (json_array_get_object_element (reasons, 0)), 2);
}

/* The plan's envp holds "SECRET=hunter2" and "PATH=/usr/bin:/bin": a
 * report is shared with trial runners, so no value may reach it. */
static void
test_report_never_contains_a_variable_value (void **state)
{
  Fixture *f = *state;
  g_autofree char *text = cordon_report_to_json (&f->report, NULL);

  if (strstr (text, "hunter2") != NULL)
    fail_msg ("the value of SECRET leaked into the report:\n%s", text);
  if (strstr (text, "/usr/bin:/bin") != NULL)
    fail_msg ("the value of PATH leaked into the report:\n%s", text);
}

static void
test_report_gives_each_skipped_path_its_rule_and_reason (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) root = report_json (&f->report);
  JsonNode *skipped = member (root, "skipped");
  JsonArray *a;

  assert_true (JSON_NODE_HOLDS_ARRAY (skipped));
  a = json_node_get_array (skipped);
  assert_int_equal (json_array_get_length (a), 2);
  assert_member_string (json_array_get_element (a, 0), "path", "/opt/missing");
  assert_member_string (json_array_get_element (a, 0), "rule", "mem/trial.policy:3:12");
  assert_member_string (json_array_get_element (a, 0), "reason", "does not exist");
  assert_member_string (json_array_get_element (a, 1), "path", "/proc/sys");
  assert_member_null (json_array_get_element (a, 1), "rule");
  assert_member_string (json_array_get_element (a, 1), "reason", "no /proc");
}

/* Host paths need not be UTF-8, but JSON text must be (RFC 8259), and
 * json-glib would copy the stray byte through. */
static void
test_report_stays_utf8_for_a_path_that_is_not (void **state)
{
  Fixture *f = *state;
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonArray *a;

  cordon_plan_add_skip_at (f->plan, CORDON_KEY_FS_READ_ONLY_TRY, NULL,
                           "/srv/caf\xe9", "does not exist");
  text = cordon_report_to_json (&f->report, NULL);
  assert_true (g_utf8_validate (text, -1, NULL));
  root = parse_json (text);
  a = json_node_get_array (member (root, "skipped"));
  assert_member_string (json_array_get_element (a, 2), "path", "/srv/caf\xef\xbf\xbd");
}

static void
test_report_without_a_plan_writes_null_environment_and_skipped (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) root = NULL;

  f->report.plan = NULL;
  root = report_json (&f->report);
  assert_member_null (root, "environment");
  assert_member_null (root, "masked");
  assert_member_null (root, "hidden");
  assert_member_null (root, "skipped");
  assert_member_null (root, "limits");
}

/* [limits] as the plan has them: a value each, null where none is. */
static void
test_report_gives_the_limits_of_the_plan (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) root = NULL;
  JsonNode *limits;

  f->plan->scratch = 64 << 20;
  f->plan->rlimits[CORDON_RLIMIT_NOFILE].set = TRUE;
  f->plan->rlimits[CORDON_RLIMIT_NOFILE].value = 64;
  f->plan->rlimits[CORDON_RLIMIT_CORE].set = TRUE;
  root = report_json (&f->report);
  limits = member (root, "limits");
  assert_member_int (limits, "scratch", 64 << 20);
  assert_member_null (limits, "file_size");
  assert_member_int (limits, "open_files", 64);
  assert_member_int (limits, "core", 0);
  assert_member_null (limits, "pids");
}

/* The limits member's own members, in order: a reader keys on them. */
static void
test_report_lists_every_limits_member_in_order (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) root = report_json (&f->report);
  JsonNode *limits = member (root, "limits");
  g_autoptr(GList) names = NULL;
  g_autoptr(GString) joined = g_string_new (NULL);

  assert_true (JSON_NODE_HOLDS_OBJECT (limits));
  names = json_object_get_members (json_node_get_object (limits));
  for (GList *l = names; l != NULL; l = l->next)
    g_string_append_printf (joined, "%s%s", l == names ? "" : ",", (char *) l->data);
  assert_string_equal (joined->str, "mechanism,scratch,file_size,open_files,core,memory,swap,cpu_percent,pids,"
                                    "memory_peak,oom_kills,pids_max_hits,cpu_usec");
}

static void
hold (CordonPlan *plan,
      CordonLimitKind kind,
      guint64 value,
      CordonHeldBy held_by)
{
  plan->limits[kind].set = TRUE;
  plan->limits[kind].value = value;
  plan->limits[kind].held_by = held_by;
}

/* What the sandbox's cgroups held and counted. */
static void
test_report_gives_the_held_limits_and_what_the_cgroups_counted (void **state)
{
  Fixture *f = *state;
  CordonCgroupStats stats;
  g_autoptr(JsonNode) root = NULL;
  JsonNode *limits;

  f->plan->cgroup_mechanism = CORDON_CGROUP_V1;
  hold (f->plan, CORDON_LIMIT_MEMORY, 256 << 20, CORDON_HELD_CGROUP);
  hold (f->plan, CORDON_LIMIT_SWAP, 0, CORDON_HELD_CGROUP);
  hold (f->plan, CORDON_LIMIT_CPU, 50, CORDON_HELD_CGROUP);
  hold (f->plan, CORDON_LIMIT_PIDS, 100, CORDON_HELD_CGROUP);
  cordon_cgroup_stats_init (&stats);
  stats.read = TRUE;
  stats.memory_peak = 123456789;
  stats.oom_kills = 2;
  stats.pids_max_hits = 0;
  stats.cpu_usec = 1234567;
  f->report.cgroup_stats = &stats;
  root = report_json (&f->report);
  limits = member (root, "limits");
  assert_member_string (limits, "mechanism", "cgroup-v1");
  assert_member_int (limits, "memory", 256 << 20);
  /* swap=0 is a limit held (none allowed), not the absence of one. */
  assert_member_int (limits, "swap", 0);
  assert_member_int (limits, "cpu_percent", 50);
  assert_member_int (limits, "pids", 100);
  assert_member_int (limits, "memory_peak", 123456789);
  assert_member_int (limits, "oom_kills", 2);
  assert_member_int (limits, "pids_max_hits", 0);
  assert_member_int (limits, "cpu_usec", 1234567);
}

/* A limit set and not held is null (best-effort names it among the
 * degradations); pids held by RLIMIT_NPROC is held. No cgroup: nothing
 * counted. */
static void
test_report_writes_null_for_a_limit_not_held_and_counters_without_cgroups (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) root = NULL;
  JsonNode *limits;

  hold (f->plan, CORDON_LIMIT_MEMORY, 256 << 20, CORDON_HELD_NOT);
  f->plan->limits[CORDON_LIMIT_MEMORY].unheld = g_strdup ("this host mounts no cgroup with memory");
  hold (f->plan, CORDON_LIMIT_PIDS, 100, CORDON_HELD_RLIMIT);
  f->report.cgroup_stats = NULL;
  root = report_json (&f->report);
  limits = member (root, "limits");
  assert_member_string (limits, "mechanism", "none");
  assert_member_null (limits, "memory");
  assert_member_null (limits, "swap");
  assert_member_null (limits, "cpu_percent");
  assert_member_int (limits, "pids", 100);
  assert_member_null (limits, "memory_peak");
  assert_member_null (limits, "oom_kills");
  assert_member_null (limits, "pids_max_hits");
  assert_member_null (limits, "cpu_usec");
}

/* A counter the keeper could not read is unknown, not 0. */
static void
test_report_writes_null_for_a_counter_the_keeper_did_not_send (void **state)
{
  Fixture *f = *state;
  CordonCgroupStats stats;
  g_autoptr(JsonNode) root = NULL;
  JsonNode *limits;

  f->plan->cgroup_mechanism = CORDON_CGROUP_V1;
  hold (f->plan, CORDON_LIMIT_MEMORY, 64 << 20, CORDON_HELD_CGROUP);
  cordon_cgroup_stats_init (&stats);
  stats.read = TRUE;
  stats.memory_peak = 4096;
  f->report.cgroup_stats = &stats;
  root = report_json (&f->report);
  limits = member (root, "limits");
  assert_member_int (limits, "memory_peak", 4096);
  assert_member_null (limits, "oom_kills");
  assert_member_null (limits, "pids_max_hits");
  assert_member_null (limits, "cpu_usec");
}

static void
test_report_lists_each_mask_with_its_rule_and_reason (void **state)
{
  Fixture *f = *state;
  CordonLocation at = { g_intern_string ("p.policy"), 4, 6 };
  CordonItem item = { CORDON_KEY_SECRETS_MASK, (char *) "${HOME}/.netrc", 0, at, 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonArray *masked;
  JsonObject *m;

  cordon_plan_add_op (f->plan, CORDON_OP_MASK_FILE, "/dev/null", "/home/u/.netrc", &item,
                      "mask secret (file)");
  cordon_plan_add_op (f->plan, CORDON_OP_TMPFS, NULL, "/tmp", NULL, "scratch tmpfs");
  cordon_plan_add_op (f->plan, CORDON_OP_HIDE_DIR, NULL, "/home", NULL, "hidden");
  root = report_json (&f->report);
  masked = json_node_get_array (member (root, "masked"));
  assert_int_equal (json_array_get_length (masked), 1);
  m = json_array_get_object_element (masked, 0);
  assert_string_equal (json_object_get_string_member (m, "path"), "/home/u/.netrc");
  assert_string_equal (json_object_get_string_member (m, "rule"), "p.policy:4:6");
  assert_string_equal (json_object_get_string_member (m, "why"), "mask secret (file)");
}

/* A hidden directory is listed on its own, not among the masks. */
static void
test_report_lists_each_hidden_directory (void **state)
{
  Fixture *f = *state;
  CordonLocation at = { g_intern_string ("p.policy"), 5, 6 };
  CordonItem item = { CORDON_KEY_FS_HIDE, (char *) "/home", 0, at, 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonArray *hidden;
  JsonObject *h;

  cordon_plan_add_op (f->plan, CORDON_OP_MASK_DIR, NULL, "/home/u/.ssh", NULL, "mask secret (directory)");
  cordon_plan_add_op (f->plan, CORDON_OP_HIDE_DIR, NULL, "/home", &item, "hidden");
  root = report_json (&f->report);
  hidden = json_node_get_array (member (root, "hidden"));
  assert_int_equal (json_array_get_length (hidden), 1);
  h = json_array_get_object_element (hidden, 0);
  assert_string_equal (json_object_get_string_member (h, "path"), "/home");
  assert_string_equal (json_object_get_string_member (h, "rule"), "p.policy:5:6");
  assert_int_equal (json_array_get_length (json_node_get_array (member (root, "masked"))), 1);
}

/* --- the run ------------------------------------------------------------ */

static void
test_report_records_how_the_command_exited (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) root = report_json (&f->report);

  assert_member_int (root, "child_pid", 4242);
  assert_member_int (root, "exit_status", 3);
  assert_member_null (root, "signal");
  assert_member_bool (root, "timed_out", FALSE);
  assert_member_string (root, "outcome", "exited");
  assert_member_null (root, "exec_errno");
}

static void
test_report_records_a_timeout_and_the_signal_that_ended_it (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) root = NULL;

  f->result.outcome = CORDON_OUTCOME_TIMED_OUT;
  f->result.term_signal = 9;
  f->report.exit_status = 124;
  root = report_json (&f->report);
  assert_member_int (root, "exit_status", 124);
  assert_member_int (root, "signal", 9);
  assert_member_bool (root, "timed_out", TRUE);
  assert_member_string (root, "outcome", "timed-out");
}

static void
test_report_records_exec_errno_when_the_command_was_not_found (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) root = NULL;

  f->result.outcome = CORDON_OUTCOME_NOT_FOUND;
  f->result.exec_errno = 2;
  f->report.exit_status = 127;
  root = report_json (&f->report);
  assert_member_string (root, "outcome", "not-found");
  assert_member_int (root, "exec_errno", 2);
  assert_member_int (root, "exit_status", 127);
}

static void
test_report_names_every_outcome (void **state)
{
  Fixture *f = *state;
  static const char * const names[] = {
    "exited", "timed-out", "not-found", "not-executable", "launch-failed", "signaled",
    "verify-failed", "verified", "oom-killed",
  };

  G_STATIC_ASSERT (G_N_ELEMENTS (names) == CORDON_OUTCOME_MAX);
  for (guint i = 0; i < CORDON_OUTCOME_MAX; i++)
    {
      g_autoptr(JsonNode) root = NULL;

      f->result.outcome = i;
      root = report_json (&f->report);
      assert_member_string (root, "outcome", names[i]);
    }
}

static void
test_report_without_a_result_writes_null_run_members (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) root = NULL;

  f->report.result = NULL;
  f->report.exit_status = 125;
  root = report_json (&f->report);
  assert_member_null (root, "child_pid");
  assert_member_int (root, "exit_status", 125);
  assert_member_null (root, "signal");
  assert_member_bool (root, "timed_out", FALSE);
  assert_member_null (root, "outcome");
  assert_member_null (root, "exec_errno");
  assert_member_null (member (root, "durations_ms"), "launch");
  assert_member_null (member (root, "durations_ms"), "run");
}

/* A run that stopped before cordon supervised bwrap: the outcome names
 * the stage that failed, as launch-failed and verify-failed do. */
static void
test_report_names_the_failed_stage_as_the_outcome_without_a_result (void **state)
{
  Fixture *f = *state;
  static const char * const stages[][2] = {
    { "usage", "usage-failed" }, { "policy", "policy-failed" }, { "host", "host-failed" },
    { "probe", "probe-failed" }, { "launch", "launch-failed" },
  };

  f->report.result = NULL;
  f->report.exit_status = 125;
  for (guint i = 0; i < G_N_ELEMENTS (stages); i++)
    {
      g_autoptr(JsonNode) root = NULL;

      f->report.failure_reason = stages[i][0];
      root = report_json (&f->report);
      assert_member_string (root, "outcome", stages[i][1]);
      assert_member_int (root, "exit_status", 125);
    }
}

/* A result's outcome is the command's, whatever the failure: an audit
 * that fails the run does not hide that the command exited. */
static void
test_report_keeps_the_outcome_of_a_result_beside_a_failure (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) root = NULL;

  f->report.failure_reason = "audit";
  f->report.exit_status = 125;
  root = report_json (&f->report);
  assert_member_string (root, "outcome", "exited");
}

/* What the keeper said the sandbox used: CPU in milliseconds (with a
 * fraction), the largest resident set in KiB. */
static void
test_report_gives_what_the_sandbox_used (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *members = NULL;
  JsonNode *usage;

  f->result.usage = (CordonUsage) { TRUE, 12500, 250, 40960 };
  root = report_json (&f->report);
  usage = member (root, "usage");
  assert_true (JSON_NODE_HOLDS_OBJECT (usage));
  members = joined_members (usage);
  assert_string_equal (members, "user_ms,system_ms,max_rss_kib");
  assert_member_double (usage, "user_ms", 12.5);
  assert_member_double (usage, "system_ms", 0.25);
  assert_member_int (usage, "max_rss_kib", 40960);
}

/* Unknown (the keeper said nothing) or never run: null, not zeros. */
static void
test_report_writes_null_usage_when_it_is_not_known (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) unknown = NULL;
  g_autoptr(JsonNode) never = NULL;

  f->result.usage = (CordonUsage) { FALSE, 0, 0, 0 };
  unknown = report_json (&f->report);
  assert_member_null (unknown, "usage");
  f->result.usage = (CordonUsage) { TRUE, 1, 1, 1 };
  f->report.result = NULL;
  never = report_json (&f->report);
  assert_member_null (never, "usage");
}

/* Each refused call, by name, with what the sandbox got, how often and
 * the rule; beyond the names told apart, one entry of null names. No
 * listener: null. */
static void
test_report_names_each_call_the_filter_refused (void **state)
{
  Fixture *f = *state;
  CordonPlan *plan = f->plan;
  CordonLocation at = { g_intern_string ("x.policy"), 7, 6 };
  CordonSeccompDenials d = { .listened = TRUE, .denials = g_ptr_array_new (), .others = 3 };
  CordonSeccompDenial ptrace = { (char *) "ptrace", EPERM, 4 }, uname = { (char *) "uname", EPERM, 1 };
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonNode) none = NULL;
  JsonArray *list;
  JsonObject *o;

  plan->seccomp = CORDON_SECCOMP_DEFAULT;
  plan->seccomp_rule = (CordonLocation) { g_intern_string ("base.policy"), 59, 9 };
  g_ptr_array_add (plan->seccomp_deny, g_strdup ("uname"));
  g_array_append_val (plan->seccomp_deny_rules, at);
  g_ptr_array_add (d.denials, &ptrace);
  g_ptr_array_add (d.denials, &uname);
  f->report.seccomp_denials = &d;
  root = report_json (&f->report);
  list = json_node_get_array (member (root, "seccomp_denials"));
  assert_int_equal (json_array_get_length (list), 3);
  o = json_array_get_object_element (list, 0);
  assert_string_equal (json_object_get_string_member (o, "syscall"), "ptrace");
  assert_string_equal (json_object_get_string_member (o, "errno"), "EPERM");
  assert_int_equal (json_object_get_int_member (o, "count"), 4);
  assert_string_equal (json_object_get_string_member (o, "key"), "profile");
  assert_string_equal (json_object_get_string_member (o, "profile"), "default");
  assert_string_equal (json_object_get_string_member (o, "rule"), "base.policy:59:9");
  assert_string_equal (json_object_get_string_member (o, "permit"), "allow=ptrace");
  o = json_array_get_object_element (list, 1);
  assert_string_equal (json_object_get_string_member (o, "key"), "deny");
  assert_string_equal (json_object_get_string_member (o, "rule"), "x.policy:7:6");
  assert_string_equal (json_object_get_string_member (o, "permit"), "deny= without uname");
  o = json_array_get_object_element (list, 2);
  assert_true (json_object_get_null_member (o, "syscall"));
  assert_int_equal (json_object_get_int_member (o, "count"), 3);
  f->report.seccomp_denials = NULL;
  none = report_json (&f->report);
  assert_member_null (none, "seccomp_denials");
  g_ptr_array_unref (d.denials);
}

static void
test_report_gives_durations_in_milliseconds (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) root = report_json (&f->report);
  JsonNode *d = member (root, "durations_ms");

  assert_true (JSON_NODE_HOLDS_OBJECT (d));
  assert_member_double (d, "compile", 2.5);
  assert_member_double (d, "probe", 0.125);
  assert_member_double (d, "launch", 1.5);
  assert_member_double (d, "run", 250.25);
}

/* --- failure ------------------------------------------------------------ */

static void
test_report_writes_null_failure_when_the_run_did_not_fail (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) root = report_json (&f->report);

  assert_member_null (root, "failure");
}

static void
test_report_names_the_reason_and_message_of_a_failure (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) root = NULL;
  JsonNode *failure;

  f->report.failure_reason = "probe";
  f->report.failure_message = g_strdup ("a private /proc cannot be mounted here");
  f->report.result = NULL;
  f->report.exit_status = 125;
  root = report_json (&f->report);
  failure = member (root, "failure");
  assert_true (JSON_NODE_HOLDS_OBJECT (failure));
  assert_member_string (failure, "reason", "probe");
  assert_member_string (failure, "message", "a private /proc cannot be mounted here");
}

static void
test_report_writes_null_message_for_a_failure_without_one (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonNode) root = NULL;

  f->report.failure_reason = "host";
  root = report_json (&f->report);
  assert_member_string (member (root, "failure"), "reason", "host");
  assert_member_null (member (root, "failure"), "message");
}

/* --- policy hash -------------------------------------------------------- */

/* The hash of policy "top", which includes "base", from `base_text`. */
static char *
hash_of_top (const char *base_text)
{
  g_autoptr(MemStore) store = store_new ();
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPolicy) policy = NULL;
  CordonPolicyResolver resolver = { mem_resolve, store };

  store_add (store, "top", "[policy]\ninclude=base\n[limits]\ntimeout=10\n");
  store_add (store, "base", base_text);
  policy = cordon_policy_load ("top", &resolver, diags, &error);
  if (policy == NULL)
    fail_msg ("loading 'top' failed: %s", error->message);
  assert_int_equal (cordon_diagnostics_len (diags), 0);
  assert_int_equal (cordon_policy_n_sources (policy), 2);
  return cordon_report_policy_sha256 (policy);
}

static char *
hash_of_sources (const char *file1,
                 const char *text1,
                 const char *file2,
                 const char *text2)
{
  g_autoptr(CordonPolicy) policy = cordon_policy_new ("p");

  cordon_policy_add_source (policy, file1, text1);
  cordon_policy_add_source (policy, file2, text2);
  return cordon_report_policy_sha256 (policy);
}

static void
test_policy_sha256_is_64_hex_digits_and_stable (void **state)
{
  g_autofree char *a = hash_of_top ("[limits]\ntimeout=5\n");
  g_autofree char *b = hash_of_top ("[limits]\ntimeout=5\n");

  assert_int_equal (strlen (a), 64);
  for (const char *p = a; *p != '\0'; p++)
    assert_true (g_ascii_isxdigit (*p) && !g_ascii_isupper (*p));
  assert_string_equal (a, b);
}

static void
test_policy_sha256_changes_when_an_included_text_changes (void **state)
{
  g_autofree char *a = hash_of_top ("[limits]\ntimeout=5\n");
  g_autofree char *b = hash_of_top ("[limits]\ntimeout=6\n");

  assert_string_not_equal (a, b);
}

/* Known answer: SHA-256 of "f\0t\0", so the framing cannot drift. */
static void
test_policy_sha256_hashes_each_name_and_text_followed_by_nul (void **state)
{
  g_autoptr(CordonPolicy) policy = cordon_policy_new ("p");
  g_autofree char *hash = NULL;
  g_autofree char *expected = g_compute_checksum_for_data (G_CHECKSUM_SHA256,
                                                           (const guchar *) "f\0t\0", 4);

  cordon_policy_add_source (policy, "f", "t");
  hash = cordon_report_policy_sha256 (policy);
  assert_string_equal (hash, expected);
}

static void
test_policy_sha256_separates_file_name_from_text (void **state)
{
  g_autofree char *a = hash_of_sources ("a", "bc", "x", "y");
  g_autofree char *b = hash_of_sources ("ab", "c", "x", "y");

  assert_string_not_equal (a, b);
}

static void
test_policy_sha256_follows_merge_order (void **state)
{
  g_autofree char *a = hash_of_sources ("one", "1", "two", "2");
  g_autofree char *b = hash_of_sources ("two", "2", "one", "1");

  assert_string_not_equal (a, b);
}

/* --- write -------------------------------------------------------------- */

/* The report written as cordon run writes it: to a destination opened,
 * then settled (here no path is writable for a sandbox). */
static gboolean
write_report (const CordonReport *report,
              const char *path,
              GError **error)
{
  g_autoptr(CordonReportTarget) target = cordon_report_target_open (path, geteuid (), error);
  const char * const none[] = { NULL };

  return target != NULL && cordon_report_target_settle (target, none, error)
         && cordon_report_write_target (report, target, error);
}

static void
test_report_write_creates_a_private_file_of_valid_json (void **state)
{
  Fixture *f = *state;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-report-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "report.json", NULL);
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) root = NULL;
  struct stat st;

  assert_non_null (dir);
  assert_true (write_report (&f->report, path, &error));
  assert_null (error);
  assert_int_equal (g_stat (path, &st), 0);
  assert_int_equal (st.st_mode & 07777, 0600);
  assert_true (g_file_get_contents (path, &text, NULL, NULL));
  root = parse_json (text);
  assert_member_string (root, "cordon_version", PACKAGE_VERSION);
  assert_int_equal (g_unlink (path), 0);
  assert_int_equal (g_rmdir (dir), 0);
}

/* The new file replaces the old one by rename, so a world-readable
 * leftover does not keep its mode or any of its bytes. */
static void
test_report_write_replaces_an_existing_file_with_a_private_one (void **state)
{
  Fixture *f = *state;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-report-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "report.json", NULL);
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) root = NULL;
  struct stat st;

  assert_true (g_file_set_contents_full (path, "stale, not json", -1, 0, 0644, &error));
  assert_true (write_report (&f->report, path, &error));
  assert_int_equal (g_stat (path, &st), 0);
  assert_int_equal (st.st_mode & 07777, 0600);
  assert_true (g_file_get_contents (path, &text, NULL, NULL));
  assert_null (strstr (text, "stale"));
  root = parse_json (text);
  assert_member_int (root, "child_pid", 4242);
  assert_int_equal (g_unlink (path), 0);
  assert_int_equal (g_rmdir (dir), 0);
}

/* A missing directory: root may write anywhere, so permissions alone
 * would not make the path unwritable in every test environment. */
static void
test_report_write_fails_with_an_error_for_an_unwritable_path (void **state)
{
  Fixture *f = *state;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-report-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "missing", "report.json", NULL);

  assert_false (write_report (&f->report, path, &error));
  assert_non_null (error);
  assert_true (error->domain == CORDON_ERROR);
  assert_non_null (strstr (error->message, path));
  assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  assert_int_equal (g_rmdir (dir), 0);
}

/* --- the schema ---------------------------------------------------------- */

/* The object at `path`, its steps '/'-separated: a member's name, or
 * an array's index. */
static JsonObject *
schema_object (JsonObject *object,
               const char *path)
{
  g_auto(GStrv) parts = g_strsplit (path, "/", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      JsonNode *n = json_object_get_member (object, parts[i]);
      guint64 index;

      if (n != NULL && JSON_NODE_HOLDS_ARRAY (n) && parts[i + 1] != NULL
          && g_ascii_string_to_unsigned (parts[i + 1], 10, 0, G_MAXUINT, &index, NULL)
          && index < json_array_get_length (json_node_get_array (n)))
        {
          n = json_array_get_element (json_node_get_array (n), (guint) index);
          i++;
        }
      if (n == NULL || !JSON_NODE_HOLDS_OBJECT (n))
        fail_msg ("the schema has no object at %s", path);
      object = json_node_get_object (n);
    }
  return object;
}

/* The enum at `path` (through "oneOf" to its first branch), joined by
 * ','; a null in it as "null". */
static char *
schema_enum (JsonObject *schema,
             const char *path)
{
  JsonObject *at = schema_object (schema, path);
  g_autoptr(GString) joined = g_string_new (NULL);
  JsonArray *values;

  if (json_object_has_member (at, "oneOf"))
    at = json_array_get_object_element (json_object_get_array_member (at, "oneOf"), 0);
  if (!json_object_has_member (at, "enum"))
    fail_msg ("no enum at %s", path);
  values = json_object_get_array_member (at, "enum");
  for (guint i = 0; i < json_array_get_length (values); i++)
    {
      JsonNode *v = json_array_get_element (values, i);

      g_string_append_printf (joined, "%s%s", i > 0 ? "," : "",
                              JSON_NODE_HOLDS_NULL (v) ? "null" : json_node_get_string (v));
    }
  return g_strdup (joined->str);
}

static void
append_name (GString *names,
             const char *name)
{
  g_string_append_printf (names, "%s%s", names->len > 0 ? "," : "", name);
}

/* data/report.schema.json, parsed (CORDON_SRCDIR is the source tree). */
static JsonParser *
load_schema (void)
{
  g_autofree char *path = fixture_srcdir_path ("data/report.schema.json");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  if (!json_parser_load_from_file (parser, path, &error))
    fail_msg ("cannot read %s: %s (is CORDON_SRCDIR set?)", path, error->message);
  return g_steal_pointer (&parser);
}

/* The schema's members are the report's, in its order. */
static void
test_report_schema_describes_every_member_in_order (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonParser) parser = load_schema ();
  JsonObject *schema = json_node_get_object (json_parser_get_root (parser));
  g_autoptr(JsonNode) root = report_json (&f->report);
  g_autoptr(GList) props = json_object_get_members (schema_object (schema, "properties"));
  g_autoptr(GString) names = g_string_new (NULL);
  g_autofree char *members = joined_members (root);

  for (GList *l = props; l != NULL; l = l->next)
    append_name (names, l->data);
  assert_string_equal (names->str, members);
}

/* Each enum of the schema holds every name cordon writes there, in the
 * order of cordon's tables, and no other: a name added on one side only
 * fails. */
static void
test_report_schema_names_every_value_cordon_writes (void **state)
{
  Fixture *f = *state;
  g_autoptr(JsonParser) parser = load_schema ();
  JsonObject *schema = json_node_get_object (json_parser_get_root (parser));
  g_autoptr(GString) names = g_string_new (NULL);
  g_autofree char *outcomes = NULL, *failures = NULL, *probes = NULL, *mechanisms = NULL;

  for (guint i = 0; i < CORDON_OUTCOME_MAX + CORDON_FAILURE_PROBE; i++)
    {
      g_autoptr(JsonNode) root = NULL;

      /* Each outcome of a result, then of each stage without one. */
      f->result.outcome = MIN (i, CORDON_OUTCOME_MAX - 1);
      f->report.result = i < CORDON_OUTCOME_MAX ? &f->result : NULL;
      f->report.failure_reason = i < CORDON_OUTCOME_MAX ? NULL : cordon_failure_name (i - CORDON_OUTCOME_MAX + 1);
      root = report_json (&f->report);
      append_name (names, json_node_get_string (member (root, "outcome")));
    }
  outcomes = schema_enum (schema, "properties/outcome");
  assert_string_equal (outcomes, names->str);
  g_string_truncate (names, 0);
  for (guint i = CORDON_FAILURE_NONE + 1; i < CORDON_FAILURE_MAX; i++)
    append_name (names, cordon_failure_name (i));
  failures = schema_enum (schema, "properties/failure/oneOf/0/properties/reason");
  assert_string_equal (failures, names->str);
  g_string_truncate (names, 0);
  for (guint i = 0; i < CORDON_PROBE_MAX; i++)
    append_name (names, cordon_probe_result_name (i));
  probes = schema_enum (schema, "properties/probe/oneOf/0/properties/result");
  assert_string_equal (probes, names->str);
  g_string_truncate (names, 0);
  for (guint i = 0; i < CORDON_CGROUP_MAX; i++)
    append_name (names, cordon_cgroup_mechanism_name (i));
  mechanisms = schema_enum (schema, "properties/limits/oneOf/0/properties/mechanism");
  assert_string_equal (mechanisms, names->str);
}

/* --- lifetime ----------------------------------------------------------- */

static void
test_report_clear_frees_owned_members_and_may_be_repeated (void **state)
{
  CordonReport report;
  CordonProbe probe = { 0 };

  cordon_report_init (&report);
  assert_non_null (report.overrides);
  assert_non_null (report.degradations);
  assert_int_equal (report.overrides->len, 0);
  report.policy_sha256 = g_strdup ("x");
  report.failure_message = g_strdup ("y");
  report.started_at = g_date_time_new_now_utc ();
  report.ended_at = g_date_time_new_now_utc ();
  report.workdir = g_strdup ("/w");
  report.argv = g_strsplit ("true", " ", -1);
  report.probe = &probe;
  cordon_report_clear (&report);
  assert_null (report.policy_sha256);
  assert_null (report.overrides);
  assert_null (report.degradations);
  assert_null (report.failure_message);
  assert_null (report.started_at);
  assert_null (report.ended_at);
  assert_null (report.workdir);
  assert_null (report.argv);
  assert_ptr_equal (report.probe, &probe);
  cordon_report_clear (&report);
  cordon_report_clear (NULL);
}

int
main (void)
{
#define T(name) cmocka_unit_test_setup_teardown (name, setup, teardown)
  const struct CMUnitTest tests[] = {
    T (test_report_lists_every_member_in_schema_order),
    T (test_report_lists_what_the_audit_found),
    T (test_report_states_the_cordon_version),
    T (test_report_states_the_schema_version_first),
    T (test_report_gives_the_times_in_utc_with_milliseconds),
    T (test_report_writes_null_for_a_time_not_known),
    T (test_report_gives_the_workdir_and_the_command_as_given),
    T (test_report_writes_null_argv_without_a_command),
    T (test_report_names_the_policy_and_its_hash),
    T (test_report_writes_null_for_an_unknown_policy),
    T (test_report_lists_overrides_and_degradations),
    T (test_report_states_the_proc_mode_used),
    T (test_report_writes_null_proc_when_the_mode_is_unknown),
    T (test_report_describes_the_probe_result),
    T (test_report_writes_null_detail_for_a_probe_without_one),
    T (test_report_writes_null_probe_when_none_was_needed),
    T (test_report_sorts_variable_names_into_passed_and_dropped),
    T (test_report_gives_why_each_variable_was_dropped),
    T (test_report_never_contains_a_variable_value),
    T (test_report_gives_each_skipped_path_its_rule_and_reason),
    T (test_report_stays_utf8_for_a_path_that_is_not),
    T (test_report_without_a_plan_writes_null_environment_and_skipped),
    T (test_report_lists_each_mask_with_its_rule_and_reason),
    T (test_report_lists_each_hidden_directory),
    T (test_report_records_how_the_command_exited),
    T (test_report_records_a_timeout_and_the_signal_that_ended_it),
    T (test_report_records_exec_errno_when_the_command_was_not_found),
    T (test_report_names_every_outcome),
    T (test_report_without_a_result_writes_null_run_members),
    T (test_report_gives_the_limits_of_the_plan),
    T (test_report_lists_every_limits_member_in_order),
    T (test_report_gives_the_held_limits_and_what_the_cgroups_counted),
    T (test_report_writes_null_for_a_limit_not_held_and_counters_without_cgroups),
    T (test_report_writes_null_for_a_counter_the_keeper_did_not_send),
    T (test_report_names_the_failed_stage_as_the_outcome_without_a_result),
    T (test_report_keeps_the_outcome_of_a_result_beside_a_failure),
    T (test_report_gives_what_the_sandbox_used),
    T (test_report_writes_null_usage_when_it_is_not_known),
    T (test_report_names_each_call_the_filter_refused),
    T (test_report_gives_durations_in_milliseconds),
    T (test_report_writes_null_failure_when_the_run_did_not_fail),
    T (test_report_names_the_reason_and_message_of_a_failure),
    T (test_report_writes_null_message_for_a_failure_without_one),
    cmocka_unit_test (test_policy_sha256_is_64_hex_digits_and_stable),
    cmocka_unit_test (test_policy_sha256_changes_when_an_included_text_changes),
    cmocka_unit_test (test_policy_sha256_hashes_each_name_and_text_followed_by_nul),
    cmocka_unit_test (test_policy_sha256_separates_file_name_from_text),
    cmocka_unit_test (test_policy_sha256_follows_merge_order),
    T (test_report_write_creates_a_private_file_of_valid_json),
    T (test_report_write_replaces_an_existing_file_with_a_private_one),
    T (test_report_write_fails_with_an_error_for_an_unwritable_path),
    T (test_report_schema_describes_every_member_in_order),
    T (test_report_schema_names_every_value_cordon_writes),
    cmocka_unit_test (test_report_clear_frees_owned_members_and_may_be_repeated),
  };
#undef T

  return cmocka_run_group_tests (tests, NULL, NULL);
}
