/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* policy-source: where policy text comes from on a real host. A reference
 * holding a '/' or ending in ".policy" is a path (relative to the
 * including file for an include); any other is a name, searched in
 * $XDG_CONFIG_HOME/cordon/policies, /etc/cordon/policies, the installed
 * data dir (these two not under CORDON_POLICY_NOSYSTEM), then the set
 * embedded in the binary. Reads are bounded. */
#pragma once

#include <glib.h>
#include "policy-parse.h"

G_BEGIN_DECLS

typedef struct _CordonPolicySource CordonPolicySource;

CordonPolicySource *cordon_policy_source_new (const char * const *envp);
CordonPolicySource *cordon_policy_source_new_embedded_only (void);
void cordon_policy_source_free (CordonPolicySource *source);
void cordon_policy_source_get_resolver (CordonPolicySource *source,
                                        CordonPolicyResolver *out_resolver);
const char * const *cordon_policy_source_get_dirs (CordonPolicySource *source);
char **cordon_policy_source_list_embedded (void);
gboolean cordon_policy_ref_is_path (const char *ref);
CordonPolicy *cordon_policy_source_load (const char *ref,
                                         const char * const *envp,
                                         CordonDiagnostics *diags,
                                         GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CordonPolicySource, cordon_policy_source_free)

G_END_DECLS
