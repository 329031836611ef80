/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* spec-codec: paths in the line-based specs cordon hands its helpers (the
 * verification spec of cordon-exec, the stage of cordon-keeper) are
 * %XX-encoded for '%', tab and newline, the three bytes that would break
 * a line apart. The decoder is plain libc, for the helpers. */
#pragma once

#include <stddef.h>

/* All of `fd` up to its end, NUL-terminated (malloc'd), its length in
 * *out_len (may be NULL); NULL with errno on failure or past `max` bytes
 * (E2BIG). */
char *cordon_read_fd_whole (int fd,
                            size_t max,
                            size_t *out_len);
/* The same for a spec, whose length is its NUL. */
char *cordon_spec_read_fd (int fd,
                           size_t max);
/* `s` decoded in place. */
void cordon_spec_decode (char *s);
