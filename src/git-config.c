/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* git-config: see git-config.h. git's syntax, as far as it decides the
 * key: "[section]", "[section \"subsection\"]" or the old
 * "[section.subsection]"; "key = value" or a bare "key" (true); '#' and
 * ';' comments; a value continued by a trailing backslash. A subsection
 * is reported as "<...>": its text is the sandbox's. */
#include "config.h"

#include <string.h>

#include "git-config.h"

/* section, subsection ("*": any, NULL: none), key (NULL: any). */
static const struct
{
  const char *section;
  const char *subsection;
  const char *key;
} runners[] = {
  { "core", NULL, "fsmonitor" },
  { "core", NULL, "hookspath" },
  { "core", NULL, "sshcommand" },
  { "core", NULL, "pager" },
  { "core", NULL, "editor" },
  { "core", NULL, "askpass" },
  { "core", NULL, "gitproxy" },
  { "core", NULL, "worktree" },
  { "sequence", NULL, "editor" },
  { "pager", NULL, NULL },
  { "pager", "*", NULL },
  { "diff", NULL, "external" },
  { "diff", "*", "textconv" },
  { "diff", "*", "command" },
  { "filter", "*", "clean" },
  { "filter", "*", "smudge" },
  { "filter", "*", "process" },
  { "merge", "*", "driver" },
  { "alias", NULL, NULL },
  { "credential", NULL, "helper" },
  { "credential", "*", "helper" },
  { "gpg", NULL, "program" },
  { "gpg", "*", "program" },
  { "gpg", "*", "defaultkeycommand" },
  { "mergetool", "*", "cmd" },
  { "difftool", "*", "cmd" },
  { "sendemail", NULL, "sendmailcmd" },
  { "protocol", NULL, "allow" },
  { "protocol", "*", "allow" },
  { "interactive", NULL, "difffilter" },
  { "include", NULL, "path" },
  { "includeif", "*", "path" },
  { "uploadpack", NULL, "packobjectshook" },
  { "remote", "*", "uploadpack" },
  { "remote", "*", "receivepack" },
  { "submodule", "*", "update" },
  { "extensions", NULL, "worktreeconfig" },
};

/* core.fsmonitor=true or false is git's own daemon, no program. */
static gboolean
is_boolean (const char *value)
{
  static const char * const words[] = { "true", "false", "yes", "no", "on", "off", "1", "0", "", NULL };

  return g_strv_contains (words, value);
}

static gboolean
matches (guint r,
         const char *section,
         const char *subsection,
         const char *key,
         const char *value)
{
  if (g_strcmp0 (runners[r].section, section) != 0)
    return FALSE;
  if ((runners[r].subsection == NULL) != (subsection == NULL))
    return FALSE;
  if (runners[r].key != NULL && g_strcmp0 (runners[r].key, key) != 0)
    return FALSE;
  return !(g_str_equal (section, "core") && g_str_equal (key, "fsmonitor") && is_boolean (value));
}

/* A name git would take as a key: letters, digits, '-' (a key of the
 * file's own, as an alias's or a pager's, is reported only so). */
static gboolean
plain (const char *key)
{
  for (const char *p = key; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '-')
      return FALSE;
  return key[0] != '\0';
}

typedef struct
{
  char *section;
  char *subsection;
  GPtrArray *found;
} Scan;

/* "[section]", "[section \"sub\"]", "[section.sub]". */
static void
take_header (Scan *scan,
             const char *line)
{
  const char *end = strchr (line, ']');
  g_autofree char *inner = g_strndup (line + 1, end != NULL ? (gsize) (end - line - 1) : strlen (line + 1));
  char *quote = strchr (inner, '"');
  char *dot = strchr (inner, '.');

  g_clear_pointer (&scan->section, g_free);
  g_clear_pointer (&scan->subsection, g_free);
  if (quote != NULL)
    {
      *quote = '\0';
      scan->subsection = g_strdup ("*");
    }
  else if (dot != NULL)
    {
      *dot = '\0';
      scan->subsection = g_strdup ("*");
    }
  scan->section = g_ascii_strdown (g_strstrip (inner), -1);
}

