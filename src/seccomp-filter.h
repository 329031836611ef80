/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* seccomp-filter: the system-call filter the sandbox runs under (invariant 4),
 * built with libseccomp for the native ABI and its compat ABIs, exported
 * as BPF into a sealed memfd that bwrap loads with --seccomp. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#include "plan.h"
#include "protocol.h"

/* How a rule compares one argument of the call. */
typedef enum
{
  CORDON_SECCOMP_EQ,
  CORDON_SECCOMP_NE,
  CORDON_SECCOMP_GT,
  CORDON_SECCOMP_MASKED_EQ,   /* (argument & mask) == value */
} CordonSeccompCompare;

typedef struct
{
  guint arg;                  /* 0-5 */
  CordonSeccompCompare op;
  guint64 mask;               /* CORDON_SECCOMP_MASKED_EQ's */
  guint64 value;
} CordonSeccompArg;

/* One rule of the profile: `name` fails with `err` when every one of its
 * `n_args` comparisons holds (none: whatever the arguments). */
typedef struct
{
  const char *name;
  int err;
  gboolean strict_only;       /* only under profile=strict */
  guint32 by_number;          /* refused by this number before libseccomp's program (which may
                               * not know the name), or 0 */
  gboolean set_id;            /* refused for the set-ID bits a mode would give a file */
  guint n_args;
  CordonSeccompArg args[2];
  CordonCheckId probe;        /* the seccomp probe that proves it in the sandbox, or
                               * CORDON_CHECK_MAX ... */
  const char *unprobed;       /* ... and then why none does */
} CordonSeccompRule;

/* Every rule, in the order the filter is built from them. */
const CordonSeccompRule *cordon_seccomp_rules (gsize *out_n);

/* TRUE for a call the profile filters by its arguments: deny= cannot
 * take it (a second rule would conflict), allow= takes out every rule of
 * its. */
gboolean cordon_seccomp_filters_by_argument (const char *name);
/* TRUE for a call whose mode argument the profile filters (set-ID bits
 * refused), and openat2, which it refuses outright for that reason. */
gboolean cordon_seccomp_sets_mode (const char *name);

/* What a refusal of the profile's does (rules of ENOSYS keep it in every
 * kind: glibc makes clone3 and openat2 all the time, and falls back). */
typedef enum
{
  CORDON_SECCOMP_FILTER_ERRNO,    /* each call fails with its errno, unnamed */
  CORDON_SECCOMP_FILTER_NOTIFY,   /* SECCOMP_RET_USER_NOTIF: bwrap's filter, whose refusals the
                                   * one below answers (ENOSYS while none does) */
  CORDON_SECCOMP_FILTER_LISTENED, /* the same, and no other filter with a listener (cordon-exec's,
                                   * loaded with SECCOMP_FILTER_FLAG_NEW_LISTENER) */
  CORDON_SECCOMP_FILTER_MAX
} CordonSeccompFilterKind;

gboolean cordon_seccomp_notify_available (void);
int cordon_seccomp_errno_of (const char *name);
const char *cordon_seccomp_errno_name (int err);
gboolean cordon_seccomp_refused_by_deny (const CordonPlan *plan,
                                         const char *name,
                                         CordonLocation *out_rule);
int cordon_seccomp_memfd (const CordonPlan *plan,
                          CordonSeccompFilterKind kind,
                          GError **error);
char *cordon_seccomp_filter_inputs (const CordonPlan *plan,
                                    CordonSeccompFilterKind kind);
GBytes *cordon_seccomp_bpf (const CordonPlan *plan,
                            CordonSeccompFilterKind kind,
                            GError **error);

G_END_DECLS
