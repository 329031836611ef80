/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-cgroup: where a host's cgroups are, read from the text of
 * /proc/self/cgroup, mountinfo and /proc/meminfo, and the keeper's
 * counters after a run. A parent taken from the wrong mount is a cgroup
 * made where the limit binds nothing (or binds the host's other
 * processes); a counter misread is a report that says a sandbox was not
 * OOM-killed when it was. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>

#include "cgroup.h"

/* --- helpers ------------------------------------------------------------ */

typedef struct
{
  CordonCgroupHost host;
} Parsed;

static void
parsed_clear (Parsed *p)
{
  cordon_cgroup_host_clear (&p->host);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Parsed, parsed_clear)

static void
parse (Parsed *p,
       const char *proc_cgroup,
       const char *mountinfo,
       const char *meminfo)
{
  cordon_cgroup_host_parse (&p->host, proc_cgroup, mountinfo, meminfo);
}

/* --- the host's hierarchies -------------------------------------------- */

/* A hybrid host as a container runner has it (the machine these tests
 * were first written on): each v1 controller a hierarchy of its own,
 * mounted from its root, cordon's memory cgroup deep below; the v2
 * hierarchy at .../unified with no controller. */
static const char hybrid_cgroup[] =
  "9:name=systemd:/\n"
  "8:pids:/\n"
  "7:blkio:/\n"
  "4:memory:/process_api/abc\n"
  "3:cpuset:/\n"
  "2:cpuacct:/\n"
  "1:cpu:/\n"
  "0::/\n";

static const char hybrid_mountinfo[] =
  "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
  "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
  "33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct\n"
  "34 31 0:31 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset\n"
  "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
  "38 31 0:35 / /sys/fs/cgroup/blkio rw,relatime - cgroup cgroup rw,blkio\n"
  "39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids\n"
  "40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd\n"
  "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";

static void
test_cgroup_finds_each_v1_parent_of_a_hybrid_host_below_its_mount (void **state)
{
  g_auto(Parsed) p = { 0 };

  parse (&p, hybrid_cgroup, hybrid_mountinfo, NULL);
  assert_string_equal (p.host.parent[CORDON_CONTROLLER_MEMORY], "/sys/fs/cgroup/memory/process_api/abc");
  /* At a hierarchy's root: the mount point itself, not "point/". */
  assert_string_equal (p.host.parent[CORDON_CONTROLLER_PIDS], "/sys/fs/cgroup/pids");
  /* cpu is a word of its own: not the cpuset mount's. */
  assert_string_equal (p.host.parent[CORDON_CONTROLLER_CPU], "/sys/fs/cgroup/cpu");
  assert_string_equal (p.host.parent[CORDON_CONTROLLER_CPUACCT], "/sys/fs/cgroup/cpuacct");
  assert_string_equal (p.host.unified, "/sys/fs/cgroup/unified");
}

/* Pure: parse reads the text, never the host; which mechanism this is
 * (writable, as whom) is cordon_cgroup_host_find's. */
static void
test_cgroup_parse_fills_no_mechanism_and_nothing_writable (void **state)
{
  g_auto(Parsed) p = { 0 };

  parse (&p, hybrid_cgroup, hybrid_mountinfo, NULL);
  assert_int_equal (p.host.mechanism, CORDON_CGROUP_NONE);
  for (guint c = 0; c < CORDON_CONTROLLER_MAX; c++)
    assert_false (p.host.writable[c]);
  assert_false (p.host.memsw);
  assert_null (p.host.missing);
  assert_null (p.host.unified_controllers);
}

/* A container's cgroup namespace-less view: the hierarchy is mounted
 * from the container's own cgroup (root /docker/x), and
 * /proc/self/cgroup names paths of the whole hierarchy. */
static const char container_mountinfo[] =
  "500 400 0:32 /docker/x /sys/fs/cgroup/memory ro,nosuid - cgroup cgroup rw,memory\n";

