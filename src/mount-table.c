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
  g_free (m->fstype);
  g_free (m->super_opts);
  g_free (m);
}

/* After the optional fields and " - ": the file system type, the source
 * and the super options, kept, and of them size= (a tmpfs's, "65536k")
 * as a number. */
static void
parse_tail (CordonMount *m,
            const char *rest)
{
  const char *dash = rest == NULL ? NULL : g_str_has_prefix (rest, "- ") ? rest : strstr (rest, " - ");
  g_auto(GStrv) f = NULL;
  g_auto(GStrv) opts = NULL;

  if (dash != NULL && dash != rest)
    dash++;
  f = dash != NULL ? g_strsplit (dash + 2, " ", 3) : NULL;
  m->fstype = g_strdup (f != NULL && f[0] != NULL ? f[0] : "");
  m->super_opts = g_strdup (f != NULL && f[0] != NULL && f[1] != NULL && f[2] != NULL ? f[2] : "");
  if (f == NULL || f[0] == NULL || f[1] == NULL || f[2] == NULL)
    return;
  opts = g_strsplit (f[2], ",", -1);
  for (guint i = 0; opts[i] != NULL; i++)
    if (g_str_has_prefix (opts[i], "size="))
      {
        char *end = NULL;
        guint64 n = g_ascii_strtoull (opts[i] + 5, &end, 10);
        guint shift = *end == 'k' ? 10 : *end == 'm' ? 20 : *end == 'g' ? 30 : 0;

        m->size = n << shift;
      }
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
      parse_tail (m, f[6]);
      g_ptr_array_add (mounts, m);
    }
  return mounts;
}

static const CordonMount *
by_id (GPtrArray *mounts,
       guint64 id)
{
  for (guint j = 0; j < mounts->len; j++)
    if (((const CordonMount *) g_ptr_array_index (mounts, j))->id == id)
      return g_ptr_array_index (mounts, j);
  return NULL;
}

/* The mount on `parent` at `point` a lookup meets: of several there, the
 * one mounted last (the table lists them in order). */
static const CordonMount *
child_at (GPtrArray *mounts,
          const CordonMount *parent,
          const char *point)
{
  const CordonMount *found = NULL;

  for (guint j = 0; j < mounts->len; j++)
    {
      const CordonMount *o = g_ptr_array_index (mounts, j);

      if (o != parent && o->parent == parent->id && g_str_equal (o->point, point))
        found = o;
    }
  return found;
}

/* The top of the stack `m` is in: what is mounted on it at its own
 * point, and on that, and so on. */
static const CordonMount *
climb (GPtrArray *mounts,
       const CordonMount *m)
{
  for (guint depth = 0; depth <= mounts->len; depth++)
    {
      const CordonMount *up = child_at (mounts, m, m->point);

      if (up == NULL)
        break;
      m = up;
    }
  return m;
}

/* The mount a lookup of `path` (absolute, without symlinks) ends in, as
 * the kernel walks it: from the root (the mount at / whose parent is not
 * in the table), at each prefix of the path the mount on the current one
 * there, if any, and the top of its stack. A mount the host made below a
 * path the sandbox mounted over stays in the table, hanging from a mount
 * the walk has left: it is never met. NULL without a root. */
static const CordonMount *
resolve (GPtrArray *mounts,
         const char *path)
{
  const CordonMount *cur = NULL;
  g_auto(GStrv) parts = g_strsplit (path, "/", -1);
  g_autoptr(GString) prefix = g_string_new (NULL);

  for (guint i = 0; i < mounts->len; i++)
    {
      const CordonMount *m = g_ptr_array_index (mounts, i);

      if (g_str_equal (m->point, "/") && (m->parent == m->id || by_id (mounts, m->parent) == NULL))
        cur = m;
    }
  if (cur == NULL)
    return NULL;
  cur = climb (mounts, cur);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      const CordonMount *c;

      if (parts[i][0] == '\0')
        continue;
      g_string_append_printf (prefix, "/%s", parts[i]);
      if ((c = child_at (mounts, cur, prefix->str)) != NULL)
        cur = climb (mounts, c);
    }
  return cur;
}

/* The mount a lookup meets at `point`, when one is mounted there. */
const CordonMount *
cordon_mount_table_top_at (GPtrArray *mounts,
                           const char *point)
{
  const CordonMount *m = resolve (mounts, point);

  return m != NULL && g_str_equal (m->point, point) ? m : NULL;
}

/* The mount a lookup of `path` (absolute, without symlinks) ends in. */
const CordonMount *
cordon_mount_table_holding (GPtrArray *mounts,
                            const char *path)
{
  return resolve (mounts, path);
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
