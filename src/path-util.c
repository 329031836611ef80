/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* path-util: string operations on absolute paths and globs, shared by the
 * checker (which compares paths symbolically, variables unexpanded) and the
 * compiler (which compares expanded paths). Nothing here does I/O. */
#include "config.h"

#include <string.h>

#include "path-util.h"

gboolean
cordon_path_has_dotdot (const char *path)
{
  for (const char *p = path; *p != '\0';)
    {
      gsize n = strcspn (p, "/");

      if (n == 2 && p[0] == '.' && p[1] == '.')
        return TRUE;
      p += n + (p[n] == '/');
    }
  return FALSE;
}

/* "/a//b/./c/" -> "/a/b/c". ".." is kept: callers reject it first, since
 * resolving it without the file system would be wrong across symlinks.
 * One pass, one allocation: compile and check normalize every path they
 * compare. */
char *
cordon_path_normalize (const char *path)
{
  char *out = g_malloc (strlen (path) + 2);
  gsize o = 0;

  for (const char *p = path; *p != '\0';)
    {
      gsize n = strcspn (p, "/");

      if (n > 0 && !(n == 1 && p[0] == '.'))
        {
          out[o++] = '/';
          memcpy (out + o, p, n);
          o += n;
        }
      p += n + (p[n] == '/');
    }
  if (o == 0)
    out[o++] = '/';
  out[o] = '\0';
  return out;
}

guint
cordon_path_depth (const char *path)
{
  guint depth = 0;
  gboolean in_part = FALSE;

  for (const char *p = path; *p != '\0'; p++)
    {
      if (*p == '/')
        in_part = FALSE;
      else if (!in_part)
        {
          in_part = TRUE;
          depth++;
        }
    }
  return depth;
}

/* Component-wise: "/a/b" is an ancestor of "/a/b/c", not of "/a/bc". */
gboolean
cordon_path_is_ancestor (const char *ancestor,
                         const char *path,
                         gboolean or_equal)
{
  gsize n = 0;

  /* The common start, by hand: compile and hide ask this of every pair
   * of mount points, and most differ at once. What is left of the
   * ancestor then may only be its trailing slashes, which do not count. */
  while (ancestor[n] != '\0' && ancestor[n] == path[n])
    n++;
  for (gsize k = n; ancestor[k] != '\0'; k++)
    if (ancestor[k] != '/')
      return FALSE;
  if (n == 0 && ancestor[0] != '\0')
    return FALSE;   /* "/" (or "//"), and a path that does not start with it */
  while (n > 1 && ancestor[n - 1] == '/')
    n--;
  if (path[n] == '\0')
    return or_equal;
  if (n == 1 && ancestor[0] == '/')
    return TRUE;
  return path[n] == '/';
}

gboolean
cordon_path_has_glob (const char *path)
{
  for (const char *p = path; *p != '\0'; p++)
    {
      if (*p == '\\' && p[1] != '\0')
        p++;
      else if (*p == '*' || *p == '?' || *p == '[')
        return TRUE;
    }
  return FALSE;
}

/* fnmatch(3) treats a malformed pattern as literal text, silently. A
 * policy author who wrote "[abc" meant a class: say so instead. */
gboolean
cordon_glob_is_valid (const char *pattern,
                      const char **out_reason,
                      gsize *out_offset)
{
  for (const char *p = pattern; *p != '\0'; p++)
    {
      const char *start = p;

      if (*p == '\\')
        {
          if (p[1] == '\0')
            {
              if (out_reason != NULL)
                *out_reason = "trailing backslash";
              if (out_offset != NULL)
                *out_offset = (gsize) (start - pattern);
              return FALSE;
            }
          p++;
          continue;
        }
      if (*p != '[')
        continue;
      p++;
      if (*p == '!' || *p == '^')
        p++;
      if (*p == ']')
        p++;
      while (*p != '\0' && *p != ']' && *p != '/')
        p++;
      if (*p != ']')
        {
          if (out_reason != NULL)
            *out_reason = "unterminated '[' character class";
          if (out_offset != NULL)
            *out_offset = (gsize) (start - pattern);
          return FALSE;
        }
    }
  return TRUE;
}

/* Matches one bracket expression at *p against c; advances *p past it.
 * -1 when the expression is malformed (then the '[' is literal). */
static int
match_class (const char **p,
             char c)
{
  const char *q = *p + 1;
  gboolean negate = FALSE, hit = FALSE;

  if (*q == '!' || *q == '^')
    {
      negate = TRUE;
      q++;
    }
  do
    {
      char lo = *q, hi;

      if (lo == '\0' || lo == '/')
        return -1;
      if (lo == '\\' && q[1] != '\0')
        lo = *++q;
      hi = lo;
      if (q[1] == '-' && q[2] != ']' && q[2] != '\0')
        {
          hi = q[2];
          q += 2;
        }
      if ((guchar) lo <= (guchar) c && (guchar) c <= (guchar) hi)
        hit = TRUE;
      q++;
    }
  while (*q != ']');
  *p = q + 1;
  return hit != negate;
}

/* fnmatch (pattern, string, FNM_PATHNAME | FNM_PERIOD), byte-wise. glibc's
 * fnmatch converts both strings to wide characters in a UTF-8 locale, and
 * was most of cordon's own time on `run -- true`: every environment name
 * is matched against the allowlist and the never-pass set. A '*' or '?'
 * never matches '/', nor a leading '.' of the string or of a component. */
