/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-resource-limits: compile's [limits] step for the limits of the
 * whole sandbox (memory, swap, cpu, pids). Who holds each (the plan's
 * cgroup, RLIMIT_NPROC, or nobody), the files the keeper writes and the
 * values in them, in order, and what a limit nobody holds does: stop
 * the run at its rule (enforce=required) or stand named (best-effort).
 * A limit believed held that is not is a sandbox that can take the
 * host's memory; so every case asserts where the value goes, not only
 * that compile succeeded. The fixture host's cgroups are set by hand
 * (facts->cgroup), as cordon_cgroup_host_find would find them. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "compile.h"
#include "fixture-host.h"
#include "plan.h"
#include "resource-limits.h"

#define MEMORY_PARENT "/sys/fs/cgroup/memory/process_api/abc"
#define PIDS_PARENT "/sys/fs/cgroup/pids"
#define CPU_PARENT "/sys/fs/cgroup/cpu"
#define CPUACCT_PARENT "/sys/fs/cgroup/cpuacct"
#define CO_PARENT "/sys/fs/cgroup/cpu,cpuacct/job"
#define NO_CGROUP "this host mounts no cgroup with memory, pids and cpu"
#define DELEGATED_PARENT "/sys/fs/cgroup/ci"
#define DELEGATED_OWN DELEGATED_PARENT "/runner"
#define USER_SERVICE "/sys/fs/cgroup/user.slice/user-1000.slice/user@1000.service"
#define V2_CONTROLLERS ((1u << CORDON_CONTROLLER_MEMORY) | (1u << CORDON_CONTROLLER_PIDS) \
                        | (1u << CORDON_CONTROLLER_CPU))
#define V2_STATS "| memory.peak memory.events pids.events cpu.stat\n"
/* What cordon_cgroup_host_find says of a delegated cgroup without cpu
 * in its cgroup.subtree_control. */
#define NO_CPU_ENABLED "the delegated cgroup " DELEGATED_PARENT " does not enable cpu for its children " \
                       "(cgroup.subtree_control)"

/* --- helpers ------------------------------------------------------------ */

/* The fixture as a root caller of a cgroup v1 host finds it: each
 * controller given a parent is writable there (NULL: none). */
static void
host_has_v1 (FixtureHost *host,
             const char *memory,
             const char *pids,
             const char *cpu,
             const char *cpuacct)
{
  const char *parents[CORDON_CONTROLLER_MAX] = {
    [CORDON_CONTROLLER_MEMORY] = memory,
    [CORDON_CONTROLLER_PIDS] = pids,
    [CORDON_CONTROLLER_CPU] = cpu,
    [CORDON_CONTROLLER_CPUACCT] = cpuacct,
  };

  fixture_host_set_cgroup_v1 (host, parents, host->facts->cgroup.memsw);
}

static void
host_has_no_cgroup (FixtureHost *host,
                    const char *missing)
{
  g_free (host->facts->cgroup.missing);
  host->facts->cgroup.mechanism = CORDON_CGROUP_NONE;
  host->facts->cgroup.missing = g_strdup (missing);
}

/* Each cgroup dir of the plan on a line: "PARENT: FILE=VALUE(KEY) ... |
 * STAT ...", the settings in the order the keeper writes them, each with
 * the key of the limit it holds. */
