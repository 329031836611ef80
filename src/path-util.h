/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* path-util: pure helpers on path strings. No function here touches the
 * file system: host-facts is the only module that does. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean cordon_path_has_dotdot (const char *path);
char *cordon_path_normalize (const char *path);
guint cordon_path_depth (const char *path);
gboolean cordon_path_is_ancestor (const char *ancestor,
                                  const char *path,
                                  gboolean or_equal);
gboolean cordon_path_has_glob (const char *path);
gboolean cordon_glob_is_valid (const char *pattern,
                               const char **out_reason,
                               gsize *out_offset);
gboolean cordon_glob_match (const char *pattern,
                            const char *string);
int cordon_path_compare_by_depth (const char *a,
                                  const char *b);
gboolean cordon_path_is_system_dir (const char *path);
/* A system directory, or one the host's programs live in (/opt,
 * /usr/local, /var/lib, /var/cache). */
gboolean cordon_path_is_host_dir (const char *path);
/* At or below a directory of the host's programs (/usr, /etc, /bin,
 * /sbin, /lib*, /boot, /opt, /var/lib, /var/cache): what is written there
 * the host runs, or reads as it runs, later. */
gboolean cordon_path_holds_host_programs (const char *path);
char *cordon_shell_quote (const char *s);
int cordon_compare_string_ptrs (gconstpointer a,
                                gconstpointer b);

void cordon_path_append_encoded (GString *out,
                                 const char *path);

G_END_DECLS
