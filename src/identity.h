/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* identity: whom a root caller's sandbox runs as on the host, and what
 * cordon prepares before bwrap so that it can (see identity.c). Pure: a
 * stage of compile. */
#pragma once

#include <glib.h>

#include "host-facts.h"
#include "plan.h"
#include "policy.h"

G_BEGIN_DECLS

gboolean cordon_identity_compile (CordonPlan *plan,
                                  const CordonPolicy *policy,
                                  const CordonHostFacts *facts,
                                  GError **error);

G_END_DECLS