static void
test_cgroup_shows_a_container_s_own_cgroup_at_the_mount_point (void **state)
{
  g_auto(Parsed) at_root = { 0 };
  g_auto(Parsed) below = { 0 };

  parse (&at_root, "4:memory:/docker/x\n", container_mountinfo, NULL);
  parse (&below, "4:memory:/docker/x/job\n", container_mountinfo, NULL);
  assert_string_equal (at_root.host.parent[CORDON_CONTROLLER_MEMORY], "/sys/fs/cgroup/memory");
  assert_string_equal (below.host.parent[CORDON_CONTROLLER_MEMORY], "/sys/fs/cgroup/memory/job");
}

static void
test_cgroup_finds_no_parent_outside_what_the_mount_shows (void **state)
{
  g_auto(Parsed) sibling = { 0 };
  g_auto(Parsed) prefix = { 0 };
  g_auto(Parsed) above = { 0 };

  parse (&sibling, "4:memory:/docker/y\n", container_mountinfo, NULL);
  /* "/docker/xy" begins with the root's text but is not below it. */
  parse (&prefix, "4:memory:/docker/xy\n", container_mountinfo, NULL);
  parse (&above, "4:memory:/\n", container_mountinfo, NULL);
  assert_null (sibling.host.parent[CORDON_CONTROLLER_MEMORY]);
  assert_null (prefix.host.parent[CORDON_CONTROLLER_MEMORY]);
  assert_null (above.host.parent[CORDON_CONTROLLER_MEMORY]);
}

/* cpu and cpuacct mounted together (systemd's default on v1): one
 * hierarchy, one parent for both. */
static void
test_cgroup_gives_co_mounted_controllers_one_parent (void **state)
{
  g_auto(Parsed) p = { 0 };

  parse (&p, "5:cpuset:/elsewhere\n3:cpu,cpuacct:/user.slice/job\n",
         "60 31 0:40 / /sys/fs/cgroup/cpuset rw - cgroup cgroup rw,cpuset\n"
         "61 31 0:41 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n",
         NULL);
  assert_string_equal (p.host.parent[CORDON_CONTROLLER_CPU], "/sys/fs/cgroup/cpu,cpuacct/user.slice/job");
  assert_string_equal (p.host.parent[CORDON_CONTROLLER_CPUACCT], p.host.parent[CORDON_CONTROLLER_CPU]);
  assert_null (p.host.parent[CORDON_CONTROLLER_MEMORY]);
}

/* Pure v2: no v1 parent at all; the unified hierarchy, at cordon's own
 * cgroup there (whose cgroup.controllers host_find reads). */
static void
test_cgroup_finds_the_unified_hierarchy_of_a_pure_v2_host (void **state)
{
  g_auto(Parsed) p = { 0 };

  parse (&p, "0::/user.slice/x\n",
         "25 22 0:22 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n", NULL);
  for (guint c = 0; c < CORDON_CONTROLLER_MAX; c++)
    assert_null (p.host.parent[c]);
  assert_string_equal (p.host.unified, "/sys/fs/cgroup/user.slice/x");
  /* Mounted from its root: where the user manager's cgroup is looked for. */
  assert_string_equal (p.host.unified_mount, "/sys/fs/cgroup");
  /* Its super options: a cgroup namespace's root cannot write its limits. */
  assert_true (p.host.nsdelegate);
}

/* A container's v2 mount shows its own subtree only: no mount of the
 * hierarchy's root, so no user.slice to look for there. */
static void
test_cgroup_keeps_no_unified_mount_of_a_container_s_subtree (void **state)
{
  g_auto(Parsed) p = { 0 };

  parse (&p, "0::/docker/x\n", "25 22 0:22 /docker/x /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n", NULL);
  assert_string_equal (p.host.unified, "/sys/fs/cgroup");
  assert_null (p.host.unified_mount);
  assert_false (p.host.nsdelegate);
}

static void
test_cgroup_reads_no_unified_hierarchy_where_none_is_mounted (void **state)
{
  g_auto(Parsed) p = { 0 };

  parse (&p, "0::/\n", "35 31 0:32 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n", NULL);
  assert_null (p.host.unified);
}

/* --- /proc/meminfo ------------------------------------------------------ */