static void
take_entry (Scan *scan,
            const char *line)
{
  const char *eq = strchr (line, '=');
  g_autofree char *key = g_strndup (line, eq != NULL ? (gsize) (eq - line) : strlen (line));
  g_autofree char *value = g_strdup (eq != NULL ? eq + 1 : "true");
  g_autofree char *name = NULL;

  g_strstrip (key);
  g_strstrip (value);
  if (scan->section == NULL || key[0] == '\0')
    return;
  for (char *p = key; *p != '\0'; p++)
    *p = g_ascii_tolower (*p);
  for (guint r = 0; r < G_N_ELEMENTS (runners); r++)
    if (matches (r, scan->section, scan->subsection, key, value + strspn (value, "\"")))
      {
        name = g_strdup_printf ("%s.%s%s", scan->section, scan->subsection != NULL ? "<...>." : "",
                                plain (key) ? key : "<...>");
        break;
      }
  if (name == NULL)
    return;
  for (guint i = 0; i < scan->found->len; i++)
    if (g_str_equal (g_ptr_array_index (scan->found, i), name))
      return;
  g_ptr_array_add (scan->found, g_steal_pointer (&name));
}

/* What git may read otherwise than this reader: a NUL (git reads on),
 * a continued line, two headers on one line, a ']' or an escape in a
 * quoted subsection. Such a file is reported whole, as "<unreadable>". */
static gboolean
unreadable (const char *text,
            gsize len)
{
  if (memchr (text, '\0', len) != NULL)
    return TRUE;
  for (const char *l = text; l < text + len;)
    {
      const char *nl = memchr (l, '\n', (gsize) (text + len - l));
      gsize n = nl != NULL ? (gsize) (nl - l) : (gsize) (text + len - l);
      g_autofree char *line = g_strstrip (g_strndup (l, n));

      if (g_str_has_suffix (line, "\\"))
        return TRUE;
      if (line[0] == '[' && (strchr (line, '\\') != NULL || strchr (strchr (line, ']') != NULL ? strchr (line, ']') + 1 : line, '[') != NULL
                             || (strchr (line, '"') != NULL && strchr (line, ']') < strrchr (line, '"'))))
        return TRUE;
      l += n + 1;
    }
  return FALSE;
}

GPtrArray *
cordon_git_config_runners (const char *text,
                           gsize len)
{
  g_autofree char *copy = NULL;
  g_auto(GStrv) lines = NULL;
  Scan scan = { NULL, NULL, g_ptr_array_new_with_free_func (g_free) };
  gboolean continued = FALSE;

  /* git skips a UTF-8 byte order mark at the start. */
  if (len >= 3 && memcmp (text, "\xef\xbb\xbf", 3) == 0)
    text += 3, len -= 3;
  if (unreadable (text, len))
    g_ptr_array_add (scan.found, g_strdup ("<unreadable>"));
  copy = g_strndup (text, len);
  lines = g_strsplit (copy, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = g_strstrip (lines[i]);
      /* A comment line ends at its end, backslash or not. */
      gboolean next = line[0] != '#' && line[0] != ';' && g_str_has_suffix (line, "\\");

      if (continued)
        ;   /* the rest of a value */
      else if (line[0] == '[')
        {
          /* git reads on after the ']': "[core] fsmonitor = x" is a key. */
          const char *close = strchr (line, ']');

          take_header (&scan, line);
          if (close != NULL && close[1] != '\0')
            take_entry (&scan, close + 1);
        }
      else if (line[0] != '\0' && line[0] != '#' && line[0] != ';')
        take_entry (&scan, line);
      continued = next;
    }
  g_free (scan.section);
  g_free (scan.subsection);
  return scan.found;
}

/* One "key = value" line of [core]: the value of hookspath, or NULL. */
static char *
hooks_path_of (const char *line,
               gboolean *odd)
{
  const char *eq = strchr (line, '=');
  g_autofree char *key = g_strstrip (g_strndup (line, eq != NULL ? (gsize) (eq - line) : strlen (line)));
  g_autofree char *value = NULL;

  if (g_ascii_strcasecmp (key, "hookspath") != 0)
    return NULL;
  value = g_strstrip (g_strdup (eq != NULL ? eq + 1 : ""));
  if (value[0] == '\0' || strpbrk (value, "\"\\#;") != NULL || value[0] == '~')
    {
      *odd = TRUE;
      return NULL;
    }
  return g_steal_pointer (&value);
}

