/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-userns-fork: when a child may share the memory of its root parent
 * after its change of ids: only where fs.suid_dumpable reads "0"; any
 * other value, an unreadable or odd setting, and it may not. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "userns-fork.h"

static int
may_share_with (const char *setting)
{
  g_autofree char *dir = g_dir_make_tmp ("test-userns-fork-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "suid_dumpable", NULL);
  int may;

  assert_non_null (dir);
  if (setting != NULL)
    assert_true (g_file_set_contents (path, setting, -1, NULL));
  may = cordon_userns_may_share_memory (path);
  g_unlink (path);
  g_rmdir (dir);
  return may;
}

static void
test_userns_fork_shares_memory_only_where_suid_dumpable_is_0 (void **state)
{
  assert_true (may_share_with ("0\n"));
  assert_false (may_share_with ("1\n"));
  assert_false (may_share_with ("2\n"));
}

static void
test_userns_fork_shares_no_memory_where_the_setting_is_unknown (void **state)
{
  assert_false (may_share_with (NULL));
  assert_false (may_share_with (""));
  assert_false (may_share_with ("0"));
  assert_false (may_share_with ("01\n"));
}

static void
test_userns_fork_reads_this_hosts_setting (void **state)
{
  g_autofree char *text = NULL;

  if (!g_file_get_contents ("/proc/sys/fs/suid_dumpable", &text, NULL, NULL))
    skip ();
  assert_int_equal (cordon_userns_may_share_memory ("/proc/sys/fs/suid_dumpable"), g_str_equal (text, "0\n"));
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_userns_fork_shares_memory_only_where_suid_dumpable_is_0),
    cmocka_unit_test (test_userns_fork_shares_no_memory_where_the_setting_is_unknown),
    cmocka_unit_test (test_userns_fork_reads_this_hosts_setting),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
