/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* keeper-placeholder: cordon-keeper's part of a protected path that is
 * absent ([filesystem] protect=, src/protect.c). So that the sandbox
 * cannot make it (.vscode/tasks.json, .envrc), bwrap mounts an empty
 * read-only tmpfs there, and its mount point must exist on the host: the
 * keeper makes it, an empty directory of mode CORDON_PLACEHOLDER_MODE,
 * before bwrap starts, and removes it once every process of the sandbox
 * is gone (or cordon is: a SIGKILL of cordon leaves none behind). git
 * tracks no empty directory: `git status` on the host shows nothing.
 *
 * Two runs in one workdir share a placeholder: each holds a shared
 * flock(2) on it for its run, and the last one to let go removes it. A
 * run that finds one (EEXIST) takes it if it is a directory of the
 * placeholder's mode (compile took an empty one for one too), else the
 * launch fails: something else appeared there since cordon looked. The
 * end takes the lock exclusively without waiting: only the run that gets
 * it removes the directory, and only if the name still holds the one it
 * locked and it is empty (rmdir), so nothing but an empty directory is
 * ever removed. The instructions come in a sealed memfd (--placeholders
 * FD), the parents' fds after it at FD+1 on; see protocol.h. Plain libc. */
#pragma once

#include <stddef.h>
#include <sys/types.h>

#define CORDON_KEEPER_MAX_PLACEHOLDERS 256

typedef struct
{
  int parent_fd;
  int fd;              /* the placeholder, locked shared; -1 until held */
  dev_t dev;           /* and its directory's, once opened */
  ino_t ino;
  char name[256];
} KeeperPlaceholder;

typedef struct
{
  KeeperPlaceholder items[CORDON_KEEPER_MAX_PLACEHOLDERS];
  size_t n;
  int pinned;          /* their files are held by `ring` too (see _pin) */
  int ring;
} KeeperPlaceholders;

/* Reads the instructions of `spec_fd` (closed) and takes the fds after
 * it. 0, or -1 with errno and why in `why`, and nothing taken (the fds
 * of the lines read before are closed). */
int cordon_keeper_placeholders_read (int spec_fd,
                                     KeeperPlaceholders *ph,
                                     char *why,
                                     size_t why_len);
/* Makes (or shares) and locks each one. 0, or -1 with errno and why in
 * `why` (what was held is let go again, and removed where it was the
 * last). */
int cordon_keeper_placeholders_hold (KeeperPlaceholders *ph,
                                     char *why,
                                     size_t why_len);
/* The held placeholders' files registered in an io_uring of the
 * keeper's: once each is removed, its last reference is the ring's, and
 * the ring, closed at the end, is released by the kernel's own worker.
 * The inode of a removed directory is freed then, not in the keeper's
 * close: on a file system that discards freed blocks at once (ext4
 * without a journal, mounted with discard) each costs a block device
 * round trip, a millisecond and more under load, while the name is gone
 * already. Best effort, off the path to bwrap: without io_uring (an old
 * kernel, io_uring_disabled) or under a seccomp filter (which might kill
 * the keeper for the call) the end closes them itself, as before. */
void cordon_keeper_placeholders_pin (KeeperPlaceholders *ph);
/* Each one let go, and removed where no other run holds it and it is
 * empty. A second call does nothing. */
void cordon_keeper_placeholders_end (KeeperPlaceholders *ph);