static char *
describe_dirs (const CordonPlan *plan)
{
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint d = 0; d < plan->cgroup_dirs->len; d++)
    {
      const CordonCgroupDir *dir = g_ptr_array_index (plan->cgroup_dirs, d);

      g_string_append_printf (out, "%s:", dir->parent);
      for (guint s = 0; s < dir->settings->len; s++)
        {
          const CordonCgroupSetting *set = g_ptr_array_index (dir->settings, s);

          g_string_append_printf (out, " %s=%s(%s)", set->file, set->value,
                                  cordon_key_info (plan->limits[set->limit].key)->name);
        }
      g_string_append (out, " |");
      for (guint s = 0; s < dir->stats->len; s++)
        g_string_append_printf (out, " %s", (const char *) g_ptr_array_index (dir->stats, s));
      g_string_append_c (out, '\n');
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static void
assert_refused (GError *error,
                CordonErrorCode code,
                const char *fragment)
{
  if (error == NULL)
    fail_msg ("compiled: no error \"%s\"", fragment);
  if (!g_error_matches (error, CORDON_ERROR, code))
    fail_msg ("error code %d, not %d: %s", error->code, code, error->message);
  if (strstr (error->message, fragment) == NULL)
    fail_msg ("\"%s\" does not hold \"%s\"", error->message, fragment);
}

/* --- held by the cgroup ------------------------------------------------- */

static void
test_resource_limits_writes_each_limit_in_its_v1_hierarchy (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;
  g_autofree char *dirs = NULL;

  host_has_v1 (host, MEMORY_PARENT, PIDS_PARENT, CPU_PARENT, CPUACCT_PARENT);
  host->facts->cgroup.memsw = TRUE;
  host->facts->cgroup.swap_total = G_GUINT64_CONSTANT (2) << 30;
  plan = fixture_compile_ok (host, "[namespaces]\nunshare=user;pid\n"
                                   "[limits]\nmemory=256M\nswap=64M\ncpu=50%\npids=100\n");
  dirs = describe_dirs (plan);
  assert_string_equal (dirs,
                       MEMORY_PARENT ": memory.limit_in_bytes=268435456(memory) "
                       "memory.memsw.limit_in_bytes=335544320(swap) | memory.max_usage_in_bytes memory.oom_control\n"
                       PIDS_PARENT ": pids.max=100(pids) | pids.events\n"
                       CPU_PARENT ": cpu.cfs_period_us=100000(cpu) cpu.cfs_quota_us=50000(cpu) |\n"
                       CPUACCT_PARENT ": | cpuacct.usage\n");
  assert_int_equal (plan->cgroup_mechanism, CORDON_CGROUP_V1);
  for (guint i = 0; i < CORDON_LIMIT_MAX; i++)
    {
      assert_int_equal (plan->limits[i].held_by, CORDON_HELD_CGROUP);
      assert_null (plan->limits[i].unheld);
    }
  assert_int_equal (plan->limits[CORDON_LIMIT_MEMORY].rule.line, 4);
  assert_int_equal (plan->limits[CORDON_LIMIT_CPU].value, 50);
}

/* Each dir names its controllers, so the keeper joins the right ones. */
static void
test_resource_limits_gives_each_dir_its_controllers (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;
  const CordonCgroupDir *dir;

  host_has_v1 (host, MEMORY_PARENT, NULL, CO_PARENT, CO_PARENT);
  plan = fixture_compile_ok (host, "[limits]\nmemory=64M\ncpu=200%\n");
  assert_int_equal (plan->cgroup_dirs->len, 2);
  dir = g_ptr_array_index (plan->cgroup_dirs, 0);
  assert_int_equal (dir->controllers, 1u << CORDON_CONTROLLER_MEMORY);
  dir = g_ptr_array_index (plan->cgroup_dirs, 1);
  assert_int_equal (dir->controllers, (1u << CORDON_CONTROLLER_CPU) | (1u << CORDON_CONTROLLER_CPUACCT));
}

/* Without cpu= the cpu hierarchy gets no cgroup: it would set and count
 * nothing, and each cgroup is a move in and out at every launch. Where
 * cpu is mounted with cpuacct, the counting one is still made. */
static void
test_resource_limits_makes_no_cpu_cgroup_without_cpu (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;
  g_autoptr(CordonPlan) co = NULL;
  g_autofree char *dirs = NULL;
  const CordonCgroupDir *dir;

  host_has_v1 (host, MEMORY_PARENT, PIDS_PARENT, CPU_PARENT, CPUACCT_PARENT);
  plan = fixture_compile_ok (host, "[limits]\nmemory=64M\npids=100\n");
  dirs = describe_dirs (plan);
  assert_string_equal (dirs,
                       MEMORY_PARENT ": memory.limit_in_bytes=67108864(memory) | memory.max_usage_in_bytes memory.oom_control\n"
                       PIDS_PARENT ": pids.max=100(pids) | pids.events\n"
                       CPUACCT_PARENT ": | cpuacct.usage\n");
  host_has_v1 (host, MEMORY_PARENT, NULL, CO_PARENT, CO_PARENT);
  co = fixture_compile_ok (host, "[limits]\nmemory=64M\n");
  assert_int_equal (co->cgroup_dirs->len, 2);
  dir = g_ptr_array_index (co->cgroup_dirs, 1);
  assert_string_equal (dir->parent, CO_PARENT);
  assert_int_equal (dir->controllers, 1u << CORDON_CONTROLLER_CPUACCT);
}

/* cpu,cpuacct mounted together: one cgroup holds the quota and counts. */
static void
test_resource_limits_makes_one_dir_for_co_mounted_controllers (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;
  g_autofree char *dirs = NULL;

  host_has_v1 (host, NULL, NULL, CO_PARENT, CO_PARENT);
  plan = fixture_compile_ok (host, "[limits]\ncpu=200%\n");
  dirs = describe_dirs (plan);
  assert_string_equal (dirs, CO_PARENT ": cpu.cfs_period_us=100000(cpu) cpu.cfs_quota_us=200000(cpu) | cpuacct.usage\n");
  assert_int_equal (plan->limits[CORDON_LIMIT_CPU].held_by, CORDON_HELD_CGROUP);
}

/* --- held by a cgroup v2 cgroup --------------------------------------------- */

/* One cgroup below the delegated one, all limits in it, in the order
 * the keeper writes them; the keeper goes back to cordon's own cgroup
 * (home) before removing it, and the first OOM kill takes all of it. */
static void
test_resource_limits_writes_each_limit_in_one_cgroup_below_the_delegated_one (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;
  g_autofree char *dirs = NULL;
  const CordonCgroupDir *dir;

  fixture_host_set_cgroup_delegated (host, DELEGATED_PARENT, DELEGATED_OWN, V2_CONTROLLERS, TRUE);
  host->facts->cgroup.swap_total = G_GUINT64_CONSTANT (2) << 30;
  plan = fixture_compile_ok (host, "[namespaces]\nunshare=user;pid\n"
                                   "[limits]\nmemory=256M\nswap=64M\ncpu=50%\npids=100\n");
  dirs = describe_dirs (plan);
  assert_string_equal (dirs,
                       DELEGATED_PARENT ": memory.max=268435456(memory) memory.swap.max=67108864(swap) "
                       "memory.oom.group=1(memory) pids.max=100(pids) cpu.max=50000 100000(cpu) " V2_STATS);
  assert_int_equal (plan->cgroup_mechanism, CORDON_CGROUP_DELEGATED);
  dir = g_ptr_array_index (plan->cgroup_dirs, 0);
  assert_string_equal (dir->home, DELEGATED_OWN);
  assert_int_equal (dir->controllers, V2_CONTROLLERS);
  for (guint i = 0; i < CORDON_LIMIT_MAX; i++)
    {
      assert_int_equal (plan->limits[i].held_by, CORDON_HELD_CGROUP);
      assert_null (plan->limits[i].unheld);
    }
  assert_false (plan->rlimits[CORDON_RLIMIT_NPROC].set);
}

/* A v2 host that accounts no swap per cgroup has no memory.swap.max to
 * write: where it has no swap, swap=0 is held by there being none and
 * the file is not written (the keeper would fail on it, and
 * verification would read nothing back); where it has swap, swap is
 * unheld, by name, and still not written. */
static void
test_resource_limits_writes_no_swap_file_where_v2_does_not_account_swap (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL, best = NULL;
  g_autofree char *dirs = NULL, *best_dirs = NULL;

  fixture_host_set_cgroup_delegated (host, DELEGATED_PARENT, DELEGATED_OWN, V2_CONTROLLERS, FALSE);
  host->facts->cgroup.swap_total = 0;
  plan = fixture_compile_ok (host, "[limits]\nmemory=256M\n");
  dirs = describe_dirs (plan);
  assert_string_equal (dirs, DELEGATED_PARENT ": memory.max=268435456(memory) memory.oom.group=1(memory) " V2_STATS);
  assert_int_equal (plan->limits[CORDON_LIMIT_SWAP].held_by, CORDON_HELD_CGROUP);
  host->facts->cgroup.swap_total = G_GUINT64_CONSTANT (2) << 30;
  best = fixture_compile_ok (host, "[limits]\nmemory=256M\nenforce=best-effort\n");
  best_dirs = describe_dirs (best);
  assert_string_equal (best_dirs, DELEGATED_PARENT ": memory.max=268435456(memory) memory.oom.group=1(memory) " V2_STATS);
  assert_non_null (best->limits[CORDON_LIMIT_SWAP].unheld);
  assert_non_null (strstr (best->limits[CORDON_LIMIT_SWAP].unheld, "(no memory.swap.max)"));
}

/* A sandbox whose filter lets it make user namespaces (allow=unshare,
 * profile=none) could mount a cgroup file system of its own at its
 * cgroup and raise the limits there, whose files are the caller's: on a
 * host whose cgroup2 mount lacks nsdelegate, the delegated cgroup holds
 * none of them (best-effort names it).
 * With nsdelegate, the kernel refuses such writes: held. */
static void
test_resource_limits_holds_nothing_in_a_caller_s_cgroup_a_sandbox_could_remount (void **state)
{
  FixtureHost *host = *state;
  const char *policies[] = {
    "[seccomp]\nallow=unshare\n[limits]\nmemory=256M\npids=100\nenforce=best-effort\n",
    "[seccomp]\nprofile=none\n[limits]\nmemory=256M\npids=100\nenforce=best-effort\n",
  };

  fixture_host_set_cgroup_delegated (host, DELEGATED_PARENT, DELEGATED_OWN, V2_CONTROLLERS, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (policies); i++)
    {
      g_autoptr(CordonPlan) plan = NULL, held = NULL;

      host->facts->cgroup.nsdelegate = FALSE;
      plan = fixture_compile_ok (host, policies[i]);
      assert_int_equal (plan->cgroup_mechanism, CORDON_CGROUP_NONE);
      assert_int_equal (plan->cgroup_dirs->len, 0);
      assert_int_equal (plan->limits[CORDON_LIMIT_MEMORY].held_by, CORDON_HELD_NOT);
      assert_non_null (strstr (plan->limits[CORDON_LIMIT_MEMORY].unheld, "has no nsdelegate"));
      assert_int_not_equal (plan->limits[CORDON_LIMIT_PIDS].held_by, CORDON_HELD_CGROUP);
      host->facts->cgroup.nsdelegate = TRUE;
      held = fixture_compile_ok (host, policies[i]);
      assert_int_equal (held->cgroup_mechanism, CORDON_CGROUP_DELEGATED);
      assert_int_equal (held->limits[CORDON_LIMIT_MEMORY].held_by, CORDON_HELD_CGROUP);
    }
}

/* A scope of the user's systemd goes in its app.slice; the manager
 * makes and removes it (no home), and memory.oom.group is not the
 * keeper's to write there. */
static void
test_resource_limits_puts_a_systemd_scope_in_app_slice_without_oom_group (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;
  g_autofree char *dirs = NULL;
  const CordonCgroupDir *dir;

  fixture_host_set_cgroup_systemd (host, USER_SERVICE, V2_CONTROLLERS, TRUE);
  host->facts->cgroup.swap_total = G_GUINT64_CONSTANT (2) << 30;
  plan = fixture_compile_ok (host, "[limits]\nmemory=64M\ncpu=150%\npids=50\n");
  dirs = describe_dirs (plan);
  /* swap=0, the default beside memory=. */
  assert_string_equal (dirs,
                       USER_SERVICE "/app.slice: memory.max=67108864(memory) memory.swap.max=0(swap) "
                       "pids.max=50(pids) cpu.max=150000 100000(cpu) " V2_STATS);
  assert_int_equal (plan->cgroup_mechanism, CORDON_CGROUP_SYSTEMD);
  dir = g_ptr_array_index (plan->cgroup_dirs, 0);
  assert_null (dir->home);
  assert_int_equal (dir->controllers, V2_CONTROLLERS);
  for (guint i = 0; i < CORDON_LIMIT_MAX; i++)
    assert_int_equal (plan->limits[i].held_by, CORDON_HELD_CGROUP);
}

/* A delegated cgroup that does not enable cpu for its children holds
 * memory, not cpu: best-effort names cpu with the host's reason and
 * writes no cpu.max; required stops at cpu=. */
static void
test_resource_limits_leaves_cpu_unheld_where_the_delegated_cgroup_does_not_enable_it (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;
  g_autoptr(CordonPlan) required = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dirs = NULL;
  const CordonCgroupDir *dir;

  fixture_host_set_cgroup_delegated (host, DELEGATED_PARENT, DELEGATED_OWN,
                                     V2_CONTROLLERS & ~(1u << CORDON_CONTROLLER_CPU), TRUE);
  host->facts->cgroup.missing = g_strdup (NO_CPU_ENABLED);
  plan = fixture_compile_ok (host, "[limits]\nmemory=64M\ncpu=50%\nenforce=best-effort\n");
  required = fixture_compile_text (host, "[limits]\nmemory=64M\ncpu=50%\n", &error);
  dirs = describe_dirs (plan);
  assert_int_equal (plan->limits[CORDON_LIMIT_MEMORY].held_by, CORDON_HELD_CGROUP);
  assert_int_equal (plan->limits[CORDON_LIMIT_CPU].held_by, CORDON_HELD_NOT);
  assert_string_equal (plan->limits[CORDON_LIMIT_CPU].unheld, NO_CPU_ENABLED);
  assert_string_equal (dirs, DELEGATED_PARENT ": memory.max=67108864(memory) memory.swap.max=0(swap) "
                             "memory.oom.group=1(memory) " V2_STATS);
  dir = g_ptr_array_index (plan->cgroup_dirs, 0);
  assert_int_equal (dir->controllers, (1u << CORDON_CONTROLLER_MEMORY) | (1u << CORDON_CONTROLLER_PIDS));
  assert_null (required);
  assert_refused (error, CORDON_ERROR_HOST, "test.policy:3:5: [limits] cpu cannot be held on this host: "
                                            NO_CPU_ENABLED " (enforce=best-effort");
}

/* A delegated host and a policy without limits: no cgroup is made. */
static void
test_resource_limits_makes_no_delegated_cgroup_for_a_policy_without_limits (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;

  fixture_host_set_cgroup_delegated (host, DELEGATED_PARENT, DELEGATED_OWN, V2_CONTROLLERS, TRUE);
  plan = fixture_compile_ok (host, "[limits]\ntimeout=5\n");
  assert_int_equal (plan->cgroup_mechanism, CORDON_CGROUP_NONE);
  assert_int_equal (plan->cgroup_dirs->len, 0);
}

/* --- a host that holds none --------------------------------------------- */

static void
test_resource_limits_refuses_memory_no_cgroup_holds_at_its_rule (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(GError) error = NULL, required = NULL;
  g_autoptr(CordonPlan) plan = NULL, explicit = NULL;

  host_has_no_cgroup (host, NO_CGROUP);
  plan = fixture_compile_text (host, "[limits]\nmemory=256M\n", &error);
  explicit = fixture_compile_text (host, "[limits]\nenforce=required\ncpu=50%\n", &required);
  assert_null (plan);
  /* The host's reason, word for word: it names the fix. */
  assert_refused (error, CORDON_ERROR_HOST, "test.policy:2:8: [limits] memory cannot be held on this host: "
                                            NO_CGROUP " (enforce=best-effort runs without it");
  assert_null (explicit);
  assert_refused (required, CORDON_ERROR_HOST, "test.policy:3:5: [limits] cpu cannot be held on this host: " NO_CGROUP);
}

/* memory=N%: N% of the host's MemTotal, in whole pages, written to the
 * cgroup as bytes; a share below 16M is refused at its rule, and one of
 * a host whose RAM is unknown holds nothing (best-effort names why). */
static void
test_resource_limits_takes_memory_as_a_share_of_the_host_s_ram (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL, unknown = NULL;
  g_autoptr(GError) small = NULL;
  g_autoptr(CordonPlan) refused = NULL;
  g_autofree char *dirs = NULL;

  fixture_host_set_cgroup_delegated (host, DELEGATED_PARENT, DELEGATED_OWN, V2_CONTROLLERS, TRUE);
  host->facts->cgroup.mem_total = (G_GUINT64_CONSTANT (8) << 30) + 12345;
  plan = fixture_compile_ok (host, "[limits]\nmemory=50%\n");
  assert_int_equal (plan->limits[CORDON_LIMIT_MEMORY].held_by, CORDON_HELD_CGROUP);
  assert_int_equal (plan->limits[CORDON_LIMIT_MEMORY].share, 50);
  /* 8G + 12345 bytes: a hundredth, times 50, down to a MiB. */
  assert_int_equal (plan->limits[CORDON_LIMIT_MEMORY].value, ((G_GUINT64_CONSTANT (8) << 30) + 12345) / 100 * 50 >> 20 << 20);
  dirs = describe_dirs (plan);
  assert_non_null (strstr (dirs, "memory.max=4294967296(memory) "));
  host->facts->cgroup.mem_total = 1000 << 20;
  refused = fixture_compile_text (host, "[limits]\nmemory=1%\n", &small);
  assert_null (refused);
  assert_refused (small, CORDON_ERROR_HOST, "test.policy:2:8: [limits] memory=1% of this host's RAM is 10M, "
                                            "less than the 16M bwrap and cordon's helper need");
  host->facts->cgroup.mem_total = 0;
  unknown = fixture_compile_ok (host, "[limits]\nmemory=50%\nenforce=best-effort\n");
  assert_int_equal (unknown->limits[CORDON_LIMIT_MEMORY].held_by, CORDON_HELD_NOT);
  assert_non_null (strstr (unknown->limits[CORDON_LIMIT_MEMORY].unheld, "this host's RAM is not known"));
  assert_int_equal (unknown->cgroup_dirs->len, 0);
}

/* memory=none and pids=none lift the limits of an included policy
 * (trial's): nothing is held, no cgroup made, no RLIMIT_NPROC set; the
 * swap beside memory goes with it (swap= alone would be refused). */
static void
test_resource_limits_lifts_an_included_limit_with_none (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL, swap = NULL;

  fixture_host_set_cgroup_delegated (host, DELEGATED_PARENT, DELEGATED_OWN, V2_CONTROLLERS, TRUE);
  host->facts->cgroup.mem_total = G_GUINT64_CONSTANT (8) << 30;
  plan = fixture_compile_ok (host, "[policy]\ninclude=trial\n[limits]\nmemory=none\npids=none\n");
  for (guint i = 0; i < CORDON_LIMIT_MAX; i++)
    {
      assert_false (plan->limits[i].set);
      assert_int_equal (plan->limits[i].held_by, CORDON_HELD_NOT);
      assert_null (plan->limits[i].unheld);
    }
  assert_int_equal (plan->cgroup_mechanism, CORDON_CGROUP_NONE);
  assert_int_equal (plan->cgroup_dirs->len, 0);
  assert_false (plan->rlimits[CORDON_RLIMIT_NPROC].set);
  swap = fixture_compile_ok (host, "[limits]\nswap=1G\nmemory=none\n");
  assert_false (swap->limits[CORDON_LIMIT_SWAP].set);
  assert_int_equal (swap->cgroup_dirs->len, 0);
}

/* enforce=best-effort covers the limits of its own file and of what it
 * includes: trial's own run without a cgroup, named; a memory= of the
 * policy that includes trial (or an override) stays required unless that
 * policy says best-effort itself. */
static void
test_resource_limits_softens_only_the_limits_best_effort_covers (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) trial = NULL, own = NULL, softened = NULL;
  g_autoptr(GError) error = NULL;

  host_has_no_cgroup (host, NO_CGROUP);
  host->facts->cgroup.mem_total = G_GUINT64_CONSTANT (8) << 30;
  trial = fixture_compile_ok (host, "[policy]\ninclude=trial\n");
  assert_true (trial->limits[CORDON_LIMIT_MEMORY].best_effort);
  assert_string_equal (trial->limits[CORDON_LIMIT_MEMORY].unheld, NO_CGROUP);
  own = fixture_compile_text (host, "[policy]\ninclude=trial\n[limits]\nmemory=2G\n", &error);
  assert_null (own);
  assert_refused (error, CORDON_ERROR_HOST, "test.policy:4:8: [limits] memory cannot be held on this host: " NO_CGROUP);
  softened = fixture_compile_ok (host, "[policy]\ninclude=trial\n[limits]\nmemory=2G\nenforce=best-effort\n");
  assert_true (softened->limits[CORDON_LIMIT_MEMORY].best_effort);
  assert_int_equal (softened->limits[CORDON_LIMIT_MEMORY].held_by, CORDON_HELD_NOT);
}

