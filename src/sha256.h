/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sha256: FIPS 180-4 SHA-256, libc only, for cordon-exec, which must not
 * link GLib (it runs under any policy's root). cordon computes the same
 * digests with GChecksum; a unit test holds the two to the same answers. */
#pragma once

#include <stddef.h>

/* Writes 64 lowercase hex digits and a NUL into out. */
void cordon_sha256_hex (const void *data,
                        size_t len,
                        char out[65]);
