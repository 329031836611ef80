/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sockets: the catalog of well-known host sockets a policy names as
 * @name (data/sockets.catalog, embedded), each with the path globs where
 * it lives, the variables that locate it and the authority it carries.
 * Pure data and lookups; resolving globs is host-facts' job. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  char *name;
  const char * const *paths;  /* absolute globs, ${VARS} allowed */
  const char * const *env;    /* variables that locate it (may be empty);
                               * the catalog names each one's decoder */
  char *authority;            /* one line: what reaching it grants */
} CordonSocketEntry;

const CordonSocketEntry *cordon_socket_catalog_lookup (const char *name);
const CordonSocketEntry *cordon_socket_catalog_get (guint i);
guint cordon_socket_catalog_len (void);
gboolean cordon_socket_env_names_the_one (const char *name);
char **cordon_socket_paths_from_env (const char *name,
                                     const char *value,
                                     const char *xdg_runtime_dir);

G_END_DECLS