/* A host that said nothing of its cgroups still refuses, with a reason. */
static void
test_resource_limits_refuses_with_a_reason_where_the_host_gave_none (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPlan) plan = NULL;

  host_has_no_cgroup (host, NULL);
  plan = fixture_compile_text (host, "[limits]\nmemory=256M\n", &error);
  assert_null (plan);
  assert_refused (error, CORDON_ERROR_HOST, ":2:8: [limits] memory cannot be held on this host: no cgroup of this host holds it");
}

static void
test_resource_limits_names_what_best_effort_leaves_unheld (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;

  host_has_no_cgroup (host, NO_CGROUP);
  plan = fixture_compile_ok (host, "[limits]\nmemory=256M\ncpu=50%\nenforce=best-effort\n");
  assert_int_equal (plan->enforce, CORDON_ENFORCE_BEST_EFFORT);
  assert_int_equal (plan->enforce_rule.line, 4);
  assert_int_equal (plan->limits[CORDON_LIMIT_MEMORY].held_by, CORDON_HELD_NOT);
  assert_string_equal (plan->limits[CORDON_LIMIT_MEMORY].unheld, NO_CGROUP);
  assert_int_equal (plan->limits[CORDON_LIMIT_CPU].held_by, CORDON_HELD_NOT);
  assert_string_equal (plan->limits[CORDON_LIMIT_CPU].unheld, NO_CGROUP);
  /* swap=0 goes with memory: it is not named a second time. */
  assert_int_equal (plan->limits[CORDON_LIMIT_SWAP].held_by, CORDON_HELD_NOT);
  assert_null (plan->limits[CORDON_LIMIT_SWAP].unheld);
  assert_int_equal (plan->cgroup_mechanism, CORDON_CGROUP_NONE);
  assert_int_equal (plan->cgroup_dirs->len, 0);
}

