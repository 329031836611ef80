/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-policy-check: the semantic diagnostics on a merged policy. Each
 * rule guards a way a policy could hand the sandbox more than its author
 * meant (a never-pass variable, a writable '/', a shared network) or
 * quietly lose what it meant to give (a writable path under a tmpfs or a
 * mask). Every case asserts the diagnostic's severity, text and the
 * file:line:col it points at; the "not flagged" cases assert that check
 * says nothing at all, so a false positive fails them too.
 *
 * Tests marked "REGRESSION" each pin a defect the first version of src/
 * had (described above the test); they failed against commit dca9b05. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>
#include <glib.h>

#include "expect-diag.h"
#include "policy-check.h"
#include "policy-parse.h"

#define FILE_NAME "mem/t.policy"

/* Unshares every namespace, so that check has nothing to say about
 * [namespaces] unless a test asks it to. */
#define ALL_NAMESPACES "[namespaces]\nunshare=user;ipc;pid;net;uts;cgroup\n"

/* Parses `text` as the single source FILE_NAME (the parse must be clean:
 * these tests are about check) and returns what check reports. */
static CordonDiagnostics *
check (const char *text)
{
  return check_policy_text (FILE_NAME, text);
}

static const CordonDiagnostic *
expect_error (const CordonDiagnostics *diags,
              const char *fragment,
              guint line,
              guint col)
{
  return expect_diag (diags, CORDON_SEVERITY_ERROR, fragment, FILE_NAME, line, col);
}

static const CordonDiagnostic *
expect_warning (const CordonDiagnostics *diags,
                const char *fragment,
                guint line,
                guint col)
{
  return expect_diag (diags, CORDON_SEVERITY_WARNING, fragment, FILE_NAME, line, col);
}

/* --- baseline ----------------------------------------------------------- */

static void
test_check_says_nothing_about_a_careful_policy (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (
    "[environment]\n"
    "allow=TERM;LANG;LC_*;HOME\n"
    "set=EDITOR=vi;PAGER=less\n"
    "[filesystem]\n"
    "writable=${WORKDIR}\n"
    "read-only=/usr;/etc\n"
    "tmpfs=/tmp;${HOME}\n"
    "[sockets]\n"
    "mask=@docker;@ssh-agent\n"
    "[secrets]\n"
    "mask=${HOME}/.ssh;${WORKDIR}/.env\n"
    "[namespaces]\n"
    "unshare=user;ipc;pid;net;uts;cgroup\n"
    "new-session=true\n"
    "die-with-parent=true\n");

  expect_n_diags (diags, 0);
}

/* --- environment -------------------------------------------------------- */

static void
test_check_reports_allowed_ld_preload (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check ("[environment]\nallow=HOME;LD_PRELOAD\n" ALL_NAMESPACES);

  expect_n_diags (diags, 1);
  expect_error (diags, "'LD_PRELOAD' is allowed but matches the never-pass variable 'LD_*'", 2, 12);
}

static void
test_check_reports_allowed_glob_overlapping_ld (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check ("[environment]\nallow=L*\n" ALL_NAMESPACES);

  expect_n_diags (diags, 1);
  expect_error (diags, "'L*' is allowed but matches the never-pass variable 'LD_*'", 2, 7);
}

static void
test_check_reports_allowed_star (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check ("[environment]\nallow=TERM;*\n" ALL_NAMESPACES);

  expect_n_diags (diags, 1);
  expect_error (diags, "'*' is allowed but matches the never-pass variable", 2, 12);
}

static void
test_check_reports_allowed_glob_matching_a_literal_never_pass_name (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check ("[environment]\nallow=GIT_SSH*\n" ALL_NAMESPACES);

  expect_n_diags (diags, 1);
  expect_error (diags, "'GIT_SSH*' is allowed but matches the never-pass variable 'GIT_SSH'", 2, 7);
}

static void
test_check_does_not_flag_lc_glob (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check ("[environment]\nallow=LC_*;LANG\n" ALL_NAMESPACES);

  expect_n_diags (diags, 0);
}

static void
test_check_warns_about_a_variable_allowed_twice (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check ("[environment]\nallow=TERM;HOME;TERM\n" ALL_NAMESPACES);

  expect_n_diags (diags, 1);
  expect_warning (diags, "'TERM' is allowed twice", 2, 17);
}

