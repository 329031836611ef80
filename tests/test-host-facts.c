/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-host-facts: what host-facts learns about a host, against the fixture
 * tree: kinds from lstat under the sysroot, glob expansion, the variables
 * taken from the environment, and the paths a policy makes it look at. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <glib/gstdio.h>

#include "fixture-host.h"
#include "host-facts.h"
#include "policy.h"

static CordonPathKind
kind_of (FixtureHost *host,
         const char *path)
{
  const CordonPathInfo *info;

  cordon_host_facts_stat (host->facts, path);
  info = cordon_host_facts_lookup (host->facts, path);
  assert_non_null (info);
  return info->kind;
}

static void
test_host_facts_reports_a_regular_file_as_file (void **state)
{
  assert_int_equal (kind_of (*state, "/home/alice/.netrc"), CORDON_PATH_FILE);
}

static void
test_host_facts_reports_a_directory_as_dir (void **state)
{
  assert_int_equal (kind_of (*state, "/home/alice/.ssh"), CORDON_PATH_DIR);
}

static void
test_host_facts_reports_a_unix_socket_as_socket (void **state)
{
  assert_int_equal (kind_of (*state, "/run/docker.sock"), CORDON_PATH_SOCKET);
}

/* Another run's placeholder, seen, then removed by its keeper before the
 * scan of what is inside: absent now (it was planned as a directory
 * there, which bwrap then failed to bind: run-kill.test's killed runs in
 * one workdir). */
static void
test_host_facts_takes_a_protected_directory_gone_since_seen_for_absent (void **state)
{
  FixtureHost *host = *state;
  g_autofree char *real = g_strconcat (host->root, "/home/alice/work/.vscode", NULL);
  g_autoptr(GPtrArray) entries = g_ptr_array_new ();
  const CordonPathInfo *info;

  g_mkdir_with_parents (real, 0555);
  cordon_host_facts_stat (host->facts, "/home/alice/work/.vscode");
  assert_int_equal (cordon_host_facts_lookup (host->facts, "/home/alice/work/.vscode")->kind, CORDON_PATH_DIR);
  assert_int_equal (g_rmdir (real), 0);
  g_ptr_array_add (entries, (gpointer) ".vscode");
  cordon_host_facts_scan_protected (host->facts, "/home/alice/work", entries);
  info = cordon_host_facts_lookup (host->facts, "/home/alice/work/.vscode");
  assert_non_null (info);
  assert_int_equal (info->kind, CORDON_PATH_ABSENT);
}

static void
test_host_facts_reports_a_missing_path_as_absent (void **state)
{
  assert_int_equal (kind_of (*state, "/home/alice/.kube"), CORDON_PATH_ABSENT);
}

static void
test_host_facts_reports_a_symlink_with_its_target (void **state)
{
  FixtureHost *host = *state;
  const CordonPathInfo *info;

  cordon_host_facts_stat (host->facts, "/home/alice/.git-credentials");
  info = cordon_host_facts_lookup (host->facts, "/home/alice/.git-credentials");
  assert_non_null (info);
  assert_int_equal (info->kind, CORDON_PATH_SYMLINK);
  assert_string_equal (info->link_target, ".config/git/credentials");
}

static void
test_host_facts_also_stats_the_target_of_a_symlink (void **state)
{
  FixtureHost *host = *state;
  const CordonPathInfo *info;

  cordon_host_facts_stat (host->facts, "/home/alice/.git-credentials");
  info = cordon_host_facts_lookup (host->facts, "/home/alice/.config/git/credentials");
  assert_non_null (info);
  assert_int_equal (info->kind, CORDON_PATH_FILE);
}

static void
test_host_facts_does_not_follow_a_top_level_symlink (void **state)
{
  FixtureHost *host = *state;
  const CordonPathInfo *info;

  cordon_host_facts_stat (host->facts, "/bin");
  info = cordon_host_facts_lookup (host->facts, "/bin");
  assert_int_equal (info->kind, CORDON_PATH_SYMLINK);
  assert_string_equal (info->link_target, "usr/bin");
}

static void
test_host_facts_resolves_a_path_through_a_sysroot_relative_symlink (void **state)
{
  /* /bin -> usr/bin is relative, so it stays inside the sysroot. */
  assert_int_equal (kind_of (*state, "/bin/sh"), CORDON_PATH_FILE);
}

