/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-run: the run engine's decisions that need no sandbox. The reason
 * of a 125 as derived from a stage's error; the degradations a plan
 * names, in order, however they were asked for; the command line's
 * overrides as policy text (a --setenv value taken literally, never
 * expanded, and never in what the report records); seconds as the
 * supervisor's milliseconds. Launching is the integration suite's. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fixture-host.h"
#include "policy-parse.h"
#include "run.h"

/* --- the reason of a failure ------------------------------------------- */

static void
assert_failure (CordonErrorCode code,
                CordonFailure stage,
                CordonFailure expected)
{
  g_autoptr(GError) error = g_error_new_literal (CORDON_ERROR, code, "x");

  assert_int_equal (cordon_failure_of (error, stage), expected);
}

static void
test_run_failure_is_the_stage_s_unless_the_error_names_the_policy_or_usage (void **state)
{
  assert_failure (CORDON_ERROR_HOST, CORDON_FAILURE_HOST, CORDON_FAILURE_HOST);
  assert_failure (CORDON_ERROR_HOST, CORDON_FAILURE_LAUNCH, CORDON_FAILURE_LAUNCH);
  assert_failure (CORDON_ERROR_HOST, CORDON_FAILURE_PROBE, CORDON_FAILURE_PROBE);
  assert_failure (CORDON_ERROR_FAILED, CORDON_FAILURE_HOST, CORDON_FAILURE_HOST);
  assert_failure (CORDON_ERROR_NOT_FOUND, CORDON_FAILURE_POLICY, CORDON_FAILURE_POLICY);
  /* A compile error about the policy's text is the policy's. */
  assert_failure (CORDON_ERROR_POLICY, CORDON_FAILURE_HOST, CORDON_FAILURE_POLICY);
  /* A workdir the caller named (-C /) is a usage error ... */
  assert_failure (CORDON_ERROR_USAGE, CORDON_FAILURE_HOST, CORDON_FAILURE_USAGE);
  /* ... but a bad name in a policy's include= is the policy's. */
  assert_failure (CORDON_ERROR_USAGE, CORDON_FAILURE_POLICY, CORDON_FAILURE_POLICY);
}

static void
test_run_failure_of_another_domain_is_the_stage_s (void **state)
{
  g_autoptr(GError) error = g_error_new_literal (G_FILE_ERROR, CORDON_ERROR_POLICY, "x");

  assert_int_equal (cordon_failure_of (error, CORDON_FAILURE_LAUNCH), CORDON_FAILURE_LAUNCH);
  assert_int_equal (cordon_failure_of (NULL, CORDON_FAILURE_VERIFY), CORDON_FAILURE_VERIFY);
}

static void
test_run_failure_names_are_the_report_s (void **state)
{
  const char *names[] = { NULL, "usage", "policy", "host", "probe", "launch", "verify", "audit" };

  assert_int_equal (G_N_ELEMENTS (names), CORDON_FAILURE_MAX);
  assert_null (cordon_failure_name (CORDON_FAILURE_NONE));
  for (guint i = 1; i < CORDON_FAILURE_MAX; i++)
    assert_string_equal (cordon_failure_name ((CordonFailure) i), names[i]);
}

/* --- degradations -------------------------------------------------------- */

static char *
degradations_of (FixtureHost *host,
                 const char *text,
                 const CordonCompileOptions *options,
                 gboolean no_verify,
                 const char * const *environ)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPolicy) policy = fixture_load_text (text, NULL, &error);
  g_autoptr(CordonPlan) plan = NULL;
  g_autoptr(GPtrArray) named = NULL;
  static const CordonCompileOptions none = { FALSE, FALSE, FALSE };
  static const char * const empty[] = { NULL };

  assert_non_null (policy);
  cordon_host_facts_scan_policy (host->facts, policy);
  plan = cordon_compile_with (policy, host->facts, options != NULL ? options : &none, &error);
  if (plan == NULL)
    fail_msg ("compile: %s", error->message);
  named = cordon_run_degradations (plan, options != NULL ? options : &none, no_verify, FALSE,
                                   environ != NULL ? environ : empty);
  g_ptr_array_add (named, NULL);
  return g_strjoinv ("|", (char **) named->pdata);
}