/* A v1 host with memory and no cpu hierarchy cordon may write: memory
 * is held, cpu is not, and best-effort names only cpu. */
static void
test_resource_limits_holds_what_it_can_and_names_the_rest (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPlan) required = NULL;

  host_has_v1 (host, MEMORY_PARENT, NULL, NULL, NULL);
  host->facts->cgroup.missing = g_strdup ("this host mounts no cgroup with pids and cpu");
  plan = fixture_compile_ok (host, "[limits]\nmemory=64M\ncpu=50%\nenforce=best-effort\n");
  required = fixture_compile_text (host, "[limits]\nmemory=64M\ncpu=50%\n", &error);
  assert_int_equal (plan->limits[CORDON_LIMIT_MEMORY].held_by, CORDON_HELD_CGROUP);
  assert_int_equal (plan->limits[CORDON_LIMIT_CPU].held_by, CORDON_HELD_NOT);
  assert_string_equal (plan->limits[CORDON_LIMIT_CPU].unheld, "this host mounts no cgroup with pids and cpu");
  assert_int_equal (plan->cgroup_dirs->len, 1);
  assert_null (required);
  assert_refused (error, CORDON_ERROR_HOST, ":3:5: [limits] cpu cannot be held");
}

/* --- pids ----------------------------------------------------------------- */

