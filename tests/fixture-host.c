/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fixture-host: see fixture-host.h. Nothing here depends on the machine the
 * tests run on: the tree is made from scratch, the environment is fixed
 * and the uid is forced after cordon_host_facts_new reads the real one. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "compile.h"
#include "fixture-host.h"
#include "policy-parse.h"
#include "policy-source.h"

static const char * const fixed_envp[] = {
  "DISPLAY=:0",
  "HOME=" FIXTURE_HOME,
  "LANG=C.UTF-8",
  "LD_PRELOAD=/evil.so",
  "PATH=" FIXTURE_PATH,
  "SECRET_TOKEN=" FIXTURE_SECRET_VALUE,
  "SSH_AUTH_SOCK=" FIXTURE_XDG_RUNTIME_DIR "/ssh-agent.sock",
  "TERM=xterm",
  "XDG_RUNTIME_DIR=" FIXTURE_XDG_RUNTIME_DIR,
  NULL
};

const char * const *
fixture_host_envp (void)
{
  return fixed_envp;
}

static char *
real_path (FixtureHost *host,
           const char *path)
{
  g_assert (g_path_is_absolute (path));
  return g_strconcat (host->root, path, NULL);
}

static void
make_parent (const char *real)
{
  g_autofree char *dir = g_path_get_dirname (real);

  if (g_mkdir_with_parents (dir, 0755) != 0)
    g_error ("fixture: cannot make %s: %s", dir, g_strerror (errno));
}

void
fixture_host_add_dir (FixtureHost *host,
                      const char *path)
{
  g_autofree char *real = real_path (host, path);

  if (g_mkdir_with_parents (real, 0755) != 0)
    g_error ("fixture: cannot make %s: %s", real, g_strerror (errno));
}

void
fixture_host_add_file (FixtureHost *host,
                       const char *path)
{
  g_autofree char *real = real_path (host, path);
  g_autoptr(GError) error = NULL;

  make_parent (real);
  if (!g_file_set_contents (real, "fixture\n", -1, &error))
    g_error ("fixture: %s", error->message);
}

void
fixture_host_add_symlink (FixtureHost *host,
                          const char *path,
                          const char *target)
{
  g_autofree char *real = real_path (host, path);

  make_parent (real);
  if (symlink (target, real) != 0)
    g_error ("fixture: cannot link %s: %s", real, g_strerror (errno));
}

void
fixture_host_set_cgroup_v1 (FixtureHost *host,
                            const char * const parents[CORDON_CONTROLLER_MAX],
                            gboolean memsw)
{
  CordonCgroupHost *cg = &host->facts->cgroup;

  cg->mechanism = CORDON_CGROUP_V1;
  cg->memsw = memsw;
  for (guint c = 0; c < CORDON_CONTROLLER_MAX; c++)
    {
      g_free (cg->parent[c]);
      cg->parent[c] = g_strdup (parents[c]);
      cg->writable[c] = parents[c] != NULL;
    }
}

/* A cgroup v2 mechanism: no v1 parent, the writable controllers those of
 * `controllers` (cpuacct is v1's only), nothing missing. */
static void
set_cgroup_v2 (CordonCgroupHost *cg,
               CordonCgroupMechanism mechanism,
               guint controllers,
               gboolean memsw)
{
  cg->mechanism = mechanism;
  cg->memsw = memsw;
  for (guint c = 0; c < CORDON_CONTROLLER_MAX; c++)
    {
      g_clear_pointer (&cg->parent[c], g_free);
      cg->writable[c] = c != CORDON_CONTROLLER_CPUACCT && (controllers & (1u << c)) != 0;
    }
  g_clear_pointer (&cg->missing, g_free);
}

void
fixture_host_set_cgroup_delegated (FixtureHost *host,
                                   const char *delegated,
                                   const char *own,
                                   guint controllers,
                                   gboolean memsw)
{
  CordonCgroupHost *cg = &host->facts->cgroup;

  set_cgroup_v2 (cg, CORDON_CGROUP_DELEGATED, controllers, memsw);
  g_free (cg->delegated);
  cg->delegated = g_strdup (delegated);
  g_free (cg->unified);
  cg->unified = g_strdup (own);
}

void
fixture_host_set_cgroup_systemd (FixtureHost *host,
                                 const char *user_service,
                                 guint controllers,
                                 gboolean memsw)
{
  CordonCgroupHost *cg = &host->facts->cgroup;

  set_cgroup_v2 (cg, CORDON_CGROUP_SYSTEMD, controllers, memsw);
  g_free (cg->user_service);
  cg->user_service = g_strdup (user_service);
}

void
fixture_host_add_socket (FixtureHost *host,
                         const char *path)
{
  g_autofree char *real = real_path (host, path);
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  int fd;

  make_parent (real);
  /* A socket inode needs no privilege through mknod; bind is the fallback
   * for a file system that refuses it. */
  if (mknod (real, S_IFSOCK | 0600, 0) == 0)
    return;
  if (strlen (real) >= sizeof addr.sun_path)
    g_error ("fixture: socket path too long: %s", real);
  strcpy (addr.sun_path, real);
  fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0 || bind (fd, (struct sockaddr *) &addr, sizeof addr) != 0)
    g_error ("fixture: cannot make socket %s: %s", real, g_strerror (errno));
  close (fd);
}

