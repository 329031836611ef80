/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* credentials: where a caller keeps what proves who they are, for check's
 * warnings about a policy that shows it to the sandbox. The stores of a
 * home (~/.ssh, ~/.aws, ~/.config/gh, ...) are one list, the one the
 * shipped desktop-readonly-home policy masks: it is read from the copy
 * embedded in the binary, so the warnings and the masks cannot drift
 * apart. The environment's are the globs of names that hold a token, a
 * key or a password (*_TOKEN, *_SECRET*, ...), and well-known names that
 * a glob of an allow= can let through (GH_TOKEN, AWS_SECRET_ACCESS_KEY).
 * Pure: nothing of the host is read. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The stores, each "${HOME}/PATH" as desktop-readonly-home's [secrets]
 * mask= names it, in its order; NULL-terminated, never freed. */
const char * const *cordon_credentials_stores (void);

/* The credential glob that `pattern` (an allow= value, a name or a glob
 * of names) spells out, such as '*_TOKEN' for GITHUB_TOKEN or for
 * MY_*_TOKEN, or NULL. The glob's own wildcards stand for nothing in
 * particular: LC_* does not spell out *_KEY. */
const char *cordon_credentials_env_glob (const char *pattern);

/* The well-known credential variable that the glob `pattern` matches,
 * such as GH_TOKEN for GH*, or NULL. */
const char *cordon_credentials_env_name (const char *pattern);

/* The lists, NULL-terminated, for the tests and the manual. */
const char * const *cordon_credentials_env_globs (void);
const char * const *cordon_credentials_env_names (void);

G_END_DECLS
