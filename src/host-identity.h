/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* host-identity: whom a root caller's sandbox runs as on this host
 * ([identity] host-user=), read from the host's user database, its
 * subordinate ids and cordon's own user namespace. A part of host facts. */
#pragma once

#include <glib.h>

#include "host-facts.h"
#include "policy.h"

G_BEGIN_DECLS

/* The uid and gid that host-user=auto gives a root caller's sandbox: no
 * account nor group has them, no user's subordinate ids include them
 * (cordon refuses to run where any does), they own no file, and they lie
 * outside the ranges systemd, Debian and useradd hand out (below 100000,
 * above the 16-bit ones). */
#define CORDON_AUTO_HOST_UID 99999

/* A thread that asks the host's user database of auto's uid and gid at
 * once, so that resolving a root caller's identity later finds its
 * modules loaded (NSS's libnss_systemd: a load, about 1.5 ms on a
 * virtualized host). Only warms up: the lookups that decide are
 * resolve's own. Join it (g_thread_join) before anything forks. NULL
 * where there is nothing to warm up (not root) or no thread. */
GThread *cordon_host_identity_warm_up (void);
void cordon_host_identity_resolve (CordonHostFacts *facts,
                                   const CordonItem *host_user);

G_END_DECLS
