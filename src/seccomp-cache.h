/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* seccomp-cache: the filters' BPF, made once per profile and kept in
 * cordon's private cache directory beside the probe's answer (issue 16:
 * libseccomp took about 0.7 ms a filter, three a launch). A copy is used
 * only where the directory and the file are the caller's and nobody else
 * can write them, and only for the very inputs it was made from and the
 * code that made it: the key names the rules, the plan's profile, allow=
 * and deny=, the kind, the architecture, and this cordon binary and the
 * libseccomp it runs with. Only the caller can write it, as only the
 * caller can replace its cordon: a copy is trusted as the program made
 * afresh would be. Verification proves the filter in force inside every
 * sandbox for the calls it probes, cached or not (nothing of the
 * verification is cached). */
#pragma once

#include <glib.h>
#include <sys/types.h>

#include "plan.h"
#include "seccomp-filter.h"

G_BEGIN_DECLS

/* The BPF of `kind` for `plan`: read from `dir` where a trustworthy copy
 * is there (*out_cached TRUE), else made and, where `dir` can take it,
 * written there (best effort). `dir` NULL: made, nothing read or kept. */
GBytes *cordon_seccomp_cache_get (const CordonPlan *plan,
                                  CordonSeccompFilterKind kind,
                                  const char *dir,
                                  uid_t uid,
                                  gboolean *out_cached,
                                  GError **error);
/* The name of the file the BPF of these inputs is kept in ("seccomp-"
 * and 32 hexadecimal digits of its key), for tests. */
char *cordon_seccomp_cache_name (const CordonPlan *plan,
                                 CordonSeccompFilterKind kind);

G_END_DECLS
