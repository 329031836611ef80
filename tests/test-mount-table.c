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

/* What a sandbox's mountinfo holds under a recursive bind of the host's /:
 * the host's /dev (61) and its /dev/shm (62), hidden by the sandbox's
 * /dev tmpfs (70, mounted on 61) and its sized /dev/shm (71); /proc
 * stacked the same way (63 the host's, 72 the sandbox's on it) with
 * /proc/sys bound over it (73). Two siblings at /opt (80, then 81
 * mounted after it on the same parent): the later is on top. */
static const char sandbox[] =
  "60 59 8:1 / / ro,relatime - ext4 /dev/sda1 rw\n"
  "61 60 0:5 / /dev ro,nosuid - devtmpfs udev rw,size=8g,nr_inodes=1\n"
  "62 61 0:25 / /dev/shm ro,nosuid - tmpfs tmpfs rw\n"
  "63 60 0:22 / /proc ro,nosuid - proc proc rw\n"
  "70 61 0:90 / /dev ro,nosuid - tmpfs tmpfs rw,mode=755\n"
  "71 70 0:91 / /dev/shm rw,nosuid - tmpfs tmpfs rw,size=65536k\n"
  "72 63 0:92 / /proc rw,nosuid - proc proc rw\n"
  "73 72 0:92 /sys /proc/sys ro,nosuid - proc proc rw\n"
  "80 60 0:93 / /opt rw shared:7 - tmpfs tmpfs rw,size=1024k\n"
  "81 60 0:94 / /opt rw - tmpfs tmpfs rw,size=2m\n";

static void
test_mount_table_sees_past_what_the_host_mounted_below (void **state)
{
  g_autoptr(GPtrArray) mounts = cordon_mount_table_parse (sandbox);

  /* The host's /dev/shm hangs from a /dev that is covered: not seen. */
  assert_int_equal (cordon_mount_table_top_at (mounts, "/dev/shm")->id, 71);
  assert_int_equal (cordon_mount_table_top_at (mounts, "/dev")->id, 70);
  /* A stack is passed through: /proc/sys hangs from the top of /proc's. */
  assert_int_equal (cordon_mount_table_top_at (mounts, "/proc")->id, 72);
  assert_int_equal (cordon_mount_table_top_at (mounts, "/proc/sys")->id, 73);
  assert_int_equal (cordon_mount_table_top_at (mounts, "/opt")->id, 81);
}

static void
test_mount_table_reads_the_file_system_type_and_a_tmpfs_size (void **state)
{
  g_autoptr(GPtrArray) mounts = cordon_mount_table_parse (sandbox);

  assert_string_equal (((CordonMount *) g_ptr_array_index (mounts, 5))->fstype, "tmpfs");
  assert_int_equal (((CordonMount *) g_ptr_array_index (mounts, 5))->size, 64 << 20);
  assert_int_equal (((CordonMount *) g_ptr_array_index (mounts, 4))->size, 0);
  assert_string_equal (((CordonMount *) g_ptr_array_index (mounts, 7))->fstype, "proc");
  /* After optional fields; in m as well as k. */
  assert_int_equal (((CordonMount *) g_ptr_array_index (mounts, 8))->size, 1 << 20);
  assert_int_equal (((CordonMount *) g_ptr_array_index (mounts, 9))->size, 2 << 20);
  assert_int_equal (((CordonMount *) g_ptr_array_index (mounts, 1))->size, G_GUINT64_CONSTANT (8) << 30);
}

/* A cover at a path between: the host's /tmp (107) with a tmpfs at
 * /tmp/twd (127) under it; the sandbox's /tmp (139, on 107) and its own
 * /tmp/twd (142, on 139). And a hidden host mount holding nothing: the
 * host's /dev/shm (62) under a /dev (61) the sandbox covered (70). */
static const char between[] =
  "100 99 8:1 / / ro - ext4 /dev/sda1 rw\n"
  "107 100 0:30 / /tmp ro - tmpfs tmpfs rw\n"
  "127 107 0:31 / /tmp/twd ro - tmpfs tmpfs rw,size=204800k\n"
  "139 107 0:40 / /tmp rw - tmpfs tmpfs rw\n"
  "142 139 0:41 / /tmp/twd rw - tmpfs tmpfs rw,size=32768k\n"
  "61 100 0:5 / /dev ro - devtmpfs udev rw\n"
  "62 61 0:25 / /dev/shm ro - tmpfs tmpfs rw\n"
  "70 61 0:90 / /dev rw - tmpfs tmpfs rw\n";

static void
test_mount_table_walks_a_path_as_the_kernel_does (void **state)
{
  g_autoptr(GPtrArray) mounts = cordon_mount_table_parse (between);

  assert_int_equal (cordon_mount_table_top_at (mounts, "/tmp/twd")->id, 142);
  assert_int_equal (cordon_mount_table_holding (mounts, "/tmp/twd/x")->id, 142);
  assert_int_equal (cordon_mount_table_holding (mounts, "/tmp/y")->id, 139);
  /* Nothing the sandbox sees is mounted at /dev/shm: it is /dev's. */
  assert_null (cordon_mount_table_top_at (mounts, "/dev/shm"));
  assert_int_equal (cordon_mount_table_holding (mounts, "/dev/shm/sock")->id, 70);
  assert_int_equal (cordon_mount_table_holding (mounts, "/etc/passwd")->id, 100);
}

/* Lines cut short: six fields and no tail (no type, no options), a tail
 * with a type alone, and one whose size= is not the first option. */
static const char short_tails[] =
  "1 0 8:1 / / ro\n"
  "2 1 0:9 / /a rw,nosuid - tmpfs\n"
  "3 1 0:10 / /b rw - tmpfs tmpfs rw,mode=700,size=8k\n"
  "4 1 0:11 / /c rwx\n";

static void
test_mount_table_reads_a_line_without_its_tail (void **state)
{
  g_autoptr(GPtrArray) mounts = cordon_mount_table_parse (short_tails);
  const CordonMount *m;

  assert_int_equal (mounts->len, 4);
  m = g_ptr_array_index (mounts, 0);
  assert_true (m->ro);
  assert_string_equal (m->fstype, "");
  assert_string_equal (m->super_opts, "");
  m = g_ptr_array_index (mounts, 1);
  assert_false (m->ro);
  assert_string_equal (m->fstype, "tmpfs");
  assert_string_equal (m->super_opts, "");
  m = g_ptr_array_index (mounts, 2);
  assert_string_equal (m->super_opts, "rw,mode=700,size=8k");
  assert_int_equal (m->size, 8 << 10);
  /* "rwx" is not "ro". */
  assert_false (((CordonMount *) g_ptr_array_index (mounts, 3))->ro);
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
    cmocka_unit_test (test_mount_table_sees_past_what_the_host_mounted_below),
    cmocka_unit_test (test_mount_table_reads_the_file_system_type_and_a_tmpfs_size),
    cmocka_unit_test (test_mount_table_walks_a_path_as_the_kernel_does),
    cmocka_unit_test (test_mount_table_reads_a_line_without_its_tail),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