static void
build_tree (FixtureHost *host)
{
  static const char * const dirs[] = {
    "/usr/bin", "/usr/sbin", "/usr/lib", "/usr/lib64", "/usr/share",
    "/etc", "/tmp", "/var/tmp", "/proc", "/dev", "/run",
    "/run/user/1000", "/home/alice/work", "/home/alice/.ssh",
    "/home/alice/.aws", "/home/alice/.gnupg", "/home/alice/.config/git",
    "/home/bob", "/srv/jobs/other", "/sys/class/net", "/sys/devices/virtual/net/lo",
    "/sys/fs/cgroup",
  };
  static const char * const files[] = {
    "/usr/bin/sh", "/etc/passwd", "/etc/hosts",
    "/home/alice/.netrc", "/home/alice/.bashrc",
    "/home/alice/.ssh/id_ed25519", "/home/alice/.aws/credentials",
    "/home/alice/.docker/config.json", "/home/alice/.config/git/credentials",
    "/home/alice/work/README",
  };
  static const char * const sockets[] = {
    "/run/docker.sock", "/run/user/1000/bus", "/run/user/1000/ssh-agent.sock",
    "/tmp/.X11-unix/X0",
  };

  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    fixture_host_add_dir (host, dirs[i]);
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    fixture_host_add_file (host, files[i]);
  for (guint i = 0; i < G_N_ELEMENTS (sockets); i++)
    fixture_host_add_socket (host, sockets[i]);
  fixture_host_add_symlink (host, "/bin", "usr/bin");
  fixture_host_add_symlink (host, "/sbin", "usr/sbin");
  fixture_host_add_symlink (host, "/lib", "usr/lib");
  fixture_host_add_symlink (host, "/lib64", "usr/lib64");
  fixture_host_add_symlink (host, "/home/alice/.git-credentials",
                            ".config/git/credentials");
  /* An empty socket table (the header only): mask-listening reads it,
   * and refuses to compile when it cannot. */
  {
    g_autofree char *net = g_build_filename (host->root, "proc", "net", NULL);
    g_autofree char *unix_table = g_build_filename (net, "unix", NULL);

    if (g_mkdir_with_parents (net, 0755) != 0
        || !g_file_set_contents (unix_table, "Num       RefCount Protocol Flags    Type St Inode Path\n",
                                 -1, NULL))
      g_error ("fixture: cannot write %s", unix_table);
  }
}

static char **
merge_env (const char * const *extra_env)
{
  char **env = g_strdupv ((char **) fixed_envp);

  for (guint i = 0; extra_env != NULL && extra_env[i] != NULL; i++)
    {
      const char *eq = strchr (extra_env[i], '=');

      if (eq == NULL)
        env = g_environ_unsetenv (env, extra_env[i]);
      else
        {
          g_autofree char *name = g_strndup (extra_env[i], eq - extra_env[i]);

          env = g_environ_setenv (env, name, eq + 1, TRUE);
        }
    }
  return env;
}

FixtureHost *
fixture_host_new_full (uid_t uid,
                       const char * const *extra_env,
                       const char *workdir)
{
  g_autoptr(FixtureHost) host = g_new0 (FixtureHost, 1);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) env = merge_env (extra_env);

  host->root = g_dir_make_tmp ("cordon-fixture-XXXXXX", &error);
  if (host->root == NULL)
    g_error ("fixture: %s", error->message);
  /* The fixture's / as a host's is: anyone may search it (a root
   * caller's sandbox runs as another user, who must). */
  if (chmod (host->root, 0755) != 0)
    g_error ("fixture: cannot chmod %s: %s", host->root, g_strerror (errno));
  build_tree (host);
  host->facts = cordon_host_facts_new (host->root, (const char * const *) env,
                                       workdir != NULL ? workdir : FIXTURE_WORKDIR,
                                       &error);
  if (host->facts == NULL)
    g_error ("fixture: %s", error->message);
  host->facts->uid = uid;
  host->facts->gid = uid;
  /* Never the machine's bwrap: the path is part of the rendered argv. */
  g_free (host->facts->bwrap_path);
  host->facts->bwrap_path = g_strdup ("/usr/bin/bwrap");
  return g_steal_pointer (&host);
}

FixtureHost *
fixture_host_new (uid_t uid)
{
  return fixture_host_new_full (uid, NULL, NULL);
}

void
fixture_host_free (FixtureHost *host)
{
  if (host == NULL)
    return;
  cordon_host_facts_free (host->facts);
  if (host->root != NULL)
    fixture_rm_rf (host->root);
  g_free (host->root);
  g_free (host);
}

void
fixture_rm_rf (const char *path)
{
  struct stat st;

  if (lstat (path, &st) != 0)
    return;
  if (S_ISDIR (st.st_mode))
    {
      g_autoptr(GDir) dir = NULL;
      const char *name;

      /* A read-only directory (a placeholder's 0555) is not emptied as
       * it is, not even by its owner. */
      if ((st.st_mode & 0700) != 0700)
        g_chmod (path, st.st_mode | 0700);
      dir = g_dir_open (path, 0, NULL);

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          fixture_rm_rf (child);
        }
      g_rmdir (path);
    }
  else
    g_unlink (path);
}

