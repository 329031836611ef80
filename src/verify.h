/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* verify: what the live sandbox must prove before the command runs
 * (invariant 9). From the plan it writes the spec cordon-exec attempts
 * inside (every masked socket and secret, read-only places, namespaces,
 * environment names, digests of dropped values), records each result
 * beside the rule it checks, and makes cordon's own checks from outside
 * on /proc/PID of the waiting helper. */
#pragma once

#include <glib.h>
#include <sys/types.h>

#include "cgroup-run.h"
#include "host-facts.h"
#include "plan.h"
#include "protocol.h"

G_BEGIN_DECLS

typedef struct
{
  char *id;              /* spec id, or a fixed name such as "fds" */
  char *target;          /* what was tried: a path, a namespace, "" */
  char *expect;          /* one line: what must hold */
  CordonKey key;         /* the rule checked, or CORDON_KEY_INVALID */
  CordonLocation rule;
  gboolean done;
  gboolean ok;
  int err;
  char *detail;
} CordonCheck;

typedef struct _CordonVerify CordonVerify;

CordonVerify *cordon_verify_new (const CordonPlan *plan,
                                 const CordonHostFacts *facts,
                                 const char * const *command);
void cordon_verify_add_cgroups (CordonVerify *verify,
                                const CordonCgroupRun *cgroups);
void cordon_verify_free (CordonVerify *verify);
GBytes *cordon_verify_get_spec (const CordonVerify *verify);
gboolean cordon_verify_record (CordonVerify *verify,
                               const char *line);
void cordon_verify_outside (CordonVerify *verify,
                            pid_t helper,
                            pid_t bwrap);
/* The checks from outside in two parts: all but the fds, which may be
 * looked at (from another thread) while the helper makes its checks, and
 * the fds once it waits. */
typedef struct
{
  gboolean looked[CORDON_CHECK_MAX];
  char *problem[CORDON_CHECK_MAX];    /* NULL where the check held */
} CordonOutsideLook;

void cordon_verify_look_outside (const CordonVerify *verify,
                                 pid_t helper,
                                 pid_t bwrap,
                                 CordonOutsideLook *out);
void cordon_verify_take_look (CordonVerify *verify,
                              CordonOutsideLook *look);
void cordon_verify_outside_look_clear (CordonOutsideLook *look);
void cordon_verify_outside_fds (CordonVerify *verify,
                                pid_t helper);
gboolean cordon_verify_passed (const CordonVerify *verify);
guint cordon_verify_n_checks (const CordonVerify *verify);
const CordonCheck *cordon_verify_get_check (const CordonVerify *verify,
                                            guint i);
char *cordon_verify_format_failures (const CordonVerify *verify);
char *cordon_verify_format_table (const CordonVerify *verify,
                                  gboolean aligned);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CordonVerify, cordon_verify_free)

G_END_DECLS
