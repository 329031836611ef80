/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* resource-limits: compile's [limits] step for what is no mount: the rlimits
 * cordon-exec sets (file-size, open-files, core) and the limits of the
 * whole sandbox (memory, swap, cpu, pids), each held by the cgroup the
 * host allows (src/cgroup.h), or pids by RLIMIT_NPROC, or not at all:
 * then enforce=required stops the run (reason host, the fix named) and
 * best-effort names the degradation. Pure: a stage of compile. */
#pragma once

#include <glib.h>

#include "host-facts.h"
#include "plan.h"
#include "policy.h"

G_BEGIN_DECLS

gboolean cordon_resource_limits_compile (CordonPlan *plan,
                                const CordonPolicy *policy,
                                const CordonHostFacts *facts,
                                GError **error);

/* "256M", "1G", "1536K", "100": the shortest exact spelling of `bytes`
 * in the policy's units. */
char *cordon_resource_limits_format_size (guint64 bytes);

G_END_DECLS
