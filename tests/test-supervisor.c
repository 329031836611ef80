/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-supervisor: the mapping from what the supervisor saw of a run
 * (the helper's words, bwrap's wait status, the timeout, an early
 * signal) to the outcome and the status cordon exits with. A trial
 * runner tells "the code under test failed" from "the sandbox never ran
 * it" by these numbers alone, so each case pins one outcome and its
 * status, from facts as cordon_supervise gathers them; the poll loop
 * that gathers them is left to the integration tests. And the keeper's
 * word of what the sandbox used, taken only when it is exactly that. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "supervisor.h"

/* The result of `facts`, written over a result full of garbage: what
 * the mapping does not set must still come out zero. */
static CordonRunResult
result_of (CordonRunFacts facts)
{
  CordonRunResult r;

  memset (&r, 0xa5, sizeof r);
  cordon_supervisor_fill_result (&facts, &r);
  return r;
}

/* The wait status of a keeper that exited with `code`. */
static int
exited (int code)
{
  return W_EXITCODE (code, 0);
}

/* --- the command ran ----------------------------------------------------- */

static void
test_supervisor_passes_on_the_status_the_command_exited_with (void **state)
{
  CordonRunResult r = result_of ((CordonRunFacts) { .ready = TRUE, .bwrap_status = exited (3) });

  assert_int_equal (r.outcome, CORDON_OUTCOME_EXITED);
  assert_int_equal (r.exit_status, 3);
  assert_int_equal (r.term_signal, 0);
}

static void
test_supervisor_exits_zero_for_a_command_that_succeeded (void **state)
{
  CordonRunResult r = result_of ((CordonRunFacts) { .ready = TRUE, .bwrap_status = exited (0) });

  assert_int_equal (r.outcome, CORDON_OUTCOME_EXITED);
  assert_int_equal (r.exit_status, 0);
}

/* bwrap exits 128+N for a command killed by signal N. */
static void
test_supervisor_names_the_signal_of_a_command_bwrap_reports_killed (void **state)
{
  CordonRunResult r = result_of ((CordonRunFacts) { .ready = TRUE, .bwrap_status = exited (128 + SIGKILL) });

  assert_int_equal (r.outcome, CORDON_OUTCOME_EXITED);
  assert_int_equal (r.exit_status, 137);
  assert_int_equal (r.term_signal, SIGKILL);
}

/* bwrap itself killed (as its init's death kills it): 128+N, as a shell. */
static void
test_supervisor_exits_128_plus_n_when_bwrap_died_of_signal_n (void **state)
{
  CordonRunResult r = result_of ((CordonRunFacts) { .ready = TRUE, .bwrap_status = W_EXITCODE (0, SIGTERM) });

  assert_int_equal (r.outcome, CORDON_OUTCOME_EXITED);
  assert_int_equal (r.exit_status, 128 + SIGTERM);
  assert_int_equal (r.term_signal, SIGTERM);
}

/* 128 is an exit status, not "signal 0". */
static void
test_supervisor_names_no_signal_for_exit_status_128 (void **state)
{
  CordonRunResult r = result_of ((CordonRunFacts) { .ready = TRUE, .bwrap_status = exited (128) });

  assert_int_equal (r.outcome, CORDON_OUTCOME_EXITED);
  assert_int_equal (r.exit_status, 128);
  assert_int_equal (r.term_signal, 0);
}

static void
test_supervisor_names_the_last_signal_number_as_a_signal (void **state)
{
  CordonRunResult r = result_of ((CordonRunFacts) { .ready = TRUE, .bwrap_status = exited (128 + NSIG - 1) });

  assert_int_equal (r.exit_status, 128 + NSIG - 1);
  assert_int_equal (r.term_signal, NSIG - 1);
}

/* A status past every signal number (255, exit (-1)) is the command's
 * own, not a signal. */
static void
test_supervisor_names_no_signal_for_a_status_past_the_last_signal (void **state)
{
  CordonRunResult past = result_of ((CordonRunFacts) { .ready = TRUE, .bwrap_status = exited (128 + NSIG) });
  CordonRunResult top = result_of ((CordonRunFacts) { .ready = TRUE, .bwrap_status = exited (255) });

  assert_int_equal (past.exit_status, 128 + NSIG);
  assert_int_equal (past.term_signal, 0);
  assert_int_equal (top.outcome, CORDON_OUTCOME_EXITED);
  assert_int_equal (top.exit_status, 255);
  assert_int_equal (top.term_signal, 0);
}

/* A late bogus "V" line (after release) marks verification failed, but
 * the command ran: its status is what the caller must see. */