static void
test_cgroup_reads_ram_and_swap_in_bytes (void **state)
{
  g_auto(Parsed) p = { 0 };
  g_auto(Parsed) none = { 0 };

  parse (&p, "", "",
         "MemTotal:       16303412 kB\n"
         "MemFree:         1024000 kB\n"
         "SwapCached:            8 kB\n"
         "SwapTotal:       2097148 kB\n"
         "SwapFree:        2097148 kB\n");
  parse (&none, NULL, NULL, NULL);
  assert_int_equal (p.host.mem_total, G_GUINT64_CONSTANT (16303412) * 1024);
  assert_int_equal (p.host.swap_total, G_GUINT64_CONSTANT (2097148) * 1024);
  assert_int_equal (none.host.mem_total, 0);
  assert_int_equal (none.host.swap_total, 0);
}

/* A host without swap shows SwapTotal 0; a field is only one that
 * begins a line. */
static void
test_cgroup_reads_no_swap_of_a_host_without (void **state)
{
  g_auto(Parsed) p = { 0 };

  parse (&p, "", "", "MemTotal: 2048 kB\nNotSwapTotal: 9 kB\nSwapTotal: 0 kB\n");
  assert_int_equal (p.host.mem_total, 2048 * 1024);
  assert_int_equal (p.host.swap_total, 0);
}

/* --- whether the parent of cordon's cgroup is delegated ------------------ */

#define ALICE ((uid_t) 1000)
#define REFUSED_UNWRITABLE "not writable for the caller (to make a cgroup there and move a process in)"
#define REFUSED_MANAGER "the caller's, as its own parent is: a manager's cgroup (the user's systemd), not one delegated"
#define REFUSED_TOP "the top of systemd's hierarchy, not marked delegated"
#define REFUSED_NEITHER "neither marked delegated (trusted.delegate or user.delegate) nor the caller's own"
#define REFUSED_OTHERS "another user's, who could change it under cordon: root takes only a cgroup of root's"

static void
assert_refusal (const CordonCgroupDelegation *d,
                uid_t euid,
                const char *want)
{
  const char *got = cordon_cgroup_delegation_refusal (d, euid);

  if (want == NULL && got != NULL)
    fail_msg ("uid %u refused: %s", (guint) euid, got);
  if (want != NULL && got == NULL)
    fail_msg ("uid %u not refused, not \"%s\"", (guint) euid, want);
  if (want != NULL)
    assert_string_equal (got, want);
}

/* Marked delegated and owned by the caller both, yet not writable: a
 * cgroup cordon cannot make there holds nothing, so may_write comes
 * first. */
static void
test_cgroup_delegation_refuses_a_marked_parent_the_caller_may_not_write (void **state)
{
  const CordonCgroupDelegation marked = {
    .marked = TRUE, .pid1_is_systemd = TRUE, .parent_uid = 0, .grandparent_uid = 0, .may_write = FALSE,
  };
  const CordonCgroupDelegation owned = {
    .pid1_is_systemd = TRUE, .parent_uid = ALICE, .grandparent_uid = 0, .may_write = FALSE,
  };

  assert_refusal (&marked, 0, REFUSED_UNWRITABLE);
  assert_refusal (&marked, ALICE, REFUSED_UNWRITABLE);
  assert_refusal (&owned, ALICE, REFUSED_UNWRITABLE);
}

/* systemd's Delegate=yes marks the unit's cgroup: delegated to its
 * owner, root or a user, whatever is above. */
static void
test_cgroup_delegation_takes_a_marked_parent_its_caller_owns (void **state)
{
  const CordonCgroupDelegation d = {
    .marked = TRUE, .pid1_is_systemd = TRUE, .parent_uid = 0, .grandparent_uid = 0, .may_write = TRUE,
  };
  const CordonCgroupDelegation top = {
    .parent_is_top = TRUE, .marked = TRUE, .pid1_is_systemd = TRUE, .parent_uid = 0, .may_write = TRUE,
  };
  const CordonCgroupDelegation alices = {
    .marked = TRUE, .pid1_is_systemd = TRUE, .parent_uid = ALICE, .grandparent_uid = ALICE, .may_write = TRUE,
  };

  assert_refusal (&d, 0, NULL);
  assert_refusal (&top, 0, NULL);
  assert_refusal (&alices, ALICE, NULL);
}