gboolean
cordon_glob_match (const char *pattern,
                   const char *string)
{
  const char *p = pattern, *s = string;
  const char *star_p = NULL, *star_s = NULL;

  while (*s != '\0')
    {
      gboolean leading_dot = *s == '.' && (s == string || s[-1] == '/');
      int cls;

      if (*p == '*' && !leading_dot)
        {
          star_p = ++p;
          star_s = s;
          continue;
        }
      if (*p == '?' && *s != '/' && !leading_dot)
        {
          p++;
          s++;
          continue;
        }
      if (*p == '[' && *s != '/' && !leading_dot && (cls = match_class (&p, *s)) >= 0)
        {
          if (cls == 1)
            {
              s++;
              continue;
            }
        }
      else
        {
          const char *lit = (*p == '\\' && p[1] != '\0') ? p + 1 : p;

          if (*lit == *s && *p != '*' && *p != '?')
            {
              p = lit + 1;
              s++;
              continue;
            }
        }
      /* Backtrack: let the last '*' take one more byte, never a '/'. */
      if (star_p == NULL || *star_s == '/')
        return FALSE;
      p = star_p;
      s = ++star_s;
    }
  while (*p == '*')
    p++;
  return *p == '\0';
}

int
cordon_path_compare_by_depth (const char *a,
                              const char *b)
{
  guint da = cordon_path_depth (a);
  guint db = cordon_path_depth (b);

  if (da != db)
    return da < db ? -1 : 1;
  return strcmp (a, b);
}

/* Bare when every byte is safe for sh, single-quoted otherwise, so the
 * shell form stays readable for the common case of plain paths. */
char *
cordon_shell_quote (const char *s)
{
  static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                             "0123456789_-./,:+@%=";
  gboolean bare = s[0] != '\0';

  for (const char *p = s; *p != '\0' && bare; p++)
    bare = strchr (safe, *p) != NULL;
  if (bare)
    return g_strdup (s);
  return g_shell_quote (s);
}

/* For g_ptr_array_sort and qsort over arrays of strings. */
int
cordon_compare_string_ptrs (gconstpointer a,
                            gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* `path` as the helpers' specs carry it: %XX for '%', tab and newline
 * (spec-codec.h decodes it). */
void
cordon_path_append_encoded (GString *out,
                            const char *path)
{
  for (const char *p = path; *p != '\0'; p++)
    if (*p == '%' || *p == '\t' || *p == '\n')
      g_string_append_printf (out, "%%%02X", (guchar) *p);
    else
      g_string_append_c (out, *p);
}

/* The host's own directories, one table. A system directory is one a
 * writable bind must never be: the command could replace the programs
 * and libraries every later process runs. Programs (and what they read
 * as they run: packages' state, the caches of what they install) live in
 * those marked HOLDS_PROGRAMS, and in everything below them. */
typedef enum
{
  HOST_DIR_SYSTEM = 1 << 0,
  HOST_DIR_HOLDS_PROGRAMS = 1 << 1,
} HostDirFlags;

#define SYSTEM_WITH_PROGRAMS (HOST_DIR_SYSTEM | HOST_DIR_HOLDS_PROGRAMS)

static const struct
{
  const char *path;
  HostDirFlags flags;
} host_dirs[] = {
  { "/", HOST_DIR_SYSTEM }, { "/usr", SYSTEM_WITH_PROGRAMS }, { "/etc", SYSTEM_WITH_PROGRAMS },
  { "/bin", SYSTEM_WITH_PROGRAMS }, { "/sbin", SYSTEM_WITH_PROGRAMS }, { "/lib", SYSTEM_WITH_PROGRAMS },
  { "/lib32", SYSTEM_WITH_PROGRAMS }, { "/lib64", SYSTEM_WITH_PROGRAMS },
  { "/libx32", SYSTEM_WITH_PROGRAMS }, { "/boot", SYSTEM_WITH_PROGRAMS }, { "/dev", HOST_DIR_SYSTEM },
  { "/proc", HOST_DIR_SYSTEM }, { "/sys", HOST_DIR_SYSTEM }, { "/var", HOST_DIR_SYSTEM },
  { "/run", HOST_DIR_SYSTEM }, { "/opt", HOST_DIR_HOLDS_PROGRAMS },
  { "/usr/local", HOST_DIR_HOLDS_PROGRAMS }, { "/var/lib", HOST_DIR_HOLDS_PROGRAMS },
  { "/var/cache", HOST_DIR_HOLDS_PROGRAMS },
};

static HostDirFlags
host_dir_flags (const char *path)
{
  for (guint i = 0; i < G_N_ELEMENTS (host_dirs); i++)
    if (g_str_equal (host_dirs[i].path, path))
      return host_dirs[i].flags;
  return 0;
}

gboolean
cordon_path_is_system_dir (const char *path)
{
  return (host_dir_flags (path) & HOST_DIR_SYSTEM) != 0;
}

gboolean
cordon_path_is_host_dir (const char *path)
{
  return host_dir_flags (path) != 0;
}

gboolean
cordon_path_holds_host_programs (const char *path)
{
  for (guint i = 0; i < G_N_ELEMENTS (host_dirs); i++)
    if ((host_dirs[i].flags & HOST_DIR_HOLDS_PROGRAMS)
        && cordon_path_is_ancestor (host_dirs[i].path, path, TRUE))
      return TRUE;
  return FALSE;
}
