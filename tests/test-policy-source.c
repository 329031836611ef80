/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-policy-source: where a policy name is looked for. The user's
 * directory comes first, then the system's two, then the embedded set;
 * CORDON_POLICY_NOSYSTEM drops the system's two and nothing else, which
 * is what lets the test suite test the build tree's policies on a host
 * where cordon is installed. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "expect-diag.h"
#include "fixture-host.h"
#include "policy-source.h"

#define SYSTEM_DIR CORDON_SYSCONFDIR "/policies"
#define DATA_DIR CORDON_DATADIR "/policies"

/* Asserts that `envp` makes the search directories `expected` (NULL-
 * terminated), in order. */
static void
assert_dirs (const char * const *envp,
             const char * const *expected)
{
  g_autoptr(CordonPolicySource) source = cordon_policy_source_new (envp);
  const char * const *dirs = cordon_policy_source_get_dirs (source);
  guint i;

  for (i = 0; expected[i] != NULL; i++)
    {
      assert_non_null (dirs[i]);
      assert_string_equal (dirs[i], expected[i]);
    }
  assert_null (dirs[i]);
}

static void
test_a_name_is_searched_in_the_users_then_the_systems_dirs (void **state)
{
  const char *envp[] = { "XDG_CONFIG_HOME=/cfg", NULL };
  const char *expected[] = { "/cfg/cordon/policies", SYSTEM_DIR, DATA_DIR, NULL };

  assert_dirs (envp, expected);
}

static void
test_home_locates_the_users_dir_without_xdg_config_home (void **state)
{
  const char *envp[] = { "HOME=/h", "XDG_CONFIG_HOME=relative", NULL };
  const char *expected[] = { "/h/.config/cordon/policies", SYSTEM_DIR, DATA_DIR, NULL };

  assert_dirs (envp, expected);
}

static void
test_nosystem_leaves_out_the_system_dirs_only (void **state)
{
  const char *envp[] = { "XDG_CONFIG_HOME=/cfg", "CORDON_POLICY_NOSYSTEM=1", NULL };
  const char *expected[] = { "/cfg/cordon/policies", NULL };

  assert_dirs (envp, expected);
}

static void
test_nosystem_empty_or_zero_keeps_the_system_dirs (void **state)
{
  const char *empty[] = { "CORDON_POLICY_NOSYSTEM=", NULL };
  const char *zero[] = { "CORDON_POLICY_NOSYSTEM=0", NULL };
  const char *expected[] = { SYSTEM_DIR, DATA_DIR, NULL };

  assert_dirs (empty, expected);
  assert_dirs (zero, expected);
}

static void
test_nosystem_with_no_users_dir_resolves_every_name_to_the_embedded_set (void **state)
{
  const char *envp[] = { "CORDON_POLICY_NOSYSTEM=yes", NULL };
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPolicy) policy = cordon_policy_source_load ("trial", envp, diags, &error);

  assert_non_null (policy);
  /* trial and base, which it includes by name. */
  assert_true (cordon_policy_n_sources (policy) >= 2);
  for (guint i = 0; i < cordon_policy_n_sources (policy); i++)
    assert_true (g_str_has_prefix (cordon_policy_source_file (policy, i), "<embedded>/"));
}

static void
test_nosystem_keeps_the_users_policy_before_the_embedded_one (void **state)
{
  g_autofree char *config = g_dir_make_tmp ("cordon-test-policy-source.XXXXXX", NULL);
  g_autofree char *dir = g_build_filename (config, "cordon", "policies", NULL);
  g_autofree char *file = g_build_filename (dir, "trial.policy", NULL);
  g_autofree char *xdg = g_strconcat ("XDG_CONFIG_HOME=", config, NULL);
  const char *envp[] = { xdg, "CORDON_POLICY_NOSYSTEM=1", NULL };
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPolicy) policy = NULL;

  assert_non_null (config);
  assert_int_equal (g_mkdir_with_parents (dir, 0700), 0);
  assert_true (g_file_set_contents (file, "[policy]\ndescription=the user's\n", -1, NULL));
  policy = cordon_policy_source_load ("trial", envp, diags, &error);
  fixture_rm_rf (config);
  assert_non_null (policy);
  assert_int_equal (cordon_policy_n_sources (policy), 1);
  assert_string_equal (cordon_policy_source_file (policy, 0), file);
}

