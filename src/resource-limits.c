/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* resource-limits: [limits] file-size, open-files and core are rlimits, set
 * wherever named, and core to 0 where not (a dump in the workdir is
 * memory of the sandbox's the host would find after the run). memory,
 * swap, cpu and pids bound the sandbox as a whole: a cgroup of its own
 * holds them: a transient scope of the user's systemd, the limits its
 * properties; one made in a cgroup v2 cgroup delegated to the caller; or
 * one made in each cgroup v1 hierarchy cordon may write (root), with the
 * policy's values in its limit files; pids falls back to
 * RLIMIT_NPROC where the sandbox has a user namespace of its own and is
 * not host root (the kernel counts it per user there). A limit nothing
 * holds stops the run, unless an enforce=best-effort of its own file or
 * of a policy that includes it covers it: then it is a named degradation.
 * Never a limit that silently bounds nothing. */
#include "config.h"

#include <linux/capability.h>
#include <string.h>

#include "refusal.h"
#include "resource-limits.h"

static const CordonKey limit_keys[CORDON_LIMIT_MAX] = {
  [CORDON_LIMIT_MEMORY] = CORDON_KEY_LIMITS_MEMORY,
  [CORDON_LIMIT_SWAP] = CORDON_KEY_LIMITS_SWAP,
  [CORDON_LIMIT_CPU] = CORDON_KEY_LIMITS_CPU,
  [CORDON_LIMIT_PIDS] = CORDON_KEY_LIMITS_PIDS,
};

/* The controller that holds each limit. */
static const CordonController limit_controllers[CORDON_LIMIT_MAX] = {
  [CORDON_LIMIT_MEMORY] = CORDON_CONTROLLER_MEMORY,
  [CORDON_LIMIT_SWAP] = CORDON_CONTROLLER_MEMORY,
  [CORDON_LIMIT_CPU] = CORDON_CONTROLLER_CPU,
  [CORDON_LIMIT_PIDS] = CORDON_CONTROLLER_PIDS,
};

/* The CPU time a share is of: cpu.cfs_period_us, 100 ms (the kernel's
 * default, and systemd's for CPUQuota=). */
#define CPU_PERIOD_US 100000

char *
cordon_resource_limits_format_size (guint64 bytes)
{
  static const char units[] = "KMGT";
  guint u = 0;

  if (bytes == 0 || bytes % 1024 != 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT, bytes);
  for (bytes /= 1024; u + 1 < sizeof units - 1 && bytes % 1024 == 0; bytes /= 1024)
    u++;
  return g_strdup_printf ("%" G_GUINT64_FORMAT "%c", bytes, units[u]);
}

static gboolean
usable (const CordonHostFacts *facts,
        CordonController controller)
{
  return facts->cgroup.mechanism != CORDON_CGROUP_NONE && facts->cgroup.writable[controller];
}

/* FALSE, with the error at `rule`, when src/refusal.c refuses it (`why`,
 * taken). */
static gboolean
refuse (char *why,
        const CordonLocation *rule,
        GError **error)
{
  g_autofree char *owned = why;

  if (owned == NULL)
    return TRUE;
  cordon_error_set_at (error, rule, CORDON_ERROR_POLICY, "%s", owned);
  return FALSE;
}

/* --- the rlimits --------------------------------------------------------- */

/* Why RLIMIT_NPROC cannot bound this sandbox, or NULL when it can. */
static const char *
nproc_unheld (const CordonPlan *plan,
              const CordonHostFacts *facts)
{
  if (!(plan->namespaces & CORDON_NS_USER))
    return "without a user namespace of the sandbox's own the process limit would count the "
           "host user's other processes too: unshare user, or use a bwrap without the setuid bit";
  if (plan->host_root || (facts->uid == 0 && !plan->switch_identity && facts->root_is_host_root))
    return "the process limit does not bind a sandbox that runs as host root: leave host-user= "
           "at its default";
  return NULL;
}

static gboolean
add_rlimits (CordonPlan *plan,
             const CordonPolicy *policy,
             GError **error)
{
  static const CordonKey keys[CORDON_RLIMIT_MAX] = {
    [CORDON_RLIMIT_FSIZE] = CORDON_KEY_LIMITS_FILE_SIZE,
    [CORDON_RLIMIT_NOFILE] = CORDON_KEY_LIMITS_OPEN_FILES,
    [CORDON_RLIMIT_CORE] = CORDON_KEY_LIMITS_CORE,
    [CORDON_RLIMIT_NPROC] = CORDON_KEY_LIMITS_PIDS,
  };

  for (guint i = 0; i < CORDON_RLIMIT_MAX; i++)
    {
      const CordonItem *it = cordon_policy_get (policy, keys[i]);
      CordonRlimit *r = &plan->rlimits[i];

      r->key = keys[i];
      r->set = i == CORDON_RLIMIT_NPROC ? plan->limits[CORDON_LIMIT_PIDS].held_by == CORDON_HELD_RLIMIT
                                        : it != NULL || i == CORDON_RLIMIT_CORE;
      r->value = it != NULL ? (guint64) it->num : 0;
      if (it != NULL)
        r->rule = it->loc;
      /* cordon-exec's own fds and those its checks open come first. */
      if (i == CORDON_RLIMIT_NOFILE && it != NULL && !refuse (cordon_refusal_open_files (it), &it->loc, error))
        return FALSE;
    }
  return TRUE;
}

/* --- the limits of the whole sandbox ---------------------------------------- */

/* enforce=best-effort covers the limits of its own file and those merged
 * before it (what it includes): a limit an including policy, or an
 * override (--memory), sets after it stays required unless that policy
 * says best-effort itself. So trial's own limits are best-effort, and a
 * trial runner's --memory 2G is never softened by them. */
static gboolean
best_effort_for (const CordonItem *limit,
                 const CordonItem *enforce)
{
  if (enforce == NULL || enforce->num != CORDON_ENFORCE_BEST_EFFORT)
    return FALSE;
  return limit == NULL || g_strcmp0 (limit->loc.file, enforce->loc.file) == 0 || limit->seq < enforce->seq;
}

static gboolean
memory_lifted (const CordonPolicy *policy)
{
  const CordonItem *it = cordon_policy_get (policy, CORDON_KEY_LIMITS_MEMORY);

  return it != NULL && g_str_equal (it->text, "none");
}

/* memory=N%: N% of the host's RAM, in whole MiB (whole pages too). */
static gboolean
take_ram_share (CordonLimit *l,
                guint share,
                const CordonHostFacts *facts,
                GError **error)
{
  g_autofree char *size = NULL;

  l->share = share;
  if (facts->cgroup.mem_total == 0)
    {
      l->unheld = g_strdup_printf ("this host's RAM is not known (no MemTotal in /proc/meminfo), so "
                                   "memory=%u%% is no size: give one, such as 4G", share);
      return TRUE;
    }
  l->value = facts->cgroup.mem_total / 100 * share >> 20 << 20;
  if (l->value >= CORDON_MEMORY_MIN)
    return TRUE;
  size = cordon_resource_limits_format_size (l->value);
  cordon_error_set_at (error, &l->rule, CORDON_ERROR_HOST, "[limits] memory=%u%% of this host's RAM is %s, "
                       "less than the %uM bwrap and cordon's helper need: give a larger share", share, size,
                       CORDON_MEMORY_MIN >> 20);
  return FALSE;
}

static gboolean
read_limits (CordonPlan *plan,
             const CordonPolicy *policy,
             const CordonHostFacts *facts,
             GError **error)
{
  const CordonItem *enforce = cordon_policy_get (policy, CORDON_KEY_LIMITS_ENFORCE);

  plan->enforce = enforce != NULL ? (CordonEnforce) enforce->num : CORDON_ENFORCE_REQUIRED;
  if (enforce != NULL)
    plan->enforce_rule = enforce->loc;
  for (guint i = 0; i < CORDON_LIMIT_MAX; i++)
    {
      const CordonItem *it = cordon_policy_get (policy, limit_keys[i]);
      CordonLimit *l = &plan->limits[i];

      l->key = limit_keys[i];
      /* memory=none, pids=none: lifting an included policy's. */
      l->set = it != NULL && !g_str_equal (it->text, "none");
      l->best_effort = best_effort_for (it, enforce);
      l->value = it != NULL && it->num > 0 ? (guint64) it->num : 0;
      if (it != NULL)
        l->rule = it->loc;
      if (it != NULL && it->num < 0 && !take_ram_share (l, (guint) -it->num, facts, error))
        return FALSE;
    }
  /* memory=none lifts the swap beside it too. */
  if (memory_lifted (policy))
    plan->limits[CORDON_LIMIT_SWAP].set = FALSE;
  if (!refuse (cordon_refusal_swap (cordon_policy_get (policy, CORDON_KEY_LIMITS_SWAP),
                                    cordon_policy_get (policy, CORDON_KEY_LIMITS_MEMORY)),
               &plan->limits[CORDON_LIMIT_SWAP].rule, error)
      || !refuse (cordon_refusal_pids (cordon_policy_get (policy, CORDON_KEY_LIMITS_PIDS)),
                  &plan->limits[CORDON_LIMIT_PIDS].rule, error))
    return FALSE;
  /* Swap is none unless the policy says: a sandbox bounded in memory
   * must not spill into the host's swap instead. */
  if (plan->limits[CORDON_LIMIT_MEMORY].set && !plan->limits[CORDON_LIMIT_SWAP].set)
    {
      plan->limits[CORDON_LIMIT_SWAP].set = TRUE;
      plan->limits[CORDON_LIMIT_SWAP].best_effort = plan->limits[CORDON_LIMIT_MEMORY].best_effort;
    }
  return TRUE;
}

/* Why a cgroup of the caller's (a systemd scope, a delegated one: its
 * limit files are the caller's) cannot hold this sandbox's limits, or
 * NULL. A sandbox that keeps CAP_SYS_ADMIN, or may make user namespaces
 * (a filter without unshare or clone, or none), can mount a cgroup file
 * system of its own, rooted at its cgroup, and write its limits there,
 * unless the host's mount has nsdelegate (then a namespace's root cannot
 * write its own limits). */
static const char *
caller_cgroup_unheld (const CordonPlan *plan,
                      const CordonHostFacts *facts)
{
  static const char * const takes[] = { "unshare", "clone", "clone3", "mount", "fsopen", NULL };
  gboolean opens = plan->seccomp == CORDON_SECCOMP_NONE
                   || (plan->keep_caps & (G_GUINT64_CONSTANT (1) << CAP_SYS_ADMIN));

  if (facts->cgroup.mechanism != CORDON_CGROUP_SYSTEMD && facts->cgroup.mechanism != CORDON_CGROUP_DELEGATED)
    return NULL;
  for (guint i = 0; takes[i] != NULL && !opens; i++)
    opens = g_ptr_array_find_with_equal_func (plan->seccomp_allow, takes[i], g_str_equal, NULL);
  if (!opens || facts->cgroup.nsdelegate)
    return NULL;
  return "the sandbox could mount a cgroup file system of its own and raise the limits of its cgroup, "
         "whose files are the caller's (it keeps CAP_SYS_ADMIN, or its seccomp profile lets it make user "
         "namespaces), and the host's cgroup v2 mount has no nsdelegate: keep the default profile and "
         "capabilities, or mount cgroup2 with nsdelegate";
}

/* Who holds each limit set; why not, for those nobody does. */
static void
choose_holders (CordonPlan *plan,
                const CordonHostFacts *facts)
{
  for (guint i = 0; i < CORDON_LIMIT_MAX; i++)
    {
      CordonLimit *l = &plan->limits[i];
      CordonController c = limit_controllers[i];
      const char *nproc = i == CORDON_LIMIT_PIDS ? nproc_unheld (plan, facts) : "";
      const char *missing = facts->cgroup.missing != NULL ? facts->cgroup.missing
                                                          : "no cgroup of this host holds it";
      const char *opened = caller_cgroup_unheld (plan, facts);

      if (!l->set || l->unheld != NULL
          || (i == CORDON_LIMIT_SWAP && plan->limits[CORDON_LIMIT_MEMORY].unheld != NULL))
        continue;
      if (opened != NULL && usable (facts, c))
        missing = opened;
      if (opened == NULL && usable (facts, c)
          && (i != CORDON_LIMIT_SWAP || facts->cgroup.memsw || facts->cgroup.swap_total == 0))
        l->held_by = CORDON_HELD_CGROUP;
      else if (nproc == NULL)
        l->held_by = CORDON_HELD_RLIMIT;
      else if (i == CORDON_LIMIT_SWAP && usable (facts, c) && opened == NULL)
        l->unheld = g_strdup (facts->cgroup.mechanism == CORDON_CGROUP_V1
                              ? "this host has swap and does not account it per cgroup "
                                "(memory.memsw.*): boot with swapaccount=1, or turn swap off"
                              : "this host has swap and does not account it per cgroup "
                                "(no memory.swap.max): boot with swapaccount=1, or turn swap off");
      else if (i == CORDON_LIMIT_PIDS)
        l->unheld = g_strdup_printf ("%s; and %s", missing, nproc);
      else
        l->unheld = g_strdup (missing);
    }
}

static void
add_settings (CordonPlan *plan,
              CordonCgroupDir *dir,
              const CordonHostFacts *facts)
{
  const CordonLimit *l = plan->limits;
  g_autofree char *value = NULL;

#define HELD(i) (l[i].held_by == CORDON_HELD_CGROUP)
  if ((dir->controllers & (1u << CORDON_CONTROLLER_MEMORY)) && HELD (CORDON_LIMIT_MEMORY))
    {
      value = g_strdup_printf ("%" G_GUINT64_FORMAT, l[CORDON_LIMIT_MEMORY].value);
      cordon_cgroup_dir_add_setting (dir, "memory.limit_in_bytes", value, CORDON_LIMIT_MEMORY);
      g_clear_pointer (&value, g_free);
      if (facts->cgroup.memsw)
        {
          value = g_strdup_printf ("%" G_GUINT64_FORMAT, l[CORDON_LIMIT_MEMORY].value + l[CORDON_LIMIT_SWAP].value);
          cordon_cgroup_dir_add_setting (dir, "memory.memsw.limit_in_bytes", value, CORDON_LIMIT_SWAP);
          g_clear_pointer (&value, g_free);
        }
    }
  if ((dir->controllers & (1u << CORDON_CONTROLLER_PIDS)) && HELD (CORDON_LIMIT_PIDS))
    {
      value = g_strdup_printf ("%" G_GUINT64_FORMAT, l[CORDON_LIMIT_PIDS].value);
      cordon_cgroup_dir_add_setting (dir, "pids.max", value, CORDON_LIMIT_PIDS);
      g_clear_pointer (&value, g_free);
    }
  if ((dir->controllers & (1u << CORDON_CONTROLLER_CPU)) && HELD (CORDON_LIMIT_CPU))
    {
      cordon_cgroup_dir_add_setting (dir, "cpu.cfs_period_us", G_STRINGIFY (CPU_PERIOD_US), CORDON_LIMIT_CPU);
      value = g_strdup_printf ("%" G_GUINT64_FORMAT, l[CORDON_LIMIT_CPU].value * (CPU_PERIOD_US / 100));
      cordon_cgroup_dir_add_setting (dir, "cpu.cfs_quota_us", value, CORDON_LIMIT_CPU);
    }
#undef HELD
}

/* One cgroup in each v1 hierarchy cordon may write (co-mounted
 * controllers share one), its limits and the counters read afterwards;
 * made whenever a cgroup holds any limit, so that each counter is had
 * (the cpu hierarchy's only for cpu=). */
static void
add_cgroup_dirs (CordonPlan *plan,
                 const CordonHostFacts *facts)
{
  static const char * const stats[CORDON_CONTROLLER_MAX][3] = {
    [CORDON_CONTROLLER_MEMORY] = { "memory.max_usage_in_bytes", "memory.oom_control", NULL },
    [CORDON_CONTROLLER_PIDS] = { "pids.events", NULL },
    [CORDON_CONTROLLER_CPUACCT] = { "cpuacct.usage", NULL },
  };

  for (guint c = 0; c < CORDON_CONTROLLER_MAX; c++)
    {
      CordonCgroupDir *dir = NULL;

      if (!usable (facts, c))
        continue;
      /* The cpu hierarchy has no counter of ours: without cpu= a cgroup
       * there would hold nothing and cost a move in and out. */
      if (c == CORDON_CONTROLLER_CPU && plan->limits[CORDON_LIMIT_CPU].held_by != CORDON_HELD_CGROUP)
        continue;
      for (guint d = 0; d < plan->cgroup_dirs->len && dir == NULL; d++)
        if (g_str_equal (((CordonCgroupDir *) g_ptr_array_index (plan->cgroup_dirs, d))->parent,
                         facts->cgroup.parent[c]))
          dir = g_ptr_array_index (plan->cgroup_dirs, d);
      if (dir == NULL)
        g_ptr_array_add (plan->cgroup_dirs, dir = cordon_cgroup_dir_new (facts->cgroup.parent[c], 0));
      dir->controllers |= 1u << c;
      for (guint s = 0; stats[c][s] != NULL; s++)
        g_ptr_array_add (dir->stats, g_strdup (stats[c][s]));
    }
  for (guint d = 0; d < plan->cgroup_dirs->len; d++)
    add_settings (plan, g_ptr_array_index (plan->cgroup_dirs, d), facts);
}

/* One cgroup v2 cgroup below `parent`: a SYSTEMD scope, whose limits
 * are the properties its manager writes to these files (verification
 * reads them back), or a DELEGATED one the keeper makes, which also
 * kills all of it at the first OOM kill (memory.oom.group: no half of a
 * build is left running without the rest). */
static void
add_v2_dir (CordonPlan *plan,
            const CordonHostFacts *facts,
            const char *parent,
            const char *home)
{
  static const char * const stats[] = { "memory.peak", "memory.events", "pids.events", "cpu.stat", NULL };
  CordonCgroupDir *dir = cordon_cgroup_dir_new (parent, 0);
  const CordonLimit *l = plan->limits;
  char value[64];

  dir->home = g_strdup (home);
  for (guint c = 0; c < CORDON_CONTROLLER_CPUACCT; c++)
    if (facts->cgroup.writable[c])
      dir->controllers |= 1u << c;
  if (l[CORDON_LIMIT_MEMORY].held_by == CORDON_HELD_CGROUP)
    {
      g_snprintf (value, sizeof value, "%" G_GUINT64_FORMAT, l[CORDON_LIMIT_MEMORY].value);
      cordon_cgroup_dir_add_setting (dir, "memory.max", value, CORDON_LIMIT_MEMORY);
      /* No memory.swap.max where swap is not accounted: then the host
       * has none (swap is held by there being none), or swap is unheld. */
      if (l[CORDON_LIMIT_SWAP].held_by == CORDON_HELD_CGROUP && facts->cgroup.memsw)
        {
          g_snprintf (value, sizeof value, "%" G_GUINT64_FORMAT, l[CORDON_LIMIT_SWAP].value);
          cordon_cgroup_dir_add_setting (dir, "memory.swap.max", value, CORDON_LIMIT_SWAP);
        }
      if (home != NULL)
        cordon_cgroup_dir_add_setting (dir, "memory.oom.group", "1", CORDON_LIMIT_MEMORY);
    }
  if (l[CORDON_LIMIT_PIDS].held_by == CORDON_HELD_CGROUP)
    {
      g_snprintf (value, sizeof value, "%" G_GUINT64_FORMAT, l[CORDON_LIMIT_PIDS].value);
      cordon_cgroup_dir_add_setting (dir, "pids.max", value, CORDON_LIMIT_PIDS);
    }
  if (l[CORDON_LIMIT_CPU].held_by == CORDON_HELD_CGROUP)
    {
      g_snprintf (value, sizeof value, "%" G_GUINT64_FORMAT " %u", l[CORDON_LIMIT_CPU].value * (CPU_PERIOD_US / 100),
                  CPU_PERIOD_US);
      cordon_cgroup_dir_add_setting (dir, "cpu.max", value, CORDON_LIMIT_CPU);
    }
  for (guint s = 0; stats[s] != NULL; s++)
    g_ptr_array_add (dir->stats, g_strdup (stats[s]));
  g_ptr_array_add (plan->cgroup_dirs, dir);
}

/* The first limit nothing holds and no enforce=best-effort covers stops
 * the run. */
static gboolean
enforce_limits (CordonPlan *plan,
                GError **error)
{
  for (guint i = 0; i < CORDON_LIMIT_MAX; i++)
    {
      const CordonLimit *l = &plan->limits[i];
      const CordonKeyInfo *info = cordon_key_info (l->key);
      const CordonLocation *rule = l->rule.file != NULL ? &l->rule : &plan->limits[CORDON_LIMIT_MEMORY].rule;

      if (l->unheld == NULL || l->best_effort)
        continue;
      /* An override's text has no enforce= of its own to soften it. */
      cordon_error_set_at (error, rule, CORDON_ERROR_HOST, "[limits] %s%s cannot be held on this host: %s (%s)",
                           info->name, l->rule.file != NULL ? "" : "=0 (the default beside memory=)", l->unheld,
                           g_strcmp0 (rule->file, "<command line>") == 0
                           ? "an override is held or stops the run: leave it out to run without it"
                           : "enforce=best-effort runs without it, named as a degradation");
      return FALSE;
    }
  return TRUE;
}

gboolean
cordon_resource_limits_compile (CordonPlan *plan,
                       const CordonPolicy *policy,
                       const CordonHostFacts *facts,
                       GError **error)
{
  if (!read_limits (plan, policy, facts, error))
    return FALSE;
  choose_holders (plan, facts);
  if (!enforce_limits (plan, error) || !add_rlimits (plan, policy, error))
    return FALSE;
  for (guint i = 0; i < CORDON_LIMIT_MAX; i++)
    if (plan->limits[i].held_by == CORDON_HELD_CGROUP)
      plan->cgroup_mechanism = facts->cgroup.mechanism;
  if (plan->cgroup_mechanism == CORDON_CGROUP_SYSTEMD)
    {
      g_autofree char *slice = g_build_filename (facts->cgroup.user_service, "app.slice", NULL);

      add_v2_dir (plan, facts, slice, NULL);
    }
  else if (plan->cgroup_mechanism == CORDON_CGROUP_DELEGATED)
    add_v2_dir (plan, facts, facts->cgroup.delegated, facts->cgroup.unified);
  else if (plan->cgroup_mechanism != CORDON_CGROUP_NONE)
    add_cgroup_dirs (plan, facts);
  return TRUE;
}
