/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* file-util: writing a file whole or not at all; reading an fd to its end. */
#pragma once

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

gboolean cordon_file_write_all (int fd,
                                const char *data,
                                gsize len);

GBytes *cordon_file_read_fd (int fd,
                              GError **error);

gboolean cordon_file_replace_at (int dir_fd,
                                 const char *base,
                                 const char *data,
                                 gsize len,
                                 mode_t mode,
                                 GError **error);

G_END_DECLS
