/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* mount-table: a mountinfo text as a table of mounts. A line is
 * "ID PARENT MAJ:MIN ROOT POINT OPTIONS ...", its paths with \ooo
 * escapes (of space, tab, newline and backslash). The table's order is
 * not the stack's: of the mounts at one point, the one on top is the one
 * no other there is mounted on. */
#include "config.h"

#include <string.h>

#include "mount-table.h"
#include "path-util.h"

static void
mount_free (gpointer p)
{
  CordonMount *m = p;

  g_free (m->dev);
  g_free (m->root);
  g_free (m->point);
  g_free (m);
}

GPtrArray *
cordon_mount_table_parse (const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text != NULL ? text : "", "\n", -1);
  GPtrArray *mounts = g_ptr_array_new_with_free_func (mount_free);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i], " ", 7);
      CordonMount *m;

      if (g_strv_length (f) < 6)
        continue;
      m = g_new0 (CordonMount, 1);
      m->id = g_ascii_strtoull (f[0], NULL, 10);
      m->parent = g_ascii_strtoull (f[1], NULL, 10);
      m->dev = g_strdup (f[2]);
      m->root = g_strcompress (f[3]);
      m->point = g_strcompress (f[4]);
      m->ro = g_str_equal (f[5], "ro") || g_str_has_prefix (f[5], "ro,");
      g_ptr_array_add (mounts, m);
    }
  return mounts;
}

const CordonMount *
cordon_mount_table_top_at (GPtrArray *mounts,
                           const char *point)
{
  for (guint i = 0; i < mounts->len; i++)
    {
      const CordonMount *m = g_ptr_array_index (mounts, i);
      gboolean covered = FALSE;

      if (!g_str_equal (m->point, point))
        continue;
      for (guint j = 0; j < mounts->len && !covered; j++)
        {
          const CordonMount *o = g_ptr_array_index (mounts, j);

          covered = o != m && o->parent == m->id && g_str_equal (o->point, point);
        }
      if (!covered)
        return m;
    }
  return NULL;
}

/* The mount a lookup of `path` (absolute, without symlinks) ends in: the
 * one on top at the deepest mount point on its way. */
const CordonMount *
cordon_mount_table_holding (GPtrArray *mounts,
                            const char *path)
{
  const char *deepest = NULL;

  for (guint i = 0; i < mounts->len; i++)
    {
      const CordonMount *m = g_ptr_array_index (mounts, i);

      if (cordon_path_is_ancestor (m->point, path, TRUE)
          && (deepest == NULL || strlen (m->point) > strlen (deepest)))
        deepest = m->point;
    }
  return deepest != NULL ? cordon_mount_table_top_at (mounts, deepest) : NULL;
}

/* Where `path`, below `mount`'s point, lies in the mount's file system. */
char *
cordon_mount_table_inner_path (const CordonMount *mount,
                               const char *path)
{
  const char *rest = g_str_equal (mount->point, "/") ? path : path + strlen (mount->point);
  g_autofree char *joined = g_build_filename (mount->root, rest, NULL);

  return cordon_path_normalize (joined);
}
