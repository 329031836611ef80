/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-mount-table: mountinfo read as a table. Verification asks it what
 * is on top at a mask's point, the socket catalog where else a socket
 * shows, and the report's check whether a path lies in a writable path's
 * file system tree, so a mount taken for another is a missed alias or a
 * mask believed mounted. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <glib.h>

#include "mount-table.h"

/* Mount 30 at /srv, 31 a bind of /srv/wd/sub at /mnt/alias (root
 * /wd/sub within /srv's file system), 40 and 41 stacked at /mnt/stack
 * in the table's order 41 before 40 (41 mounted on 40). */
static const char table[] =
  "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
  "30 22 8:2 / /srv rw,relatime shared:2 - ext4 /dev/sda2 rw\n"
  "31 22 8:2 /wd/sub /mnt/alias ro,relatime shared:2 - ext4 /dev/sda2 rw\n"
  "41 40 0:50 / /mnt/stack rw - tmpfs tmpfs rw\n"
  "40 22 0:49 / /mnt/stack rw - tmpfs tmpfs rw\n"
  "50 22 0:51 / /mnt/with\\040space rw - tmpfs tmpfs rw\n"
  "short line\n";

static void
test_mount_table_parses_every_field_and_skips_a_short_line (void **state)
{
  g_autoptr(GPtrArray) mounts = cordon_mount_table_parse (table);
  const CordonMount *m;

  assert_int_equal (mounts->len, 6);
  m = g_ptr_array_index (mounts, 2);
  assert_int_equal (m->id, 31);
  assert_int_equal (m->parent, 22);
  assert_string_equal (m->dev, "8:2");
  assert_string_equal (m->root, "/wd/sub");
  assert_string_equal (m->point, "/mnt/alias");
  assert_true (m->ro);
  assert_false (((CordonMount *) g_ptr_array_index (mounts, 1))->ro);
}

static void
test_mount_table_unescapes_a_space_in_a_point (void **state)
{
  g_autoptr(GPtrArray) mounts = cordon_mount_table_parse (table);

  assert_string_equal (((CordonMount *) g_ptr_array_index (mounts, 5))->point, "/mnt/with space");
}

static void
test_mount_table_top_at_is_the_one_nothing_there_is_mounted_on (void **state)
{
  g_autoptr(GPtrArray) mounts = cordon_mount_table_parse (table);

  assert_int_equal (cordon_mount_table_top_at (mounts, "/mnt/stack")->id, 41);
  assert_null (cordon_mount_table_top_at (mounts, "/mnt"));
}

static void
test_mount_table_holding_is_the_deepest_point_on_the_way (void **state)
{
  g_autoptr(GPtrArray) mounts = cordon_mount_table_parse (table);

  assert_int_equal (cordon_mount_table_holding (mounts, "/srv/wd/out")->id, 30);
  assert_int_equal (cordon_mount_table_holding (mounts, "/srv")->id, 30);
  /* "/srvx" is not below "/srv". */
  assert_int_equal (cordon_mount_table_holding (mounts, "/srvx/a")->id, 22);
  assert_int_equal (cordon_mount_table_holding (mounts, "/mnt/stack/f")->id, 41);
}

static void
test_mount_table_holding_is_null_for_an_empty_table (void **state)
{
  g_autoptr(GPtrArray) mounts = cordon_mount_table_parse (NULL);

  assert_null (cordon_mount_table_holding (mounts, "/a"));
}

static void
test_mount_table_inner_path_places_a_path_in_its_file_system (void **state)
{
  g_autoptr(GPtrArray) mounts = cordon_mount_table_parse (table);
  const CordonMount *alias_home = cordon_mount_table_holding (mounts, "/mnt/alias/x");
  const CordonMount *direct_home = cordon_mount_table_holding (mounts, "/srv/wd/sub/x");
  g_autofree char *alias = cordon_mount_table_inner_path (alias_home, "/mnt/alias/x");
  g_autofree char *direct = cordon_mount_table_inner_path (direct_home, "/srv/wd/sub/x");
  g_autofree char *top = cordon_mount_table_inner_path (g_ptr_array_index (mounts, 0), "/etc");
  g_autofree char *point = cordon_mount_table_inner_path (g_ptr_array_index (mounts, 2), "/mnt/alias");

  /* The alias and the path it shows are one place of one file system. */
  assert_string_equal (alias, "/wd/sub/x");
  assert_string_equal (direct, "/wd/sub/x");
  assert_string_equal (top, "/etc");
  assert_string_equal (point, "/wd/sub");
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_mount_table_parses_every_field_and_skips_a_short_line),
    cmocka_unit_test (test_mount_table_unescapes_a_space_in_a_point),
    cmocka_unit_test (test_mount_table_top_at_is_the_one_nothing_there_is_mounted_on),
    cmocka_unit_test (test_mount_table_holding_is_the_deepest_point_on_the_way),
    cmocka_unit_test (test_mount_table_holding_is_null_for_an_empty_table),
    cmocka_unit_test (test_mount_table_inner_path_places_a_path_in_its_file_system),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
