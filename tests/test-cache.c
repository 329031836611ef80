/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-cache: [cache] use= (src/cache.c, and compile's binds of it). The
 * directory of a policy as a file name; the directories made below a
 * real temporary cache home, and a symlink in their place refused, not
 * followed; compile's binds where each tool looks in a scratch home,
 * the variables naming them, and the refusals: a home that is not
 * scratch, enable=false (the control: nothing bound). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "cache.h"
#include "fixture-host.h"
#include "plan.h"

static void
test_cache_policy_dir_is_a_file_name_with_the_name_s_hash (void **state)
{
  g_autofree char *trial = cordon_cache_policy_dir ("trial");
  g_autofree char *file = cordon_cache_policy_dir ("/etc/x/my pol.policy");
  g_autofree char *other = cordon_cache_policy_dir ("/home/y/my pol.policy");
  g_autofree char *dot = cordon_cache_policy_dir ("/p/.policy");

  assert_true (g_str_has_prefix (trial, "trial-") && strlen (trial) == strlen ("trial-") + 8);
  assert_true (g_str_has_prefix (file, "my_pol-") && strlen (file) == strlen ("my_pol-") + 8);
  assert_string_not_equal (file, other);
  assert_true (dot[0] == '_' && strchr (dot, '/') == NULL);
}

static void
test_cache_prepare_makes_each_directory_of_the_words_once (void **state)
{
  g_autofree char *root = g_dir_make_tmp ("cordon-cache-XXXXXX", NULL);
  const char * const uses[] = { "go", "pip", "go", NULL };
  g_autoptr(GPtrArray) dirs = cordon_cache_prepare (root, "/home/u/.cache", "trial", uses, NULL);
  g_autofree char *policy = cordon_cache_policy_dir ("trial");
  struct stat st;

  assert_int_equal (dirs->len, 3);
  for (guint i = 0; i < dirs->len; i++)
    {
      const CordonCacheDir *d = g_ptr_array_index (dirs, i);
      g_autofree char *want = g_build_filename ("/home/u/.cache/cordon/caches", policy, d->entry->dir, NULL);
      g_autofree char *real = g_strconcat (root, d->path, NULL);

      assert_null (d->error);
      assert_string_equal (d->path, want);
      assert_int_equal (stat (real, &st), 0);
      assert_true (S_ISDIR (st.st_mode));
      assert_int_equal (st.st_mode & 07777, 0700);
    }
  assert_string_equal (((CordonCacheDir *) g_ptr_array_index (dirs, 0))->entry->dir, "pip");
  fixture_rm_rf (root);
}

static void
test_cache_prepare_refuses_a_symlink_in_place_of_a_directory (void **state)
{
  g_autofree char *root = g_dir_make_tmp ("cordon-cache-XXXXXX", NULL);
  g_autofree char *caches = g_build_filename (root, "home/u/.cache/cordon", NULL);
  g_autofree char *link = g_build_filename (caches, "caches", NULL);
  g_autofree char *elsewhere = g_build_filename (root, "elsewhere", NULL);
  const char * const uses[] = { "npm", NULL };
  g_autoptr(GPtrArray) dirs = NULL;
  const CordonCacheDir *d;
  g_autoptr(GDir) left = NULL;

  assert_int_equal (g_mkdir_with_parents (caches, 0700), 0);
  assert_int_equal (g_mkdir_with_parents (elsewhere, 0700), 0);
  assert_int_equal (symlink (elsewhere, link), 0);
  dirs = cordon_cache_prepare (root, "/home/u/.cache", "trial", uses, NULL);
  d = g_ptr_array_index (dirs, 0);
  assert_null (d->path);
  assert_non_null (d->error);
  left = g_dir_open (elsewhere, 0, NULL);
  assert_null (g_dir_read_name (left));
  fixture_rm_rf (root);
}

/* --- compile's binds ----------------------------------------------------- */

static const CordonOp *
bind_at (const CordonPlan *plan,
         const char *dest)
{
  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);

      if (op->kind == CORDON_OP_BIND && g_strcmp0 (op->dest, dest) == 0)
        return op;
    }
  return NULL;
}

static gboolean
envp_has (const CordonPlan *plan,
          const char *entry)
{
  return g_ptr_array_find_with_equal_func (plan->envp, entry, g_str_equal, NULL);
}

static void
test_cache_compile_binds_each_cache_where_its_tool_looks (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[filesystem]\ntmpfs=${HOME}\n[cache]\nuse=go;npm\n");
  const CordonOp *go = bind_at (plan, FIXTURE_HOME "/.cache/go-build");
  const CordonOp *mod = bind_at (plan, FIXTURE_HOME "/go/pkg/mod");
  const CordonOp *npm = bind_at (plan, FIXTURE_HOME "/.npm");

  assert_non_null (go);
  assert_non_null (mod);
  assert_non_null (npm);
  assert_true (g_str_has_prefix (go->src, FIXTURE_HOME "/.cache/cordon/caches/"));
  assert_true (g_str_has_suffix (go->src, "/go-build"));
  assert_int_equal (go->key, CORDON_KEY_CACHE_USE);
  assert_int_equal (go->rule.line, 4);
  assert_true (envp_has (plan, "GOCACHE=" FIXTURE_HOME "/.cache/go-build"));
  assert_true (envp_has (plan, "GOMODCACHE=" FIXTURE_HOME "/go/pkg/mod"));
  assert_true (envp_has (plan, "npm_config_cache=" FIXTURE_HOME "/.npm"));
  assert_true (cordon_plan_is_cache (plan, go->src));
}

static void
test_cache_compile_binds_nothing_with_enable_false (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[filesystem]\ntmpfs=${HOME}\n[cache]\nuse=go\n"
                                                   "enable=false\n");

  assert_null (bind_at (plan, FIXTURE_HOME "/.cache/go-build"));
  assert_false (envp_has (plan, "GOCACHE=" FIXTURE_HOME "/.cache/go-build"));
}

static void
test_cache_compile_refuses_a_home_that_is_not_scratch (void **state)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPlan) plan = fixture_compile_text (*state, "[filesystem]\nread-only=${HOME}\n[cache]\nuse=pip\n",
                                                     &error);

  assert_null (plan);
  assert_non_null (error);
  assert_non_null (strstr (error->message, "'pip' needs a scratch home (tmpfs=${HOME}, as trial has)"));
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_cache_policy_dir_is_a_file_name_with_the_name_s_hash),
    cmocka_unit_test (test_cache_prepare_makes_each_directory_of_the_words_once),
    cmocka_unit_test (test_cache_prepare_refuses_a_symlink_in_place_of_a_directory),
    cmocka_unit_test_setup_teardown (test_cache_compile_binds_each_cache_where_its_tool_looks,
                                     fixture_host_setup, fixture_host_teardown),
    cmocka_unit_test_setup_teardown (test_cache_compile_binds_nothing_with_enable_false,
                                     fixture_host_setup, fixture_host_teardown),
    cmocka_unit_test_setup_teardown (test_cache_compile_refuses_a_home_that_is_not_scratch,
                                     fixture_host_setup, fixture_host_teardown),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