static void
test_host_facts_lookup_of_an_unstatted_path_is_null (void **state)
{
  FixtureHost *host = *state;

  assert_null (cordon_host_facts_lookup (host->facts, "/etc/passwd"));
}

static void
test_host_facts_expands_a_glob_into_sorted_matches (void **state)
{
  FixtureHost *host = *state;
  GPtrArray *m;

  /* Created out of order: the result must not depend on readdir order. */
  fixture_host_add_socket (host, "/run/user/1000/wayland-10");
  fixture_host_add_socket (host, "/run/user/1000/wayland-0");
  fixture_host_add_socket (host, "/run/user/1000/wayland-1");
  fixture_host_add_file (host, "/run/user/1000/wayland-0.lock");
  cordon_host_facts_glob (host->facts, "/run/user/1000/wayland-?");
  cordon_host_facts_glob (host->facts, "/run/user/1000/wayland-*");
  m = cordon_host_facts_glob_matches (host->facts, "/run/user/1000/wayland-*");
  assert_non_null (m);
  assert_int_equal (m->len, 4);
  assert_string_equal (g_ptr_array_index (m, 0), "/run/user/1000/wayland-0");
  assert_string_equal (g_ptr_array_index (m, 1), "/run/user/1000/wayland-0.lock");
  assert_string_equal (g_ptr_array_index (m, 2), "/run/user/1000/wayland-1");
  assert_string_equal (g_ptr_array_index (m, 3), "/run/user/1000/wayland-10");
  m = cordon_host_facts_glob_matches (host->facts, "/run/user/1000/wayland-?");
  assert_int_equal (m->len, 2);
}

static void
test_host_facts_expands_a_glob_in_a_middle_component (void **state)
{
  FixtureHost *host = *state;
  GPtrArray *m;

  fixture_host_add_socket (host, "/tmp/ssh-b/agent.2");
  fixture_host_add_socket (host, "/tmp/ssh-a/agent.1");
  cordon_host_facts_glob (host->facts, "/tmp/ssh-*/agent.*");
  m = cordon_host_facts_glob_matches (host->facts, "/tmp/ssh-*/agent.*");
  assert_int_equal (m->len, 2);
  assert_string_equal (g_ptr_array_index (m, 0), "/tmp/ssh-a/agent.1");
  assert_string_equal (g_ptr_array_index (m, 1), "/tmp/ssh-b/agent.2");
}

static void
test_host_facts_stats_every_glob_match (void **state)
{
  FixtureHost *host = *state;
  const CordonPathInfo *info;

  cordon_host_facts_glob (host->facts, "/tmp/.X11-unix/X*");
  info = cordon_host_facts_lookup (host->facts, "/tmp/.X11-unix/X0");
  assert_non_null (info);
  assert_int_equal (info->kind, CORDON_PATH_SOCKET);
}

static void
test_host_facts_glob_matching_nothing_gives_an_empty_list (void **state)
{
  FixtureHost *host = *state;
  GPtrArray *m;

  cordon_host_facts_glob (host->facts, "/run/user/1000/pipewire-*");
  m = cordon_host_facts_glob_matches (host->facts, "/run/user/1000/pipewire-*");
  assert_non_null (m);
  assert_int_equal (m->len, 0);
}

static void
test_host_facts_takes_home_from_the_environment (void **state)
{
  FixtureHost *host = *state;

  assert_string_equal (host->facts->home, FIXTURE_HOME);
}

static void
test_host_facts_takes_xdg_runtime_dir_from_the_environment (void **state)
{
  FixtureHost *host = *state;

  assert_string_equal (host->facts->xdg_runtime_dir, FIXTURE_XDG_RUNTIME_DIR);
}

static void
test_host_facts_leaves_xdg_runtime_dir_unset_when_the_environment_lacks_it (void **state)
{
  const char * const extra[] = { "XDG_RUNTIME_DIR", NULL };
  g_autoptr(FixtureHost) host = fixture_host_new_full (1000, extra, NULL);

  assert_null (host->facts->xdg_runtime_dir);
}

static void
test_host_facts_defaults_tmpdir_to_slash_tmp (void **state)
{
  FixtureHost *host = *state;

  assert_null (cordon_host_facts_getenv (host->facts, "TMPDIR"));
  assert_string_equal (host->facts->tmpdir, "/tmp");
}

