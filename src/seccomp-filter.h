/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* seccomp-filter: the system-call filter the sandbox runs under (invariant 4),
 * built with libseccomp for the native ABI and its compat ABIs, exported
 * as BPF into a sealed memfd that bwrap loads with --seccomp. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#include "plan.h"

/* The calls the profile filters by their arguments (add_argument_rules):
 * deny= cannot take them, allow= takes out every rule of theirs. */
extern const char * const cordon_seccomp_filtered_by_argument[];
gboolean cordon_seccomp_sets_mode (const char *name);

int cordon_seccomp_memfd (const CordonPlan *plan,
                          GError **error);
GBytes *cordon_seccomp_bpf (const CordonPlan *plan,
                            GError **error);

G_END_DECLS