CordonPolicy *
fixture_load_embedded (const char *name,
                       CordonDiagnostics *diags,
                       GError **error)
{
  g_autoptr(CordonPolicySource) source = cordon_policy_source_new_embedded_only ();
  g_autoptr(CordonDiagnostics) own = NULL;
  CordonPolicyResolver resolver;

  if (diags == NULL)
    diags = own = cordon_diagnostics_new ();
  cordon_policy_source_get_resolver (source, &resolver);
  return cordon_policy_load (name, &resolver, diags, error);
}

static gboolean
resolve_table (gpointer user_data,
               const char *ref,
               const char *from_file,
               char **out_file,
               char **out_text,
               GError **error)
{
  GHashTable *files = user_data;
  const char *text = g_hash_table_lookup (files, ref);

  (void) from_file;
  if (text == NULL)
    {
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_NOT_FOUND,
                   "no policy named '%s' in the test table", ref);
      return FALSE;
    }
  *out_file = g_strdup (ref);
  *out_text = g_strdup (text);
  return TRUE;
}

CordonPolicy *
fixture_load_table (GHashTable *files,
                    const char *top,
                    CordonDiagnostics *diags,
                    GError **error)
{
  g_autoptr(CordonDiagnostics) own = NULL;
  CordonPolicyResolver resolver = { resolve_table, files };

  if (diags == NULL)
    diags = own = cordon_diagnostics_new ();
  return cordon_policy_load (top, &resolver, diags, error);
}

typedef struct
{
  const char *text;
  CordonPolicyResolver embedded;
} TextResolver;

static gboolean
resolve_text (gpointer user_data,
              const char *ref,
              const char *from_file,
              char **out_file,
              char **out_text,
              GError **error)
{
  TextResolver *tr = user_data;

  if (from_file == NULL && g_str_equal (ref, "test.policy"))
    {
      *out_file = g_strdup ("test.policy");
      *out_text = g_strdup (tr->text);
      return TRUE;
    }
  return tr->embedded.resolve (tr->embedded.user_data, ref,
                               g_strcmp0 (from_file, "test.policy") == 0 ? NULL : from_file,
                               out_file, out_text, error);
}

CordonPolicy *
fixture_load_text (const char *text,
                   CordonDiagnostics *diags,
                   GError **error)
{
  g_autoptr(CordonPolicySource) source = cordon_policy_source_new_embedded_only ();
  g_autoptr(CordonDiagnostics) own = NULL;
  TextResolver tr = { text, { NULL, NULL } };
  CordonPolicyResolver resolver = { resolve_text, &tr };

  if (diags == NULL)
    diags = own = cordon_diagnostics_new ();
  cordon_policy_source_get_resolver (source, &tr.embedded);
  return cordon_policy_load ("test.policy", &resolver, diags, error);
}

char *
fixture_srcdir_path (const char *relative)
{
  const char *srcdir = g_getenv ("CORDON_SRCDIR");

  return g_build_filename (srcdir != NULL && *srcdir != '\0' ? srcdir : ".",
                           relative, NULL);
}

CordonPlan *
fixture_compile (FixtureHost *host,
                 const CordonPolicy *policy,
                 GError **error)
{
  cordon_host_facts_scan_policy (host->facts, policy);
  return cordon_compile (policy, host->facts, error);
}

CordonPlan *
fixture_compile_text (FixtureHost *host,
                      const char *text,
                      GError **error)
{
  g_autoptr(GError) load_error = NULL;
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = fixture_load_text (text, diags, &load_error);

  if (load_error != NULL)
    g_error ("fixture: policy did not load: %s", load_error->message);
  /* A typo in a test policy must not pass as a dropped key. */
  if (cordon_diagnostics_count (diags, CORDON_SEVERITY_ERROR) > 0)
    {
      g_autofree char *msg = cordon_diagnostic_format (cordon_diagnostics_get (diags, 0));

      g_error ("fixture: policy has errors: %s", msg);
    }
  return fixture_compile (host, policy, error);
}

CordonPlan *
fixture_compile_ok (FixtureHost *host,
                    const char *text)
{
  g_autoptr(GError) error = NULL;
  CordonPlan *plan = fixture_compile_text (host, text, &error);

  if (plan == NULL)
    g_error ("fixture: compile failed: %s", error != NULL ? error->message : "no error set");
  return plan;
}

const CordonSkip *
fixture_find_skip (const CordonPlan *plan,
                   const char *path)
{
  for (guint i = 0; i < plan->skipped->len; i++)
    {
      const CordonSkip *skip = g_ptr_array_index (plan->skipped, i);

      if (g_str_equal (skip->path, path))
        return skip;
    }
  return NULL;
}

int
fixture_host_setup (void **state)
{
  *state = fixture_host_new (1000);
  return 0;
}

int
fixture_host_teardown (void **state)
{
  fixture_host_free (*state);
  return 0;
}