static void
test_host_facts_takes_an_absolute_tmpdir_normalized (void **state)
{
  const char * const extra[] = { "TMPDIR=/var//tmp/", NULL };
  g_autoptr(FixtureHost) host = fixture_host_new_full (1000, extra, NULL);

  assert_string_equal (host->facts->tmpdir, "/var/tmp");
}

static void
test_host_facts_ignores_a_relative_tmpdir (void **state)
{
  const char * const extra[] = { "TMPDIR=scratch", NULL };
  g_autoptr(FixtureHost) host = fixture_host_new_full (1000, extra, NULL);

  assert_string_equal (host->facts->tmpdir, "/tmp");
}

static void
test_host_facts_canonicalizes_the_workdir (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new_full (1000, NULL, "/home//alice/./work/../work/");

  assert_string_equal (host->facts->workdir, FIXTURE_WORKDIR);
}

static void
test_host_facts_resolves_a_relative_workdir_against_the_current_directory (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new_full (1000, NULL, "sub/dir");
  g_autofree char *cwd = g_get_current_dir ();
  g_autofree char *expected = g_build_filename (cwd, "sub", "dir", NULL);

  assert_true (g_path_is_absolute (host->facts->workdir));
  assert_string_equal (host->facts->workdir, expected);
}

static void
test_host_facts_sorts_the_environment_by_name (void **state)
{
  FixtureHost *host = *state;
  guint n = g_strv_length (host->facts->env);

  assert_int_equal (n, g_strv_length ((char **) fixture_host_envp ()));
  for (guint i = 1; i < n; i++)
    assert_true (strcmp (host->facts->env[i - 1], host->facts->env[i]) < 0);
}

/* The facts' getenv searches the sorted environment: each name finds
 * what g_environ_getenv finds in it, beside names that sort between "A="
 * and "AB=" ("A1", "A_"), a name set twice (the first in sorted order)
 * and names that are not there. */
static void
test_host_facts_getenv_finds_what_g_environ_getenv_finds (void **state)
{
  FixtureHost *host = *state;
  const char * const envp[] = { "AB=3", "A=1", "A_=4", "A1=2", "DUP=second", "DUP=first", "Z=", "HOME=/home/alice", NULL };
  const char * const names[] = { "A", "A1", "AB", "A_", "DUP", "Z", "HOME", "A2", "B", "", "ZZ", "AA", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonHostFacts) facts = cordon_host_facts_new (host->root, envp, FIXTURE_WORKDIR, &error);

  assert_non_null (facts);
  for (guint i = 0; names[i] != NULL; i++)
    {
      const char *got = cordon_host_facts_getenv (facts, names[i]);
      const char *want = g_environ_getenv (facts->env, names[i]);

      assert_string_equal (got != NULL ? got : "(unset)", want != NULL ? want : "(unset)");
    }
  assert_string_equal (cordon_host_facts_getenv (facts, "DUP"), "first");
}

static void
test_host_facts_takes_the_bwrap_path_from_cordon_bwrap (void **state)
{
  FixtureHost *host = *state;
  const char * const envp[] = { "HOME=/home/alice", "CORDON_BWRAP=/opt/bw/bin/bwrap", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonHostFacts) facts = cordon_host_facts_new (host->root, envp, FIXTURE_WORKDIR, &error);

  assert_non_null (facts);
  assert_string_equal (facts->bwrap_path, "/opt/bw/bin/bwrap");
}

static void
test_host_facts_gives_the_uid_as_a_variable (void **state)
{
  FixtureHost *host = *state;
  char uid_buf[16];
  CordonVars vars;

  cordon_host_facts_get_vars (host->facts, uid_buf, &vars);
  assert_string_equal (vars.values[CORDON_VAR_UID], "1000");
  assert_string_equal (vars.values[CORDON_VAR_HOME], FIXTURE_HOME);
  assert_string_equal (vars.values[CORDON_VAR_WORKDIR], FIXTURE_WORKDIR);
  assert_string_equal (vars.values[CORDON_VAR_TMPDIR], "/tmp");
  assert_string_equal (vars.values[CORDON_VAR_XDG_RUNTIME_DIR], FIXTURE_XDG_RUNTIME_DIR);
}

static CordonPolicy *
load (const char *text)
{
  g_autoptr(GError) error = NULL;
  CordonPolicy *policy = fixture_load_text (text, NULL, &error);

  assert_null (error);
  assert_non_null (policy);
  return policy;
}

