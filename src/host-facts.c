/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* host-facts: the one module that looks at the host for compile. Every
 * lstat goes through `sysroot`, so a test can stand a fixture tree in for
 * the host and get byte-identical plans on any machine. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "file-util.h"
#include "git-config.h"
#include "git-identity.h"
#include "host-facts.h"
#include "host-identity.h"
#include "mount-table.h"
#include "path-util.h"
#include "policy-vars.h"
#include "probe.h"
#include "sockets.h"

static void
path_info_free (gpointer p)
{
  CordonPathInfo *info = p;

  g_free (info->link_target);
  g_free (info->canonical);
  if (info->aliases != NULL)
    g_ptr_array_unref (info->aliases);
  g_free (info);
}

static char *
home_of_uid (uid_t uid)
{
  struct passwd *pw = getpwuid (uid);

  return pw != NULL && pw->pw_dir != NULL ? g_strdup (pw->pw_dir) : g_strdup ("/");
}

static char *
absolute_or (const char *value,
             const char *fallback)
{
  if (value != NULL && g_path_is_absolute (value))
    return cordon_path_normalize (value);
  return fallback != NULL ? g_strdup (fallback) : NULL;
}

/* Where the caller's own policies live: cordon reads them by name. */
static char *
config_dir_of (const CordonHostFacts *facts)
{
  g_autofree char *xdg = absolute_or (cordon_host_facts_getenv (facts, "XDG_CONFIG_HOME"), NULL);

  if (xdg != NULL)
    return g_build_filename (xdg, "cordon", NULL);
  return g_build_filename (facts->home, ".config", "cordon", NULL);
}

/* The caller's own namespaces, so verification can tell the sandbox's
 * are new. Only on the real host: a fixture root has none. */
static void
read_namespaces (CordonHostFacts *facts)
{
  for (guint bit = 0; bit < CORDON_N_NAMESPACES && facts->sysroot[0] == '\0'; bit++)
    {
      g_autofree char *path = g_strdup_printf ("/proc/self/ns/%s", cordon_namespace_name (1u << bit));
      struct stat st;

      if (stat (path, &st) == 0)
        facts->ns_inodes[bit] = (guint64) st.st_ino;
    }
}

/* Whether uid 0 here is host root: it maps to uid 0 of the namespace
 * above (the host's, or one that does the same: cordon cannot see
 * further, so it assumes the worst). */
static gboolean
root_is_host_root (const GArray *uid_map)
{
  guint64 outside = 1;

  return !cordon_probe_id_map_find (uid_map, 0, &outside) || outside == 0;
}

/* The first symlink on the way to `path` (as given, made absolute), or
 * NULL: a workdir named through one is bound by its real path, and a
 * root caller's cordon must know it was not named so (identity.c). */
static char *
first_symlink (const CordonHostFacts *facts,
               const char *path)
{
  g_auto(GStrv) parts = g_strsplit (path, "/", -1);
  g_autoptr(GString) at = g_string_new (NULL);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_autofree char *real = NULL;
      struct stat st;

      if (parts[i][0] == '\0')
        continue;
      g_string_append_printf (at, "/%s", parts[i]);
      real = g_strconcat (facts->sysroot, at->str, NULL);
      if (lstat (real, &st) != 0)
        return NULL;
      if (S_ISLNK (st.st_mode))
        return g_strdup (at->str);
    }
  return NULL;
}

/* cordon's own ids, capabilities and id maps. A fixture root stands for
 * a host where cordon may do what it needs, and maps every id. */
static void
read_self (CordonHostFacts *facts)
{
  facts->uid = getuid ();
  facts->gid = getgid ();
  facts->identity.uid = facts->uid;
  facts->identity.gid = facts->gid;
  facts->cap_eff = facts->sysroot[0] == '\0' ? cordon_probe_self_caps () : G_MAXUINT64;
  if (facts->sysroot[0] == '\0')
    {
      facts->uid_map = cordon_probe_read_id_map ("/proc/self/uid_map");
      facts->gid_map = cordon_probe_read_id_map ("/proc/self/gid_map");
    }
  facts->root_is_host_root = facts->sysroot[0] != '\0' || root_is_host_root (facts->uid_map);
}

/* The workdir, absolute: the sandbox binds the directory itself, so it
 * is named by its real path (a workdir given through a symlink is bound,
 * not the link), and the first symlink it was named through is kept. */
static char *
real_workdir (CordonHostFacts *facts,
              const char *given,
              const char *cwd)
{
  g_autofree char *wd = g_canonicalize_filename (given, cwd);
  char *real;

  facts->workdir_link = first_symlink (facts, wd);
  if (facts->sysroot[0] != '\0' || (real = realpath (wd, NULL)) == NULL)
    return g_steal_pointer (&wd);
  g_free (wd);
  wd = g_strdup (real);
  free (real);
  return g_steal_pointer (&wd);
}

CordonHostFacts *
cordon_host_facts_new (const char *sysroot,
                       const char * const *envp,
                       const char *workdir,
                       GError **error)
{
  g_autoptr(CordonHostFacts) facts = g_new0 (CordonHostFacts, 1);
  g_autofree char *cwd = g_get_current_dir ();
  g_autofree char *wd = NULL;
  guint n = envp != NULL ? g_strv_length ((char **) envp) : 0;

  facts->sysroot = g_strdup (sysroot != NULL ? sysroot : "");
  read_self (facts);
  facts->env = g_new0 (char *, n + 1);
  for (guint i = 0; i < n; i++)
    facts->env[i] = g_strdup (envp[i]);
  qsort (facts->env, n, sizeof (char *), cordon_compare_string_ptrs);
  facts->home = absolute_or (cordon_host_facts_getenv (facts, "HOME"), NULL);
  if (facts->home == NULL)
    facts->home = home_of_uid (facts->uid);
  facts->tmpdir = absolute_or (cordon_host_facts_getenv (facts, "TMPDIR"), "/tmp");
  facts->xdg_runtime_dir = absolute_or (cordon_host_facts_getenv (facts, "XDG_RUNTIME_DIR"), NULL);
  facts->bwrap_path = absolute_or (cordon_host_facts_getenv (facts, "CORDON_BWRAP"), "/usr/bin/bwrap");
  facts->config_dir = config_dir_of (facts);
  read_namespaces (facts);
  facts->cache_dir = cordon_probe_default_cache_dir ((const char * const *) facts->env);
  wd = real_workdir (facts, workdir != NULL ? workdir : cwd, cwd);
  if (cordon_path_has_dotdot (wd))
    {
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_USAGE, "workdir '%s' contains '..'", wd);
      return NULL;
    }
  facts->workdir = g_steal_pointer (&wd);
  facts->cwd = g_strdup (cwd);
  facts->paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, path_info_free);
  facts->globs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                        (GDestroyNotify) g_ptr_array_unref);
  facts->gitdirs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                          (GDestroyNotify) g_ptr_array_unref);
  facts->inside = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                         (GDestroyNotify) g_ptr_array_unref);
  facts->hooks_paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  return g_steal_pointer (&facts);
}