static const char strong[] =
  "[namespaces]\nunshare=user;ipc;pid;net;uts;cgroup\n";

static void
test_run_names_no_degradation_of_a_strong_policy (void **state)
{
  g_autofree char *named = degradations_of (*state, strong, NULL, FALSE, NULL);

  assert_string_equal (named, "");
}

static void
test_run_names_each_degradation_of_the_policy_in_order (void **state)
{
  g_autofree char *named = degradations_of (*state,
                                            "[namespaces]\nunshare=user;ipc;uts\n"
                                            "die-with-parent=false\n"
                                            "[proc]\nmode=host-ro\n"
                                            "[seccomp]\nallow=ptrace\n", NULL, FALSE, NULL);

  assert_string_equal (named, "host /proc|shared network|shared pid namespace"
                              "|the sandbox may outlive cordon (die-with-parent=false)"
                              "|seccomp profile with exceptions (allow=)");
}

static void
test_run_names_no_proc_and_no_filter (void **state)
{
  g_autofree char *named = degradations_of (*state, "[namespaces]\nunshare=user;ipc;pid;net\n"
                                                    "[proc]\nmode=none\n[seccomp]\nprofile=none\n",
                                            NULL, FALSE, NULL);

  /* profile=none is named once: not also as a profile with exceptions. */
  assert_string_equal (named, "no /proc|no seccomp filter (profile=none)");
}

static void
test_run_names_what_the_host_and_the_caller_chose (void **state)
{
  const CordonCompileOptions setuid = { FALSE, TRUE, FALSE };
  const char * const env[] = { "CORDON_EXEC_HELPER=/x", "CORDON_KEEPER_HELPER=/y", NULL };
  g_autofree char *named = degradations_of (*state, strong, &setuid, TRUE, env);

  assert_string_equal (named, "no user namespace (setuid bwrap)|exec helper taken from CORDON_EXEC_HELPER"
                              "|keeper taken from CORDON_KEEPER_HELPER|not verified (--no-verify)");
}

static void
test_run_names_a_fallback_to_the_host_proc (void **state)
{
  const CordonCompileOptions probed = { TRUE, FALSE, FALSE };
  g_autofree char *named = degradations_of (*state, "[namespaces]\nunshare=user;ipc;pid;net\n"
                                                    "[proc]\nfallback=host-ro\n", &probed, FALSE, NULL);

  assert_string_equal (named, "host /proc");
}

/* The fixture host's cgroups, as cordon_cgroup_host_find leaves them:
 * none (with `missing`), or a v1 host whose memory, pids and cpu
 * hierarchies cordon may write. */
static void
host_has_no_cgroup (FixtureHost *host,
                    const char *missing)
{
  host->facts->cgroup.mechanism = CORDON_CGROUP_NONE;
  g_free (host->facts->cgroup.missing);
  host->facts->cgroup.missing = g_strdup (missing);
}

static void
host_has_v1 (FixtureHost *host,
             gboolean memsw)
{
  static const char * const parents[CORDON_CONTROLLER_MAX] = {
    "/sys/fs/cgroup/memory/job", "/sys/fs/cgroup/pids/job", "/sys/fs/cgroup/cpu/job", NULL,
  };

  fixture_host_set_cgroup_v1 (host, parents, memsw);
  host->facts->cgroup.swap_total = G_GUINT64_CONSTANT (1) << 30;
}

/* enforce=best-effort: each limit nothing holds, named with the host's
 * reason, in the order of the keys. */
