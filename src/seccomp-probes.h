/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* seccomp-probes: the attempts that prove, inside the sandbox, that the
 * filter of seccomp-filter.c is in force: each makes, for real, a call
 * one of its rules refuses, in a way that without the filter succeeds or
 * fails otherwise (a key added, a new user namespace, a packet socket,
 * ENOTTY from a plain ioctl). The rules name the probe that proves them
 * (CordonSeccompRule.probe). Plain libc: cordon-exec makes the probes,
 * verify asks for them (each but those of a call allow= takes out of the
 * profile), and test-seccomp-filter makes them under the built filter. */
#pragma once

#include "protocol.h"

typedef struct
{
  CordonCheckId check;        /* its id and expectation (protocol.h) */
  const char *syscall;        /* the call it makes: allow= of that call takes the probe out */
  int want;                   /* the errno the filter answers */
  /* Makes the call: its result, with errno set on failure. It may set
   * *want to another errno the filter's absence cannot give (see
   * probe_setuid). */
  long (*attempt) (int *want);
} CordonSeccompProbe;

/* In the order cordon-exec makes them: one child makes them all, so
 * where the filter is missing, what one probe did (a key added, a user
 * namespace entered) stays out of the later checks and the command. */
extern const CordonSeccompProbe cordon_seccomp_probes[];
extern const unsigned cordon_seccomp_n_probes;

/* Makes `probe`: 1 when it failed as the filter makes it fail, else 0;
 * its result, errno and the errno it wanted in the outputs. */
int cordon_seccomp_probe_run (const CordonSeccompProbe *probe,
                              long *out_rc,
                              int *out_errno,
                              int *out_want);
