/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cgroup-run: the cgroups of one run, from cordon's side. Their name is
 * chosen and each parent opened before anything of the sandbox runs; the
 * keeper is handed the instructions and those fds (it makes, joins and
 * removes the cgroups: src/keeper-cgroup.c); verification reads, through
 * the same fds, that every sandbox process is in them and that their
 * limit files hold the plan's values; the keeper's counters come back
 * into `stats`. */
#pragma once

#include <glib.h>
#include <sys/types.h>

#include "cgroup.h"
#include "plan.h"

G_BEGIN_DECLS

typedef struct
{
  CordonCgroupMechanism mechanism;
  char *name;                 /* "cordon-PID-RANDOM", the same in every hierarchy; a SYSTEMD
                               * scope's unit name, "cordon-PID-RANDOM.scope" */
  GArray *parent_fds;         /* int (O_PATH directories), one per plan cgroup dir */
  int home_fd;                /* DELEGATED: cordon's own cgroup (O_PATH), handed on after them; else -1 */
  const GPtrArray *dirs;      /* the plan's CordonCgroupDir, borrowed */
  char *bus_address;          /* SYSTEMD: the user's bus, where the scope is asked for */
  CordonCgroupStats stats;
} CordonCgroupRun;

/* FALSE with the host's refusal when a parent cannot be opened. A plan
 * without cgroups gives a run of none (dirs empty). */
gboolean cordon_cgroup_run_open (CordonCgroupRun *run,
                                 const CordonPlan *plan,
                                 const CordonCgroupHost *host,
                                 GError **error);
/* The last resort, once the keeper is gone: each cgroup it should have
 * removed, if it is still there and empty (the keeper killed late by the
 * supervisor). Nothing else is touched: only the run's names, below the
 * parents' fds. */
void cordon_cgroup_run_remove (const CordonCgroupRun *run);
void cordon_cgroup_run_clear (CordonCgroupRun *run);
gboolean cordon_cgroup_run_any (const CordonCgroupRun *run);
/* SYSTEMD: the scope asked of the user's manager over its bus, with
 * `keeper` (started, waiting) its one process and the plan's limits its
 * properties; TRUE once /proc shows the keeper in it. FALSE with the
 * host's refusal. */
gboolean cordon_cgroup_run_start_scope (const CordonCgroupRun *run,
                                        const CordonPlan *plan,
                                        pid_t keeper,
                                        GError **error);
/* The keeper's --cgroup instructions, for a sealed memfd. */
GBytes *cordon_cgroup_run_spec (const CordonCgroupRun *run);
/* The host path of cgroup `i` of the run. */
char *cordon_cgroup_run_path (const CordonCgroupRun *run,
                              guint i);
/* What is wrong with `pid` and the run's cgroups, or NULL: it is not in
 * each, or a limit file does not hold the plan's value. */
char *cordon_cgroup_run_problem (const CordonCgroupRun *run,
                                 pid_t pid);

G_END_DECLS
