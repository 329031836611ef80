/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* mount-table: one reading of a /proc/PID/mountinfo, and the questions
 * cordon asks of it: what is on top at a point, which mount holds a path,
 * and where in its file system a path lies. Pure: the caller reads the
 * text. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint64 id;
  guint64 parent;
  char *dev;        /* "MAJ:MIN" of the file system */
  char *root;       /* the mount's root, within its file system */
  char *point;      /* where it is mounted, relative to the reader's root */
  gboolean ro;      /* the mount (not the file system) is read-only */
  char *fstype;     /* "tmpfs", "proc", ...; "" when the line has none */
  guint64 size;     /* a tmpfs's size= in bytes; 0 when it shows none */
  char *super_opts; /* the file system's options ("rw,memory" of a cgroup); "" when none */
} CordonMount;

GPtrArray *cordon_mount_table_parse (const char *text);
const CordonMount *cordon_mount_table_top_at (GPtrArray *mounts,
                                              const char *point);
const CordonMount *cordon_mount_table_holding (GPtrArray *mounts,
                                               const char *path);
char *cordon_mount_table_inner_path (const CordonMount *mount,
                                     const char *path);

G_END_DECLS