static void
test_supervisor_keeps_the_status_of_a_command_released_before_a_failure (void **state)
{
  CordonRunResult r = result_of ((CordonRunFacts) { .ready = TRUE, .verify_failed = TRUE,
                                                    .bwrap_status = exited (7) });

  assert_int_equal (r.outcome, CORDON_OUTCOME_EXITED);
  assert_int_equal (r.exit_status, 7);
}

/* --- the command could not be executed ----------------------------------- */

static void
test_supervisor_exits_127_for_a_command_not_found (void **state)
{
  CordonRunResult r = result_of ((CordonRunFacts) { .ready = TRUE, .exec_errno = ENOENT,
                                                    .bwrap_status = exited (1) });

  assert_int_equal (r.outcome, CORDON_OUTCOME_NOT_FOUND);
  assert_int_equal (r.exit_status, 127);
  assert_int_equal (r.exec_errno, ENOENT);
}

/* "dir/file/cmd" where file is no directory: not found, as for a shell. */
static void
test_supervisor_exits_127_for_a_command_below_a_file (void **state)
{
  CordonRunResult r = result_of ((CordonRunFacts) { .ready = TRUE, .exec_errno = ENOTDIR,
                                                    .bwrap_status = exited (1) });

  assert_int_equal (r.outcome, CORDON_OUTCOME_NOT_FOUND);
  assert_int_equal (r.exit_status, 127);
  assert_int_equal (r.exec_errno, ENOTDIR);
}

static void
test_supervisor_exits_126_for_a_command_not_executable (void **state)
{
  CordonRunResult r = result_of ((CordonRunFacts) { .ready = TRUE, .exec_errno = EACCES,
                                                    .bwrap_status = exited (1) });

  assert_int_equal (r.outcome, CORDON_OUTCOME_NOT_EXECUTABLE);
  assert_int_equal (r.exit_status, 126);
  assert_int_equal (r.exec_errno, EACCES);
}

/* Any errno but the two of a missing file is "cannot execute". */
static void
test_supervisor_exits_126_for_a_file_that_is_no_program (void **state)
{
  CordonRunResult r = result_of ((CordonRunFacts) { .ready = TRUE, .exec_errno = ENOEXEC,
                                                    .bwrap_status = exited (1) });

  assert_int_equal (r.outcome, CORDON_OUTCOME_NOT_EXECUTABLE);
  assert_int_equal (r.exit_status, 126);
}

/* --- the timeout and signals --------------------------------------------- */

/* The command's own status (killed by SIGTERM: 143) is not reported:
 * the caller asked for a limit, and 124 says it was reached. */
static void
test_supervisor_exits_124_when_the_timeout_passed (void **state)
{
  CordonRunResult r = result_of ((CordonRunFacts) { .ready = TRUE, .timed_out = TRUE,
                                                    .bwrap_status = exited (128 + SIGTERM) });

  assert_int_equal (r.outcome, CORDON_OUTCOME_TIMED_OUT);
  assert_int_equal (r.exit_status, 124);
  assert_int_equal (r.term_signal, 0);
}

/* Out of time during setup is a timeout, not a launch failure. */
static void
test_supervisor_exits_124_when_the_timeout_passed_before_release (void **state)
{
  CordonRunResult r = result_of ((CordonRunFacts) { .timed_out = TRUE, .verify_failed = TRUE,
                                                    .bwrap_status = W_EXITCODE (0, SIGKILL) });

  assert_int_equal (r.outcome, CORDON_OUTCOME_TIMED_OUT);
  assert_int_equal (r.exit_status, 124);
}

static void
test_supervisor_exits_128_plus_n_for_a_signal_before_the_command_started (void **state)
{
  CordonRunResult r = result_of ((CordonRunFacts) { .early_signal = SIGINT,
                                                    .bwrap_status = W_EXITCODE (0, SIGKILL) });

  assert_int_equal (r.outcome, CORDON_OUTCOME_SIGNALED);
  assert_int_equal (r.exit_status, 128 + SIGINT);
  assert_int_equal (r.term_signal, 0);
}

/* Asked to stop, cordon stops: whatever else happened on the way. */
static void
test_supervisor_reports_an_early_signal_over_a_timeout_and_a_failure (void **state)
{
  CordonRunResult r = result_of ((CordonRunFacts) { .early_signal = SIGTERM, .timed_out = TRUE,
                                                    .verify_failed = TRUE, .exec_errno = ENOENT });

  assert_int_equal (r.outcome, CORDON_OUTCOME_SIGNALED);
  assert_int_equal (r.exit_status, 128 + SIGTERM);
}

