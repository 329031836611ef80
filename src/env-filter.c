/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* env-filter: environment names, patterns and the never-pass set. */
#include "config.h"

#include <string.h>

#include "env-filter.h"
#include "path-util.h"

/* Each of these makes a program load or run code named by the variable,
 * or hands over a credential channel, before the command's own code runs:
 * passing one lets whoever set it run code inside, or lets the sandboxed
 * code learn how the caller reaches its authority. */
static const char * const never_pass[] = {
  "LD_*",              /* dynamic loader: LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT */
  "BASH_ENV",          /* sourced by every non-interactive bash */
  "ENV",               /* sourced by interactive sh */
  "BASH_FUNC_*",       /* exported bash functions */
  "SHELLOPTS",
  "PS4",               /* expanded (code runs) under xtrace */
  "PROMPT_COMMAND",
  "NODE_OPTIONS",      /* --require of arbitrary modules */
  "PYTHONSTARTUP",
  "PYTHONPATH",
  "PYTHONHOME",
  "PYTHONINSPECT",
  "PERL5OPT",
  "PERL5LIB",
  "PERLLIB",
  "RUBYOPT",
  "RUBYLIB",
  "JAVA_TOOL_OPTIONS",
  "_JAVA_OPTIONS",
  "GCONV_PATH",        /* glibc loads iconv modules from here */
  "GIT_SSH",
  "GIT_SSH_COMMAND",
  "GIT_EXEC_PATH",
  "GIT_CONFIG",        /* a config file of the caller's choosing */
  "GIT_CONFIG_*",      /* injects config such as core.sshCommand */
  "GIT_PROXY_COMMAND",
  "GIT_EXTERNAL_DIFF",
  "GIT_ASKPASS",
  "SSH_ASKPASS",
  "MALLOC_CHECK_",
  "GLIBC_TUNABLES",    /* CVE-2023-4911 */
  "HOSTALIASES",
  "RESOLV_HOST_CONF",
  "LOCALDOMAIN",
  "NLSPATH",
  "TMPPREFIX",
  "IFS",
  "CDPATH",
  NULL
};

const char * const *
cordon_env_never_pass_list (void)
{
  return never_pass;
}

gboolean
cordon_env_name_is_valid (const char *name)
{
  if (!(g_ascii_isalpha (name[0]) || name[0] == '_'))
    return FALSE;
  for (const char *p = name; *p != '\0'; p++)
    if (!(g_ascii_isalnum (*p) || *p == '_'))
      return FALSE;
  return TRUE;
}

gboolean
cordon_env_pattern_is_valid (const char *pattern)
{
  if (pattern[0] == '\0')
    return FALSE;
  for (const char *p = pattern; *p != '\0'; p++)
    if (!(g_ascii_isalnum (*p) || *p == '_' || *p == '*' || *p == '?'))
      return FALSE;
  return TRUE;
}

gboolean
cordon_env_is_never_pass (const char *name)
{
  for (guint i = 0; never_pass[i] != NULL; i++)
    {
      const char *pattern = never_pass[i];

      /* Compile asks this of every variable of the caller's: most differ
       * from an entry that starts with a literal at its first byte. */
      if (pattern[0] != name[0] && pattern[0] != '*' && pattern[0] != '?' && pattern[0] != '['
          && pattern[0] != '\\')
        continue;
      if (cordon_glob_match (pattern, name))
        return TRUE;
    }
  return FALSE;
}

/* Literal text before the first wildcard. */
static gsize
literal_prefix_len (const char *pattern)
{
  return strcspn (pattern, "*?");
}

/* Whether two patterns of names could match a common name. Exact for
 * literals; for two globs, conservative: their literal prefixes must be
 * compatible (one a prefix of the other). */
static gboolean
patterns_overlap (const char *a,
                  const char *b)
{
  gsize la = literal_prefix_len (a);
  gsize lb = literal_prefix_len (b);

  if (a[la] == '\0')
    return cordon_glob_match (b, a);
  if (b[lb] == '\0')
    return cordon_glob_match (a, b);
  return strncmp (a, b, MIN (la, lb)) == 0;
}

/* The never-pass entry that `pattern` (an allow= value) could let
 * through, or NULL. */
const char *
cordon_env_never_pass_overlap (const char *pattern)
{
  for (guint i = 0; never_pass[i] != NULL; i++)
    if (patterns_overlap (pattern, never_pass[i]))
      return never_pass[i];
  return NULL;
}
