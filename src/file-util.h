/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* file-util: writing a file whole or not at all; reading an fd to its end;
 * reading a small regular file a sandbox may have written; opening a
 * directory through no symlink. */
#pragma once

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

gboolean cordon_file_write_all (int fd,
                                const char *data,
                                gsize len);

GBytes *cordon_file_read_fd (int fd,
                              GError **error);

/* `name` below `dir_fd` (AT_FDCWD: a path), if it is a regular file of at
 * most `max` bytes: opened without following a symlink at the end and
 * without blocking (a FIFO is never waited on), NUL-terminated, its
 * length in *len. NULL otherwise; *too_big (may be NULL) says it was
 * longer. */
char *cordon_file_read_small_at (int dir_fd,
                                 const char *name,
                                 gsize max,
                                 gsize *len,
                                 gboolean *too_big);

/* The same, only of a file of `owner`'s that nobody else may write (what
 * cordon keeps for itself: the probe's answer, the filters' BPF). */
char *cordon_file_read_owned_at (int dir_fd,
                                 const char *name,
                                 uid_t owner,
                                 gsize max,
                                 gsize *len);

gboolean cordon_file_replace_at (int dir_fd,
                                 const char *base,
                                 const char *data,
                                 gsize len,
                                 mode_t mode,
                                 GError **error);

/* The directory at the absolute `path`, opened for reading one component
 * at a time, none of them followed if it is a symlink (O_PATH on the way:
 * only search permission is needed there). An fd, close-on-exec, or -1
 * with errno (ENOTDIR or ELOOP where a component is a symlink, EINVAL for
 * a relative path or a ".." component). */
int cordon_file_open_dir_no_symlink (const char *path);

G_END_DECLS
