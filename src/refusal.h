/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* refusal: the rules of a policy that cordon refuses whatever the host,
 * each as one predicate that answers in the words of the refusal. The
 * stages of compile refuse the run with the answer; policy-check reports
 * it as an error at the rule, so `cordon check` names what `cordon run`
 * would refuse before any host is asked. Each returns NULL where the
 * rule is accepted, else the message (no location: the caller puts the
 * rule's before it). Pure. */
#pragma once

#include <glib.h>

#include "cordon-error.h"
#include "policy.h"

G_BEGIN_DECLS

/* [namespaces] hostname= (`it`, NULL for none) of a sandbox that makes
 * the namespaces of `namespaces` (CordonNamespaces bits) its own. */
char *cordon_refusal_hostname (const CordonItem *it,
                               guint namespaces);

/* A writable bind at `path`, expanded and normalized. */
char *cordon_refusal_writable (const char *path);

/* [limits] scratch= beside a bind of the host's at `dest` (expanded,
 * normalized), which the rule at `bind` makes. */
char *cordon_refusal_scratch_bind (const char *dest,
                                   const CordonLocation *bind);

/* [limits] open-files= and pids= (`it`, NULL for none). */
char *cordon_refusal_open_files (const CordonItem *it);
char *cordon_refusal_pids (const CordonItem *it);

/* [limits] swap= beside memory= (either NULL for none). */
char *cordon_refusal_swap (const CordonItem *swap,
                           const CordonItem *memory);

G_END_DECLS
