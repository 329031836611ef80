/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* seccomp-notify: cordon's side of the listener cordon-exec loads. The
 * profile's refusals (those of EPERM and EAFNOSUPPORT) are
 * SECCOMP_RET_USER_NOTIF: the kernel stops the calling thread and tells
 * the listener, which answers the errno the rule names — never "continue":
 * no call the profile refuses runs, whatever cordon is told — and counts
 * the call by name, so that a run can say which rule refused what. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* At most this many names are told apart; a call beyond them is counted
 * in `others`. */
#define CORDON_SECCOMP_DENIALS_MAX 64

typedef struct
{
  char *syscall;            /* its name, or "syscall N" for one libseccomp does not know */
  int err;                  /* what the caller got */
  guint64 count;
} CordonSeccompDenial;

typedef struct
{
  gboolean listened;        /* a listener answered this run's refusals */
  GPtrArray *denials;       /* CordonSeccompDenial, in the order first refused */
  guint64 others;           /* refusals of calls beyond CORDON_SECCOMP_DENIALS_MAX names */
} CordonSeccompDenials;

gboolean cordon_seccomp_notify_is_listener (int fd);
gboolean cordon_seccomp_notify_answer (int listener,
                                       CordonSeccompDenials *record);
void cordon_seccomp_denials_clear (CordonSeccompDenials *denials);

G_END_DECLS