static void
test_check_reports_set_of_a_never_pass_name (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check ("[environment]\nset=A=1;BASH_ENV=/x\n" ALL_NAMESPACES);

  expect_n_diags (diags, 1);
  expect_error (diags, "'BASH_ENV' is in the never-pass set and cannot be set", 2, 9);
}

static void
test_check_warns_about_a_variable_set_twice (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check ("[environment]\nset=A=1;B=2;A=3\n" ALL_NAMESPACES);

  expect_n_diags (diags, 1);
  expect_warning (diags, "'A' is set again (first at mem/t.policy:2); the last value wins", 2, 13);
}

static void
test_check_does_not_confuse_a_name_with_its_prefix_when_set (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check ("[environment]\nset=AB=1;A=2\n" ALL_NAMESPACES);

  expect_n_diags (diags, 0);
}

/* --- filesystem --------------------------------------------------------- */

static void
test_check_reports_tmpfs_on_the_same_path_as_writable (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (
    "[filesystem]\nwritable=/srv/w\ntmpfs=/srv//w/\n" ALL_NAMESPACES);

  expect_n_diags (diags, 1);
  expect_error (diags, "'/srv//w/' is both a tmpfs here and writable at mem/t.policy:2:10; "
                "choose one", 3, 7);
}

static void
test_check_reports_tmpfs_on_the_same_path_as_read_only (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (
    "[filesystem]\nread-only=${HOME}\ntmpfs=${HOME}\n" ALL_NAMESPACES);

  expect_n_diags (diags, 1);
  expect_error (diags, "'${HOME}' is both a tmpfs here and read-only at mem/t.policy:2:11; "
                "choose one", 3, 7);
}

static void
test_check_warns_about_a_kept_capability_and_an_allowed_call (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (
    "[capabilities]\nkeep=net_raw\n[seccomp]\nallow=ptrace\n" ALL_NAMESPACES);

  expect_n_diags (diags, 2);
  expect_warning (diags, "the sandbox keeps net_raw", 2, 6);
  expect_warning (diags, "'ptrace' is taken out of the seccomp profile", 4, 7);
}

static void
test_check_says_why_a_kept_setfcap_is_worse (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check ("[capabilities]\nkeep=net_raw;setfcap\n" ALL_NAMESPACES);

  expect_n_diags (diags, 2);
  expect_warning (diags, "the sandbox keeps setfcap: a file it writes in a writable path can be "
                  "given capabilities that the host honours", 2, 14);
  expect_warning (diags, "the sandbox keeps net_raw", 2, 6);
}

static void
test_check_refuses_to_deny_a_call_the_profile_filters_by_argument (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check ("[seccomp]\ndeny=getcpu;socket\n" ALL_NAMESPACES);

  expect_n_diags (diags, 1);
  expect_error (diags, "'socket' cannot be denied: the profile already filters it by its arguments", 2, 13);
}

static void
test_check_warns_when_neither_session_nor_filter_stops_tiocsti (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (
    "[namespaces]\nunshare=user;net\nnew-session=false\n[seccomp]\nprofile=none\n");

  expect_warning (diags, "nothing stops TIOCSTI", 3, 13);
}

static void
test_check_warns_about_tmpfs_under_writable (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (
    "[filesystem]\nwritable=/srv/w\ntmpfs=/srv/w/cache\n" ALL_NAMESPACES);

  expect_n_diags (diags, 1);
  expect_warning (diags, "tmpfs '/srv/w/cache' hides part of the writable path '/srv/w' "
                  "(mem/t.policy:2)", 3, 7);
}

static void
test_check_does_not_flag_tmpfs_beside_writable_sharing_a_prefix (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (
    "[filesystem]\nwritable=/srv/w\ntmpfs=/srv/wx\n" ALL_NAMESPACES);

  expect_n_diags (diags, 0);
}

static void
test_check_reports_read_only_on_the_same_path_as_writable (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (
    "[filesystem]\nwritable=/srv/w\nread-only=/srv/./w\n" ALL_NAMESPACES);

  expect_n_diags (diags, 1);
  expect_error (diags, "'/srv/./w' is both read-only here and writable at mem/t.policy:2:10; "
                "choose one", 3, 11);
}

