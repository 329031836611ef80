/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fixture-host: a fake host for the unit tests. It builds a small host
 * tree in a fresh temporary directory and returns CordonHostFacts that
 * look at it through `sysroot`, with a fixed environment, a fixed workdir
 * and a forced uid, so that what compile and render produce is the same on
 * any machine and for any user. It also loads policies without touching
 * the real policy directories: the shipped set embedded in the binary, or
 * text held in memory.
 *
 * The tree (paths as the sandbox sees them):
 *   /usr/{bin,sbin,lib,lib64,share}  /etc (passwd, hosts)
 *   /bin -> usr/bin  /sbin -> usr/sbin  /lib -> usr/lib  /lib64 -> usr/lib64
 *   /tmp  /tmp/.X11-unix/X0 (socket)  /var/tmp  /proc  /dev
 *   /run  /run/docker.sock (socket)  /run/user/1000  /run/user/1000/bus (socket)
 *   /run/user/1000/ssh-agent.sock (socket)
 *   /home/alice/{work/README, .ssh/id_ed25519, .netrc, .aws/credentials,
 *                .gnupg/, .docker/config.json, .config/git/credentials,
 *                .git-credentials -> .config/git/credentials, .bashrc}
 *
 * All symlinks are relative, so lstat through the sysroot stays inside it.
 * Sockets are socket inodes (mknod S_IFSOCK, or bind as a fallback), so
 * lstat reports S_IFSOCK; nothing listens on them. */
#pragma once

#include <glib.h>
#include <sys/types.h>

#include "diagnostic.h"
#include "host-facts.h"
#include "plan.h"
#include "policy.h"

G_BEGIN_DECLS

#define FIXTURE_HOME    "/home/alice"
#define FIXTURE_WORKDIR "/home/alice/work"
#define FIXTURE_XDG_RUNTIME_DIR "/run/user/1000"
#define FIXTURE_PATH    "/usr/bin:/bin"
#define FIXTURE_SECRET_VALUE "hunter2"

typedef struct
{
  char *root;               /* the temporary directory (the sysroot) */
  CordonHostFacts *facts;   /* sysroot = root, uid forced */
} FixtureHost;

/* The fixed environment given to cordon_host_facts_new: HOME, PATH,
 * LANG, TERM, XDG_RUNTIME_DIR, LD_PRELOAD=/evil.so,
 * SECRET_TOKEN=hunter2, SSH_AUTH_SOCK, DISPLAY. NULL-terminated. */
const char * const *fixture_host_envp (void);

/* Builds the tree and the facts, uid/gid forced to `uid`. Aborts the test
 * (g_error) if the tree cannot be made. In the _full form, `workdir`
 * (NULL for FIXTURE_WORKDIR) is the workdir and `extra_env` (may be NULL) is
 * appended to the fixed environment; a NAME given there replaces the
 * fixed one, and "NAME" without '=' removes it. */
FixtureHost *fixture_host_new (uid_t uid);
FixtureHost *fixture_host_new_full (uid_t uid,
                                    const char * const *extra_env,
                                    const char *workdir);
void fixture_host_free (FixtureHost *host);

/* cmocka group setup and teardown: *state is a fixture host, uid 1000. */
int fixture_host_setup (void **state);
int fixture_host_teardown (void **state);

/* Creates more entries in an existing fixture tree (paths as the sandbox
 * sees them; parents are made). Call before scanning a policy. */
void fixture_host_add_file (FixtureHost *host, const char *path);
void fixture_host_add_dir (FixtureHost *host, const char *path);
void fixture_host_add_symlink (FixtureHost *host, const char *path, const char *target);
void fixture_host_add_socket (FixtureHost *host, const char *path);

/* The host's cgroups as cordon_cgroup_host_find leaves them for a root
 * caller of a cgroup v1 host: each controller given a parent (NULL: none)
 * a hierarchy cordon may write, swap accounted or not. */
void fixture_host_set_cgroup_v1 (FixtureHost *host,
                                 const char * const parents[CORDON_CONTROLLER_MAX],
                                 gboolean memsw);

/* The host's cgroups as cordon_cgroup_host_find leaves them where the
 * parent `delegated` of cordon's cgroup v2 cgroup `own` is delegated to
 * the caller and enables `controllers` (1 << CordonController) for its
 * children: mechanism DELEGATED, no v1 parent, `missing` NULL. */
void fixture_host_set_cgroup_delegated (FixtureHost *host,
                                        const char *delegated,
                                        const char *own,
                                        guint controllers,
                                        gboolean memsw);

/* The same where the caller's systemd `user_service` (its
 * user@UID.service cgroup) hands on `controllers` to a scope: mechanism
 * SYSTEMD. */
void fixture_host_set_cgroup_systemd (FixtureHost *host,
                                      const char *user_service,
                                      guint controllers,
                                      gboolean memsw);

/* Loads a shipped policy from the set embedded in the binary (never the
 * host's policy directories). Returns NULL and sets `error` on failure;
 * `diags` may be NULL. */
CordonPolicy *fixture_load_embedded (const char *name,
                                     CordonDiagnostics *diags,
                                     GError **error);

/* Loads policy `top` from an in-memory table: file name -> text. Includes
 * resolve in the same table, by the reference as written. */
CordonPolicy *fixture_load_table (GHashTable *files,
                                  const char *top,
                                  CordonDiagnostics *diags,
                                  GError **error);

/* Loads a single in-memory policy called "test.policy" whose includes
 * (if any) resolve from the embedded set. */
CordonPolicy *fixture_load_text (const char *text,
                                 CordonDiagnostics *diags,
                                 GError **error);

/* Stats what `policy` names on the fixture (cordon_host_facts_scan_policy)
 * and compiles it: the path cordon itself takes, minus the check. */
CordonPlan *fixture_compile (FixtureHost *host,
                             const CordonPolicy *policy,
                             GError **error);

/* The in-memory policy `text` (see fixture_load_text), compiled on the
 * fixture; a policy that does not load or has errors aborts the test
 * (a typo must not pass as a dropped key). _ok: compile must succeed. */
CordonPlan *fixture_compile_text (FixtureHost *host,
                                  const char *text,
                                  GError **error);
CordonPlan *fixture_compile_ok (FixtureHost *host,
                                const char *text);

/* The plan's skip of exactly `path`, or NULL. */
const CordonSkip *fixture_find_skip (const CordonPlan *plan,
                                     const char *path);

/* Removes a directory tree, never following symlinks; a directory of
 * its owner's that is read-only (0555) is made writable first. */
void fixture_rm_rf (const char *path);

/* The path of `relative` under $CORDON_SRCDIR (the current directory
 * when unset), so data files are found in a VPATH build. */
char *fixture_srcdir_path (const char *relative);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FixtureHost, fixture_host_free)

G_END_DECLS
