/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* protect: compile's [filesystem] protect= step. What the sandbox writes
 * in a writable workdir the host runs later, outside every sandbox: a
 * hook in .git/hooks on the next commit, a core.fsmonitor line of
 * .git/config on the next git status. So each entry (a path relative to
 * each writable bind; a trailing '/' marks a directory) is bound
 * read-only onto itself, and every directory between the writable bind
 * and it is bound onto itself, writable, so that none can be renamed or
 * removed to put another in its place (a mount point cannot be). Where
 * the bind's .git is a file ("gitdir:", a worktree or a submodule), that
 * file is bound read-only too, and the .git/ entries are applied to the
 * repository directories it names, where a writable bind holds them. An
 * absent .git/ directory entry of a repository (hooks/) becomes an
 * empty read-only directory, as git itself makes; any other absent entry
 * is skipped (named in explain). A symlink on the way or at the entry
 * cannot be held: the run is refused. Pure: a stage of compile. */
#pragma once

#include <glib.h>

#include "host-facts.h"
#include "plan.h"
#include "policy.h"

G_BEGIN_DECLS

gboolean cordon_protect_compile (CordonPlan *plan,
                                 const CordonPolicy *policy,
                                 const CordonHostFacts *facts,
                                 GError **error);

/* After the masks: a protected path a mask hides (a .git file may name
 * a gitdir under one) is left to the mask; nothing of protect= is made
 * there, not even an empty directory on the host. */
void cordon_protect_drop_masked (CordonPlan *plan);

G_END_DECLS