static void
test_check_reports_read_only_try_on_the_same_path_as_writable_try (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (
    "[filesystem]\nwritable-try=${HOME}/.cache\nread-only-try=${HOME}/.cache\n" ALL_NAMESPACES);

  expect_n_diags (diags, 1);
  expect_error (diags, "'${HOME}/.cache' is both read-only here and writable at "
                "mem/t.policy:2:14", 3, 15);
}

static void
test_check_does_not_flag_read_only_under_writable (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (
    "[filesystem]\nwritable=${WORKDIR}\nread-only=${WORKDIR}/.git\n" ALL_NAMESPACES);

  expect_n_diags (diags, 0);
}

static void
test_check_reports_secrets_mask_equal_to_writable (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (
    "[filesystem]\nwritable=${HOME}/.ssh\n[secrets]\nmask=${HOME}/.ssh\n" ALL_NAMESPACES);

  expect_n_diags (diags, 1);
  expect_error (diags, "mask '${HOME}/.ssh' hides the writable path '${HOME}/.ssh' "
                "(mem/t.policy:2): masks are applied last", 4, 6);
}

static void
test_check_reports_secrets_mask_on_an_ancestor_of_writable (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (
    "[filesystem]\nwritable=${HOME}/work/project\n[secrets]\nmask=${HOME}/.aws;${HOME}/work\n"
    ALL_NAMESPACES);

  expect_n_diags (diags, 1);
  expect_error (diags, "mask '${HOME}/work' hides the writable path '${HOME}/work/project'", 4, 19);
}

static void
test_check_reports_glob_secrets_mask_covering_writable (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (
    "[filesystem]\nwritable=/home/u/.gnupg/private\n[secrets]\nmask=/home/*/.gnupg\n"
    ALL_NAMESPACES);

  expect_n_diags (diags, 1);
  expect_error (diags, "mask '/home/*/.gnupg' hides the writable path '/home/u/.gnupg/private'",
                4, 6);
}

static void
test_check_does_not_flag_glob_mask_that_misses_writable (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (
    "[filesystem]\nwritable=/home/u/work\n[secrets]\nmask=/home/*/.gnupg;/home/u/work?\n"
    ALL_NAMESPACES);

  expect_n_diags (diags, 0);
}

static void
test_check_does_not_flag_mask_strictly_under_writable (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (
    "[filesystem]\nwritable=${HOME}\n[secrets]\nmask=${HOME}/.ssh\n" ALL_NAMESPACES);

  expect_n_diags (diags, 0);
}

static void
test_check_reports_socket_mask_covering_writable (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (
    "[filesystem]\nwritable=/run/user/1000/app\n[sockets]\nmask=@docker;/run/user\n"
    ALL_NAMESPACES);

  expect_n_diags (diags, 1);
  expect_error (diags, "mask '/run/user' hides the writable path '/run/user/1000/app'", 4, 14);
}

static void
test_check_reports_writable_root (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check ("[filesystem]\nwritable=/\n" ALL_NAMESPACES);

  expect_n_diags (diags, 1);
  expect_error (diags, "a writable '/' makes the whole host writable", 2, 10);
}

/* REGRESSION (policy-check.c, check_filesystem): the writable-'/' rule
 * compared the raw text with "/", so "//" or "/." passed check without a
 * word while compile normalized them to "/" and bound the whole host
 * writable. */
static void
test_check_reports_writable_root_spelled_with_extra_slashes (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check ("[filesystem]\nwritable-try=//\n" ALL_NAMESPACES);

  expect_n_diags (diags, 1);
  expect_error (diags, "a writable '/' makes the whole host writable", 2, 14);
}

/* --- authority ---------------------------------------------------------- */

/* Fail closed: a policy asking for a mask this version cannot apply must
 * not compile into a sandbox that leaves the sockets reachable. */
static void
test_check_accepts_mask_listening_true (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check ("[sockets]\nmask-listening=true\n" ALL_NAMESPACES);

  expect_n_diags (diags, 0);
}

static void
test_check_accepts_mask_listening_false (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check ("[sockets]\nmask-listening=false\n" ALL_NAMESPACES);

  expect_n_diags (diags, 0);
}

static void
test_check_warns_about_an_allowed_socket (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check ("[sockets]\nallow=@ssh-agent\n" ALL_NAMESPACES);

  expect_n_diags (diags, 1);
  expect_warning (diags, "socket '@ssh-agent' is allowed: the sandbox can connect to it "
                  "and use its authority", 2, 7);
}