static void
test_run_names_each_limit_the_host_cannot_hold (void **state)
{
  g_autofree char *text = g_strconcat (strong, "[limits]\ncpu=50%\nmemory=256M\nenforce=best-effort\n", NULL);
  g_autofree char *named = NULL;

  host_has_no_cgroup (*state, "this host mounts no cgroup with memory, pids and cpu");
  named = degradations_of (*state, text, NULL, FALSE, NULL);
  assert_string_equal (named, "no memory limit (this host mounts no cgroup with memory, pids and cpu)"
                              "|no cpu limit (this host mounts no cgroup with memory, pids and cpu)");
}

/* Swap a v1 host does not account: memory is held, swap=0 is not. */
static void
test_run_names_swap_the_host_does_not_account (void **state)
{
  g_autofree char *text = g_strconcat (strong, "[limits]\nmemory=256M\nenforce=best-effort\n", NULL);
  g_autofree char *named = NULL;

  host_has_v1 (*state, FALSE);
  named = degradations_of (*state, text, NULL, FALSE, NULL);
  assert_string_equal (named, "no swap limit (this host has swap and does not account it per cgroup "
                              "(memory.memsw.*): boot with swapaccount=1, or turn swap off)");
}

/* A limit held, by a cgroup or by RLIMIT_NPROC, weakens nothing. */
static void
test_run_names_no_limit_that_is_held (void **state)
{
  g_autofree char *text = g_strconcat (strong, "[limits]\nmemory=256M\nswap=64M\ncpu=50%\npids=100\n"
                                       "enforce=best-effort\n", NULL);
  g_autofree char *pids = g_strconcat (strong, "[limits]\npids=100\nenforce=best-effort\n", NULL);
  g_autofree char *by_cgroup = NULL;
  g_autofree char *by_rlimit = NULL;

  host_has_v1 (*state, TRUE);
  by_cgroup = degradations_of (*state, text, NULL, FALSE, NULL);
  host_has_no_cgroup (*state, "this host mounts no cgroup with memory, pids and cpu");
  by_rlimit = degradations_of (*state, pids, NULL, FALSE, NULL);
  assert_string_equal (by_cgroup, "");
  assert_string_equal (by_rlimit, "");
}

/* --- the command line's overrides --------------------------------------- */

typedef struct
{
  char *text;
  GPtrArray *recorded;
} Overrides;

static void
overrides_clear (Overrides *o)
{
  g_free (o->text);
  g_ptr_array_unref (o->recorded);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Overrides, overrides_clear)

static Overrides
overrides_of (char **allow,
              char **set,
              char **writable,
              gboolean share_net)
{
  CordonRunOptions o = { 0 };
  Overrides out;

  o.allow_env = allow;
  o.setenv = set;
  o.writable = writable;
  o.share_net = share_net;
  out.recorded = g_ptr_array_new_with_free_func (g_free);
  out.text = cordon_run_overrides_text (&o, out.recorded);
  return out;
}

static char *
recorded_line (GPtrArray *recorded)
{
  g_ptr_array_add (recorded, NULL);
  return g_strjoinv ("|", (char **) recorded->pdata);
}

static void
test_run_overrides_none_are_no_text (void **state)
{
  g_auto(Overrides) o = overrides_of (NULL, NULL, NULL, FALSE);

  assert_string_equal (o.text, "");
  assert_int_equal (o.recorded->len, 0);
}

static void
test_run_overrides_keep_a_section_s_keys_under_one_header (void **state)
{
  char *allow[] = { (char *) "LANG", (char *) "LC_*", NULL };
  char *set[] = { (char *) "A=1", NULL };
  char *writable[] = { (char *) "/srv/a/../b/", NULL };
  g_auto(Overrides) o = overrides_of (allow, set, writable, TRUE);
  g_autofree char *recorded = NULL;

  assert_string_equal (o.text, "[environment]\nallow=LANG;LC_*\nset=A=1\n"
                               "[filesystem]\nwritable=/srv/b\n[namespaces]\nshare=net\n");
  recorded = recorded_line (o.recorded);
  /* A --setenv is recorded by its name only. */
  assert_string_equal (recorded, "--allow-env LANG|--allow-env LC_*|--setenv A"
                                 "|--writable /srv/b|--share-net");
}