static void
test_host_facts_scan_covers_every_path_of_a_catalog_socket (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPolicy) policy = load ("[sockets]\nmask=@docker\n");
  const CordonPathInfo *system, *user;

  cordon_host_facts_scan_policy (host->facts, policy);
  system = cordon_host_facts_lookup (host->facts, "/run/docker.sock");
  user = cordon_host_facts_lookup (host->facts, "/run/user/1000/docker.sock");
  assert_non_null (system);
  assert_int_equal (system->kind, CORDON_PATH_SOCKET);
  assert_non_null (user);
  assert_int_equal (user->kind, CORDON_PATH_ABSENT);
}

static void
test_host_facts_scan_expands_the_glob_of_a_catalog_socket (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPolicy) policy = load ("[sockets]\nmask=@x11\n");
  GPtrArray *m;

  cordon_host_facts_scan_policy (host->facts, policy);
  m = cordon_host_facts_glob_matches (host->facts, "/tmp/.X11-unix/X*");
  assert_non_null (m);
  assert_int_equal (m->len, 1);
  assert_string_equal (g_ptr_array_index (m, 0), "/tmp/.X11-unix/X0");
}

static void
test_host_facts_scan_covers_the_sockets_an_allow_names (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPolicy) policy = load ("[sockets]\nallow=@dbus-session\n");

  const CordonPathInfo *info;

  cordon_host_facts_scan_policy (host->facts, policy);
  info = cordon_host_facts_lookup (host->facts, "/run/user/1000/bus");
  assert_non_null (info);
  assert_int_equal (info->kind, CORDON_PATH_SOCKET);
}

static void
test_host_facts_scan_covers_filesystem_and_secret_paths (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPolicy) policy = load ("[filesystem]\n"
                                         "writable=${WORKDIR}\n"
                                         "read-only-try=/opt\n"
                                         "tmpfs=/tmp\n"
                                         "[secrets]\n"
                                         "mask=${HOME}/.netrc;${HOME}/.aws/*\n");

  cordon_host_facts_scan_policy (host->facts, policy);
  assert_int_equal (cordon_host_facts_lookup (host->facts, FIXTURE_WORKDIR)->kind, CORDON_PATH_DIR);
  assert_int_equal (cordon_host_facts_lookup (host->facts, "/opt")->kind, CORDON_PATH_ABSENT);
  assert_int_equal (cordon_host_facts_lookup (host->facts, "/tmp")->kind, CORDON_PATH_DIR);
  assert_int_equal (cordon_host_facts_lookup (host->facts, "/home/alice/.netrc")->kind, CORDON_PATH_FILE);
  assert_int_equal (cordon_host_facts_glob_matches (host->facts, "/home/alice/.aws/*")->len, 1);
}

static void
test_host_facts_scan_covers_the_entries_of_a_minimal_root (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPolicy) policy = load ("[filesystem]\nroot=minimal\n");
  static const char * const entries[] = {
    "/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
  };

  cordon_host_facts_scan_policy (host->facts, policy);
  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    assert_non_null (cordon_host_facts_lookup (host->facts, entries[i]));
  assert_int_equal (cordon_host_facts_lookup (host->facts, "/lib32")->kind, CORDON_PATH_ABSENT);
}

static void
test_host_facts_scan_stats_nothing_for_an_unset_variable (void **state)
{
  const char * const extra[] = { "XDG_RUNTIME_DIR", NULL };
  g_autoptr(FixtureHost) host = fixture_host_new_full (1000, extra, NULL);
  g_autoptr(CordonPolicy) policy = load ("[sockets]\nmask=@dbus-session\n");
  GHashTableIter iter;
  gpointer key;

  cordon_host_facts_scan_policy (host->facts, policy);
  g_hash_table_iter_init (&iter, host->facts->paths);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      assert_null (strchr (key, '$'));
      assert_string_not_equal (key, "/bus");
    }
}

/* D-Bus clients try each address of the list: the scan stats every
 * socket one names, not only the first. */
static void
test_host_facts_scan_covers_every_socket_a_variable_names (void **state)
{
  const char * const extra[] = {
    "DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus;unix:path=/tmp/dbus-fallback", NULL
  };
  g_autoptr(FixtureHost) host = fixture_host_new_full (1000, extra, NULL);
  g_autoptr(CordonPolicy) policy = load ("[sockets]\nmask=@dbus-session\n");
  const CordonPathInfo *first, *fallback;

  fixture_host_add_socket (host, "/tmp/dbus-fallback");
  cordon_host_facts_scan_policy (host->facts, policy);
  first = cordon_host_facts_lookup (host->facts, "/run/user/1000/bus");
  fallback = cordon_host_facts_lookup (host->facts, "/tmp/dbus-fallback");
  assert_non_null (first);
  assert_non_null (fallback);
  assert_int_equal (fallback->kind, CORDON_PATH_SOCKET);
}