static void
test_check_warns_about_a_shared_network (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check ("[namespaces]\nunshare=user;pid\n");

  expect_n_diags (diags, 1);
  expect_warning (diags, "the network namespace is shared", 2, 14);
}

static void
test_check_warns_about_new_session_false (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (ALL_NAMESPACES "new-session=false\n");

  expect_n_diags (diags, 1);
  expect_warning (diags, "new-session=false: the sandbox shares the caller's terminal", 3, 13);
}

static void
test_check_warns_about_die_with_parent_false (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (ALL_NAMESPACES "die-with-parent=false\n");

  expect_n_diags (diags, 1);
  expect_warning (diags, "die-with-parent=false: the sandbox may outlive cordon", 3, 17);
}

static void
test_check_warns_about_a_missing_unshare_at_the_top_file (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check ("[policy]\ndescription=x\n");
  const CordonDiagnostic *d;

  expect_n_diags (diags, 1);
  d = cordon_diagnostics_get (diags, 0);
  assert_int_equal (d->severity, CORDON_SEVERITY_WARNING);
  assert_string_equal (d->message, "no [namespaces] unshare=: the sandbox shares every "
                                   "namespace with the host");
  assert_string_equal (d->loc.file, FILE_NAME);
  assert_int_equal (d->loc.line, 0);
  assert_int_equal (d->loc.col, 0);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_check_says_nothing_about_a_careful_policy),
    cmocka_unit_test (test_check_reports_allowed_ld_preload),
    cmocka_unit_test (test_check_reports_allowed_glob_overlapping_ld),
    cmocka_unit_test (test_check_reports_allowed_star),
    cmocka_unit_test (test_check_reports_allowed_glob_matching_a_literal_never_pass_name),
    cmocka_unit_test (test_check_does_not_flag_lc_glob),
    cmocka_unit_test (test_check_warns_about_a_variable_allowed_twice),
    cmocka_unit_test (test_check_reports_set_of_a_never_pass_name),
    cmocka_unit_test (test_check_warns_about_a_variable_set_twice),
    cmocka_unit_test (test_check_does_not_confuse_a_name_with_its_prefix_when_set),
    cmocka_unit_test (test_check_reports_tmpfs_on_the_same_path_as_writable),
    cmocka_unit_test (test_check_reports_tmpfs_on_the_same_path_as_read_only),
    cmocka_unit_test (test_check_warns_about_tmpfs_under_writable),
    cmocka_unit_test (test_check_warns_about_a_kept_capability_and_an_allowed_call),
    cmocka_unit_test (test_check_says_why_a_kept_setfcap_is_worse),
    cmocka_unit_test (test_check_warns_when_neither_session_nor_filter_stops_tiocsti),
    cmocka_unit_test (test_check_refuses_to_deny_a_call_the_profile_filters_by_argument),
    cmocka_unit_test (test_check_does_not_flag_tmpfs_beside_writable_sharing_a_prefix),
    cmocka_unit_test (test_check_reports_read_only_on_the_same_path_as_writable),
    cmocka_unit_test (test_check_reports_read_only_try_on_the_same_path_as_writable_try),
    cmocka_unit_test (test_check_does_not_flag_read_only_under_writable),
    cmocka_unit_test (test_check_reports_secrets_mask_equal_to_writable),
    cmocka_unit_test (test_check_reports_secrets_mask_on_an_ancestor_of_writable),
    cmocka_unit_test (test_check_reports_glob_secrets_mask_covering_writable),
    cmocka_unit_test (test_check_does_not_flag_glob_mask_that_misses_writable),
    cmocka_unit_test (test_check_does_not_flag_mask_strictly_under_writable),
    cmocka_unit_test (test_check_reports_socket_mask_covering_writable),
    cmocka_unit_test (test_check_reports_writable_root),
    cmocka_unit_test (test_check_reports_writable_root_spelled_with_extra_slashes),
    cmocka_unit_test (test_check_accepts_mask_listening_true),
    cmocka_unit_test (test_check_accepts_mask_listening_false),
    cmocka_unit_test (test_check_warns_about_an_allowed_socket),
    cmocka_unit_test (test_check_warns_about_a_shared_network),
    cmocka_unit_test (test_check_warns_about_new_session_false),
    cmocka_unit_test (test_check_warns_about_die_with_parent_false),
    cmocka_unit_test (test_check_warns_about_a_missing_unshare_at_the_top_file),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
