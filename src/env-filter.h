/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* env-filter: which environment variables may enter the sandbox. The
 * never-pass set holds variables that make a program run code of the
 * caller's choosing (LD_PRELOAD, BASH_ENV, NODE_OPTIONS, ...): they are
 * dropped even when a policy allows them, and `check` flags the policy. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean cordon_env_name_is_valid (const char *name);
gboolean cordon_env_pattern_is_valid (const char *pattern);
gboolean cordon_env_is_never_pass (const char *name);
const char *cordon_env_never_pass_overlap (const char *pattern);
const char * const *cordon_env_never_pass_list (void);

G_END_DECLS