/* A lookup from an empty temporary directory, with the user's policy
 * directory under another and the system's left out, so that neither
 * the caller's directory nor the host's installed policies take part. */
typedef struct
{
  char *saved_cwd;
  char *cwd;
  char *config;
  char *xdg;
  const char *envp[3];
} Lookup;

static int
setup_lookup (void **state)
{
  Lookup *l = g_new0 (Lookup, 1);

  l->saved_cwd = g_get_current_dir ();
  l->cwd = g_dir_make_tmp ("cordon-test-policy-source-cwd.XXXXXX", NULL);
  l->config = g_dir_make_tmp ("cordon-test-policy-source-config.XXXXXX", NULL);
  assert_non_null (l->cwd);
  assert_non_null (l->config);
  l->xdg = g_strconcat ("XDG_CONFIG_HOME=", l->config, NULL);
  l->envp[0] = l->xdg;
  l->envp[1] = "CORDON_POLICY_NOSYSTEM=1";
  assert_int_equal (chdir (l->cwd), 0);
  *state = l;
  return 0;
}

static int
teardown_lookup (void **state)
{
  Lookup *l = *state;

  assert_int_equal (chdir (l->saved_cwd), 0);
  fixture_rm_rf (l->cwd);
  fixture_rm_rf (l->config);
  g_free (l->saved_cwd);
  g_free (l->cwd);
  g_free (l->config);
  g_free (l->xdg);
  g_free (l);
  return 0;
}

/* The message of the not-found error loading `ref` gives; the load must
 * fail, with no policy. */
static char *
not_found_message (Lookup *l,
                   const char *ref)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPolicy) policy = cordon_policy_source_load (ref, l->envp, diags, &error);

  assert_null (policy);
  assert_non_null (error);
  assert_true (g_error_matches (error, CORDON_ERROR, CORDON_ERROR_NOT_FOUND));
  return g_strdup (error->message);
}

static void
assert_contains (const char *message,
                 const char *fragment)
{
  if (strstr (message, fragment) == NULL)
    fail_msg ("'%s' does not contain '%s'", message, fragment);
}

static void
assert_lacks (const char *message,
              const char *fragment)
{
  if (strstr (message, fragment) != NULL)
    fail_msg ("'%s' contains '%s'", message, fragment);
}

static void
write_cwd_policy (const char *file)
{
  assert_true (g_file_set_contents (file, "[policy]\ndescription=the current directory's\n", -1, NULL));
}

static void
test_a_misspelt_name_suggests_the_closest_known_name (void **state)
{
  g_autofree char *message = not_found_message (*state, "trail");

  assert_contains (message, "no policy named 'trail'");
  assert_contains (message, "; did you mean 'trial'?");
}

static void
test_a_name_near_no_known_one_suggests_nothing (void **state)
{
  g_autofree char *message = not_found_message (*state, "zebra-quux");

  assert_contains (message, "no policy named 'zebra-quux'");
  assert_lacks (message, "did you mean");
  assert_lacks (message, "current directory");
}

static void
test_a_name_in_the_users_dir_is_suggested_for_a_typo (void **state)
{
  Lookup *l = *state;
  g_autofree char *dir = g_build_filename (l->config, "cordon", "policies", NULL);
  g_autofree char *file = g_build_filename (dir, "webserver.policy", NULL);
  g_autofree char *message = NULL;

  assert_int_equal (g_mkdir_with_parents (dir, 0700), 0);
  assert_true (g_file_set_contents (file, "[policy]\n", -1, NULL));
  message = not_found_message (l, "websevrer");
  assert_contains (message, "; did you mean 'webserver'?");
}

static void
test_a_name_with_its_file_in_the_cwd_names_that_file_but_does_not_load_it (void **state)
{
  g_autofree char *message = NULL;

  write_cwd_policy ("mine.policy");
  message = not_found_message (*state, "mine");
  assert_contains (message, "; ./mine.policy is in the current directory: -p ./mine.policy to use it");
  assert_lacks (message, "did you mean");
}

/* A link or a FIFO of that name is not offered: only a regular file of
 * the caller's own. */
