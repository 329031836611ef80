/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* host-facts: everything compile needs to know about the host, read in one
 * place: uid, home, workdir, XDG dirs, an environment snapshot and the
 * kind of each path the policy names (lstat, symlink targets, glob
 * matches). Tests point it at a fixture root (`sysroot`) and a fixed
 * environment, so compile's golden output is stable. */
#pragma once

#include <glib.h>
#include <sys/types.h>
#include "cgroup.h"
#include "policy.h"
#include "policy-vars.h"

G_BEGIN_DECLS

/* A glob that matches more paths than this is refused by compile (a mask
 * glob that wide is a mistake, and a truncated mask list would leak). */
#define CORDON_HOST_FACTS_MAX_GLOB 4096

typedef enum
{
  CORDON_PATH_ABSENT,
  CORDON_PATH_FILE,
  CORDON_PATH_DIR,
  CORDON_PATH_SYMLINK,
  CORDON_PATH_SOCKET,
  CORDON_PATH_OTHER,
  CORDON_PATH_MAX
} CordonPathKind;

typedef struct
{
  CordonPathKind kind;
  char *link_target;   /* SYMLINK only */
  char *canonical;     /* mask candidates: every symlink resolved, when that differs */
  gboolean connectable;/* SOCKET: the caller may connect (write permission) */
  GPtrArray *aliases;  /* SOCKET, and a directory to hide: the same one at other host paths
                        * (bind mounts; for a directory, mounts of a part of it too) */
  uid_t uid;           /* owner, group and mode (lstat), for who may search it */
  gid_t gid;
  guint mode;
  guint nlink;         /* its hard links (lstat) */
  gboolean empty;      /* DIR of a protected path (cordon_host_facts_scan_protected): read, and
                        * it holds no entry */
  gboolean writable;   /* DIR that holds a protected path: the caller may make an entry in it
                        * (access(2), W_OK) or is its owner (who may chmod it) on a file
                        * system that is not read-only, so the sandbox might */
  gboolean writable_asked; /* writable was decided (it is asked once) */
} CordonPathInfo;

/* Whom a root caller's sandbox runs as on the host ([identity]
 * host-user=), as this host resolves it; any other caller's runs as the
 * caller. */
typedef struct
{
  uid_t uid;
  gid_t gid;
  char *name;          /* the account's name, or NULL (auto's uid has none) */
  char *error;         /* why host-user= cannot be met on this host, or NULL */
} CordonHostIdentity;



typedef struct
{
  char *sysroot;            /* prefix for every lstat; "" for the host */
  uid_t uid;
  gid_t gid;
  char *home;
  char *git_name;           /* [environment] git-identity: the caller's git user.name, or NULL */
  char *git_email;          /* ... and user.email (src/git-identity.h) */
  char *git_name_from;      /* the files they were read from, or NULL */
  char *git_email_from;
  GPtrArray *caches;        /* [cache] use=: CordonCacheDir, made for the policy (src/cache.h), or NULL */
  char *workdir;            /* real: every symlink resolved */
  char *workdir_link;       /* the first symlink it was named through, or NULL */
  char *cwd;                /* cordon's own current directory */
  char *tmpdir;
  char *xdg_runtime_dir;    /* NULL when unset */
  char **env;               /* NAME=VALUE, sorted by name */
  char *bwrap_path;
  GHashTable *paths;        /* host path -> CordonPathInfo */
  GHashTable *globs;        /* pattern -> GPtrArray of matching paths, sorted */
  GHashTable *inside;       /* a protected directory -> GPtrArray of what a read-only bind of it
                             * does not hold (cordon_host_facts_inside), sorted */
  GHashTable *hooks_paths;  /* a writable bind whose .git/config sets core.hooksPath -> the
                             * directory it names, resolved; "" when the value cannot be read
                             * as git reads it (cordon_git_config_hooks_path) */
  GHashTable *gitdirs;      /* a .git file below a writable bind -> GPtrArray of the repository
                             * directories it names (its gitdir, then that one's commondir) */
  GPtrArray *mounts;        /* CordonMount: the caller's mount table, read once by the scan; NULL unread */
  GPtrArray *unix_paths;    /* pathname sockets of /proc/net/unix, sorted; NULL unread */
  GPtrArray *abstract_sockets; /* abstract socket names ("@name"), sorted; NULL unread */
  gboolean unix_unreadable;  /* /proc/net/unix could not be read */
  guint64 ns_inodes[CORDON_N_NAMESPACES];     /* the caller's namespaces, by CordonNamespaces bit; 0 unknown */
  char *config_dir;         /* cordon's policies of the user: $XDG_CONFIG_HOME/cordon */
  char *cache_dir;          /* cordon's probe cache, or NULL */
  char *config_dir_real;    /* the two with every symlink resolved (scan_policy), or NULL */
  char *cache_dir_real;
  CordonHostIdentity identity;  /* resolved by scan_policy */
  guint64 cap_eff;          /* cordon's own effective capabilities */
  GArray *uid_map;          /* CordonIdRange of /proc/self/uid_map, gid_map; NULL unread (a fixture's) */
  GArray *gid_map;
  gboolean root_is_host_root; /* cordon's uid 0 maps to the host's (or may: not a container's own) */
  char *helper_path;        /* cordon-exec, bound into the sandbox; NULL unknown */
  char *keeper_path;        /* cordon-keeper, bwrap's parent; NULL unknown */
  gboolean bwrap_setuid;    /* bwrap_path is setuid root (find_programs) */
  char *proc_mismatch;      /* why /proc is not of cordon's pid namespace, or NULL (find_programs) */
  CordonCgroupHost cgroup;  /* found by scan_policy for a policy with memory, swap, cpu or pids */
} CordonHostFacts;