/* Without a cgroup, pids= is RLIMIT_NPROC where the kernel counts the
 * sandbox's own user (its own user namespace). */
static void
test_resource_limits_holds_pids_by_rlimit_without_a_cgroup (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;

  host_has_no_cgroup (host, NO_CGROUP);
  plan = fixture_compile_ok (host, "[namespaces]\nunshare=user;pid\n[limits]\npids=100\n");
  assert_int_equal (plan->limits[CORDON_LIMIT_PIDS].held_by, CORDON_HELD_RLIMIT);
  assert_null (plan->limits[CORDON_LIMIT_PIDS].unheld);
  assert_true (plan->rlimits[CORDON_RLIMIT_NPROC].set);
  assert_int_equal (plan->rlimits[CORDON_RLIMIT_NPROC].value, 100);
  assert_int_equal (plan->rlimits[CORDON_RLIMIT_NPROC].rule.line, 4);
  assert_int_equal (plan->cgroup_mechanism, CORDON_CGROUP_NONE);
  assert_int_equal (plan->cgroup_dirs->len, 0);
}

/* Host root is not bound by RLIMIT_NPROC: unheld, for both reasons. */
static void
test_resource_limits_leaves_pids_unheld_for_a_sandbox_of_host_root (void **state)
{
  g_autoptr(FixtureHost) root = fixture_host_new (0);
  g_autoptr(CordonPlan) plan = NULL;
  const char *unheld;

  host_has_no_cgroup (root, NO_CGROUP);
  plan = fixture_compile_ok (root, "[namespaces]\nunshare=user;pid\n[limits]\npids=100\nenforce=best-effort\n"
                                   "[identity]\nhost-user=root\n");
  unheld = plan->limits[CORDON_LIMIT_PIDS].unheld;
  assert_int_equal (plan->limits[CORDON_LIMIT_PIDS].held_by, CORDON_HELD_NOT);
  assert_non_null (unheld);
  assert_true (g_str_has_prefix (unheld, NO_CGROUP "; and "));
  assert_non_null (strstr (unheld, "runs as host root"));
  assert_false (plan->rlimits[CORDON_RLIMIT_NPROC].set);
}

