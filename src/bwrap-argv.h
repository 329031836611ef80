/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bwrap-argv: a bwrap argument vector under construction. Each argument
 * remembers the plan op that produced it (for explain). add_ copies,
 * take_ steals. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  GPtrArray *args;     /* char*, no NULL terminator */
  GArray *origins;     /* gint per arg: index of the plan op, -1 if none */
} CordonBwrapArgv;

CordonBwrapArgv *cordon_bwrap_argv_new (void);
void cordon_bwrap_argv_free (CordonBwrapArgv *argv);
void cordon_bwrap_argv_add (CordonBwrapArgv *argv,
                            gint origin,
                            const char *arg);
void cordon_bwrap_argv_take (CordonBwrapArgv *argv,
                             gint origin,
                             char *arg);
void cordon_bwrap_argv_add_many (CordonBwrapArgv *argv,
                                 gint origin,
                                 ...) G_GNUC_NULL_TERMINATED;
guint cordon_bwrap_argv_len (const CordonBwrapArgv *argv);
const char *cordon_bwrap_argv_get (const CordonBwrapArgv *argv,
                                   guint i);
gint cordon_bwrap_argv_origin (const CordonBwrapArgv *argv,
                               guint i);
GBytes *cordon_bwrap_argv_to_nul (const CordonBwrapArgv *argv);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CordonBwrapArgv, cordon_bwrap_argv_free)

G_END_DECLS