/* A user marks a cgroup of their own (user.delegate needs only write
 * access to it: their app.slice, say) that root's cordon runs below:
 * root must not make the sandbox's cgroup there, where that user could
 * move its processes out or take its controllers away. Nor does a mark
 * on root's cgroup make it a user's. */
static void
test_cgroup_delegation_refuses_a_marked_parent_of_another_user (void **state)
{
  const CordonCgroupDelegation alices = {
    .marked = TRUE, .pid1_is_systemd = TRUE, .parent_uid = ALICE, .grandparent_uid = ALICE, .may_write = TRUE,
  };
  const CordonCgroupDelegation roots = {
    .marked = TRUE, .pid1_is_systemd = TRUE, .parent_uid = 0, .grandparent_uid = 0, .may_write = TRUE,
  };

  assert_refusal (&alices, 0, REFUSED_OTHERS);
  assert_refusal (&roots, ALICE, REFUSED_NEITHER);
}

/* The kernel's model: a cgroup chowned to the user below one of root's
 * is delegated to that user, marked or not. */
static void
test_cgroup_delegation_takes_a_user_s_own_parent_below_root_s (void **state)
{
  const CordonCgroupDelegation d = {
    .pid1_is_systemd = TRUE, .parent_uid = ALICE, .grandparent_uid = 0, .may_write = TRUE,
  };

  assert_refusal (&d, ALICE, NULL);
}

/* A user's systemd app.slice is the user's, and so is user@1000.service
 * above it: that is the manager's own tree, not a delegation. */
static void
test_cgroup_delegation_refuses_a_user_s_parent_whose_parent_is_theirs_too (void **state)
{
  const CordonCgroupDelegation app_slice = {
    .pid1_is_systemd = TRUE, .parent_uid = ALICE, .grandparent_uid = ALICE, .may_write = TRUE,
  };

  assert_refusal (&app_slice, ALICE, REFUSED_MANAGER);
}

/* The top of a hierarchy the user owns (a rootless container's) has no
 * parent to compare: grandparent_uid is not read, even when it matches. */
static void
test_cgroup_delegation_takes_a_top_the_user_owns (void **state)
{
  const CordonCgroupDelegation d = {
    .parent_is_top = TRUE, .pid1_is_systemd = TRUE, .parent_uid = ALICE, .grandparent_uid = ALICE,
    .may_write = TRUE,
  };

  assert_refusal (&d, ALICE, NULL);
}

/* Root owns every cgroup systemd has not chowned: owning one delegates
 * nothing to root, even below another user's. */
static void
test_cgroup_delegation_refuses_root_an_unmarked_parent_it_owns (void **state)
{
  const CordonCgroupDelegation all_root = {
    .pid1_is_systemd = TRUE, .parent_uid = 0, .grandparent_uid = 0, .may_write = TRUE,
  };
  const CordonCgroupDelegation below_alice = {
    .pid1_is_systemd = TRUE, .parent_uid = 0, .grandparent_uid = ALICE, .may_write = TRUE,
  };
  const CordonCgroupDelegation no_systemd = {
    .pid1_is_systemd = FALSE, .parent_uid = 0, .grandparent_uid = ALICE, .may_write = TRUE,
  };

  assert_refusal (&all_root, 0, REFUSED_NEITHER);
  assert_refusal (&below_alice, 0, REFUSED_NEITHER);
  /* Not the top: without systemd it is still no one's delegation. */
  assert_refusal (&no_systemd, 0, REFUSED_NEITHER);
}

/* A container's top with no systemd as its PID 1: nobody else manages
 * it, so it is the caller's to divide. */
static void
test_cgroup_delegation_takes_the_top_of_a_hierarchy_no_systemd_manages (void **state)
{
  const CordonCgroupDelegation d = {
    .parent_is_top = TRUE, .pid1_is_systemd = FALSE, .parent_uid = 0, .grandparent_uid = 0, .may_write = TRUE,
  };

  assert_refusal (&d, 0, NULL);
  /* Not the user's own. */
  assert_refusal (&d, ALICE, REFUSED_NEITHER);
}

