/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* userns-fork: a child that is uid 0 of a new user namespace, owned by
 * root, mapping that uid 0 to a host user. Plain libc: cordon's probe and
 * cordon-keeper share it (see userns-fork.c for why). */
#pragma once

#include <sys/types.h>

/* fork(2), in a caller that is root of the host's user namespace: in the
 * child (0 returned) the process is uid and gid 0, with no supplementary
 * group, of a user namespace of its own whose uid 0 is the host's `uid`
 * and gid 0 the host's `gid`; in the parent, the child's pid, or -1 with
 * *out_errno. Only async-signal-safe calls run in the child. */
pid_t cordon_userns_fork (uid_t uid,
                          gid_t gid,
                          int *out_errno);
