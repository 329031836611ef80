/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* policy-check: semantic diagnostics on a merged policy: rules that are
 * each valid but contradict one another (a writable path hidden by a tmpfs
 * or a mask), rules that run refuses whatever the host (a writable system
 * directory, a hostname without a uts namespace), and values that would
 * hand the sandbox authority (a never-pass variable allowed, a shared
 * network, a credential store bound, a token's variable allowed, a
 * writable directory of the host's programs). Pure. */
#pragma once

#include "diagnostic.h"
#include "policy.h"

G_BEGIN_DECLS

void cordon_policy_check (const CordonPolicy *policy,
                          CordonDiagnostics *diags);

G_END_DECLS
