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

/* A field of mountinfo, its \ooo escapes undone (g_strcompress only
 * where there is one: most fields have none). */
static char *
field_dup (const char *start,
           gsize len)
{
  g_autofree char *raw = NULL;

  if (memchr (start, '\\', len) == NULL)
    return g_strndup (start, len);
  raw = g_strndup (start, len);
  return g_strcompress (raw);
}

/* The size= of a tmpfs's super options ("rw,size=65536k"), in bytes; the
 * last one counts; 0 when there is none. */
static guint64
size_option (const char *opts)
{
  guint64 size = 0;
  const char *o = opts;

  while (o != NULL)
    {
      if (g_str_has_prefix (o, "size="))
        {
          char *end = NULL;
          guint64 n = g_ascii_strtoull (o + 5, &end, 10);
          guint shift = *end == 'k' ? 10 : *end == 'm' ? 20 : *end == 'g' ? 30 : 0;

          size = n << shift;
        }
      if ((o = strchr (o, ',')) != NULL)
        o++;
    }
  return size;
}

/* After the optional fields and " - ": the file system type, the source
 * and the super options, kept, and of them size= (a tmpfs's, "65536k")
 * as a number. Fields are split at each single space. */
static void
parse_tail (CordonMount *m,
            const char *rest)
{
  const char *dash = rest == NULL ? NULL : g_str_has_prefix (rest, "- ") ? rest : strstr (rest, " - ");
  const char *type, *source, *opts;

  if (dash != NULL && dash != rest)
    dash++;
  type = dash != NULL && dash[2] != '\0' ? dash + 2 : NULL;
  source = type != NULL ? strchr (type, ' ') : NULL;
  opts = source != NULL ? strchr (source + 1, ' ') : NULL;
  m->fstype = type != NULL ? g_strndup (type, source != NULL ? (gsize) (source - type) : strlen (type))
                           : g_strdup ("");
  m->super_opts = g_strdup (opts != NULL ? opts + 1 : "");
  if (opts != NULL)
    m->size = size_option (opts + 1);
}

/* One line, "ID PARENT MAJ:MIN ROOT POINT OPTIONS REST", split at single
 * spaces (REST, the optional fields and the tail, may hold more); NULL
 * when it has fewer than six fields. */
static CordonMount *
parse_line (const char *line,
            gsize len)
{
  const char *f[6];
  gsize flen[6];
  const char *p = line, *end = line + len;
  const char *rest = NULL;
  g_autofree char *tail = NULL;
  CordonMount *m;

  for (guint i = 0; i < 6; i++)
    {
      const char *space = memchr (p, ' ', (gsize) (end - p));

      if (space == NULL && i < 5)
        return NULL;
      f[i] = p;
      flen[i] = (gsize) ((space != NULL ? space : end) - p);
      if (space == NULL)
        break;
      p = space + 1;
      rest = i == 5 ? p : NULL;
    }
  m = g_new0 (CordonMount, 1);
  /* An empty field is 0: strtoull would skip the space after it. */
  m->id = flen[0] > 0 ? g_ascii_strtoull (f[0], NULL, 10) : 0;
  m->parent = flen[1] > 0 ? g_ascii_strtoull (f[1], NULL, 10) : 0;
  m->dev = g_strndup (f[2], flen[2]);
  m->root = field_dup (f[3], flen[3]);
  m->point = field_dup (f[4], flen[4]);
  m->ro = (flen[5] == 2 || (flen[5] > 2 && f[5][2] == ',')) && strncmp (f[5], "ro", 2) == 0;
  tail = rest != NULL ? g_strndup (rest, (gsize) (end - rest)) : NULL;
  parse_tail (m, tail);
  return m;
}

GPtrArray *
cordon_mount_table_parse (const char *text)
{
  GPtrArray *mounts = g_ptr_array_new_with_free_func (mount_free);

  for (const char *line = text != NULL ? text : ""; *line != '\0';)
    {
      const char *nl = strchr (line, '\n');
      gsize len = nl != NULL ? (gsize) (nl - line) : strlen (line);
      CordonMount *m = parse_line (line, len);

      if (m != NULL)
        g_ptr_array_add (mounts, m);
      line += len + (nl != NULL);
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
  g_autoptr(GString) prefix = g_string_sized_new (strlen (path));

  for (guint i = 0; i < mounts->len; i++)
    {
      const CordonMount *m = g_ptr_array_index (mounts, i);

      if (g_str_equal (m->point, "/") && (m->parent == m->id || by_id (mounts, m->parent) == NULL))
        cur = m;
    }
  if (cur == NULL)
    return NULL;
  cur = climb (mounts, cur);
  /* Each prefix of the path, one component more each time. */
  for (const char *p = path; *p != '\0';)
    {
      const CordonMount *c;
      gsize n = strcspn (p, "/");

      if (n == 0)
        {
          p++;
          continue;
        }
      g_string_append_c (prefix, '/');
      g_string_append_len (prefix, p, (gssize) n);
      p += n;
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
