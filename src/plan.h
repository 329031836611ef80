/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* plan: what compile decided, before it is spelled as bwrap options. An
 * ordered list of typed operations (the describe-then-do split of
 * bubblewrap's own setup ops), each tagged with the policy rule that made
 * it; the entries that were skipped and why; and the environment. */
#pragma once

#include <glib.h>
#include <sys/types.h>
#include "cgroup.h"
#include "cordon-error.h"
#include "policy.h"
#include "protocol.h"

G_BEGIN_DECLS

/* The fds bwrap reads beside its options are protocol.h's: the plan
 * names them (so compile and explain show what bwrap receives) and launch
 * puts them there. */
#define CORDON_BWRAP_FD_STATUS CORDON_FD_JSON
#define CORDON_BWRAP_FD_SECCOMP CORDON_FD_SECCOMP

typedef enum
{
  CORDON_OP_UNSHARE,          /* ns: one CordonNamespaces bit */
  CORDON_OP_NEW_SESSION,
  CORDON_OP_DIE_WITH_PARENT,
  CORDON_OP_CAP_DROP_ALL,
  CORDON_OP_CAP_ADD,          /* src: the capability, CAP_NAME */
  CORDON_OP_RO_BIND,          /* src -> dest, read-only */
  CORDON_OP_BIND,             /* src -> dest, writable */
  CORDON_OP_SYMLINK,          /* src is the link text, dest the link */
  CORDON_OP_PROC,             /* private procfs at dest */
  CORDON_OP_DEV,              /* minimal devtmpfs at dest */
  CORDON_OP_TMPFS,            /* scratch tmpfs at dest */
  CORDON_OP_MASK_FILE,        /* /dev/null bound read-only over dest */
  CORDON_OP_MASK_DIR,         /* empty read-only tmpfs over dest */
  CORDON_OP_HIDE_DIR,         /* empty tmpfs over dest, where what is bound below shows; made
                               * read-only once the last mount point is in (hide.h) */
  CORDON_OP_CHDIR,
  CORDON_OP_HELPER_BIND,      /* src: cordon-exec on the host, bound read-only at dest */
  CORDON_OP_STATUS_FD,        /* bwrap's --json-status-fd, at fd */
  CORDON_OP_DISABLE_USERNS,   /* bwrap's --disable-userns: no user namespace inside */
  CORDON_OP_AS_PID_1,         /* bwrap's --as-pid-1: cordon-exec is the pid namespace's init */
  CORDON_OP_SECCOMP,          /* the filter, read by bwrap's --seccomp from fd */
  CORDON_OP_OPTION,           /* src: a bwrap option, dest: its argument or NULL */
  CORDON_OP_MAX
} CordonOpKind;

/* What is made, before bwrap starts, in the mount namespace of its own
 * that cordon-keeper makes for a root caller's sandbox run as another
 * user (see src/identity.c): bwrap, run as that user, then finds every
 * path it binds. */
typedef enum
{
  CORDON_STAGE_SHADOW,        /* an empty read-only tmpfs over a directory the user cannot search */
  CORDON_STAGE_IDMAP,         /* a writable path's tree, idmapped: the caller's files are the user's */
  CORDON_STAGE_CLONE,         /* a bound path below a shadow: its tree, attached there */
  CORDON_STAGE_MAX
} CordonStageKind;

typedef struct
{
  CordonStageKind kind;
  char *path;
  gboolean is_file;           /* IDMAP and CLONE: the path is not a directory */
  CordonKey key;              /* the rule that needs it, or CORDON_KEY_INVALID */
  CordonLocation rule;
  char *why;
} CordonStage;

typedef struct
{
  CordonOpKind kind;
  char *src;
  char *dest;
  guint ns;
  int fd;                     /* STATUS_FD, SECCOMP: the fd bwrap is given it at */
  guint64 size;               /* TMPFS: its size in bytes ([limits] scratch), or 0: bwrap's default */
  CordonKey key;              /* CORDON_KEY_INVALID for built-in ops */
  CordonLocation rule;        /* rule.file NULL for built-in ops and defaults */
  char *why;                  /* one line, for explain */
  gboolean pinned;            /* a mount point the sandbox must not rename or remove: verified */
  gboolean placeholder;       /* MASK_DIR: its mount point is cordon-keeper's, made for the run and
                               * removed after it (src/keeper-placeholder.h) */
} CordonOp;

typedef struct
{
  CordonKey key;
  CordonLocation rule;
  char *path;
  char *reason;
} CordonSkip;

/* The rlimits cordon-exec sets, soft and hard, before anything of the
 * sandbox runs ([limits] file-size, open-files, core). */
typedef enum
{
  CORDON_RLIMIT_FSIZE,
  CORDON_RLIMIT_NOFILE,
  CORDON_RLIMIT_CORE,
  CORDON_RLIMIT_NPROC,        /* [limits] pids: counted in the sandbox's own user namespace */
  CORDON_RLIMIT_MAX
} CordonRlimitKind;

typedef struct
{
  gboolean set;
  guint64 value;
  CordonKey key;
  CordonLocation rule;        /* file NULL for a default (core=0) */
} CordonRlimit;

/* The limits only a cgroup holds for the whole sandbox ([limits] memory,
 * swap, cpu, pids), as the plan holds them. */
typedef enum
{
  CORDON_LIMIT_MEMORY,        /* bytes */
  CORDON_LIMIT_SWAP,          /* bytes, beside memory */
  CORDON_LIMIT_CPU,           /* percent of one CPU */
  CORDON_LIMIT_PIDS,          /* processes and threads */
  CORDON_LIMIT_MAX
} CordonLimitKind;

typedef enum
{
  CORDON_HELD_NOT,            /* not set, or set and not held (best-effort: a degradation) */
  CORDON_HELD_CGROUP,         /* by the plan's cgroup */
  CORDON_HELD_RLIMIT,         /* pids only: RLIMIT_NPROC, in the sandbox's own user namespace */
} CordonHeldBy;

typedef struct
{
  gboolean set;
  guint64 value;
  guint share;                /* memory=N%: N, the value N% of the host's RAM; else 0 */
  CordonKey key;
  CordonLocation rule;        /* file NULL for a default (swap=0) */
  CordonHeldBy held_by;
  char *unheld;               /* set and not held: why, as the degradation names it */
  gboolean best_effort;       /* enforce=best-effort covers it (see resource-limits.c) */
} CordonLimit;

/* One file the keeper writes in a cgroup it makes, in order. */
typedef struct
{
  char *file;
  char *value;
  CordonLimitKind limit;
} CordonCgroupSetting;

/* One cgroup the keeper makes (one per v1 hierarchy), below `parent`. */
typedef struct
{
  char *parent;               /* host path of the cgroup cordon runs in there (DELEGATED: its parent) */
  char *home;                 /* DELEGATED: cordon's own cgroup, where the keeper goes back to; else NULL */
  guint controllers;          /* 1 << CordonController */
  GPtrArray *settings;        /* CordonCgroupSetting */
  GPtrArray *stats;           /* char*: counter files read after the run */
} CordonCgroupDir;

typedef struct
{
  char *name;
  gboolean passed;
  gboolean set_by_policy;     /* its value is policy text, not the caller's */
  CordonLocation rule;        /* the allow/set item, or file NULL */
  char *reason;
} CordonEnvDecision;

typedef struct
{
  char *policy_name;
  char *description;          /* [policy] description, or NULL */
  GPtrArray *ops;             /* CordonOp */
  GPtrArray *skipped;         /* CordonSkip */
  GPtrArray *env_decisions;   /* CordonEnvDecision, sorted by name */
  GPtrArray *envp;            /* "NAME=VALUE" passed to bwrap, sorted */
  GPtrArray *abstract_sockets;/* names reachable through a shared network, sorted */
  char *workdir;
  guint namespaces;
  CordonProcMode proc_mode;
  CordonProcFallback proc_fallback;
  guint64 timeout;
  guint64 scratch;            /* [limits] scratch: bytes of each tmpfs, 0 for no limit */
  CordonRlimit rlimits[CORDON_RLIMIT_MAX];
  CordonLimit limits[CORDON_LIMIT_MAX];
  CordonEnforce enforce;      /* [limits] enforce */
  CordonLocation enforce_rule;/* file NULL for its default */
  gboolean audit;             /* [audit] walk */
  CordonAuditMode audit_mode; /* [audit] on-finding */
  CordonLocation audit_rule;  /* its rule; file NULL for the default */
  guint audit_max;            /* [audit] max-entries */
  GStrv protect_entries;      /* [filesystem] protect= after unprotect=, paths relative to each writable
                               * bind (no trailing '/'): the audit names one made during the run */
  CordonCgroupMechanism cgroup_mechanism; /* NONE: the plan makes no cgroup */
  GPtrArray *cgroup_dirs;     /* CordonCgroupDir, the keeper makes them in order */
  CordonSeccompProfile seccomp;
  GPtrArray *seccomp_allow;   /* system call names taken out of the profile */
  GPtrArray *seccomp_deny;    /* system call names refused beyond it */
  GArray *seccomp_deny_rules; /* CordonLocation: each deny= name's, in the same order */
  CordonLocation seccomp_rule;/* [seccomp] profile, or file NULL for its default */
  guint64 keep_caps;          /* capability bits the sandbox keeps */
  char *unprotected_dir;      /* cordon's own directory, missing under a writable bind */
  uid_t host_uid;             /* whom the sandbox runs as on the host */
  gid_t host_gid;
  gboolean switch_identity;   /* a root caller's sandbox, run as host_uid rather than root */
  gboolean host_root;         /* the sandbox runs as host root (host-user=root): a degradation */
  CordonLocation identity_rule; /* [identity] host-user, or file NULL for its default */
  GPtrArray *stage;           /* CordonStage, in the order they are made */
  GPtrArray *unreachable;     /* masks left out: the host user cannot reach them (verified) */
  GPtrArray *adapted;         /* CordonSkip: rules the host's answers changed (path: what) */
} CordonPlan;

CordonPlan *cordon_plan_new (const char *policy_name);
void cordon_plan_free (CordonPlan *plan);
CordonOp *cordon_op_new (CordonOpKind kind,
                         const char *src,
                         const char *dest,
                         const CordonItem *item,
                         const char *why);
void cordon_op_free (CordonOp *op);
void cordon_stage_free (CordonStage *stage);
CordonCgroupDir *cordon_cgroup_dir_new (const char *parent,
                                        guint controllers);
void cordon_cgroup_dir_free (CordonCgroupDir *dir);
void cordon_cgroup_dir_add_setting (CordonCgroupDir *dir,
                                    const char *file,
                                    const char *value,
                                    CordonLimitKind limit);
const char *cordon_stage_kind_name (CordonStageKind kind);
void cordon_env_decision_free (CordonEnvDecision *decision);
CordonOp *cordon_plan_add_op (CordonPlan *plan,
                              CordonOpKind kind,
                              const char *src,
                              const char *dest,
                              const CordonItem *item,
                              const char *why);
CordonOp *cordon_plan_take_op (CordonPlan *plan,
                               CordonOpKind kind,
                               const char *src,
                               const char *dest,
                               const CordonItem *item,
                               char *why);
void cordon_plan_add_skip_at (CordonPlan *plan,
                              CordonKey key,
                              const CordonLocation *rule,
                              const char *path,
                              const char *reason);
void cordon_plan_add_skip (CordonPlan *plan,
                           const CordonItem *item,
                           const char *path,
                           const char *reason);
const char *cordon_op_kind_name (CordonOpKind kind);
GPtrArray *cordon_plan_get_writable (const CordonPlan *plan);
gboolean cordon_plan_is_cache (const CordonPlan *plan,
                               const char *src);
gboolean cordon_plan_has_op (const CordonPlan *plan,
                             CordonOpKind kind);
gboolean cordon_plan_has_stage (const CordonPlan *plan,
                                CordonStageKind kind);
/* Mounts added after a step's own would hide the deeper ones below them
 * (invariant 6): each op of plan->ops[0..before) below `top` but not
 * below `dir` is made again, at the end, in its order. */
void cordon_plan_remount_below (CordonPlan *plan,
                                const char *top,
                                const char *dir,
                                guint before);
const CordonOp *cordon_plan_cover (const CordonPlan *plan,
                                   const char *path,
                                   const CordonOp *except);
/* cordon_plan_cover of "/" and of each path below it on the way to
 * `path` (one a component, empty ones skipped), in that order. */
GPtrArray *cordon_plan_cover_way (const CordonPlan *plan,
                                  const char *path,
                                  const CordonOp *except);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CordonPlan, cordon_plan_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CordonOp, cordon_op_free)

G_END_DECLS
