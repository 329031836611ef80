/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* compile: (policy, host facts) -> plan. Pure and deterministic: it reads
 * nothing but its two arguments, and orders mounts per invariant 6 of the
 * design: root binds, /proc, /dev, then tmpfs and binds by depth (so a
 * workdir under a scratch /tmp stays visible), masks last. */
#pragma once

#include "host-facts.h"
#include "plan.h"
#include "policy.h"

G_BEGIN_DECLS

CordonPlan *cordon_compile (const CordonPolicy *policy,
                            const CordonHostFacts *facts,
                            GError **error);

G_END_DECLS
