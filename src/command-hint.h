/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* command-hint: why a command the sandbox could not find (127) may
 * still be there on the host: the plan's mount that hides the path it
 * would be at (a scratch tmpfs, a mask, a hidden directory, or nothing
 * bound there) and the policy rule that made it; or the host directory
 * of the caller's PATH that the sandbox's PATH leaves out. The host is
 * read only at paths no writable bind covers, so nothing the sandbox
 * left behind decides what is looked at or said. */
#pragma once

#include <glib.h>

#include "plan.h"

G_BEGIN_DECLS

/* One line (no "cordon: " prefix, no newline) naming where `command`
 * (argv[0] as given) is on the host and what hides it, or NULL when
 * nothing on the host explains the miss. `host_path` is the caller's
 * PATH (NULL: none). */
char *cordon_command_hint (const CordonPlan *plan,
                           const char *command,
                           const char *host_path);

G_END_DECLS