char *
cordon_git_config_hooks_path (const char *text,
                              gsize len,
                              gboolean *odd)
{
  g_autoptr(GPtrArray) keys = cordon_git_config_runners (text, len);
  g_autofree char *copy = NULL;
  g_auto(GStrv) lines = NULL;
  gboolean in_core = FALSE;
  char *found = NULL;

  *odd = FALSE;
  if (!g_ptr_array_find_with_equal_func (keys, "core.hookspath", g_str_equal, NULL))
    return NULL;
  if (g_ptr_array_find_with_equal_func (keys, "<unreadable>", g_str_equal, NULL))
    return *odd = TRUE, NULL;
  if (len >= 3 && memcmp (text, "\xef\xbb\xbf", 3) == 0)
    text += 3, len -= 3;
  copy = g_strndup (text, len);
  lines = g_strsplit (copy, "\n", -1);
  for (guint i = 0; lines[i] != NULL && !*odd; i++)
    {
      char *line = g_strstrip (lines[i]);
      char *value;

      if (line[0] == '[')
        {
          const char *close = strchr (line, ']');
          g_autofree char *inner = g_strstrip (g_strndup (line + 1, close != NULL ? (gsize) (close - line - 1) : 0));

          in_core = g_ascii_strcasecmp (inner, "core") == 0;
          /* "[core] hooksPath = x": a key after the header. */
          line = close != NULL ? g_strstrip ((char *) close + 1) : line + strlen (line);
        }
      if (!in_core || line[0] == '\0' || line[0] == '#' || line[0] == ';')
        continue;
      if ((value = hooks_path_of (line, odd)) != NULL)
        {
          g_free (found);
          found = value;
        }
    }
  if (*odd)
    g_clear_pointer (&found, g_free);
  /* Set only in a subsection, or a header this reader takes otherwise. */
  if (found == NULL && !*odd)
    *odd = TRUE;
  return found;
}

/* "key = value": the value, unquoted, if `line` sets `key` plainly; NULL
 * with *odd when it sets it otherwise. */
static char *
plain_value_of (const char *line,
                const char *key,
                gboolean *odd)
{
  const char *eq = strchr (line, '=');
  g_autofree char *k = g_strstrip (g_strndup (line, eq != NULL ? (gsize) (eq - line) : strlen (line)));
  g_autofree char *value = NULL;
  gsize n;

  if (g_ascii_strcasecmp (k, key) != 0)
    return NULL;
  value = g_strstrip (g_strdup (eq != NULL ? eq + 1 : ""));
  n = strlen (value);
  /* "Jane Doe" quoted whole, with no quote or escape inside. */
  if (n >= 2 && value[0] == '"' && value[n - 1] == '"')
    {
      memmove (value, value + 1, n - 2);
      value[n - 2] = '\0';
    }
  for (const char *p = value; *p != '\0'; p++)
    if (*p == '"' || *p == '\\' || *p == '#' || *p == ';' || g_ascii_iscntrl (*p))
      *odd = TRUE;
  if (*odd || value[0] == '\0')
    return NULL;
  return g_steal_pointer (&value);
}

char *
cordon_git_config_plain_value (const char *text,
                               gsize len,
                               const char *section,
                               const char *key)
{
  g_autoptr(GPtrArray) keys = cordon_git_config_runners (text, len);
  g_autofree char *copy = NULL;
  g_auto(GStrv) lines = NULL;
  gboolean in_section = FALSE;
  char *found = NULL;

  if (g_ptr_array_find_with_equal_func (keys, "<unreadable>", g_str_equal, NULL))
    return NULL;
  if (len >= 3 && memcmp (text, "\xef\xbb\xbf", 3) == 0)
    text += 3, len -= 3;
  copy = g_strndup (text, len);
  lines = g_strsplit (copy, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = g_strstrip (lines[i]);
      gboolean odd = FALSE;
      char *value;

      if (line[0] == '[')
        {
          const char *close = strchr (line, ']');
          g_autofree char *inner = g_strstrip (g_strndup (line + 1, close != NULL ? (gsize) (close - line - 1) : 0));

          in_section = g_ascii_strcasecmp (inner, section) == 0;
          line = close != NULL ? g_strstrip ((char *) close + 1) : line + strlen (line);
        }
      if (!in_section || line[0] == '\0' || line[0] == '#' || line[0] == ';')
        continue;
      value = plain_value_of (line, key, &odd);
      /* The last setting wins in git: one not taken plainly hides those before. */
      if (value != NULL || odd)
        {
          g_free (found);
          found = value;
        }
    }
  return found;
}