/* --- verification -------------------------------------------------------- */

static void
test_supervisor_exits_125_when_a_denial_failed_before_release (void **state)
{
  CordonRunResult r = result_of ((CordonRunFacts) { .verify_failed = TRUE, .bwrap_status = exited (1) });

  assert_int_equal (r.outcome, CORDON_OUTCOME_VERIFY_FAILED);
  assert_int_equal (r.exit_status, 125);
}

/* cordon verify never runs the command: a helper that says "R" anyway
 * does not turn a failed proof into the command's status. */
static void
test_supervisor_exits_125_when_verifying_only_whatever_the_helper_said (void **state)
{
  CordonRunResult r = result_of ((CordonRunFacts) { .ready = TRUE, .verify_failed = TRUE,
                                                    .verify_only = TRUE, .bwrap_status = exited (0) });

  assert_int_equal (r.outcome, CORDON_OUTCOME_VERIFY_FAILED);
  assert_int_equal (r.exit_status, 125);
}

/* bwrap exits non-zero when the helper stops unreleased: not reported. */
static void
test_supervisor_exits_zero_when_every_denial_held_and_nothing_ran (void **state)
{
  CordonRunResult r = result_of ((CordonRunFacts) { .verified_only = TRUE, .verify_only = TRUE,
                                                    .bwrap_status = exited (1) });

  assert_int_equal (r.outcome, CORDON_OUTCOME_VERIFIED);
  assert_int_equal (r.exit_status, 0);
}

/* A bogus line after the helper was told to stop still fails the proof. */
static void
test_supervisor_reports_a_failure_seen_after_the_proof_held (void **state)
{
  CordonRunResult r = result_of ((CordonRunFacts) { .verified_only = TRUE, .verify_only = TRUE,
                                                    .verify_failed = TRUE });

  assert_int_equal (r.outcome, CORDON_OUTCOME_VERIFY_FAILED);
  assert_int_equal (r.exit_status, 125);
}

/* --- launch -------------------------------------------------------------- */

static void
test_supervisor_exits_125_when_bwrap_ended_before_the_command (void **state)
{
  CordonRunResult r = result_of ((CordonRunFacts) { .bwrap_status = exited (1) });

  assert_int_equal (r.outcome, CORDON_OUTCOME_LAUNCH_FAILED);
  assert_int_equal (r.exit_status, 125);
  assert_int_equal (r.term_signal, 0);
}

/* A bwrap killed before release is still a failed launch, not 128+N. */
static void
test_supervisor_exits_125_when_bwrap_was_killed_before_the_command (void **state)
{
  CordonRunResult r = result_of ((CordonRunFacts) { .bwrap_status = W_EXITCODE (0, SIGSEGV) });

  assert_int_equal (r.outcome, CORDON_OUTCOME_LAUNCH_FAILED);
  assert_int_equal (r.exit_status, 125);
  assert_int_equal (r.term_signal, 0);
}

/* "K<errno>": the helper could not join a fresh keyring; main.c names
 * the errno, so it must reach the result. */
static void
test_supervisor_keeps_the_keyring_errno_of_a_failed_launch (void **state)
{
  CordonRunResult r = result_of ((CordonRunFacts) { .keyring_errno = EPERM, .bwrap_status = exited (1) });

  assert_int_equal (r.outcome, CORDON_OUTCOME_LAUNCH_FAILED);
  assert_int_equal (r.exit_status, 125);
  assert_int_equal (r.keyring_errno, EPERM);
}

/* An "E" before "R" is not an exec of the command: launch failed. */
static void
test_supervisor_reports_a_failed_launch_over_an_exec_errno_before_release (void **state)
{
  CordonRunResult r = result_of ((CordonRunFacts) { .exec_errno = ENOENT, .bwrap_status = exited (1) });

  assert_int_equal (r.outcome, CORDON_OUTCOME_LAUNCH_FAILED);
  assert_int_equal (r.exit_status, 125);
  assert_int_equal (r.exec_errno, ENOENT);
}

/* --- the rest of the result ---------------------------------------------- */

static void
test_supervisor_reports_the_child_pid_bwrap_named (void **state)
{
  CordonRunResult r = result_of ((CordonRunFacts) { .ready = TRUE, .child_pid = 4242 });

  assert_int_equal (r.child_pid, 4242);
}

/* What the mapping does not know (timings, forwarded signal, processes
 * killed, the usage the keeper tells later) is zero, never what the
 * caller's memory held. */
