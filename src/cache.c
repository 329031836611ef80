/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cache: see cache.h. The directories below the caller's cache home
 * are made and opened one component at a time (mkdirat, then openat
 * with O_NOFOLLOW), so a symlink put in their place is refused, not
 * followed: the path bound is the one checked. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "path-util.h"

static const CordonCacheEntry entries[] = {
  { "go", "go-build", ".cache/go-build", "GOCACHE" },
  { "go", "go-mod", "go/pkg/mod", "GOMODCACHE" },
  { "pip", "pip", ".cache/pip", "PIP_CACHE_DIR" },
  { "npm", "npm", ".npm", "npm_config_cache" },
  { "cargo", "cargo-registry", ".cargo/registry", NULL },
  { "cargo", "cargo-git", ".cargo/git", NULL },
  { "ccache", "ccache", ".cache/ccache", "CCACHE_DIR" },
  { NULL, NULL, NULL, NULL },
};

const CordonCacheEntry *
cordon_cache_entries (const char *use)
{
  for (guint i = 0; entries[i].use != NULL; i++)
    if (g_str_equal (entries[i].use, use))
      return &entries[i];
  return &entries[G_N_ELEMENTS (entries) - 1];
}

void
cordon_cache_dir_free (CordonCacheDir *dir)
{
  if (dir == NULL)
    return;
  g_free (dir->path);
  g_free (dir->error);
  g_free (dir);
}

char *
cordon_cache_policy_dir (const char *policy_name)
{
  g_autofree char *base = g_path_get_basename (policy_name);
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, policy_name, -1);

  if (g_str_has_suffix (base, ".policy") && strlen (base) > strlen (".policy"))
    base[strlen (base) - strlen (".policy")] = '\0';
  for (char *p = base; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '-' && *p != '_' && *p != '.')
      *p = '_';
  return g_strdup_printf ("%s-%.8s", base[0] == '.' ? "_" : base, hash);
}

/* `rel` below the directory `fd`, each component made if absent and
 * entered without following a symlink: TRUE, or FALSE with errno. */
static gboolean
make_below (int fd,
            const char *rel)
{
  g_auto(GStrv) parts = g_strsplit (rel, "/", -1);
  int at = dup (fd);

  for (guint i = 0; at >= 0 && parts[i] != NULL; i++)
    {
      int next;

      if (mkdirat (at, parts[i], 0700) != 0 && errno != EEXIST)
        {
          int saved = errno;

          close (at);
          errno = saved;
          return FALSE;
        }
      next = openat (at, parts[i], O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      close (at);
      at = next;
    }
  if (at < 0)
    return FALSE;
  close (at);
  return TRUE;
}

/* Why `cache_home` may not hold caches: it is within a writable path, or
 * holds one, as named or as resolved (a run could leave a link there for
 * the next to follow, or the audit would skip a workdir below a cache);
 * NULL when it may. */
static char *
overlap (const char *cache_home,
         const char * const *writable)
{
  g_autofree char *home = cordon_path_normalize (cache_home);
  g_autofree char *real_home = realpath (cache_home, NULL);

  for (guint i = 0; writable != NULL && writable[i] != NULL; i++)
    {
      g_autofree char *w = cordon_path_normalize (writable[i]);
      g_autofree char *real_w = realpath (writable[i], NULL);

      if (cordon_path_is_ancestor (w, home, TRUE) || cordon_path_is_ancestor (home, w, TRUE)
          || (real_home != NULL && real_w != NULL && (cordon_path_is_ancestor (real_w, real_home, TRUE)
                                                     || cordon_path_is_ancestor (real_home, real_w, TRUE))))
        return g_strdup_printf ("the cache home %s and the writable path %s overlap: a run could leave "
                                "there what the next one's caches would follow; set XDG_CACHE_HOME "
                                "outside it", cache_home, writable[i]);
    }
  return NULL;
}

GPtrArray *
cordon_cache_prepare (const char *sysroot,
                      const char *cache_home,
                      const char *policy_name,
                      const char * const *uses,
                      const char * const *writable)
{
  GPtrArray *dirs = g_ptr_array_new_with_free_func ((GDestroyNotify) cordon_cache_dir_free);
  g_autofree char *policy_dir = cordon_cache_policy_dir (policy_name);
  g_autofree char *real = NULL;
  int fd = -1;
  int fd_errno = 0;

  g_autofree char *at_root = g_strconcat (sysroot, cache_home, NULL);
  g_autofree char *refused = sysroot[0] == '\0' ? overlap (cache_home, writable) : NULL;
  const char *shown;

  /* Nothing is made where a run may have left a link. */
  if (refused == NULL && g_mkdir_with_parents (at_root, 0700) == 0 && (real = realpath (at_root, NULL)) != NULL)
    fd = open (real, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  fd_errno = errno;
  /* The path as the sandbox's plan names host paths: without the sysroot. */
  shown = real != NULL && sysroot[0] != '\0' && g_str_has_prefix (real, sysroot) ? real + strlen (sysroot) : real;
  for (guint u = 0; uses != NULL && uses[u] != NULL; u++)
    for (const CordonCacheEntry *e = cordon_cache_entries (uses[u]); e->use != NULL && g_str_equal (e->use, uses[u]); e++)
      {
        CordonCacheDir *d = g_new0 (CordonCacheDir, 1);
        g_autofree char *rel = g_build_filename ("cordon", "caches", policy_dir, e->dir, NULL);

        d->entry = e;
        if (g_strv_contains ((const char * const *) uses + u + 1, uses[u]))
          {
            /* Named twice: made once, for the last. */
            cordon_cache_dir_free (d);
            continue;
          }
        if (refused != NULL)
          d->error = g_strdup (refused);
        else if (fd < 0)
          d->error = g_strdup_printf ("%s: %s", cache_home, g_strerror (fd_errno));
        else if (!make_below (fd, rel))
          d->error = g_strdup_printf ("%s/%s: %s", shown, rel, g_strerror (errno));
        else
          d->path = g_build_filename (shown, rel, NULL);
        g_ptr_array_add (dirs, d);
      }
  if (fd >= 0)
    close (fd);
  return dirs;
}