/* The top of systemd's own hierarchy is systemd's: writable for root,
 * yet not delegated. */
static void
test_cgroup_delegation_refuses_the_top_of_systemd_s_hierarchy (void **state)
{
  const CordonCgroupDelegation d = {
    .parent_is_top = TRUE, .pid1_is_systemd = TRUE, .parent_uid = 0, .grandparent_uid = 0, .may_write = TRUE,
  };

  assert_refusal (&d, 0, REFUSED_TOP);
  assert_refusal (&d, ALICE, REFUSED_NEITHER);
}

/* Writable, but neither marked nor the user's own (a cgroup of root's
 * with a permissive mode): not delegated. */
static void
test_cgroup_delegation_refuses_a_parent_neither_marked_nor_the_caller_s (void **state)
{
  const CordonCgroupDelegation roots = {
    .pid1_is_systemd = TRUE, .parent_uid = 0, .grandparent_uid = 0, .may_write = TRUE,
  };
  const CordonCgroupDelegation bobs = {
    .pid1_is_systemd = FALSE, .parent_uid = 1001, .grandparent_uid = 0, .may_write = TRUE,
  };

  assert_refusal (&roots, ALICE, REFUSED_NEITHER);
  assert_refusal (&bobs, ALICE, REFUSED_NEITHER);
}

/* --- the keeper's counters ---------------------------------------------- */

static void
test_cgroup_stats_start_unknown (void **state)
{
  CordonCgroupStats s;

  cordon_cgroup_stats_init (&s);
  assert_false (s.read);
  assert_int_equal (s.memory_peak, -1);
  assert_int_equal (s.oom_kills, -1);
  assert_int_equal (s.pids_max_hits, -1);
  assert_int_equal (s.cpu_usec, -1);
}

static void
test_cgroup_stats_take_each_v1_counter (void **state)
{
  CordonCgroupStats s;

  cordon_cgroup_stats_init (&s);
  assert_true (cordon_cgroup_stats_take_line (&s, "0 memory.max_usage_in_bytes 268435456"));
  assert_true (s.read);
  assert_true (cordon_cgroup_stats_take_line (&s, "0 memory.oom_control oom_kill_disable 0;under_oom 0;oom_kill 3"));
  assert_true (cordon_cgroup_stats_take_line (&s, "1 pids.events max 5"));
  assert_true (cordon_cgroup_stats_take_line (&s, "2 cpuacct.usage 1234567890"));
  assert_int_equal (s.memory_peak, 268435456);
  /* oom_kill, not oom_kill_disable (which comes first and is 0). */
  assert_int_equal (s.oom_kills, 3);
  assert_int_equal (s.pids_max_hits, 5);
  /* cpuacct.usage counts nanoseconds. */
  assert_int_equal (s.cpu_usec, 1234567);
}

static void
test_cgroup_stats_take_each_v2_counter (void **state)
{
  CordonCgroupStats s;

  cordon_cgroup_stats_init (&s);
  assert_true (cordon_cgroup_stats_take_line (&s, "0 memory.peak 4096"));
  assert_true (cordon_cgroup_stats_take_line (&s, "0 memory.events low 0;high 0;max 9;oom 2;oom_kill 1;oom_group_kill 0"));
  assert_true (cordon_cgroup_stats_take_line (&s, "0 cpu.stat usage_usec 777;user_usec 500;system_usec 277"));
  assert_int_equal (s.memory_peak, 4096);
  /* Not memory.events' max (the times the limit was reached). */
  assert_int_equal (s.oom_kills, 1);
  assert_int_equal (s.cpu_usec, 777);
  assert_int_equal (s.pids_max_hits, -1);
}

/* A counter file without the key (an older kernel's oom_control) is
 * unknown, not 0. */
static void
test_cgroup_stats_leave_a_missing_key_unknown (void **state)
{
  CordonCgroupStats s;

  cordon_cgroup_stats_init (&s);
  assert_true (cordon_cgroup_stats_take_line (&s, "0 memory.oom_control oom_kill_disable 0;under_oom 0"));
  assert_int_equal (s.oom_kills, -1);
}

