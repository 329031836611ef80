/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cgroup: where this host lets cordon hold a sandbox's memory, processes
 * and CPU together, and the cgroup a run makes there. The host side is
 * read once (cordon_cgroup_host_find: /proc/self/cgroup, the mount table,
 * /proc/meminfo) and parsed by a pure function the tests drive; compile
 * (src/resource-limits.c) turns it into the plan's cgroup dirs. At launch the
 * keeper makes them, joins the sandbox to them before bwrap starts, and
 * after the run kills what is left in them, reads their counters and
 * removes them (src/keeper-cgroup.c): cordon only names them, holds an fd
 * of each parent (invariant 10), verifies them and reads the counters the
 * keeper sends. */
#pragma once

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

/* Best first. */
typedef enum
{
  CORDON_CGROUP_NONE,         /* rlimits only */
  CORDON_CGROUP_SYSTEMD,      /* a transient scope of the user's systemd */
  CORDON_CGROUP_DELEGATED,    /* a cgroup v2 subtree cordon may write */
  CORDON_CGROUP_V1,           /* the host's cgroup v1 hierarchies, as root */
  CORDON_CGROUP_MAX
} CordonCgroupMechanism;

typedef enum
{
  CORDON_CONTROLLER_MEMORY,
  CORDON_CONTROLLER_PIDS,
  CORDON_CONTROLLER_CPU,
  CORDON_CONTROLLER_CPUACCT,  /* counters only: cpu usage */
  CORDON_CONTROLLER_MAX
} CordonController;

typedef struct
{
  CordonCgroupMechanism mechanism;
  /* By controller: the host path of the cgroup cordon runs in, in the
   * hierarchy that has the controller (v1), where cordon makes its own;
   * NULL where there is none. Co-mounted controllers share one. */
  char *parent[CORDON_CONTROLLER_MAX];
  gboolean writable[CORDON_CONTROLLER_MAX];
  gboolean memsw;             /* v1: swap is accounted (memory.memsw.limit_in_bytes) */
  char *unified;              /* cordon's own cgroup in the cgroup v2 hierarchy (its host path), or NULL */
  char *unified_mount;        /* where that hierarchy is mounted with its root, or NULL */
  gboolean nsdelegate;        /* that mount has nsdelegate: a cgroup namespace's root cannot write its own limits */
  char *user_service;         /* SYSTEMD: the user manager's cgroup (user@UID.service), its host path */
  char *user_bus;             /* SYSTEMD: the D-Bus address of the user's bus */
  char *delegated;            /* the delegated cgroup cordon's is a child of (its host path), or NULL;
                               * set, with mechanism not DELEGATED, where it enables no controller */
  char *delegation_refused;   /* why the parent of cordon's cgroup v2 cgroup is not delegated, or NULL */
  char *unified_controllers;  /* cgroup.controllers of cordon's own cgroup there, or NULL */
  guint64 mem_total;          /* bytes of RAM (MemTotal), 0 unknown */
  guint64 swap_total;         /* bytes of swap (SwapTotal) */
  char *missing;              /* with NONE: what no mechanism had, and the narrowest fix */
} CordonCgroupHost;

const char *cordon_cgroup_mechanism_name (CordonCgroupMechanism mechanism);
const char *cordon_controller_name (CordonController controller);

/* Pure: the hierarchies of `proc_cgroup` (a /proc/self/cgroup) as
 * `mountinfo` mounts them, and the sizes of `meminfo`. Fills parent[],
 * unified, mem_total and swap_total; nothing else. */
void cordon_cgroup_host_parse (CordonCgroupHost *host,
                               const char *proc_cgroup,
                               const char *mountinfo,
                               const char *meminfo);
/* What decides whether the parent of cordon's cgroup v2 cgroup is
 * delegated to the caller, as host_find reads it. */
typedef struct
{
  gboolean parent_is_top;     /* it is the root of the hierarchy as mounted here (a container's, or the host's) */
  gboolean marked;            /* it carries trusted.delegate or user.delegate "1" (systemd's Delegate=) */
  gboolean pid1_is_systemd;   /* PID 1 here is systemd, which owns an unmarked top */
  uid_t parent_uid;
  uid_t grandparent_uid;      /* unless parent_is_top */
  gboolean may_write;         /* the caller may make a cgroup in it and move a process there and back */
} CordonCgroupDelegation;

/* Pure: NULL when such a parent is delegated to a caller of `euid`,
 * else why not. It must be the caller's own (whoever owns it can mark it,
 * move what is in it and take its controllers away: for root, another
 * user's never is), and then marked (as systemd marks a unit's cgroup
 * with Delegate=yes), or, for a caller who is not root, one whose parent
 * is not the caller's (the kernel's model: a chown at the boundary), or
 * the top of a hierarchy no systemd manages (a container's). A manager's
 * own cgroups (a user's app.slice, below its user@.service) are not. */
const char *cordon_cgroup_delegation_refusal (const CordonCgroupDelegation *d,
                                              uid_t euid);

/* The host's: parse, then which mechanism it has, best first: SYSTEMD
 * for a caller who is not root, whose user manager is reachable on the
 * user's bus (`bus_address`, DBUS_SESSION_BUS_ADDRESS, else
 * `runtime_dir`/bus; either may be NULL) and hands on controllers;
 * DELEGATED where cordon's cgroup v2 cgroup is a child of one delegated
 * to the caller that enables them (cgroup.subtree_control); V1 for root
 * with a writable parent; and why none where it has none. */
void cordon_cgroup_host_find (CordonCgroupHost *host,
                              uid_t euid,
                              const char *bus_address,
                              const char *runtime_dir);
/* The same, with the caller's mount table as already read (host-facts
 * reads it once for all it asks), or NULL to read it here. */
void cordon_cgroup_host_find_in (CordonCgroupHost *host,
                                 GPtrArray *mounts,
                                 uid_t euid,
                                 const char *bus_address,
                                 const char *runtime_dir);
void cordon_cgroup_host_clear (CordonCgroupHost *host);

/* What the keeper said of a cgroup after the run ("C<I> FILE TEXT"),
 * taken apart. */
typedef struct
{
  gboolean read;              /* any counter came */
  gint64 memory_peak;         /* bytes; -1 unknown */
  gint64 oom_kills;           /* -1 unknown */
  gint64 pids_max_hits;       /* -1 unknown */
  gint64 cpu_usec;            /* -1 unknown */
} CordonCgroupStats;

void cordon_cgroup_stats_init (CordonCgroupStats *stats);
/* One keeper line, its tag letter already taken off ("0 memory.oom_control
 * oom_kill 1;..."); FALSE when it is of no shape this knows. */
gboolean cordon_cgroup_stats_take_line (CordonCgroupStats *stats,
                                        const char *line);

G_END_DECLS