CordonHostFacts *cordon_host_facts_new (const char *sysroot,
                                        const char * const *envp,
                                        const char *workdir,
                                        GError **error);
void cordon_host_facts_free (CordonHostFacts *facts);
void cordon_host_facts_get_vars (const CordonHostFacts *facts,
                                 char uid_buf[16],
                                 CordonVars *out_vars);
void cordon_host_facts_stat (CordonHostFacts *facts,
                             const char *path);
void cordon_host_facts_stat_mask (CordonHostFacts *facts,
                                  const char *path);
void cordon_host_facts_read_unix_sockets (CordonHostFacts *facts);
void cordon_host_facts_glob (CordonHostFacts *facts,
                             const char *pattern);
void cordon_host_facts_stat_ancestors (CordonHostFacts *facts,
                                       const char *path);

gboolean cordon_host_facts_find_programs (CordonHostFacts *facts,
                                          const char *bwrap,
                                          gboolean make_dirs,
                                          GError **error);
void cordon_host_facts_make_own_dirs (const CordonHostFacts *facts);
char *cordon_host_facts_find_helper (const char *name,
                                     const char *env_override,
                                     const char * const *envp,
                                     GError **error);
gboolean cordon_host_bwrap_is_setuid (const char *bwrap_path);
char *cordon_host_bwrap_version (const char *bwrap_path);

/* A directory hide.c may hide: its facts, with every symlink resolved,
 * and, as its aliases, where else the host's mounts show it. */
void cordon_host_facts_stat_hidden (CordonHostFacts *facts,
                                    const char *path);

extern const char * const cordon_minimal_root_entries[];
extern const char * const cordon_hide_sys_paths[];

void cordon_host_facts_scan_policy (CordonHostFacts *facts,
                                    const CordonPolicy *policy);
const CordonPathInfo *cordon_host_facts_lookup (const CordonHostFacts *facts,
                                                const char *path);
/* [filesystem] protect=: each entry below each writable bind, the
 * directories on the way, and, where the bind's .git is a file, the
 * repository directories it names (gitdirs) and the entries below
 * them. */
void cordon_host_facts_scan_protected (CordonHostFacts *facts,
                                       const char *bind,
                                       GPtrArray *entries);
/* The repository directories `dot_git` (a .git file) names, or NULL. */
/* The entries below a protected directory that a read-only bind of it
 * does not hold, each with its facts: a regular file with another hard
 * link, a symbolic link (what it names may be the sandbox's to write);
 * "" first when it holds more than CORDON_INSIDE_MAX entries, too many
 * to look at. NULL when the directory was not looked into. */
#define CORDON_INSIDE_MAX 4096
GPtrArray *cordon_host_facts_inside (const CordonHostFacts *facts,
                                     const char *dir);
/* core.hooksPath of the repository at `bind` (see hooks_paths), or NULL. */
const char *cordon_host_facts_hooks_path (const CordonHostFacts *facts,
                                          const char *bind);
GPtrArray *cordon_host_facts_gitdirs (const CordonHostFacts *facts,
                                      const char *dot_git);
GPtrArray *cordon_host_facts_glob_matches (const CordonHostFacts *facts,
                                           const char *pattern);
const char *cordon_host_facts_getenv (const CordonHostFacts *facts,
                                      const char *name);
const char *cordon_path_kind_name (CordonPathKind kind);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CordonHostFacts, cordon_host_facts_free)

G_END_DECLS
