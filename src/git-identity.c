/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* git-identity: see git-identity.h. Each file is read whole, up to a
 * size no config of a person's reaches, and only a regular file, opened
 * without blocking (the file may be a link into a path a sandbox could
 * write); one that is larger, absent, unreadable or of another kind
 * counts as setting nothing. */
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "file-util.h"
#include "git-config.h"
#include "git-identity.h"

#define CONFIG_MAX (1 << 20)

/* Short, UTF-8, and no control character of either set: C0 and DEL, or
 * C1 (U+0080 to U+009F: U+009B is a terminal's CSI). */
static gboolean
acceptable (const char *value)
{
  if (strlen (value) > CORDON_GIT_IDENTITY_MAX || !g_utf8_validate (value, -1, NULL))
    return FALSE;
  for (const char *p = value; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c < 0x20 || (c >= 0x7f && c <= 0x9f))
        return FALSE;
    }
  return TRUE;
}

/* The text of the file at `path` (its host path), or NULL. */
static char *
read_config (const CordonHostFacts *facts,
             const char *path,
             gsize *len)
{
  g_autofree char *at_root = g_strconcat (facts->sysroot, path, NULL);
  /* A config linked from a dotfiles tree is followed here, once; what it
   * names is then read as file-util reads a small file: a regular file,
   * not through a link put there since, never waited on. */
  g_autofree char *real = realpath (at_root, NULL);

  return real != NULL ? cordon_file_read_small_at (AT_FDCWD, real, CONFIG_MAX, len, NULL) : NULL;
}

/* user.KEY of a file's `text` (`shown` says the file to the user), into
 * *value and *from when it sets one. */
static void
take (const char *text,
      gsize len,
      const char *shown,
      const char *key,
      char **value,
      char **from)
{
  g_autofree char *found = cordon_git_config_plain_value (text, len, "user", key);

  if (found == NULL || !acceptable (found))
    return;
  g_free (*value);
  *value = g_steal_pointer (&found);
  g_free (*from);
  *from = g_strdup (shown);
}

void
cordon_git_identity_read (CordonHostFacts *facts)
{
  const char *global = cordon_host_facts_getenv (facts, "GIT_CONFIG_GLOBAL");
  const char *xdg = cordon_host_facts_getenv (facts, "XDG_CONFIG_HOME");
  g_autofree char *xdg_file = NULL;
  g_autofree char *home_file = NULL;
  const char *files[2][2] = { { NULL, NULL }, { NULL, NULL } };

  if (global != NULL && global[0] == '/')
    files[0][0] = files[0][1] = global;
  else if (global == NULL && facts->home != NULL)
    {
      xdg_file = xdg != NULL && xdg[0] == '/' ? g_build_filename (xdg, "git", "config", NULL)
                                              : g_build_filename (facts->home, ".config", "git", "config", NULL);
      home_file = g_build_filename (facts->home, ".gitconfig", NULL);
      files[0][0] = xdg_file;
      files[0][1] = xdg != NULL && xdg[0] == '/' ? "$XDG_CONFIG_HOME/git/config" : "~/.config/git/config";
      files[1][0] = home_file;
      files[1][1] = "~/.gitconfig";
    }
  /* Each file read once, for both keys. */
  for (guint i = 0; i < G_N_ELEMENTS (files) && files[i][0] != NULL; i++)
    {
      gsize len = 0;
      g_autofree char *text = read_config (facts, files[i][0], &len);

      if (text == NULL)
        continue;
      take (text, len, files[i][1], "name", &facts->git_name, &facts->git_name_from);
      take (text, len, files[i][1], "email", &facts->git_email, &facts->git_email_from);
    }
}
