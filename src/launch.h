/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* launch: starts bwrap cleanly (invariants 1-3). Its envp holds only what
 * the plan allows; its options reach it through a sealed memfd (--args),
 * so no value sits in a cmdline; every fd but 0-2 and cordon's own pipes
 * is closed in the child before exec. The command runs under the
 * in-sandbox helper (cordon-exec), which tells cordon when the sandbox is
 * set up and whether the command could be executed. */
#pragma once

#include <glib.h>
#include <sys/types.h>

#include "bwrap-argv.h"
#include "cgroup-run.h"
#include "plan.h"
#include "protocol.h"
#include "stage.h"

G_BEGIN_DECLS


typedef struct
{
  pid_t pid;           /* bwrap, the keeper's child */
  pid_t keeper_pid;    /* cordon-keeper, our child: it ends as bwrap ended */
  int life_fd;         /* our end of the keeper's socket: open while cordon lives */
  int status_fd;       /* read end of bwrap's --json-status-fd */
  int ready_fd;        /* our end of the helper's status socket */
  int go_fd;           /* write end of the helper's go pipe, or -1 without verify */
} CordonLaunch;

typedef struct
{
  const char *bwrap_path;
  const char *keeper_path;            /* host path of cordon-keeper */
  const CordonPlan *plan;
  const CordonBwrapArgv *argv;        /* the plan's options, as rendered: all bwrap gets */
  const char * const *command;
  GBytes *verify_spec;                /* NULL: run without verification */
  const CordonStageSet *stage;        /* the keeper's --stage, for a plan that switches identity */
  const CordonCgroupRun *cgroups;     /* the keeper's --cgroup, or NULL */
  gboolean seccomp_notify;            /* the profile's refusals notify cordon, through cordon-exec's
                                       * listener (seccomp-notify.h) */
  GBytes *filter;                     /* bwrap's --seccomp BPF (CORDON_SECCOMP_FILTER_NOTIFY with a
                                       * listener, else _ERRNO); NULL without a profile */
  GBytes *listened;                   /* with a listener: cordon-exec's two filters (_LISTENED and */
  GBytes *plain;                      /* _ERRNO, the one it loads where none can be had); else NULL */
} CordonLaunchRequest;

gboolean cordon_launch_start (const CordonLaunchRequest *request,
                              CordonLaunch *out_launch,
                              GError **error);
gboolean cordon_launch_read_keeper_word (int fd,
                                         const char *bwrap_path,
                                         pid_t *out_pid,
                                         GError **error);
gboolean cordon_launch_check_bwrap (const char *bwrap_path,
                                    GError **error);

G_END_DECLS