void
cordon_host_facts_free (CordonHostFacts *facts)
{
  if (facts == NULL)
    return;
  g_free (facts->sysroot);
  g_free (facts->home);
  g_free (facts->git_name);
  g_free (facts->git_email);
  g_free (facts->git_name_from);
  g_free (facts->git_email_from);
  g_clear_pointer (&facts->caches, g_ptr_array_unref);
  g_free (facts->workdir);
  g_free (facts->workdir_link);
  g_clear_pointer (&facts->uid_map, g_array_unref);
  g_clear_pointer (&facts->gid_map, g_array_unref);
  g_free (facts->cwd);
  g_free (facts->tmpdir);
  g_free (facts->xdg_runtime_dir);
  g_strfreev (facts->env);
  g_free (facts->bwrap_path);
  g_free (facts->config_dir);
  g_free (facts->config_dir_real);
  g_free (facts->cache_dir_real);
  g_free (facts->cache_dir);
  g_free (facts->identity.name);
  g_free (facts->identity.error);
  g_free (facts->helper_path);
  g_free (facts->keeper_path);
  g_free (facts->proc_mismatch);
  cordon_cgroup_host_clear (&facts->cgroup);
  if (facts->paths != NULL)
    g_hash_table_unref (facts->paths);
  if (facts->globs != NULL)
    g_hash_table_unref (facts->globs);
  if (facts->gitdirs != NULL)
    g_hash_table_unref (facts->gitdirs);
  if (facts->inside != NULL)
    g_hash_table_unref (facts->inside);
  if (facts->hooks_paths != NULL)
    g_hash_table_unref (facts->hooks_paths);
  if (facts->mounts != NULL)
    g_ptr_array_unref (facts->mounts);
  if (facts->unix_paths != NULL)
    g_ptr_array_unref (facts->unix_paths);
  if (facts->abstract_sockets != NULL)
    g_ptr_array_unref (facts->abstract_sockets);
  g_free (facts);
}

/* How "NAME=..." stands to `entry` in the sorted environment: by the
 * name's bytes, then by '=' where the name ends. */
static int
compare_env (const char *name,
             gsize len,
             const char *entry)
{
  int c = strncmp (name, entry, len);

  return c != 0 ? c : '=' - (guchar) entry[len];
}

/* g_environ_getenv's answer (the first NAME=, in the facts' order), by a
 * binary search of the sorted environment: compile and verify ask it of
 * every variable they decide on. */
const char *
cordon_host_facts_getenv (const CordonHostFacts *facts,
                          const char *name)
{
  gsize len = strlen (name);
  guint lo = 0, hi = g_strv_length (facts->env);

  if (strchr (name, '=') != NULL)
    return NULL;
  /* Every "NAME=..." sorts together: find the first of them. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (compare_env (name, len, facts->env[mid]) > 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (facts->env[lo] != NULL && compare_env (name, len, facts->env[lo]) == 0)
    return facts->env[lo] + len + 1;
  return NULL;
}

void
cordon_host_facts_get_vars (const CordonHostFacts *facts,
                            char uid_buf[16],
                            CordonVars *out_vars)
{
  g_snprintf (uid_buf, 16, "%u", (guint) facts->uid);
  out_vars->values[CORDON_VAR_HOME] = facts->home;
  out_vars->values[CORDON_VAR_UID] = uid_buf;
  out_vars->values[CORDON_VAR_XDG_RUNTIME_DIR] = facts->xdg_runtime_dir;
  out_vars->values[CORDON_VAR_WORKDIR] = facts->workdir;
  out_vars->values[CORDON_VAR_TMPDIR] = facts->tmpdir;
}

static CordonPathKind
kind_of_mode (mode_t mode)
{
  if (S_ISREG (mode))
    return CORDON_PATH_FILE;
  if (S_ISDIR (mode))
    return CORDON_PATH_DIR;
  if (S_ISLNK (mode))
    return CORDON_PATH_SYMLINK;
  if (S_ISSOCK (mode))
    return CORDON_PATH_SOCKET;
  return CORDON_PATH_OTHER;
}

void
cordon_host_facts_stat (CordonHostFacts *facts,
                        const char *path)
{
  g_autofree char *real = NULL;
  CordonPathInfo *info;
  struct stat st;

  if (g_hash_table_contains (facts->paths, path))
    return;
  real = g_strconcat (facts->sysroot, path, NULL);
  info = g_new0 (CordonPathInfo, 1);
  if (lstat (real, &st) != 0)
    info->kind = CORDON_PATH_ABSENT;
  else
    {
      info->kind = kind_of_mode (st.st_mode);
      info->uid = st.st_uid;
      info->gid = st.st_gid;
      info->mode = st.st_mode & 07777;
      info->nlink = (guint) MIN (st.st_nlink, G_MAXUINT);
    }
  if (info->kind == CORDON_PATH_SYMLINK)
    info->link_target = g_file_read_link (real, NULL);
  g_hash_table_insert (facts->paths, g_strdup (path), info);
  /* Compile masks a symlinked secret at its target: know the target too.
   * The recursion ends: a path already in the table returns at once. */
  if (info->link_target != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (path);
      g_autofree char *target = g_canonicalize_filename (info->link_target, dir);

      cordon_host_facts_stat (facts, target);
    }
}

