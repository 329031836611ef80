/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* caps: capability names, checked with libcap, for [capabilities] keep=.
 * Pure: libcap's name table is data. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean cordon_caps_parse (const char *name,
                            guint *out_bit,
                            char **out_canonical);

G_END_DECLS
