/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* hide: compile's step for less of the host in view under a read-only
 * root. Each directory of [filesystem] hide=, the directory that holds
 * each writable bind (hide-siblings=: the jobs beside this one), and what
 * the host's /sys shows of its network interfaces and cgroups where the
 * sandbox has a network and a cgroup namespace of its own: an empty tmpfs
 * over each, where bwrap then makes the mount points of what the policy
 * binds below it (a workdir in a hidden /home shows, its neighbours do
 * not), made read-only once the last of them is in (cordon_hide_seal).
 * /sys/class/net keeps one entry, lo, as in a new network namespace (an
 * empty directory: the host's lo would show the host's local traffic).
 * A directory the policy binds, or a tmpfs, is shown as the policy says:
 * read-only=/mnt takes /mnt out of an included hide=. A symbolic link to
 * a directory is hidden where it leads; an absent path, or one not a
 * directory, is skipped and named. Pure: a stage of compile. */
#pragma once

#include <glib.h>

#include "host-facts.h"
#include "plan.h"
#include "policy.h"
#include "policy-vars.h"

G_BEGIN_DECLS

/* Adds the hiding tmpfs to `mounts` (the depth-sorted step's, still
 * pending: the plan holds the root, /proc and /dev so far), or skips. */
gboolean cordon_hide_collect (CordonPlan *plan,
                              const CordonPolicy *policy,
                              const CordonHostFacts *facts,
                              const CordonVars *vars,
                              GPtrArray *mounts,
                              GError **error);

/* Last among the mounts: each hidden directory read-only. */
void cordon_hide_seal (CordonPlan *plan);

/* The names a hidden directory shows (what the plan mounts below it),
 * joined by '/' after a leading '/': "/" for none. */
char *cordon_hide_shown (const CordonPlan *plan,
                         const char *dir);

G_END_DECLS
