/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* userns-fork: a child that is uid 0 of a new user namespace, owned by
 * root, mapping that uid 0 to a host user. Plain libc: cordon's probe,
 * its stage and cordon-keeper share it (see userns-fork.c for why). */
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

/* Whether a child may share the memory of its root parent after it has
 * changed to another uid: only where fs.suid_dumpable (read at `path`,
 * /proc/sys/fs/suid_dumpable) is 0, so that the change of ids makes that
 * memory undumpable. Otherwise any process of that uid could ptrace the
 * child, or write its /proc/PID/mem, and so reach root's memory: a fork
 * is needed there. 0 (no) where the setting cannot be read. Plain C:
 * the keeper's. */
int cordon_userns_may_share_memory (const char *path);

/* How much stack a child of cordon_userns_clone is given. */
#define CORDON_USERNS_CHILD_STACK (64 * 1024)

/* A child of cordon_userns_clone, held: it waits for its release. */
typedef struct
{
  pid_t pid;
  int hold_fd;     /* one byte here releases it; its end of file ends it */
} CordonUsernsChild;

/* clone(2) with CLONE_VM, not fork(2): no page table is copied (a fork
 * of cordon costs over a millisecond here, a clone of it tens of
 * microseconds). The child runs on `stack` (CORDON_USERNS_CHILD_STACK
 * bytes, kept by the caller until the child has exec'd or ended) and is
 * held. Released, it calls `fn (data)` and _exits with its value; ended,
 * or left by the caller's death (the hold's end of file), it _exits 127
 * without. It is born in a user namespace of its own, owned by root (the
 * caller must be root of the host's), whose uid and gid 0 are the host's
 * `uid` and `gid` (mapped before this returns), and becomes them once
 * released, before `fn`; should that fail, it writes the errno to
 * `report_fd` (when >= 0) and _exits 127. The child shares
 * the caller's memory, its errno too, until it execs: `fn` makes only
 * async-signal-safe calls, and the caller waits for its exec or end
 * before it reads its own errno again. 0 with *out_child, or -1 with
 * errno and no child left. */
int cordon_userns_clone (uid_t uid,
                         gid_t gid,
                         int (*fn) (void *),
                         void *data,
                         int report_fd,
                         void *stack,
                         CordonUsernsChild *out_child);
/* Lets the child run `fn`: 0, or -1 with errno (it then ends of itself). */
int cordon_userns_child_release (CordonUsernsChild *child);
/* The held child killed and reaped. */
void cordon_userns_child_end (CordonUsernsChild *child);
/* The held child killed, its hold closed; the caller reaps it. */
void cordon_userns_child_kill (CordonUsernsChild *child);