/* What the policy parser makes of the text is the value, byte for byte:
 * separators, escapes, edge spaces and a '$' that must not expand. */
static void
test_run_overrides_give_a_setenv_value_literally (void **state)
{
  char *set[] = { (char *) "V= a;b\\c$HOME${UID}\t\r\nz ", NULL };
  g_auto(Overrides) o = overrides_of (NULL, set, NULL, FALSE);
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = cordon_policy_new ("t");
  g_autoptr(CordonPlan) plan = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *items;

  cordon_policy_parse_text (policy, "<command line>", o.text, diags);
  assert_int_equal (cordon_diagnostics_len (diags), 0);
  items = cordon_policy_get_list (policy, CORDON_KEY_ENV_SET);
  assert_int_equal (items->len, 1);
  cordon_host_facts_scan_policy (((FixtureHost *) *state)->facts, policy);
  plan = cordon_compile (policy, ((FixtureHost *) *state)->facts, &error);
  assert_non_null (plan);
  assert_true (g_ptr_array_find_with_equal_func (plan->envp, "V= a;b\\c$HOME${UID}\t\r\nz ",
                                                 g_str_equal, NULL));
  /* Every '$' doubled in the text: none is a ${VARIABLE} to expand. */
  assert_non_null (strstr (o.text, "$$HOME$${UID}"));
}

/* --- seconds -------------------------------------------------------------- */

static void
test_run_seconds_become_milliseconds (void **state)
{
  guint64 ms = 7;

  assert_true (cordon_seconds_to_ms (NULL, 5000, &ms));
  assert_int_equal (ms, 5000);
  assert_true (cordon_seconds_to_ms ("1.5", 0, &ms));
  assert_int_equal (ms, 1500);
  assert_true (cordon_seconds_to_ms ("0", 9, &ms));
  assert_int_equal (ms, 0);
  /* Shorter than a millisecond is still a timeout, not none. */
  assert_true (cordon_seconds_to_ms ("0.0001", 0, &ms));
  assert_int_equal (ms, 1);
  assert_true (cordon_seconds_to_ms ("604800", 0, &ms));
  assert_int_equal (ms, G_GUINT64_CONSTANT (604800000));
}

static void
test_run_seconds_refuse_what_is_no_duration (void **state)
{
  const char *bad[] = { "", "-1", "abc", "1s", "604801", "nan", "inf", "1 ", NULL };
  guint64 ms = 7;

  for (guint i = 0; bad[i] != NULL; i++)
    if (cordon_seconds_to_ms (bad[i], 0, &ms))
      fail_msg ("'%s' was taken as %" G_GUINT64_FORMAT " ms", bad[i], ms);
  assert_int_equal (ms, 7);
}

/* --- what became of --allow-env ---------------------------------------- */

static void
add_decision (CordonPlan *plan,
              const char *name,
              gboolean passed,
              gboolean set_by_policy,
              const char *reason)
{
  CordonEnvDecision *d = g_new0 (CordonEnvDecision, 1);

  d->name = g_strdup (name);
  d->passed = passed;
  d->set_by_policy = set_by_policy;
  d->reason = g_strdup (reason);
  g_ptr_array_add (plan->env_decisions, d);
}

static char *
notes_of (const CordonPlan *plan,
          const char * const *allow_env)
{
  g_autoptr(GPtrArray) notes = cordon_run_allow_env_notes (plan, allow_env);

  g_ptr_array_add (notes, NULL);
  return g_strjoinv ("\n", (char **) notes->pdata);
}

/* Each --allow-env that passes nothing is said, with the plan's reason;
 * one that passes (the control) is not; a glob names each variable it
 * matched that was dropped, and what it matched that was passed is left
 * out; a name the policy sets is said to be the policy's. */
