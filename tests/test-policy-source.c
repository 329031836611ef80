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

#include <glib.h>
#include <glib/gstdio.h>

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
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
