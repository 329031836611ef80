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

/* What the host decided beyond the policy and the facts, each applied
 * as a rule and tagged in the plan with its cause (explain shows it):
 * the probe's answer and the shape a setuid bwrap imposes. */
typedef struct
{
  gboolean proc_fallback;     /* a private /proc cannot be mounted: [proc] fallback= applies */
  gboolean share_user;        /* setuid bwrap: the user namespace is left out */
  gboolean disable_userns;    /* this bwrap takes --disable-userns (the probe tried it) */
} CordonCompileOptions;

void cordon_compile_add_disable_userns (CordonPlan *plan,
                                        const CordonPolicy *policy);
CordonPlan *cordon_compile (const CordonPolicy *policy,
                            const CordonHostFacts *facts,
                            GError **error);
CordonPlan *cordon_compile_with (const CordonPolicy *policy,
                                 const CordonHostFacts *facts,
                                 const CordonCompileOptions *options,
                                 GError **error);

G_END_DECLS
