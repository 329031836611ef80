/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* stage: the mount trees cordon cuts for cordon-keeper, before a root
 * caller's sandbox is started as another user (see identity.c for why,
 * and cordon-keeper.c for where they go). */
#pragma once

#include <glib.h>

#include "plan.h"

G_BEGIN_DECLS

/* The keeper's instructions, one per line, in order:
 *   shadow<TAB>PATH              an empty read-only tmpfs over PATH
 *   attach<TAB>N<TAB>dir|file<TAB>PATH
 *                                tree N (the Nth fd after the spec's) at PATH
 *   ids<TAB>UID<TAB>GID          then become UID and GID, with no group
 * Paths are %XX-encoded for '%', tab and newline. */
typedef struct
{
  GBytes *spec;
  GArray *fds;      /* int: the detached trees, in the order the spec names them */
} CordonStageSet;

gboolean cordon_stage_open (const CordonPlan *plan,
                            CordonStageSet *out_set,
                            GError **error);
void cordon_stage_set_clear (CordonStageSet *set);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CordonStageSet, cordon_stage_set_clear)

G_END_DECLS