/* A container's root is no host root: the kernel counts it. */
static void
test_resource_limits_holds_pids_by_rlimit_for_a_container_s_root (void **state)
{
  g_autoptr(FixtureHost) root = fixture_host_new (0);
  g_autoptr(CordonPlan) plan = NULL;

  host_has_no_cgroup (root, NO_CGROUP);
  root->facts->root_is_host_root = FALSE;
  plan = fixture_compile_ok (root, "[namespaces]\nunshare=user;pid\n[limits]\npids=100\n"
                                   "[identity]\nhost-user=root\n");
  assert_int_equal (plan->limits[CORDON_LIMIT_PIDS].held_by, CORDON_HELD_RLIMIT);
  assert_true (plan->rlimits[CORDON_RLIMIT_NPROC].set);
}

/* With a pids cgroup, pids.max holds it for the whole sandbox, even
 * one without a user namespace of its own; RLIMIT_NPROC is not set. */
static void
test_resource_limits_holds_pids_by_the_cgroup_where_there_is_one (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;
  g_autoptr(CordonPlan) shared = NULL;
  g_autofree char *dirs = NULL;

  host_has_v1 (host, NULL, PIDS_PARENT, NULL, NULL);
  plan = fixture_compile_ok (host, "[namespaces]\nunshare=user;pid\n[limits]\npids=100\n");
  shared = fixture_compile_ok (host, "[namespaces]\nunshare=pid\n[limits]\npids=100\n");
  dirs = describe_dirs (plan);
  assert_string_equal (dirs, PIDS_PARENT ": pids.max=100(pids) | pids.events\n");
  assert_int_equal (plan->limits[CORDON_LIMIT_PIDS].held_by, CORDON_HELD_CGROUP);
  assert_false (plan->rlimits[CORDON_RLIMIT_NPROC].set);
  assert_int_equal (shared->limits[CORDON_LIMIT_PIDS].held_by, CORDON_HELD_CGROUP);
  assert_false (shared->rlimits[CORDON_RLIMIT_NPROC].set);
}