static void
test_run_says_what_became_of_each_allow_env_that_passes_nothing (void **state)
{
  g_autoptr(CordonPlan) plan = cordon_plan_new ("t");
  const char * const allow[] = { "PATH", "SSH_AUTH_SOCK", "GIT_*", "NOPE", "NOPE_*", "EDITOR", NULL };
  g_autofree char *notes = NULL;

  add_decision (plan, "EDITOR", TRUE, TRUE, "set by the policy");
  add_decision (plan, "GIT_ASKPASS", FALSE, FALSE, "dropped: never-pass (runs code of the caller's choosing)");
  add_decision (plan, "GIT_AUTHOR_NAME", TRUE, FALSE, "passed: allow=GIT_*");
  add_decision (plan, "PATH", TRUE, FALSE, "passed: allow=PATH");
  add_decision (plan, "SSH_AUTH_SOCK", FALSE, FALSE, "dropped: locates a masked socket @ssh-agent");
  notes = notes_of (plan, allow);
  assert_string_equal (notes,
                       "--allow-env SSH_AUTH_SOCK: dropped: locates a masked socket @ssh-agent\n"
                       "--allow-env GIT_*: GIT_ASKPASS dropped: never-pass (runs code of the caller's choosing)\n"
                       "--allow-env NOPE: not set in cordon's environment: nothing passed\n"
                       "--allow-env NOPE_*: no variable of cordon's environment matches it: nothing passed\n"
                       "--allow-env EDITOR: EDITOR is set by the policy, not passed from the caller");
}

static void
test_run_says_nothing_of_no_allow_env (void **state)
{
  g_autoptr(CordonPlan) plan = cordon_plan_new ("t");
  g_autoptr(GPtrArray) notes = NULL;

  add_decision (plan, "SSH_AUTH_SOCK", FALSE, FALSE, "dropped: not allowed");
  notes = cordon_run_allow_env_notes (plan, NULL);
  assert_int_equal (notes->len, 0);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_run_failure_is_the_stage_s_unless_the_error_names_the_policy_or_usage),
    cmocka_unit_test (test_run_failure_of_another_domain_is_the_stage_s),
    cmocka_unit_test (test_run_failure_names_are_the_report_s),
    cmocka_unit_test_setup_teardown (test_run_names_no_degradation_of_a_strong_policy,
                                     fixture_host_setup, fixture_host_teardown),
    cmocka_unit_test_setup_teardown (test_run_names_each_degradation_of_the_policy_in_order,
                                     fixture_host_setup, fixture_host_teardown),
    cmocka_unit_test_setup_teardown (test_run_names_no_proc_and_no_filter,
                                     fixture_host_setup, fixture_host_teardown),
    cmocka_unit_test_setup_teardown (test_run_names_what_the_host_and_the_caller_chose,
                                     fixture_host_setup, fixture_host_teardown),
    cmocka_unit_test_setup_teardown (test_run_names_a_fallback_to_the_host_proc,
                                     fixture_host_setup, fixture_host_teardown),
    cmocka_unit_test_setup_teardown (test_run_names_each_limit_the_host_cannot_hold,
                                     fixture_host_setup, fixture_host_teardown),
    cmocka_unit_test_setup_teardown (test_run_names_swap_the_host_does_not_account,
                                     fixture_host_setup, fixture_host_teardown),
    cmocka_unit_test_setup_teardown (test_run_names_no_limit_that_is_held,
                                     fixture_host_setup, fixture_host_teardown),
    cmocka_unit_test (test_run_overrides_none_are_no_text),
    cmocka_unit_test (test_run_overrides_keep_a_section_s_keys_under_one_header),
    cmocka_unit_test_setup_teardown (test_run_overrides_give_a_setenv_value_literally,
                                     fixture_host_setup, fixture_host_teardown),
    cmocka_unit_test (test_run_seconds_become_milliseconds),
    cmocka_unit_test (test_run_seconds_refuse_what_is_no_duration),
    cmocka_unit_test (test_run_says_what_became_of_each_allow_env_that_passes_nothing),
    cmocka_unit_test (test_run_says_nothing_of_no_allow_env),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
