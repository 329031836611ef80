/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cgroup-prime: a cgroup v1 run pays, when the keeper joins its cgroups,
 * for an RCU grace period: the first move of a process on a host that
 * has made none for a while waits for one (the kernel's
 * cgroup_threadgroup_rwsem is a per-CPU rwsem; its writer waits for
 * readers to leave their fast path). A move made shortly before is what
 * makes the next cheap. So, as soon as a plan says it will move, cordon
 * moves a thread of its own into the cgroup it already is in (a move to
 * nowhere new), while it goes on preparing the run: the wait is spent
 * beside that work, not in front of bwrap. */
#pragma once

#include "plan.h"

G_BEGIN_DECLS

/* Start that move in a thread of its own, when `plan` makes cgroup v1
 * cgroups; nothing otherwise. It is best effort and changes nothing
 * (the thread moves into the cgroup it is in, then ends): a move that
 * fails only costs the keeper its wait. */
void cordon_cgroup_prime (const CordonPlan *plan);

G_END_DECLS