static void
test_a_name_with_a_link_or_fifo_in_the_cwd_names_neither (void **state)
{
  g_autofree char *linked = NULL;
  g_autofree char *fifo = NULL;

  write_cwd_policy ("real.policy");
  assert_int_equal (symlink ("real.policy", "linked.policy"), 0);
  assert_int_equal (mkfifo ("fifo.policy", 0600), 0);
  linked = not_found_message (*state, "linked");
  fifo = not_found_message (*state, "fifo");
  assert_lacks (linked, "current directory");
  assert_lacks (fifo, "current directory");
}

static void
test_a_known_name_resolves_to_the_embedded_copy_not_to_the_cwd (void **state)
{
  Lookup *l = *state;
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPolicy) policy = NULL;

  write_cwd_policy ("trial.policy");
  policy = cordon_policy_source_load ("trial", l->envp, diags, &error);
  assert_non_null (policy);
  assert_string_equal (cordon_policy_source_file (policy, 0), "<embedded>/trial.policy");
}

static void
test_an_include_of_a_misspelt_name_suggests_the_closest_known_name (void **state)
{
  Lookup *l = *state;
  g_autofree char *file = g_build_filename (l->cwd, "outer.policy", NULL);
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPolicy) policy = NULL;

  assert_true (g_file_set_contents (file, "[policy]\ninclude=trail\n", -1, NULL));
  policy = cordon_policy_source_load ("./outer.policy", l->envp, diags, &error);
  assert_null (error);
  expect_diag (diags, CORDON_SEVERITY_ERROR,
               "cannot include 'trail': no policy named 'trail' (searched the policy directories "
               "and the embedded set); did you mean 'trial'?",
               file, 2, 9);
}

static void
test_a_missing_policy_file_named_like_a_known_policy_suggests_that_name (void **state)
{
  g_autofree char *message = not_found_message (*state, "trial.policy");

  assert_contains (message, "trial.policy: ");
  assert_contains (message, "; did you mean the policy named 'trial' (-p trial)?");
}

static void
test_a_missing_policy_file_named_like_no_policy_suggests_nothing (void **state)
{
  g_autofree char *message = not_found_message (*state, "zebra-quux.policy");

  assert_lacks (message, "did you mean");
}

static void
test_a_policy_file_in_the_cwd_loads_by_its_path (void **state)
{
  Lookup *l = *state;
  g_autofree char *cwd = g_get_current_dir ();
  g_autofree char *file = g_build_filename (cwd, "trial.policy", NULL);
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPolicy) policy = NULL;

  write_cwd_policy ("trial.policy");
  policy = cordon_policy_source_load ("trial.policy", l->envp, diags, &error);
  assert_null (error);
  assert_non_null (policy);
  assert_int_equal (cordon_policy_n_sources (policy), 1);
  assert_string_equal (cordon_policy_source_file (policy, 0), file);
}

#define LOOKUP(f) cmocka_unit_test_setup_teardown (f, setup_lookup, teardown_lookup)

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_a_name_is_searched_in_the_users_then_the_systems_dirs),
    cmocka_unit_test (test_home_locates_the_users_dir_without_xdg_config_home),
    cmocka_unit_test (test_nosystem_leaves_out_the_system_dirs_only),
    cmocka_unit_test (test_nosystem_empty_or_zero_keeps_the_system_dirs),
    cmocka_unit_test (test_nosystem_with_no_users_dir_resolves_every_name_to_the_embedded_set),
    cmocka_unit_test (test_nosystem_keeps_the_users_policy_before_the_embedded_one),
    LOOKUP (test_a_misspelt_name_suggests_the_closest_known_name),
    LOOKUP (test_a_name_near_no_known_one_suggests_nothing),
    LOOKUP (test_a_name_in_the_users_dir_is_suggested_for_a_typo),
    LOOKUP (test_a_name_with_its_file_in_the_cwd_names_that_file_but_does_not_load_it),
    LOOKUP (test_a_name_with_a_link_or_fifo_in_the_cwd_names_neither),
    LOOKUP (test_a_known_name_resolves_to_the_embedded_copy_not_to_the_cwd),
    LOOKUP (test_an_include_of_a_misspelt_name_suggests_the_closest_known_name),
    LOOKUP (test_a_missing_policy_file_named_like_a_known_policy_suggests_that_name),
    LOOKUP (test_a_missing_policy_file_named_like_no_policy_suggests_nothing),
    LOOKUP (test_a_policy_file_in_the_cwd_loads_by_its_path),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