/* --- swap ----------------------------------------------------------------- */

static void
test_resource_limits_refuses_swap_without_memory (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPlan) plan = NULL;

  host_has_v1 (host, MEMORY_PARENT, NULL, NULL, NULL);
  host->facts->cgroup.memsw = TRUE;
  plan = fixture_compile_text (host, "[limits]\nswap=64M\nenforce=best-effort\n", &error);
  assert_null (plan);
  assert_refused (error, CORDON_ERROR_POLICY, "test.policy:2:6: [limits] swap= is the swap allowed beside memory=");
}

/* A sandbox bounded in memory does not spill into swap instead. */
static void
test_resource_limits_allows_no_swap_beside_memory_by_default (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;
  g_autofree char *dirs = NULL;
  const CordonLimit *swap;

  host_has_v1 (host, MEMORY_PARENT, NULL, NULL, NULL);
  host->facts->cgroup.memsw = TRUE;
  host->facts->cgroup.swap_total = G_GUINT64_CONSTANT (2) << 30;
  plan = fixture_compile_ok (host, "[limits]\nmemory=64M\n");
  swap = &plan->limits[CORDON_LIMIT_SWAP];
  dirs = describe_dirs (plan);
  assert_true (swap->set);
  assert_int_equal (swap->value, 0);
  assert_null (swap->rule.file);
  assert_int_equal (swap->held_by, CORDON_HELD_CGROUP);
  /* memory+swap is memory alone. */
  assert_string_equal (dirs, MEMORY_PARENT ": memory.limit_in_bytes=67108864(memory) "
                             "memory.memsw.limit_in_bytes=67108864(swap) | memory.max_usage_in_bytes memory.oom_control\n");
}

/* Swap the host has and does not account per cgroup: swap is not held. */
static void
test_resource_limits_leaves_swap_unheld_where_the_host_does_not_account_it (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;
  g_autoptr(GError) by_default = NULL, named = NULL;
  g_autoptr(CordonPlan) a = NULL, b = NULL;
  g_autofree char *dirs = NULL;

  host_has_v1 (host, MEMORY_PARENT, NULL, NULL, NULL);
  host->facts->cgroup.memsw = FALSE;
  host->facts->cgroup.swap_total = G_GUINT64_CONSTANT (2) << 30;
  plan = fixture_compile_ok (host, "[limits]\nmemory=64M\nenforce=best-effort\n");
  a = fixture_compile_text (host, "[limits]\nmemory=64M\n", &by_default);
  b = fixture_compile_text (host, "[limits]\nmemory=64M\nswap=1G\n", &named);
  dirs = describe_dirs (plan);
  assert_int_equal (plan->limits[CORDON_LIMIT_MEMORY].held_by, CORDON_HELD_CGROUP);
  assert_int_equal (plan->limits[CORDON_LIMIT_SWAP].held_by, CORDON_HELD_NOT);
  assert_non_null (plan->limits[CORDON_LIMIT_SWAP].unheld);
  assert_non_null (strstr (plan->limits[CORDON_LIMIT_SWAP].unheld, "(memory.memsw.*)"));
  assert_string_equal (dirs, MEMORY_PARENT ": memory.limit_in_bytes=67108864(memory) "
                             "| memory.max_usage_in_bytes memory.oom_control\n");
  /* The default swap=0 is refused at memory=, which brought it. */
  assert_null (a);
  assert_refused (by_default, CORDON_ERROR_HOST, ":2:8: [limits] swap=0 (the default beside memory=) cannot be held");
  assert_null (b);
  assert_refused (named, CORDON_ERROR_HOST, ":3:6: [limits] swap cannot be held on this host: this host has swap");
}

