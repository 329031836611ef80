/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* git-identity: see git-identity.h. Each file is read whole, up to a
 * size no config of a person's reaches; one that is larger, absent or
 * unreadable counts as setting nothing. */
#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include "git-config.h"
#include "git-identity.h"

#define CONFIG_MAX (1 << 20)

static gboolean
acceptable (const char *value)
{
  if (strlen (value) > CORDON_GIT_IDENTITY_MAX || !g_utf8_validate (value, -1, NULL))
    return FALSE;
  for (const char *p = value; *p != '\0'; p++)
    if (g_ascii_iscntrl (*p))
      return FALSE;
  return TRUE;
}

/* user.KEY of the file at `path` (its host path: `shown` said to the
 * user), into *value and *from when it sets one. */
static void
take (const CordonHostFacts *facts,
      const char *path,
      const char *shown,
      const char *key,
      char **value,
      char **from)
{
  g_autofree char *real = g_strconcat (facts->sysroot, path, NULL);
  g_autofree char *text = NULL;
  g_autofree char *found = NULL;
  gsize len = 0;
  struct stat st;

  if (stat (real, &st) != 0 || !S_ISREG (st.st_mode) || st.st_size > CONFIG_MAX
      || !g_file_get_contents (real, &text, &len, NULL) || len > CONFIG_MAX)
    return;
  found = cordon_git_config_plain_value (text, len, "user", key);
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
  for (guint i = 0; i < G_N_ELEMENTS (files) && files[i][0] != NULL; i++)
    {
      take (facts, files[i][0], files[i][1], "name", &facts->git_name, &facts->git_name_from);
      take (facts, files[i][0], files[i][1], "email", &facts->git_email, &facts->git_email_from);
    }
}
