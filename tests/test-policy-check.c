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

#include "credentials.h"
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

  expect_n_diags (diags, 2);
  expect_error (diags, "'*' is allowed but matches the never-pass variable", 2, 12);
  expect_warning (diags, "'*' is allowed and can pass the credential 'GITHUB_TOKEN'", 2, 12);
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

/* cordon-exec hands cordon its listener with sendmsg: refused, it would
 * wait for ever on a listener only it holds. */
static void
test_check_refuses_to_deny_what_the_helper_sends_with (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check ("[seccomp]\ndeny=getcpu;sendmsg\n" ALL_NAMESPACES);

  expect_n_diags (diags, 1);
  expect_error (diags, "'sendmsg' cannot be denied: the sandbox's first program needs it", 2, 13);
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

/* The mask is not flagged; the home's other credential stores are
 * (test_check_warns_about_a_bind_of_a_directory_holding_stores). */
static void
test_check_does_not_flag_mask_strictly_under_writable (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (
    "[filesystem]\nwritable=${HOME}\n[secrets]\nmask=${HOME}/.ssh\n" ALL_NAMESPACES);

  expect_n_diags (diags, 1);
  expect_warning (diags, "writable '${HOME}' shows the sandbox the credential store '${HOME}/.gnupg' "
                  "and 21 more", 2, 10);
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

/* --- what run refuses, whatever the host ----------------------------------- */

static void
test_check_refuses_a_writable_system_directory (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (
    "[filesystem]\nwritable=/usr\nwritable-try=/etc/;/var\n" ALL_NAMESPACES);
  const CordonDiagnostic *d;

  expect_n_diags (diags, 3);
  d = expect_error (diags, "'/usr'", 2, 10);
  assert_string_equal (d->message, "refusing to make the system directory '/usr' writable");
  /* Normalized, as run names it. */
  d = expect_error (diags, "'/etc'", 3, 14);
  assert_string_equal (d->message, "refusing to make the system directory '/etc' writable");
  expect_error (diags, "refusing to make the system directory '/var' writable", 3, 20);
}

static void
test_check_does_not_refuse_a_path_beside_or_under_a_variable (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (
    "[filesystem]\nwritable=/usrx;/srv/etc;${HOME}/var;/var/www\nread-only=/usr;/etc\n" ALL_NAMESPACES);

  expect_n_diags (diags, 0);
}

static void
test_check_refuses_a_hostname_that_is_no_host_name (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (ALL_NAMESPACES "hostname=-box\n");
  const CordonDiagnostic *d;

  expect_n_diags (diags, 1);
  d = expect_error (diags, "hostname='-box'", 3, 10);
  assert_string_equal (d->message, "[namespaces] hostname='-box' is no host name: 1 to 64 letters, "
                       "digits, '-' and '.', not starting with '-' or '.'");
}

static void
test_check_refuses_a_hostname_without_a_uts_namespace (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (
    "[namespaces]\nunshare=user;ipc;pid;net;uts;cgroup\nshare=uts\nhostname=box\n");
  const CordonDiagnostic *d;

  expect_n_diags (diags, 1);
  d = expect_error (diags, "hostname=", 4, 10);
  assert_string_equal (d->message, "[namespaces] hostname= needs a uts namespace of the sandbox's "
                       "own: add uts to [namespaces] unshare=");
}

static void
test_check_accepts_a_hostname_with_a_uts_namespace (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (ALL_NAMESPACES "hostname=build-1.example\n");

  expect_n_diags (diags, 0);
}

static void
test_check_refuses_limits_below_what_the_helper_needs (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check ("[limits]\nopen-files=15\npids=7\nswap=1G\n" ALL_NAMESPACES);
  const CordonDiagnostic *d;

  expect_n_diags (diags, 3);
  d = expect_error (diags, "open-files", 2, 12);
  assert_string_equal (d->message, "[limits] open-files is at least 16 (cordon's helper holds and "
                       "opens fds of its own first)");
  d = expect_error (diags, "pids", 3, 6);
  assert_string_equal (d->message, "[limits] pids is at least 8 (bwrap's, cordon's helper's and its "
                       "checks' processes come first)");
  d = expect_error (diags, "swap", 4, 6);
  assert_string_equal (d->message, "[limits] swap= is the swap allowed beside memory=: set memory= too");
}

static void
test_check_accepts_limits_at_their_least (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check ("[limits]\nopen-files=16\npids=8\nmemory=1G\nswap=1G\n"
                                              ALL_NAMESPACES);
  g_autoptr(CordonDiagnostics) lifted = check ("[limits]\npids=none\nmemory=none\nswap=1G\n"
                                               ALL_NAMESPACES);

  expect_n_diags (diags, 0);
  expect_n_diags (lifted, 0);
}

static void
test_check_refuses_scratch_beside_the_hosts_dev_shm (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (
    "[limits]\nscratch=512M\n[filesystem]\nread-only-try=/dev/shm/\n" ALL_NAMESPACES);
  const CordonDiagnostic *d;

  expect_n_diags (diags, 1);
  d = expect_error (diags, "scratch=", 2, 9);
  assert_string_equal (d->message, "[limits] scratch= sizes /dev/shm, which mem/t.policy:4:15 binds "
                       "from the host: give the sandbox a /dev/shm of its own, or leave scratch= out");
}

static void
test_check_accepts_scratch_with_a_dev_shm_of_its_own (void **state)
{
  g_autoptr(CordonDiagnostics) sized = check ("[limits]\nscratch=512M\n[filesystem]\ntmpfs=/dev/shm\n"
                                              ALL_NAMESPACES);
  g_autoptr(CordonDiagnostics) unsized = check ("[filesystem]\nread-only=/dev/shm\n" ALL_NAMESPACES);

  expect_n_diags (sized, 0);
  expect_n_diags (unsized, 0);
}

/* --- credentials and the host's programs --------------------------------- */

static void
test_check_warns_about_a_read_only_bind_of_a_credential_store (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check ("[filesystem]\nread-only=/usr;${HOME}/.ssh\n" ALL_NAMESPACES);
  const CordonDiagnostic *d;

  expect_n_diags (diags, 1);
  d = expect_warning (diags, "${HOME}/.ssh", 2, 16);
  assert_string_equal (d->message, "read-only '${HOME}/.ssh' shows the sandbox the credential store "
                       "'${HOME}/.ssh': the keys and tokens there can be read and used; bind only the "
                       "entries needed, or hide it with [secrets] mask=");
}

static void
test_check_warns_about_a_bind_of_a_directory_holding_stores (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (
    "[filesystem]\nread-only-try=${HOME}/.config\nwritable=${HOME}/.docker/\n" ALL_NAMESPACES);

  expect_n_diags (diags, 2);
  expect_warning (diags, "read-only-try '${HOME}/.config' shows the sandbox the credential store "
                  "'${HOME}/.config/gh' and 4 more: ", 2, 15);
  expect_warning (diags, "writable '${HOME}/.docker/' shows the sandbox the credential store "
                  "'${HOME}/.docker/config.json': ", 3, 10);
}

static void
test_check_warns_about_a_store_below_a_home_spelt_out (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check ("[filesystem]\nread-only=/home/u/.aws\n" ALL_NAMESPACES);

  expect_n_diags (diags, 1);
  expect_warning (diags, "read-only '/home/u/.aws' shows the sandbox the credential store "
                  "'${HOME}/.aws': ", 2, 11);
}

/* An entry chosen inside a store, a neighbour sharing a prefix, a
 * directory that holds none; and stores hidden after the bind, by a
 * mask (last) or a hidden directory below it. */
static void
test_check_does_not_flag_binds_that_show_no_store (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (
    "[filesystem]\nread-only=${HOME}/.ssh/known_hosts;${HOME}/.sshx;${HOME}/.cargo/bin;/\n"
    "read-only-try=${HOME}/.config;${HOME}/.local\nhide=${HOME}/.local/share\n"
    "[secrets]\nmask=${HOME}/.config/*\n" ALL_NAMESPACES);

  expect_n_diags (diags, 0);
}

/* The stores are desktop-readonly-home's masks, read from its embedded
 * copy: a list check keeps of its own would drift from them. */
static void
test_check_takes_the_stores_from_desktop_readonly_home (void **state)
{
  const char * const *stores = cordon_credentials_stores ();

  assert_non_null (stores);
  assert_true (g_strv_contains (stores, "${HOME}/.ssh"));
  assert_true (g_strv_contains (stores, "${HOME}/.git-credentials"));
  assert_true (g_strv_contains (stores, "${HOME}/.password-store"));
  assert_false (g_strv_contains (stores, "${HOME}/.cache"));
}

static void
test_check_warns_about_an_allowed_credential_variable (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (
    "[environment]\nallow=TERM;GITHUB_TOKEN;MY_*_SECRET;AWS_*;GH*;OPENAI_API_KEY\n" ALL_NAMESPACES);
  const CordonDiagnostic *d;

  expect_n_diags (diags, 5);
  d = expect_warning (diags, "'GITHUB_TOKEN'", 2, 12);
  assert_string_equal (d->message, "'GITHUB_TOKEN' is allowed and looks like a credential (as "
                       "'*_TOKEN' does): the sandbox can read its value and use it");
  expect_warning (diags, "'MY_*_SECRET' is allowed and looks like a credential (as '*_SECRET*' does)",
                  2, 25);
  d = expect_warning (diags, "'AWS_*'", 2, 37);
  assert_string_equal (d->message, "'AWS_*' is allowed and can pass the credential "
                       "'AWS_SECRET_ACCESS_KEY': the sandbox can read its value and use it");
  expect_warning (diags, "'GH*' is allowed and can pass the credential 'GH_TOKEN'", 2, 43);
  expect_warning (diags, "'OPENAI_API_KEY' is allowed and looks like a credential (as '*_KEY' does)",
                  2, 47);
}

/* A glob's own wildcards spell out no credential: LC_* could match an
 * LC_KEY no one sets. */
static void
test_check_does_not_flag_variables_that_hold_no_credential (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (
    "[environment]\nallow=LC_*;AWS_REGION;TOKENIZERS_PARALLELISM;KEYMAP;PATH;XDG_*\n" ALL_NAMESPACES);

  expect_n_diags (diags, 0);
}

static void
test_check_knows_each_well_known_credential_by_its_glob (void **state)
{
  const char * const *names = cordon_credentials_env_names ();

  for (guint i = 0; names[i] != NULL; i++)
    if (cordon_credentials_env_glob (names[i]) == NULL)
      fail_msg ("'%s' matches none of the credential globs", names[i]);
}

static void
test_check_warns_about_a_writable_directory_of_the_hosts_programs (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (
    "[filesystem]\nwritable=/usr/local;/opt/tool\nwritable-try=/etc/cron.d;/var/lib/dpkg\n" ALL_NAMESPACES);
  const CordonDiagnostic *d;

  expect_n_diags (diags, 4);
  d = expect_warning (diags, "'/usr/local'", 2, 10);
  assert_string_equal (d->message, "writable '/usr/local' is where the host's programs live: code the "
                       "sandbox leaves there runs later on the host, as root when root runs it");
  expect_warning (diags, "writable '/opt/tool' is where the host's programs live", 2, 21);
  expect_warning (diags, "writable-try '/etc/cron.d' is where the host's programs live", 3, 14);
  expect_warning (diags, "writable-try '/var/lib/dpkg' is where the host's programs live", 3, 26);
}

static void
test_check_does_not_flag_writable_paths_the_host_runs_nothing_from (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (
    "[filesystem]\nwritable=/var/www;/srv/x;/usr2;/run/user/1000/app;/tmp/w;${WORKDIR}\n"
    "read-only=/usr/local;/opt\n" ALL_NAMESPACES);

  expect_n_diags (diags, 0);
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
    cmocka_unit_test (test_check_refuses_to_deny_what_the_helper_sends_with),
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
    cmocka_unit_test (test_check_refuses_a_writable_system_directory),
    cmocka_unit_test (test_check_does_not_refuse_a_path_beside_or_under_a_variable),
    cmocka_unit_test (test_check_refuses_a_hostname_that_is_no_host_name),
    cmocka_unit_test (test_check_refuses_a_hostname_without_a_uts_namespace),
    cmocka_unit_test (test_check_accepts_a_hostname_with_a_uts_namespace),
    cmocka_unit_test (test_check_refuses_limits_below_what_the_helper_needs),
    cmocka_unit_test (test_check_accepts_limits_at_their_least),
    cmocka_unit_test (test_check_refuses_scratch_beside_the_hosts_dev_shm),
    cmocka_unit_test (test_check_accepts_scratch_with_a_dev_shm_of_its_own),
    cmocka_unit_test (test_check_warns_about_a_read_only_bind_of_a_credential_store),
    cmocka_unit_test (test_check_warns_about_a_bind_of_a_directory_holding_stores),
    cmocka_unit_test (test_check_warns_about_a_store_below_a_home_spelt_out),
    cmocka_unit_test (test_check_does_not_flag_binds_that_show_no_store),
    cmocka_unit_test (test_check_takes_the_stores_from_desktop_readonly_home),
    cmocka_unit_test (test_check_warns_about_an_allowed_credential_variable),
    cmocka_unit_test (test_check_does_not_flag_variables_that_hold_no_credential),
    cmocka_unit_test (test_check_knows_each_well_known_credential_by_its_glob),
    cmocka_unit_test (test_check_warns_about_a_writable_directory_of_the_hosts_programs),
    cmocka_unit_test (test_check_does_not_flag_writable_paths_the_host_runs_nothing_from),
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