/* No swap at all: the memory limit alone holds swap=0. */
static void
test_resource_limits_holds_swap_on_a_host_without_swap (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;
  g_autofree char *dirs = NULL;

  host_has_v1 (host, MEMORY_PARENT, NULL, NULL, NULL);
  host->facts->cgroup.memsw = FALSE;
  host->facts->cgroup.swap_total = 0;
  plan = fixture_compile_ok (host, "[limits]\nmemory=64M\n");
  dirs = describe_dirs (plan);
  assert_int_equal (plan->limits[CORDON_LIMIT_SWAP].held_by, CORDON_HELD_CGROUP);
  assert_null (plan->limits[CORDON_LIMIT_SWAP].unheld);
  assert_string_equal (dirs, MEMORY_PARENT ": memory.limit_in_bytes=67108864(memory) "
                             "| memory.max_usage_in_bytes memory.oom_control\n");
}

/* --- nothing asked -------------------------------------------------------- */

static void
test_resource_limits_makes_no_cgroup_for_a_policy_without_limits (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;

  host_has_v1 (host, MEMORY_PARENT, PIDS_PARENT, CPU_PARENT, CPUACCT_PARENT);
  plan = fixture_compile_ok (host, "[limits]\ntimeout=5\n");
  assert_int_equal (plan->cgroup_mechanism, CORDON_CGROUP_NONE);
  assert_int_equal (plan->cgroup_dirs->len, 0);
  for (guint i = 0; i < CORDON_LIMIT_MAX; i++)
    {
      assert_false (plan->limits[i].set);
      assert_int_equal (plan->limits[i].held_by, CORDON_HELD_NOT);
    }
  assert_int_equal (plan->enforce, CORDON_ENFORCE_REQUIRED);
  assert_null (plan->enforce_rule.file);
}

/* --- sizes ---------------------------------------------------------------- */

static void
test_resource_limits_spells_a_size_in_its_largest_exact_unit (void **state)
{
  static const struct { guint64 bytes; const char *text; } sizes[] = {
    { 0, "0" }, { 1023, "1023" }, { 1024, "1K" }, { 1025, "1025" },
    { 256 << 20, "256M" }, { 1536 << 10, "1536K" }, { 1 << 30, "1G" },
    { G_GUINT64_CONSTANT (1) << 40, "1T" }, { G_GUINT64_CONSTANT (1) << 50, "1024T" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autofree char *text = cordon_resource_limits_format_size (sizes[i].bytes);

      assert_string_equal (text, sizes[i].text);
    }
}

#define T(f) cmocka_unit_test_setup_teardown (f, fixture_host_setup, fixture_host_teardown)

int
main (void)
{
  const struct CMUnitTest tests[] = {
    T (test_resource_limits_writes_each_limit_in_its_v1_hierarchy),
    T (test_resource_limits_gives_each_dir_its_controllers),
    T (test_resource_limits_makes_no_cpu_cgroup_without_cpu),
    T (test_resource_limits_makes_one_dir_for_co_mounted_controllers),
    T (test_resource_limits_writes_each_limit_in_one_cgroup_below_the_delegated_one),
    T (test_resource_limits_writes_no_swap_file_where_v2_does_not_account_swap),
    T (test_resource_limits_holds_nothing_in_a_caller_s_cgroup_a_sandbox_could_remount),
    T (test_resource_limits_puts_a_systemd_scope_in_app_slice_without_oom_group),
    T (test_resource_limits_leaves_cpu_unheld_where_the_delegated_cgroup_does_not_enable_it),
    T (test_resource_limits_makes_no_delegated_cgroup_for_a_policy_without_limits),
    T (test_resource_limits_takes_memory_as_a_share_of_the_host_s_ram),
    T (test_resource_limits_lifts_an_included_limit_with_none),
    T (test_resource_limits_softens_only_the_limits_best_effort_covers),
    T (test_resource_limits_refuses_memory_no_cgroup_holds_at_its_rule),
    T (test_resource_limits_refuses_with_a_reason_where_the_host_gave_none),
    T (test_resource_limits_names_what_best_effort_leaves_unheld),
    T (test_resource_limits_holds_what_it_can_and_names_the_rest),
    T (test_resource_limits_holds_pids_by_rlimit_without_a_cgroup),
    cmocka_unit_test (test_resource_limits_leaves_pids_unheld_for_a_sandbox_of_host_root),
    cmocka_unit_test (test_resource_limits_holds_pids_by_rlimit_for_a_container_s_root),
    T (test_resource_limits_holds_pids_by_the_cgroup_where_there_is_one),
    T (test_resource_limits_refuses_swap_without_memory),
    T (test_resource_limits_allows_no_swap_beside_memory_by_default),
    T (test_resource_limits_leaves_swap_unheld_where_the_host_does_not_account_it),
    T (test_resource_limits_holds_swap_on_a_host_without_swap),
    T (test_resource_limits_makes_no_cgroup_for_a_policy_without_limits),
    cmocka_unit_test (test_resource_limits_spells_a_size_in_its_largest_exact_unit),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
