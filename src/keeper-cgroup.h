/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* keeper-cgroup: cordon-keeper's part of a sandbox's cgroups. The keeper
 * makes them (so that no SIGKILL of cordon can come between their making
 * and the one process that removes them), writes their limits, puts
 * bwrap in them before it runs, and when the sandbox is done (or cordon
 * is gone) kills what is left in them, sends cordon their counters and
 * removes them. The instructions come in a sealed memfd (--cgroup FD),
 * the parents' directory fds after it at FD+1 on; see protocol.h. Plain
 * libc. */
#pragma once

#include <stddef.h>

#define CORDON_KEEPER_MAX_CGROUPS 8

typedef struct
{
  int parent_fd;       /* -1 in a scope until the end (see keeper-cgroup.c) */
  int home_fd;         /* where the keeper goes back to (DELEGATED: cordon's cgroup), else -1: the parent */
  char name[64];
  char parent_path[512]; /* a scope's: where the end opens its parent */
  int made;
} KeeperCgroup;

typedef struct
{
  KeeperCgroup dirs[CORDON_KEEPER_MAX_CGROUPS];
  size_t n;
  char *spec;          /* the instructions, kept: their lines are read again */
  int scope;           /* a systemd scope: made, limited and removed by its manager, the keeper placed in it */
  int life_fd;         /* where the counters go, during cordon_keeper_cgroups_end */
} KeeperCgroups;

/* Reads the instructions of `spec_fd` (closed) and takes the fds after
 * it. 0, or -1 with errno and why in `why`. */
int cordon_keeper_cgroups_read (int spec_fd,
                                KeeperCgroups *cg,
                                char *why,
                                size_t why_len);
/* Makes each cgroup and writes its limits, in the spec's order. 0, or
 * -1 with errno and why in `why` (what was made is removed again). For
 * a scope: waits for cordon's word on `life_fd` that the keeper is in
 * it, and checks that it is. */
int cordon_keeper_cgroups_make (KeeperCgroups *cg,
                                int life_fd,
                                char *why,
                                size_t why_len);
/* This process into each cgroup (its children start there), or back
 * into each parent. 0, or -1 with errno and why. */
int cordon_keeper_cgroups_enter (KeeperCgroups *cg,
                                 char *why,
                                 size_t why_len);
int cordon_keeper_cgroups_leave (KeeperCgroups *cg,
                                 char *why,
                                 size_t why_len);
/* Every process left in them killed (bounded by `deadline_ms` of
 * CLOCK_MONOTONIC), the counters sent as "C<I> FILE TEXT" lines on
 * `life_fd` (-1: none), then each removed (a scope: left to its
 * manager); the instructions are freed, so a second call does nothing. */
void cordon_keeper_cgroups_end (KeeperCgroups *cg,
                                int life_fd,
                                long deadline_ms);