static char *
unescape_component (const char *s)
{
  g_autoptr(GString) out = g_string_new (NULL);

  for (const char *p = s; *p != '\0'; p++)
    {
      if (*p == '\\' && p[1] != '\0')
        p++;
      g_string_append_c (out, *p);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static char *
join (const char *prefix,
      const char *name)
{
  return g_str_equal (prefix, "/") ? g_strconcat ("/", name, NULL)
                                   : g_strconcat (prefix, "/", name, NULL);
}

static void
glob_walk (CordonHostFacts *facts,
           const char *prefix,
           char **parts,
           GPtrArray *out)
{
  g_autofree char *real = NULL;
  DIR *dir;
  struct dirent *de;

  while (*parts != NULL && **parts == '\0')
    parts++;
  if (out->len >= CORDON_HOST_FACTS_MAX_GLOB)
    return;
  if (*parts == NULL)
    {
      struct stat st;
      g_autofree char *full = g_strconcat (facts->sysroot, prefix, NULL);

      if (lstat (full, &st) == 0)
        g_ptr_array_add (out, g_strdup (prefix));
      return;
    }
  if (!cordon_path_has_glob (*parts))
    {
      g_autofree char *name = unescape_component (*parts);
      g_autofree char *next = join (prefix, name);

      glob_walk (facts, next, parts + 1, out);
      return;
    }
  real = g_strconcat (facts->sysroot, prefix, NULL);
  dir = opendir (real);
  if (dir == NULL)
    return;
  while ((de = readdir (dir)) != NULL)
    {
      g_autofree char *next = NULL;

      if (g_str_equal (de->d_name, ".") || g_str_equal (de->d_name, ".."))
        continue;
      if (!cordon_glob_match (*parts, de->d_name))
        continue;
      next = join (prefix, de->d_name);
      glob_walk (facts, next, parts + 1, out);
    }
  closedir (dir);
}

void
cordon_host_facts_glob (CordonHostFacts *facts,
                        const char *pattern)
{
  g_auto(GStrv) parts = NULL;
  GPtrArray *matches;

  if (g_hash_table_contains (facts->globs, pattern))
    return;
  parts = g_strsplit (pattern, "/", -1);
  matches = g_ptr_array_new_with_free_func (g_free);
  glob_walk (facts, "/", parts, matches);
  g_ptr_array_sort (matches, cordon_compare_string_ptrs);
  for (guint i = 0; i < matches->len; i++)
    cordon_host_facts_stat (facts, g_ptr_array_index (matches, i));
  g_hash_table_insert (facts->globs, g_strdup (pattern), matches);
}

/* The target of the symlink at host path `path`, or NULL when it is
 * none (or cannot be read): from the facts where the path is known
 * (cordon_host_facts_stat keeps its kind and target), else lstat(2) and
 * readlink(2) under sysroot. `*links` counts the symlinks met; past 40
 * one is taken for a plain entry, as resolve_path always did. */
static char *
link_target (const CordonHostFacts *facts,
             const char *path,
             guint *links)
{
  const CordonPathInfo *info = g_hash_table_lookup (facts->paths, path);
  g_autofree char *real = NULL;
  struct stat st;

  if (info != NULL)
    {
      if (info->kind != CORDON_PATH_SYMLINK || ++*links > 40)
        return NULL;
      return g_strdup (info->link_target);
    }
  real = g_strconcat (facts->sysroot, path, NULL);
  if (lstat (real, &st) != 0 || !S_ISLNK (st.st_mode) || ++*links > 40)
    return NULL;
  return g_file_read_link (real, NULL);
}

/* The path with every symlink resolved, under sysroot, as realpath(3)
 * would give it on the host (but a missing tail is kept as written). A
 * mask must be mounted at the real place: bwrap would otherwise follow a
 * symlinked parent such as /var/run when it creates the mount point. */
static char *
resolve_path (const CordonHostFacts *facts,
              const char *path)
{
  g_autoptr(GString) done = g_string_new (NULL);  /* "/a/b": what is resolved so far */
  g_autofree char *todo = g_strdup (path);        /* what is left, from `p` on */
  guint links = 0;

  for (const char *p = todo; *p != '\0';)
    {
      gsize n = strcspn (p, "/");
      const char *next = p + n + (p[n] == '/');
      g_autofree char *target = NULL;
      char *rest;

      if (n == 0 || (n == 1 && p[0] == '.'))
        {
          p = next;
          continue;
        }
      if (n == 2 && p[0] == '.' && p[1] == '.')
        {
          g_string_truncate (done, (gsize) (strrchr (done->str, '/') != NULL ? strrchr (done->str, '/') - done->str : 0));
          p = next;
          continue;
        }
      g_string_append_c (done, '/');
      g_string_append_len (done, p, (gssize) n);
      if ((target = link_target (facts, done->str, &links)) == NULL)
        {
          p = next;
          continue;
        }
      /* Replace the link by its target, then walk the target. */
      g_string_truncate (done, target[0] == '/' ? 0 : (gsize) (strrchr (done->str, '/') - done->str));
      rest = g_strconcat (target, "/", next, NULL);
      g_free (todo);
      p = todo = rest;
    }
  return done->len > 0 ? g_string_free (g_steal_pointer (&done), FALSE) : g_strdup ("/");
}

/* The caller's mount table (the fixture's, under a sysroot), read and
 * parsed once for the facts: every hidden directory and socket alias
 * asks it, and the scan mounts nothing meanwhile. */
static GPtrArray *
read_mounts (CordonHostFacts *facts)
{
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;

  if (facts->mounts != NULL)
    return facts->mounts;
  path = g_strconcat (facts->sysroot, "/proc/self/mountinfo", NULL);
  (void) g_file_get_contents (path, &text, NULL, NULL);
  facts->mounts = cordon_mount_table_parse (text);
  return facts->mounts;
}

static gboolean
same_inode (const CordonHostFacts *facts,
            const char *a,
            const char *b)
{
  g_autofree char *ra = g_strconcat (facts->sysroot, a, NULL);
  g_autofree char *rb = g_strconcat (facts->sysroot, b, NULL);
  struct stat sa, sb;

  return lstat (ra, &sa) == 0 && lstat (rb, &sb) == 0
         && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Where else the host shows the same socket: the file system holding it
 * may be mounted (bound) at several places, and a mask at one place does
 * not cover another. Every candidate is confirmed by device and inode. */
static GPtrArray *
socket_aliases (CordonHostFacts *facts,
                const char *path)
{
  GPtrArray *mounts = read_mounts (facts);
  GPtrArray *aliases = g_ptr_array_new_with_free_func (g_free);
  const CordonMount *home = cordon_mount_table_holding (mounts, path);
  g_autofree char *inner = NULL;

  if (home == NULL)
    return aliases;
  inner = cordon_mount_table_inner_path (home, path);
  for (guint i = 0; i < mounts->len; i++)
    {
      const CordonMount *m = g_ptr_array_index (mounts, i);
      g_autofree char *alias = NULL;
      g_autofree char *joined = NULL;

      if (m == home || !g_str_equal (m->dev, home->dev) || !cordon_path_is_ancestor (m->root, inner, TRUE))
        continue;
      joined = g_build_filename (m->point, g_str_equal (m->root, "/")
                                 ? inner : inner + strlen (m->root), NULL);

      alias = cordon_path_normalize (joined);
      if (!g_str_equal (alias, path) && same_inode (facts, alias, path)
          && !g_ptr_array_find_with_equal_func (aliases, alias, g_str_equal, NULL))
        g_ptr_array_add (aliases, g_steal_pointer (&alias));
    }
  g_ptr_array_sort (aliases, cordon_compare_string_ptrs);
  return aliases;
}

/* Where else the host shows the directory `path` (hide.c hides it there
 * too): each other mount of its file system whose root is it or above
 * it, at the path that mount shows it; and each one whose root lies
 * below it, at its mount point (it shows a part). Mounts inside `path`
 * itself are hidden with it. */
static GPtrArray *
dir_aliases (GPtrArray *mounts,
             const char *path)
{
  GPtrArray *aliases = g_ptr_array_new_with_free_func (g_free);
  const CordonMount *home = cordon_mount_table_holding (mounts, path);
  g_autofree char *inner = home != NULL ? cordon_mount_table_inner_path (home, path) : NULL;

  for (guint i = 0; inner != NULL && i < mounts->len; i++)
    {
      const CordonMount *m = g_ptr_array_index (mounts, i);
      g_autofree char *joined = NULL;
      char *alias;

      if (m == home || !g_str_equal (m->dev, home->dev))
        continue;
      if (cordon_path_is_ancestor (m->root, inner, TRUE))
        joined = g_build_filename (m->point, g_str_equal (m->root, "/") ? inner : inner + strlen (m->root), NULL);
      else if (cordon_path_is_ancestor (inner, m->root, FALSE))
        joined = g_strdup (m->point);
      else
        continue;
      alias = cordon_path_normalize (joined);
      if (cordon_path_is_ancestor (path, alias, TRUE)
          || g_ptr_array_find_with_equal_func (aliases, alias, g_str_equal, NULL))
        g_free (alias);
      else
        g_ptr_array_add (aliases, alias);
    }
  g_ptr_array_sort (aliases, cordon_compare_string_ptrs);
  return aliases;
}

void
cordon_host_facts_stat_hidden (CordonHostFacts *facts,
                               const char *path)
{
  CordonPathInfo *info;

  cordon_host_facts_stat_mask (facts, path);
  info = g_hash_table_lookup (facts->paths, path);
  if (info->canonical != NULL)
    {
      cordon_host_facts_stat_hidden (facts, info->canonical);
      return;
    }
  if (info->kind != CORDON_PATH_DIR || info->aliases != NULL)
    return;
  info->aliases = dir_aliases (read_mounts (facts), path);
  for (guint i = 0; i < info->aliases->len; i++)
    cordon_host_facts_stat (facts, g_ptr_array_index (info->aliases, i));
}

/* A path a mask may be mounted on: its kind, its canonical path and, for
 * a socket, whether the caller could connect to it (a socket it cannot
 * open needs no mask) and where else the host shows it. */
void
cordon_host_facts_stat_mask (CordonHostFacts *facts,
                             const char *path)
{
  g_autofree char *canonical = NULL;
  CordonPathInfo *info;
  CordonPathInfo *cinfo;

  /* The path first: resolving it then finds it known, not lstat'ed twice. */
  cordon_host_facts_stat (facts, path);
  canonical = resolve_path (facts, path);
  cordon_host_facts_stat (facts, canonical);
  info = g_hash_table_lookup (facts->paths, path);
  cinfo = g_hash_table_lookup (facts->paths, canonical);
  if (!g_str_equal (canonical, path) && info->canonical == NULL)
    info->canonical = g_strdup (canonical);
  if (cinfo->kind != CORDON_PATH_SOCKET || cinfo->aliases != NULL)
    return;
  {
    g_autofree char *real = g_strconcat (facts->sysroot, canonical, NULL);

    cinfo->connectable = access (real, W_OK) == 0;
  }
  cinfo->aliases = socket_aliases (facts, canonical);
  for (guint i = 0; i < cinfo->aliases->len; i++)
    cordon_host_facts_stat (facts, g_ptr_array_index (cinfo->aliases, i));
}

/* /proc/net/unix of the caller's network namespace: the pathname sockets
 * (mask-listening masks those the sandbox can see) and the abstract ones
 * (reachable whenever the sandbox shares the network; reported). */
void
cordon_host_facts_read_unix_sockets (CordonHostFacts *facts)
{
  g_autofree char *path = g_strconcat (facts->sysroot, "/proc/net/unix", NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  if (facts->unix_paths != NULL)
    return;
  facts->unix_paths = g_ptr_array_new_with_free_func (g_free);
  facts->abstract_sockets = g_ptr_array_new_with_free_func (g_free);
  if (!g_file_get_contents (path, &text, NULL, NULL))
    {
      /* Compile refuses mask-listening then: fail closed. */
      facts->unix_unreadable = TRUE;
      return;
    }
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 1; lines[i] != NULL; i++)
    {
      /* "Num RefCount Protocol Flags Type St Inode Path": the path is
       * the rest of the line after seven fields, spaces and all. */
      const char *name = lines[i];

      for (guint field = 0; field < 7 && name != NULL; field++)
        {
          name += strspn (name, " ");
          name = strchr (name, ' ');
        }
      if (name == NULL || *(name += strspn (name, " ")) == '\0')
        continue;
      if (name[0] == '@' && !g_ptr_array_find_with_equal_func (facts->abstract_sockets, name, g_str_equal, NULL))
        g_ptr_array_add (facts->abstract_sockets, g_strdup (name));
      else if (name[0] == '/' && !g_ptr_array_find_with_equal_func (facts->unix_paths, name, g_str_equal, NULL))
        g_ptr_array_add (facts->unix_paths, g_strdup (name));
    }
  g_ptr_array_sort (facts->unix_paths, cordon_compare_string_ptrs);
  g_ptr_array_sort (facts->abstract_sockets, cordon_compare_string_ptrs);
  for (guint i = 0; i < facts->unix_paths->len; i++)
    cordon_host_facts_stat_mask (facts, g_ptr_array_index (facts->unix_paths, i));
}

static void
scan_value (CordonHostFacts *facts,
            const CordonVars *vars,
            const char *text,
            gboolean mask)
{
  g_autofree char *expanded = cordon_vars_expand (text, vars, NULL);
  g_autofree char *path = NULL;
  GPtrArray *matches;

  if (expanded == NULL)
    return;   /* compile reports the unset variable */
  path = cordon_path_normalize (expanded);
  if (!cordon_path_has_glob (path))
    {
      if (mask)
        cordon_host_facts_stat_mask (facts, path);
      else
        cordon_host_facts_stat (facts, path);
      return;
    }
  cordon_host_facts_glob (facts, path);
  matches = g_hash_table_lookup (facts->globs, path);
  for (guint i = 0; mask && i < matches->len; i++)
    cordon_host_facts_stat_mask (facts, g_ptr_array_index (matches, i));
}

/* Keys whose paths are also known with every symlink resolved. */
static gboolean
is_mask_key (CordonKey key)
{
  return key == CORDON_KEY_SECRETS_MASK || key == CORDON_KEY_SOCKETS_MASK
         || key == CORDON_KEY_SOCKETS_ALLOW;
}

static void
scan_socket_entry (CordonHostFacts *facts,
                   const CordonVars *vars,
                   const CordonSocketEntry *entry)
{
  for (guint j = 0; entry->paths[j] != NULL; j++)
    scan_value (facts, vars, entry->paths[j], TRUE);
  for (guint j = 0; entry->env[j] != NULL; j++)
    {
      g_auto(GStrv) paths = cordon_socket_paths_from_env (entry->env[j],
                                                          cordon_host_facts_getenv (facts, entry->env[j]),
                                                          facts->xdg_runtime_dir);

      for (guint k = 0; paths[k] != NULL; k++)
        cordon_host_facts_stat_mask (facts, paths[k]);
    }
}

static const CordonKey path_keys[] = {
  CORDON_KEY_FS_WRITABLE, CORDON_KEY_FS_WRITABLE_TRY, CORDON_KEY_FS_READ_ONLY,
  CORDON_KEY_FS_READ_ONLY_TRY, CORDON_KEY_FS_TMPFS, CORDON_KEY_SECRETS_MASK,
  CORDON_KEY_SOCKETS_MASK, CORDON_KEY_SOCKETS_ALLOW,
};

/* What the views of a new network and cgroup namespace cover of the
 * host's /sys (hide.c). */
const char * const cordon_hide_sys_paths[] = {
  "/sys/class/net", "/sys/devices/virtual/net", "/sys/fs/cgroup", NULL
};

/* What root=minimal binds of the host: read by the scan here and by
 * the compiler, so the facts it needs are always there. */
const char * const cordon_minimal_root_entries[] = {
  "/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", NULL
};

/* Every directory above `path`: compile checks that the sandbox's host
 * user may search each one on the way to what it binds. */
void
cordon_host_facts_stat_ancestors (CordonHostFacts *facts,
                                  const char *path)
{
  for (g_autofree char *p = g_path_get_dirname (path); !g_str_equal (p, "/") && !g_str_equal (p, ".");)
    {
      char *parent = g_path_get_dirname (p);

      cordon_host_facts_stat (facts, p);
      g_free (p);
      p = parent;
    }
  cordon_host_facts_stat (facts, "/");
}

/* A path and the directories between `top` and it. */
static void
stat_below (CordonHostFacts *facts,
            const char *top,
            const char *path)
{
  for (g_autofree char *p = g_strdup (path); strlen (p) > strlen (top);)
    {
      char *parent = g_path_get_dirname (p);

      cordon_host_facts_stat (facts, p);
      g_free (p);
      p = parent;
    }
}

/* The directory that holds the protected `path`: whether the caller
 * may make an entry there, or make it so (its owner). Where it may not,
 * neither may the sandbox (no more than the caller on the host). */
static void
note_writable (CordonHostFacts *facts,
               const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *real = g_strconcat (facts->sysroot, dir, NULL);
  CordonPathInfo *info;

  cordon_host_facts_stat (facts, dir);
  info = g_hash_table_lookup (facts->paths, dir);
  /* Asked once a directory: every protected entry of a bind is in the
   * same one (11 of trial's in the workdir). */
  if (info == NULL || info->writable_asked)
    return;
  info->writable_asked = TRUE;
  /* The owner may chmod it writable: only a read-only file system, or
   * someone else's directory, keeps the sandbox out. */
  if (info->kind == CORDON_PATH_DIR)
    info->writable = faccessat (AT_FDCWD, real, W_OK, AT_EACCESS) == 0
                     || (errno != EROFS && info->uid == facts->uid);
}

/* What a .git file names: "gitdir: PATH" (relative to the file's
 * directory), and the commondir file there (relative to the gitdir); each
 * with every symlink resolved, as git resolves them. */
static GPtrArray *
read_gitdirs (const CordonHostFacts *facts,
              const char *dot_git)
{
  g_autofree char *real = g_strconcat (facts->sysroot, dot_git, NULL);
  g_autofree char *text = NULL;
  g_autofree char *common = NULL;
  g_autofree char *base = g_path_get_dirname (dot_git);
  GPtrArray *dirs = g_ptr_array_new_with_free_func (g_free);
  char *gitdir;

  /* The sandbox may have written it, or what it names: a regular file,
   * small, or nothing (never a FIFO to block on, nor /dev/zero). */
  text = cordon_file_read_small_at (AT_FDCWD, real, 4096, NULL, NULL);
  if (text == NULL || !g_str_has_prefix (text, "gitdir:"))
    return dirs;
  gitdir = g_canonicalize_filename (g_strstrip (text + strlen ("gitdir:")), base);
  g_ptr_array_add (dirs, resolve_path (facts, gitdir));
  g_free (gitdir);
  g_free (real);
  real = g_strconcat (facts->sysroot, g_ptr_array_index (dirs, 0), "/commondir", NULL);
  if ((common = cordon_file_read_small_at (AT_FDCWD, real, 4096, NULL, NULL)) != NULL)
    {
      g_autofree char *dir = g_canonicalize_filename (g_strstrip (common), g_ptr_array_index (dirs, 0));

      g_ptr_array_add (dirs, resolve_path (facts, dir));
    }
  return dirs;
}

/* Depth-first below `path` (its fd `fd`, taken): what scan_inside keeps. */
static void
walk_inside (CordonHostFacts *facts,
             int fd,
             const char *path,
             guint depth,
             guint *seen,
             GPtrArray *found)
{
  DIR *d = fdopendir (fd);
  struct dirent *de;

  if (d == NULL)
    {
      close (fd);
      return;
    }
  while ((de = readdir (d)) != NULL)
    {
      g_autofree char *child = NULL;
      struct stat st;
      int sub;

      if (strcmp (de->d_name, ".") == 0 || strcmp (de->d_name, "..") == 0)
        continue;
      if (++*seen > CORDON_INSIDE_MAX)
        {
          g_ptr_array_insert (found, 0, g_strdup (""));
          break;
        }
      if (fstatat (dirfd (d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        continue;
      child = g_build_filename (path, de->d_name, NULL);
      if (S_ISLNK (st.st_mode) || (S_ISREG (st.st_mode) && st.st_nlink > 1))
        {
          cordon_host_facts_stat (facts, child);
          g_ptr_array_add (found, g_steal_pointer (&child));
        }
      else if (S_ISDIR (st.st_mode) && depth < 16
               && (sub = openat (dirfd (d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) >= 0)
        walk_inside (facts, sub, child, depth + 1, seen, found);
      if (found->len > 0 && ((const char *) g_ptr_array_index (found, 0))[0] == '\0')
        break;
    }
  closedir (d);
}

/* What a read-only bind of the protected directory `dir` would not hold
 * (cordon_host_facts_inside), looked up once. */
static void
scan_inside (CordonHostFacts *facts,
             const char *dir)
{
  CordonPathInfo *info = g_hash_table_lookup (facts->paths, dir);
  g_autofree char *real = g_strconcat (facts->sysroot, dir, NULL);
  GPtrArray *found;
  guint seen = 0;
  int fd;

  if (info == NULL || info->kind != CORDON_PATH_DIR || g_hash_table_contains (facts->inside, dir))
    return;
  found = g_ptr_array_new_with_free_func (g_free);
  if ((fd = open (real, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) >= 0)
    walk_inside (facts, fd, dir, 0, &seen, found);
  /* Gone since it was seen: the placeholder of another run in the same
   * workdir, removed by its keeper meanwhile. Absent now, so a placeholder
   * of this run's goes there (the keeper makes or shares it); taken for
   * a directory still there, bwrap would fail to bind it read-only. */
  else if (errno == ENOENT)
    info->kind = CORDON_PATH_ABSENT;
  /* A placeholder (protect.c) is told by this, its mode and kind. */
  info->empty = fd >= 0 && seen == 0;
  g_ptr_array_sort (found, cordon_compare_string_ptrs);
  g_hash_table_insert (facts->inside, g_strdup (dir), found);
}

GPtrArray *
cordon_host_facts_inside (const CordonHostFacts *facts,
                          const char *dir)
{
  return g_hash_table_lookup (facts->inside, dir);
}

/* core.hooksPath of the repository at `bind`, where its .git/config is
 * protected: the directory git runs hooks from instead of .git/hooks
 * (relative, from the worktree's top), protected as they are. */
static void
scan_hooks_path (CordonHostFacts *facts,
                 const char *bind)
{
  g_autofree char *config = g_strconcat (facts->sysroot, bind, "/.git/config", NULL);
  gsize len = 0;
  gboolean too_big = FALSE, odd = FALSE;
  g_autofree char *text = cordon_file_read_small_at (AT_FDCWD, config, 1 << 20, &len, &too_big);
  g_autofree char *value = NULL;
  char *path;

  if (text == NULL && !too_big)
    return;
  value = text != NULL ? cordon_git_config_hooks_path (text, len, &odd) : NULL;
  if (value == NULL && !odd && !too_big)
    return;
  path = value != NULL ? g_canonicalize_filename (value, bind) : g_strdup ("");
  g_hash_table_replace (facts->hooks_paths, g_strdup (bind), path);
  if (path[0] == '\0')
    return;
  cordon_host_facts_stat (facts, path);
  cordon_host_facts_stat_ancestors (facts, path);
  /* Where a directory on the way is absent, the placeholder goes there. */
  for (g_autofree char *d = g_path_get_dirname (path); strlen (d) > strlen (bind);)
    {
      const CordonPathInfo *info = cordon_host_facts_lookup (facts, d);
      char *up = g_path_get_dirname (d);

      if (info != NULL && info->kind == CORDON_PATH_ABSENT)
        note_writable (facts, d);
      g_free (d);
      d = up;
    }
  note_writable (facts, path);
  scan_inside (facts, path);
}

const char *
cordon_host_facts_hooks_path (const CordonHostFacts *facts,
                              const char *bind)
{
  return g_hash_table_lookup (facts->hooks_paths, bind);
}

void
cordon_host_facts_scan_protected (CordonHostFacts *facts,
                                  const char *bind,
                                  GPtrArray *entries)
{
  g_autofree char *dot_git = g_build_filename (bind, ".git", NULL);
  const CordonPathInfo *info;

  for (guint i = 0; i < entries->len; i++)
    {
      g_autofree char *path = g_build_filename (bind, g_ptr_array_index (entries, i), NULL);

      stat_below (facts, bind, path);
      note_writable (facts, path);
      scan_inside (facts, path);
    }
  cordon_host_facts_stat (facts, dot_git);
  info = cordon_host_facts_lookup (facts, dot_git);
  if (info->kind == CORDON_PATH_DIR
      && g_ptr_array_find_with_equal_func (entries, ".git/config", g_str_equal, NULL))
    scan_hooks_path (facts, bind);
  if (info->kind != CORDON_PATH_FILE || g_hash_table_contains (facts->gitdirs, dot_git))
    return;
  {
    GPtrArray *dirs = read_gitdirs (facts, dot_git);

    g_hash_table_insert (facts->gitdirs, g_strdup (dot_git), dirs);
    for (guint d = 0; d < dirs->len; d++)
      for (guint i = 0; i < entries->len; i++)
        {
          const char *entry = g_ptr_array_index (entries, i);
          g_autofree char *path = NULL;

          if (!g_str_has_prefix (entry, ".git/"))
            continue;
          path = g_build_filename (g_ptr_array_index (dirs, d), entry + strlen (".git/"), NULL);
          cordon_host_facts_stat (facts, g_ptr_array_index (dirs, d));
          stat_below (facts, g_ptr_array_index (dirs, d), path);
          scan_inside (facts, path);
          cordon_host_facts_stat_ancestors (facts, path);
        }
  }
}

GPtrArray *
cordon_host_facts_gitdirs (const CordonHostFacts *facts,
                           const char *dot_git)
{
  return g_hash_table_lookup (facts->gitdirs, dot_git);
}

/* The paths of list `key` as this host expands them, normalized; an
 * item of an unset variable is left out (compile reports it). */
static GPtrArray *
expanded_paths (const CordonPolicy *policy,
                const CordonVars *vars,
                CordonKey key)
{
  GPtrArray *list = cordon_policy_get_list (policy, key);
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < list->len; i++)
    {
      g_autofree char *expanded = cordon_vars_expand (((const CordonItem *) g_ptr_array_index (list, i))->text,
                                                      vars, NULL);

      if (expanded != NULL)
        g_ptr_array_add (paths, cordon_path_normalize (expanded));
    }
  return paths;
}

/* Each writable bind's protected paths (cordon_host_facts_scan_protected). */
static void
scan_protected (CordonHostFacts *facts,
                const CordonVars *vars,
                const CordonPolicy *policy)
{
  static const CordonKey binds[] = { CORDON_KEY_FS_WRITABLE, CORDON_KEY_FS_WRITABLE_TRY };
  g_autoptr(GPtrArray) items = cordon_policy_get_protected (policy);
  g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func (g_free);

  if (items->len == 0)
    return;
  for (guint i = 0; i < items->len; i++)
    g_ptr_array_add (entries, cordon_protect_entry_path (g_ptr_array_index (items, i)));
  for (guint k = 0; k < G_N_ELEMENTS (binds); k++)
    {
      g_autoptr(GPtrArray) paths = expanded_paths (policy, vars, binds[k]);

      for (guint i = 0; i < paths->len; i++)
        cordon_host_facts_scan_protected (facts, g_ptr_array_index (paths, i), entries);
    }
}

/* What hide.c decides from: each hide= path and the directory that holds
 * each writable bind (hide-siblings=), with where else the host shows
 * them, and what the host's /sys shows of its network and cgroups (the
 * views of a new network and cgroup namespace). */
static void
scan_hidden (CordonHostFacts *facts,
             const CordonVars *vars,
             const CordonPolicy *policy)
{
  static const CordonKey binds[] = { CORDON_KEY_FS_WRITABLE, CORDON_KEY_FS_WRITABLE_TRY };
  const CordonItem *siblings = cordon_policy_get (policy, CORDON_KEY_FS_HIDE_SIBLINGS);
  g_autoptr(GPtrArray) hide = expanded_paths (policy, vars, CORDON_KEY_FS_HIDE);

  for (guint i = 0; cordon_hide_sys_paths[i] != NULL; i++)
    cordon_host_facts_stat (facts, cordon_hide_sys_paths[i]);
  for (guint i = 0; i < hide->len; i++)
    cordon_host_facts_stat_hidden (facts, g_ptr_array_index (hide, i));
  for (guint k = 0; siblings != NULL && siblings->num && k < G_N_ELEMENTS (binds); k++)
    {
      g_autoptr(GPtrArray) paths = expanded_paths (policy, vars, binds[k]);

      for (guint i = 0; i < paths->len; i++)
        {
          g_autofree char *parent = g_path_get_dirname (g_ptr_array_index (paths, i));

          cordon_host_facts_stat_hidden (facts, parent);
        }
    }
}

/* The directories above every path known so far, and above the helper:
 * compile decides from them what the sandbox's host user can reach. */
static void
scan_ancestors (CordonHostFacts *facts)
{
  /* The keys are the table's own: adding entries leaves them valid. */
  g_autoptr(GList) known = g_hash_table_get_keys (facts->paths);

  for (GList *l = known; l != NULL; l = l->next)
    cordon_host_facts_stat_ancestors (facts, l->data);
  if (facts->helper_path != NULL)
    {
      cordon_host_facts_stat (facts, facts->helper_path);
      cordon_host_facts_stat_ancestors (facts, facts->helper_path);
    }
}

/* cordon's own directories and every ancestor: compile protects them
 * from a writable bind, and refuses one reached through a symlink. */
static void
stat_dir_and_above (CordonHostFacts *facts,
                    const char *dir)
{
  for (g_autofree char *p = dir != NULL ? g_strdup (dir) : NULL; p != NULL && strcmp (p, "/") != 0;)
    {
      char *parent = g_path_get_dirname (p);

      cordon_host_facts_stat (facts, p);
      g_free (p);
      p = parent;
    }
}

static void
stat_own_dirs (CordonHostFacts *facts)
{
  g_clear_pointer (&facts->config_dir_real, g_free);
  g_clear_pointer (&facts->cache_dir_real, g_free);
  /* Known first, so that resolving them lstats nothing again. */
  stat_dir_and_above (facts, facts->config_dir);
  stat_dir_and_above (facts, facts->cache_dir);
  facts->config_dir_real = facts->config_dir != NULL ? resolve_path (facts, facts->config_dir) : NULL;
  facts->cache_dir_real = facts->cache_dir != NULL ? resolve_path (facts, facts->cache_dir) : NULL;
  stat_dir_and_above (facts, facts->config_dir_real);
  stat_dir_and_above (facts, facts->cache_dir_real);
}

/* The host paths the policy binds writable (the workdir among them, as
 * ${WORKDIR} or real), NULL-terminated. */
static GPtrArray *
writable_paths (const CordonHostFacts *facts,
                const CordonPolicy *policy)
{
  static const CordonKey keys[] = { CORDON_KEY_FS_WRITABLE, CORDON_KEY_FS_WRITABLE_TRY };
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  char uid_buf[16];
  CordonVars vars;

  cordon_host_facts_get_vars (facts, uid_buf, &vars);
  g_ptr_array_add (out, g_strdup (facts->workdir));
  for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
    {
      GPtrArray *list = cordon_policy_get_list (policy, keys[k]);

      for (guint i = 0; i < list->len; i++)
        {
          char *p = cordon_vars_expand (((CordonItem *) g_ptr_array_index (list, i))->text, &vars, NULL);

          if (p != NULL)
            g_ptr_array_add (out, p);
        }
    }
  g_ptr_array_add (out, NULL);
  return out;
}

/* [cache] use=: the directories cordon keeps, made now (for explain
 * too: what it shows is what a run binds), below the caller's
 * $XDG_CACHE_HOME or ~/.cache, under the facts' sysroot. */
static void
prepare_caches (CordonHostFacts *facts,
                const CordonPolicy *policy)
{
  GPtrArray *list = cordon_policy_get_list (policy, CORDON_KEY_CACHE_USE);
  const char *xdg = cordon_host_facts_getenv (facts, "XDG_CACHE_HOME");
  g_autoptr(GPtrArray) uses = g_ptr_array_new ();
  g_autoptr(GPtrArray) writable = NULL;
  g_autofree char *home = NULL;
  g_autofree char *real_name = NULL;
  const char *name;

  g_clear_pointer (&facts->caches, g_ptr_array_unref);
  if (list->len == 0 || cordon_policy_get_num (policy, CORDON_KEY_CACHE_ENABLE) == 0)
    return;
  if (xdg != NULL && g_path_is_absolute (xdg))
    home = g_strdup (xdg);
  else if (facts->home != NULL)
    home = g_build_filename (facts->home, ".cache", NULL);
  else
    home = g_strdup ("(no $HOME and no $XDG_CACHE_HOME)");
  for (guint i = 0; i < list->len; i++)
    g_ptr_array_add (uses, ((CordonItem *) g_ptr_array_index (list, i))->text);
  g_ptr_array_add (uses, NULL);
  writable = writable_paths (facts, policy);
  /* A policy file by its real path: two files named alike keep apart. */
  name = cordon_policy_get_name (policy);
  real_name = strchr (name, '/') != NULL || g_str_has_suffix (name, ".policy") ? realpath (name, NULL) : NULL;
  facts->caches = cordon_cache_prepare (facts->sysroot, home, real_name != NULL ? real_name : name,
                                        (const char * const *) uses->pdata, (const char * const *) writable->pdata);
  /* Known, so that the directories above are too (scan_ancestors): a
   * root caller's sandbox user may not search them. */
  for (guint i = 0; i < facts->caches->len; i++)
    if (((CordonCacheDir *) g_ptr_array_index (facts->caches, i))->path != NULL)
      cordon_host_facts_stat (facts, ((CordonCacheDir *) g_ptr_array_index (facts->caches, i))->path);
}

void
cordon_host_facts_scan_policy (CordonHostFacts *facts,
                               const CordonPolicy *policy)
{
  char uid_buf[16];
  CordonVars vars;
  const CordonItem *listening;

  cordon_host_facts_get_vars (facts, uid_buf, &vars);
  for (guint i = 0; cordon_minimal_root_entries[i] != NULL; i++)
    cordon_host_facts_stat (facts, cordon_minimal_root_entries[i]);
  cordon_host_facts_stat (facts, facts->workdir);
  stat_own_dirs (facts);
  for (guint k = 0; k < G_N_ELEMENTS (path_keys); k++)
    {
      GPtrArray *list = cordon_policy_get_list (policy, path_keys[k]);

      for (guint i = 0; i < list->len; i++)
        {
          const CordonItem *it = g_ptr_array_index (list, i);
          const CordonSocketEntry *entry = it->text[0] == '@'
            ? cordon_socket_catalog_lookup (it->text + 1) : NULL;

          if (it->text[0] != '@')
            scan_value (facts, &vars, it->text, is_mask_key (path_keys[k]));
          if (entry != NULL)
            scan_socket_entry (facts, &vars, entry);
        }
    }
  scan_protected (facts, &vars, policy);
  scan_hidden (facts, &vars, policy);
  if (cordon_policy_get_num (policy, CORDON_KEY_ENV_GIT_IDENTITY) != 0)
    cordon_git_identity_read (facts);
  prepare_caches (facts, policy);
  /* An allowed socket compile may bind again: whose it is, and the
   * directories on its way (compile's socket_is_callers). */
  if (cordon_policy_get_list (policy, CORDON_KEY_SOCKETS_ALLOW)->len > 0)
    {
      g_autoptr(GList) known = g_hash_table_get_keys (facts->paths);

      for (GList *l = known; l != NULL; l = l->next)
        if (((CordonPathInfo *) g_hash_table_lookup (facts->paths, l->data))->kind == CORDON_PATH_SOCKET)
          cordon_host_facts_stat_ancestors (facts, l->data);
    }
  listening = cordon_policy_get (policy, CORDON_KEY_SOCKETS_MASK_LISTENING);
  if ((listening != NULL && listening->num) || !(cordon_policy_get_namespaces (policy) & CORDON_NS_NET))
    cordon_host_facts_read_unix_sockets (facts);
  cordon_host_identity_resolve (facts, cordon_policy_get (policy, CORDON_KEY_IDENTITY_HOST_USER));
  if (facts->identity.uid != facts->uid)
    scan_ancestors (facts);
  if (facts->sysroot[0] == '\0' && facts->cgroup.mechanism == CORDON_CGROUP_NONE && facts->cgroup.missing == NULL
      && (cordon_policy_get (policy, CORDON_KEY_LIMITS_MEMORY) != NULL
          || cordon_policy_get (policy, CORDON_KEY_LIMITS_CPU) != NULL
          || cordon_policy_get (policy, CORDON_KEY_LIMITS_PIDS) != NULL))
    cordon_cgroup_host_find_in (&facts->cgroup, read_mounts (facts), geteuid (),
                                cordon_host_facts_getenv (facts, "DBUS_SESSION_BUS_ADDRESS"),
                                facts->xdg_runtime_dir);
}

const CordonPathInfo *
cordon_host_facts_lookup (const CordonHostFacts *facts,
                          const char *path)
{
  return g_hash_table_lookup (facts->paths, path);
}

GPtrArray *
cordon_host_facts_glob_matches (const CordonHostFacts *facts,
                                const char *pattern)
{
  return g_hash_table_lookup (facts->globs, pattern);
}

const char *
cordon_path_kind_name (CordonPathKind kind)
{
  static const char * const names[CORDON_PATH_MAX] = {
    "absent", "file", "directory", "symlink", "socket", "other"
  };

  g_return_val_if_fail (kind < CORDON_PATH_MAX, "?");
  return names[kind];
}

/* TRUE when `bwrap_path` is setuid root: such a bwrap makes the
 * namespaces as root (see compile.c and doctor.c for what follows). */
gboolean
cordon_host_bwrap_is_setuid (const char *bwrap_path)
{
  struct stat st;

  return stat (bwrap_path, &st) == 0 && (st.st_mode & S_ISUID) && st.st_uid == 0;
}

/* What `bwrap --version` says ("bubblewrap 0.8.0"), or NULL. It costs
 * a process: doctor asks, a run does not. */
char *
cordon_host_bwrap_version (const char *bwrap_path)
{
  const char *argv[] = { bwrap_path, "--version", NULL };
  char *version = NULL;
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, (char *[]) { (char *) "PATH=/usr/bin:/bin", NULL },
                     G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &version, NULL, &status, NULL))
    return NULL;
  if (!g_spawn_check_wait_status (status, NULL))
    return g_free (version), NULL;
  return g_strstrip (version);
}

/* A helper program (cordon-exec, cordon-keeper): beside the cordon
 * binary (an uninstalled build), else the installed libexec dir.
 * `env_override`, when set to an absolute path of an executable,
 * overrides both, for tests. */
char *
cordon_host_facts_find_helper (const char *name,
                               const char *env_override,
                               const char * const *envp,
                               GError **error)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = self != NULL ? g_path_get_dirname (self) : NULL;
  g_autofree char *beside = dir != NULL ? g_build_filename (dir, name, NULL) : NULL;
  g_autofree char *installed = g_build_filename (CORDON_PKGLIBEXECDIR, name, NULL);
  const char *env = env_override != NULL ? g_environ_getenv ((char **) envp, env_override) : NULL;

  if (env != NULL && g_path_is_absolute (env) && access (env, X_OK) == 0)
    return g_strdup (env);
  if (beside != NULL && access (beside, X_OK) == 0)
    return g_steal_pointer (&beside);
  if (access (installed, X_OK) == 0)
    return g_steal_pointer (&installed);
  g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST,
               "%s not found beside %s nor in %s (a broken installation)",
               name, self != NULL ? self : "cordon", CORDON_PKGLIBEXECDIR);
  return NULL;
}

/* cordon's own directories (its policies, its cache), made if absent. */
void
cordon_host_facts_make_own_dirs (const CordonHostFacts *facts)
{
  if (facts->config_dir != NULL)
    (void) g_mkdir_with_parents (facts->config_dir, 0700);
  if (facts->cache_dir != NULL)
    (void) g_mkdir_with_parents (facts->cache_dir, 0700);
}

/* What a launch needs of the host beyond what compile reads, gathered
 * here with the rest: the bwrap to run (`bwrap` overrides the default)
 * and its setuid bit, cordon's helpers, whether /proc is of cordon's pid
 * namespace, and (`make_dirs`, for a launch) cordon's own directories,
 * made now, before the host is examined, so that the plan binds them
 * read-only under a writable bind (a sandbox must not make them, with a
 * policy for the next run in them). */
gboolean
cordon_host_facts_find_programs (CordonHostFacts *facts,
                                 const char *bwrap,
                                 gboolean make_dirs,
                                 GError **error)
{
  if (bwrap != NULL)
    {
      g_free (facts->bwrap_path);
      facts->bwrap_path = g_canonicalize_filename (bwrap, NULL);
    }
  facts->bwrap_setuid = cordon_host_bwrap_is_setuid (facts->bwrap_path);
  facts->proc_mismatch = cordon_probe_proc_mismatch ();
  if (make_dirs)
    cordon_host_facts_make_own_dirs (facts);
  g_clear_pointer (&facts->helper_path, g_free);
  g_clear_pointer (&facts->keeper_path, g_free);
  facts->helper_path = cordon_host_facts_find_helper ("cordon-exec", "CORDON_EXEC_HELPER",
                                                      (const char * const *) facts->env, error);
  if (facts->helper_path == NULL)
    return FALSE;
  facts->keeper_path = cordon_host_facts_find_helper ("cordon-keeper", "CORDON_KEEPER_HELPER",
                                                      (const char * const *) facts->env, error);
  return facts->keeper_path != NULL;
}