static void
test_supervisor_zeroes_what_the_facts_do_not_tell (void **state)
{
  CordonRunResult r = result_of ((CordonRunFacts) { .ready = TRUE, .bwrap_status = exited (0) });

  assert_int_equal (r.exec_errno, 0);
  assert_int_equal (r.keyring_errno, 0);
  assert_int_equal (r.child_pid, 0);
  assert_int_equal (r.forwarded_signal, 0);
  assert_int_equal (r.n_killed, 0);
  assert_int_equal (r.launch_us, 0);
  assert_false (r.usage.known);
}

/* --- the keeper's "U": what the sandbox used ----------------------------- */

static void
test_supervisor_takes_the_usage_the_keeper_said (void **state)
{
  CordonUsage u = { 0 };

  assert_true (cordon_supervisor_parse_usage ("1500 250 40960", &u));
  assert_true (u.known);
  assert_int_equal (u.user_us, 1500);
  assert_int_equal (u.system_us, 250);
  assert_int_equal (u.max_rss_kib, 40960);
}

/* Anything but three plain decimal numbers one space apart is refused,
 * and leaves the usage as it was (unknown): never a number made up of
 * what could be read. */
static void
test_supervisor_refuses_a_usage_that_is_not_three_numbers (void **state)
{
  static const char * const bad[] = {
    "", "1 2", "1 2 3 4", "-1 2 3", "+1 2 3", "1  2 3", " 1 2 3", "1 2 3 ", "1 2 3x", "1 2 0x10",
    "1 2 99999999999999999999", "one 2 3",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      CordonUsage u = { FALSE, 7, 7, 7 };

      if (cordon_supervisor_parse_usage (bad[i], &u))
        fail_msg ("'%s' was taken for a usage", bad[i]);
      assert_false (u.known);
      assert_int_equal (u.user_us, 7);
      assert_int_equal (u.max_rss_kib, 7);
    }
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_supervisor_passes_on_the_status_the_command_exited_with),
    cmocka_unit_test (test_supervisor_exits_zero_for_a_command_that_succeeded),
    cmocka_unit_test (test_supervisor_names_the_signal_of_a_command_bwrap_reports_killed),
    cmocka_unit_test (test_supervisor_exits_128_plus_n_when_bwrap_died_of_signal_n),
    cmocka_unit_test (test_supervisor_names_no_signal_for_exit_status_128),
    cmocka_unit_test (test_supervisor_names_the_last_signal_number_as_a_signal),
    cmocka_unit_test (test_supervisor_names_no_signal_for_a_status_past_the_last_signal),
    cmocka_unit_test (test_supervisor_keeps_the_status_of_a_command_released_before_a_failure),
    cmocka_unit_test (test_supervisor_exits_127_for_a_command_not_found),
    cmocka_unit_test (test_supervisor_exits_127_for_a_command_below_a_file),
    cmocka_unit_test (test_supervisor_exits_126_for_a_command_not_executable),
    cmocka_unit_test (test_supervisor_exits_126_for_a_file_that_is_no_program),
    cmocka_unit_test (test_supervisor_exits_124_when_the_timeout_passed),
    cmocka_unit_test (test_supervisor_exits_124_when_the_timeout_passed_before_release),
    cmocka_unit_test (test_supervisor_exits_128_plus_n_for_a_signal_before_the_command_started),
    cmocka_unit_test (test_supervisor_reports_an_early_signal_over_a_timeout_and_a_failure),
    cmocka_unit_test (test_supervisor_exits_125_when_a_denial_failed_before_release),
    cmocka_unit_test (test_supervisor_exits_125_when_verifying_only_whatever_the_helper_said),
    cmocka_unit_test (test_supervisor_exits_zero_when_every_denial_held_and_nothing_ran),
    cmocka_unit_test (test_supervisor_reports_a_failure_seen_after_the_proof_held),
    cmocka_unit_test (test_supervisor_exits_125_when_bwrap_ended_before_the_command),
    cmocka_unit_test (test_supervisor_exits_125_when_bwrap_was_killed_before_the_command),
    cmocka_unit_test (test_supervisor_keeps_the_keyring_errno_of_a_failed_launch),
    cmocka_unit_test (test_supervisor_reports_a_failed_launch_over_an_exec_errno_before_release),
    cmocka_unit_test (test_supervisor_reports_the_child_pid_bwrap_named),
    cmocka_unit_test (test_supervisor_zeroes_what_the_facts_do_not_tell),
    cmocka_unit_test (test_supervisor_takes_the_usage_the_keeper_said),
    cmocka_unit_test (test_supervisor_refuses_a_usage_that_is_not_three_numbers),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
