/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* host-facts: the one module that looks at the host for compile. Every
 * lstat goes through `sysroot`, so a test can stand a fixture tree in for
 * the host and get byte-identical plans on any machine. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host-facts.h"
#include "path-util.h"
#include "policy-vars.h"
#include "sockets.h"

static void
path_info_free (gpointer p)
{
  CordonPathInfo *info = p;

  g_free (info->link_target);
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
  facts->uid = getuid ();
  facts->gid = getgid ();
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
  wd = g_canonicalize_filename (workdir != NULL ? workdir : cwd, cwd);
  if (facts->sysroot[0] == '\0')
    {
      /* The sandbox binds the directory itself: name it by its real path,
       * so a workdir given through a symlink is bound, not the link. */
      char *real = realpath (wd, NULL);

      if (real != NULL)
        {
          g_free (wd);
          wd = g_strdup (real);
          free (real);
        }
    }
  if (cordon_path_has_dotdot (wd))
    {
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_USAGE, "workdir '%s' contains '..'", wd);
      return NULL;
    }
  facts->workdir = g_steal_pointer (&wd);
  facts->paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, path_info_free);
  facts->globs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                        (GDestroyNotify) g_ptr_array_unref);
  return g_steal_pointer (&facts);
}

void
cordon_host_facts_free (CordonHostFacts *facts)
{
  if (facts == NULL)
    return;
  g_free (facts->sysroot);
  g_free (facts->home);
  g_free (facts->workdir);
  g_free (facts->tmpdir);
  g_free (facts->xdg_runtime_dir);
  g_strfreev (facts->env);
  g_free (facts->bwrap_path);
  if (facts->paths != NULL)
    g_hash_table_unref (facts->paths);
  if (facts->globs != NULL)
    g_hash_table_unref (facts->globs);
  g_free (facts);
}

const char *
cordon_host_facts_getenv (const CordonHostFacts *facts,
                          const char *name)
{
  return g_environ_getenv (facts->env, name);
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
  g_autofree char *real = g_strconcat (facts->sysroot, path, NULL);
  CordonPathInfo *info;
  struct stat st;

  if (g_hash_table_contains (facts->paths, path))
    return;
  info = g_new0 (CordonPathInfo, 1);
  if (lstat (real, &st) != 0)
    info->kind = CORDON_PATH_ABSENT;
  else
    info->kind = kind_of_mode (st.st_mode);
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

static void
scan_value (CordonHostFacts *facts,
            const CordonVars *vars,
            const char *text)
{
  g_autofree char *expanded = cordon_vars_expand (text, vars, NULL);
  g_autofree char *path = NULL;

  if (expanded == NULL)
    return;   /* compile reports the unset variable */
  path = cordon_path_normalize (expanded);
  if (cordon_path_has_glob (path))
    cordon_host_facts_glob (facts, path);
  else
    cordon_host_facts_stat (facts, path);
}

static const CordonKey path_keys[] = {
  CORDON_KEY_FS_WRITABLE, CORDON_KEY_FS_WRITABLE_TRY, CORDON_KEY_FS_READ_ONLY,
  CORDON_KEY_FS_READ_ONLY_TRY, CORDON_KEY_FS_TMPFS, CORDON_KEY_SECRETS_MASK,
  CORDON_KEY_SOCKETS_MASK, CORDON_KEY_SOCKETS_ALLOW,
};

/* The top-level entries a root=minimal sandbox takes from the host. */
static const char * const minimal_entries[] = {
  "/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", NULL
};

void
cordon_host_facts_scan_policy (CordonHostFacts *facts,
                               const CordonPolicy *policy)
{
  char uid_buf[16];
  CordonVars vars;

  cordon_host_facts_get_vars (facts, uid_buf, &vars);
  for (guint i = 0; minimal_entries[i] != NULL; i++)
    cordon_host_facts_stat (facts, minimal_entries[i]);
  cordon_host_facts_stat (facts, facts->workdir);
  for (guint k = 0; k < G_N_ELEMENTS (path_keys); k++)
    {
      GPtrArray *list = cordon_policy_get_list (policy, path_keys[k]);

      for (guint i = 0; i < list->len; i++)
        {
          const CordonItem *it = g_ptr_array_index (list, i);
          const CordonSocketEntry *entry = it->text[0] == '@'
            ? cordon_socket_catalog_lookup (it->text + 1) : NULL;

          if (it->text[0] != '@')
            scan_value (facts, &vars, it->text);
          for (guint j = 0; entry != NULL && entry->paths[j] != NULL; j++)
            scan_value (facts, &vars, entry->paths[j]);
          for (guint j = 0; entry != NULL && entry->env != NULL && entry->env[j] != NULL; j++)
            {
              g_autofree char *p = cordon_socket_path_from_env (entry->env[j],
                                                                cordon_host_facts_getenv (facts, entry->env[j]),
                                                                facts->xdg_runtime_dir);
              g_autofree char *norm = p != NULL ? cordon_path_normalize (p) : NULL;

              if (norm != NULL && !cordon_path_has_dotdot (norm))
                cordon_host_facts_stat (facts, norm);
            }
        }
    }
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
