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

/* The instructions of cordon-keeper, read strictly: `line` split in
 * place at each tab into `fields`, at most `max`; their number, or -1
 * when there are more, or one is empty. */
int cordon_spec_split (char *line,
                       char **fields,
                       size_t max);
/* `s` decoded in place as the encoder writes it (%25, %09, %0A, either
 * case): 0, or -1 for any other '%' (a %00 would cut the name short). */
int cordon_spec_decode_strict (char *s);
/* A line's index: decimal digits only, at most 6; 0, or -1. */
int cordon_spec_index (const char *s,
                       size_t *out);