static void
test_cgroup_stats_refuse_a_line_of_no_shape_they_know (void **state)
{
  static const char * const bad[] = {
    "0 memory.stat cache 1", "0 memory.peak", "garbage", "", "0 pids.current 3",
  };
  CordonCgroupStats s;

  cordon_cgroup_stats_init (&s);
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    if (cordon_cgroup_stats_take_line (&s, bad[i]))
      fail_msg ("took \"%s\"", bad[i]);
  assert_int_equal (s.memory_peak, -1);
  assert_int_equal (s.oom_kills, -1);
  assert_int_equal (s.pids_max_hits, -1);
  assert_int_equal (s.cpu_usec, -1);
}

/* --- names -------------------------------------------------------------- */

static void
test_cgroup_names_each_mechanism_and_controller (void **state)
{
  static const char * const mechanisms[] = { "none", "systemd", "delegated", "cgroup-v1" };
  static const char * const controllers[] = { "memory", "pids", "cpu", "cpuacct" };

  G_STATIC_ASSERT (G_N_ELEMENTS (mechanisms) == CORDON_CGROUP_MAX);
  G_STATIC_ASSERT (G_N_ELEMENTS (controllers) == CORDON_CONTROLLER_MAX);
  for (guint i = 0; i < CORDON_CGROUP_MAX; i++)
    assert_string_equal (cordon_cgroup_mechanism_name (i), mechanisms[i]);
  for (guint i = 0; i < CORDON_CONTROLLER_MAX; i++)
    assert_string_equal (cordon_controller_name (i), controllers[i]);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_cgroup_finds_each_v1_parent_of_a_hybrid_host_below_its_mount),
    cmocka_unit_test (test_cgroup_parse_fills_no_mechanism_and_nothing_writable),
    cmocka_unit_test (test_cgroup_shows_a_container_s_own_cgroup_at_the_mount_point),
    cmocka_unit_test (test_cgroup_finds_no_parent_outside_what_the_mount_shows),
    cmocka_unit_test (test_cgroup_gives_co_mounted_controllers_one_parent),
    cmocka_unit_test (test_cgroup_finds_the_unified_hierarchy_of_a_pure_v2_host),
    cmocka_unit_test (test_cgroup_keeps_no_unified_mount_of_a_container_s_subtree),
    cmocka_unit_test (test_cgroup_reads_no_unified_hierarchy_where_none_is_mounted),
    cmocka_unit_test (test_cgroup_reads_ram_and_swap_in_bytes),
    cmocka_unit_test (test_cgroup_reads_no_swap_of_a_host_without),
    cmocka_unit_test (test_cgroup_delegation_refuses_a_marked_parent_the_caller_may_not_write),
    cmocka_unit_test (test_cgroup_delegation_takes_a_marked_parent_its_caller_owns),
    cmocka_unit_test (test_cgroup_delegation_refuses_a_marked_parent_of_another_user),
    cmocka_unit_test (test_cgroup_delegation_takes_a_user_s_own_parent_below_root_s),
    cmocka_unit_test (test_cgroup_delegation_refuses_a_user_s_parent_whose_parent_is_theirs_too),
    cmocka_unit_test (test_cgroup_delegation_takes_a_top_the_user_owns),
    cmocka_unit_test (test_cgroup_delegation_refuses_root_an_unmarked_parent_it_owns),
    cmocka_unit_test (test_cgroup_delegation_takes_the_top_of_a_hierarchy_no_systemd_manages),
    cmocka_unit_test (test_cgroup_delegation_refuses_the_top_of_systemd_s_hierarchy),
    cmocka_unit_test (test_cgroup_delegation_refuses_a_parent_neither_marked_nor_the_caller_s),
    cmocka_unit_test (test_cgroup_stats_start_unknown),
    cmocka_unit_test (test_cgroup_stats_take_each_v1_counter),
    cmocka_unit_test (test_cgroup_stats_take_each_v2_counter),
    cmocka_unit_test (test_cgroup_stats_leave_a_missing_key_unknown),
    cmocka_unit_test (test_cgroup_stats_refuse_a_line_of_no_shape_they_know),
    cmocka_unit_test (test_cgroup_names_each_mechanism_and_controller),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
