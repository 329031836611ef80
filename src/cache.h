/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cache: [cache] use=, a writable cache directory the sandbox's tools
 * find where they look (go's build and module caches, pip's, npm's,
 * cargo's registry, ccache's), kept by cordon for the caller and the
 * policy: $XDG_CACHE_HOME/cordon/caches/POLICY/NAME (~/.cache when
 * unset), never the caller's own cache, so that no run changes what
 * the caller's tools read. Every run of the policy shares it: what one
 * run leaves there a later one reads. The table is here; the
 * directories are made with the host facts, bound by compile. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  const char *use;            /* the word of [cache] use= */
  const char *dir;            /* cordon's directory for it, below the policy's */
  const char *home_path;      /* where the sandbox has it, below its $HOME */
  const char *env;            /* the variable that names it to the tool, or NULL */
} CordonCacheEntry;

/* The entries of the word `use` (one of CORDON_CACHE_WORDS, policy-keys.h), ending with
 * one whose `use` is NULL. */
const CordonCacheEntry *cordon_cache_entries (const char *use);

/* One directory made for a run (host facts, src/host-facts.h). */
typedef struct
{
  const CordonCacheEntry *entry;
  char *path;                 /* its host path, every component a directory, no symlink */
  char *error;                /* why it could not be made, or NULL */
} CordonCacheDir;

void cordon_cache_dir_free (CordonCacheDir *dir);

/* POLICY of the path above: the policy's name as a file name (its last
 * component, without ".policy"), and 8 hex digits of the sha256 of the
 * whole name, so two files of one name keep apart. */
char *cordon_cache_policy_dir (const char *policy_name);

/* Makes (mode 0700, as the caller) BASE/cordon/caches/POLICY/DIR for
 * each entry of `uses`, BASE being `cache_home` below `sysroot` ("" for
 * the host), whose own path is resolved first; below it no symlink is
 * followed. On the host, a cache home within one of the `writable` host
 * paths, or that holds one, as named or resolved, is refused: each
 * entry's error says so, and nothing is made. The paths are given
 * without the sysroot. Never NULL. */
GPtrArray *cordon_cache_prepare (const char *sysroot,
                                 const char *cache_home,
                                 const char *policy_name,
                                 const char * const *uses,
                                 const char * const *writable);

G_END_DECLS