static void
test_host_facts_names_every_path_kind (void **state)
{
  assert_string_equal (cordon_path_kind_name (CORDON_PATH_ABSENT), "absent");
  assert_string_equal (cordon_path_kind_name (CORDON_PATH_FILE), "file");
  assert_string_equal (cordon_path_kind_name (CORDON_PATH_DIR), "directory");
  assert_string_equal (cordon_path_kind_name (CORDON_PATH_SYMLINK), "symlink");
  assert_string_equal (cordon_path_kind_name (CORDON_PATH_SOCKET), "socket");
  assert_string_equal (cordon_path_kind_name (CORDON_PATH_OTHER), "other");
}

#define T(f) cmocka_unit_test_setup_teardown (f, fixture_host_setup, fixture_host_teardown)

/* The version bwrap gives of itself; none for what is no bwrap. */
static void
test_host_facts_reads_the_version_of_bwrap (void **state)
{
  g_autofree char *version = cordon_host_bwrap_version ("/usr/bin/bwrap");
  g_autofree char *missing = cordon_host_bwrap_version ("/nonexistent/bwrap");
  g_autofree char *failing = cordon_host_bwrap_version ("/bin/false");

  assert_non_null (version);
  assert_true (g_str_has_prefix (version, "bubblewrap "));
  assert_null (strchr (version, '\n'));
  assert_null (missing);
  assert_null (failing);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    T (test_host_facts_reports_a_regular_file_as_file),
    T (test_host_facts_reports_a_directory_as_dir),
    T (test_host_facts_reports_a_unix_socket_as_socket),
    T (test_host_facts_reports_a_missing_path_as_absent),
    T (test_host_facts_reports_a_symlink_with_its_target),
    T (test_host_facts_also_stats_the_target_of_a_symlink),
    T (test_host_facts_does_not_follow_a_top_level_symlink),
    T (test_host_facts_resolves_a_path_through_a_sysroot_relative_symlink),
    T (test_host_facts_takes_a_protected_directory_gone_since_seen_for_absent),
    T (test_host_facts_lookup_of_an_unstatted_path_is_null),
    T (test_host_facts_expands_a_glob_into_sorted_matches),
    T (test_host_facts_expands_a_glob_in_a_middle_component),
    T (test_host_facts_stats_every_glob_match),
    T (test_host_facts_glob_matching_nothing_gives_an_empty_list),
    T (test_host_facts_takes_home_from_the_environment),
    T (test_host_facts_takes_xdg_runtime_dir_from_the_environment),
    cmocka_unit_test (test_host_facts_leaves_xdg_runtime_dir_unset_when_the_environment_lacks_it),
    T (test_host_facts_defaults_tmpdir_to_slash_tmp),
    cmocka_unit_test (test_host_facts_takes_an_absolute_tmpdir_normalized),
    cmocka_unit_test (test_host_facts_ignores_a_relative_tmpdir),
    cmocka_unit_test (test_host_facts_canonicalizes_the_workdir),
    cmocka_unit_test (test_host_facts_resolves_a_relative_workdir_against_the_current_directory),
    T (test_host_facts_sorts_the_environment_by_name),
    T (test_host_facts_getenv_finds_what_g_environ_getenv_finds),
    T (test_host_facts_takes_the_bwrap_path_from_cordon_bwrap),
    T (test_host_facts_gives_the_uid_as_a_variable),
    T (test_host_facts_scan_covers_every_path_of_a_catalog_socket),
    T (test_host_facts_scan_expands_the_glob_of_a_catalog_socket),
    T (test_host_facts_scan_covers_the_sockets_an_allow_names),
    T (test_host_facts_scan_covers_filesystem_and_secret_paths),
    T (test_host_facts_scan_covers_the_entries_of_a_minimal_root),
    cmocka_unit_test (test_host_facts_scan_stats_nothing_for_an_unset_variable),
    cmocka_unit_test (test_host_facts_scan_covers_every_socket_a_variable_names),
    cmocka_unit_test (test_host_facts_names_every_path_kind),
    cmocka_unit_test (test_host_facts_reads_the_version_of_bwrap),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
