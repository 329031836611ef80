/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* policy-vars: ${NAME} references in policy values. "$$" stands for a
 * literal "$"; any other "$" must start a known ${NAME}, so that a typo
 * such as ${HOEM} is an error at its column instead of a literal path. */
#include "config.h"

#include <string.h>

#include "policy-vars.h"

static const char * const var_names[CORDON_VAR_MAX] = {
  [CORDON_VAR_HOME] = "HOME",
  [CORDON_VAR_UID] = "UID",
  [CORDON_VAR_XDG_RUNTIME_DIR] = "XDG_RUNTIME_DIR",
  [CORDON_VAR_WORKDIR] = "WORKDIR",
  [CORDON_VAR_TMPDIR] = "TMPDIR",
};

const char *
cordon_var_name (CordonVar var)
{
  g_return_val_if_fail (var < CORDON_VAR_MAX, NULL);
  return var_names[var];
}

static int
lookup_var (const char *name,
            gsize len)
{
  for (int i = 0; i < CORDON_VAR_MAX; i++)
    if (strlen (var_names[i]) == len && strncmp (var_names[i], name, len) == 0)
      return i;
  return -1;
}

/* Parses the reference at text[*i] (a '$'). Returns the variable, -2 for
 * "$$", or -1 with *out_message set. Advances *i past the reference. */
static int
scan_ref (const char *text,
          gsize *i,
          char **out_message)
{
  const char *start = text + *i;
  const char *close;
  int var;

  if (start[1] == '$')
    {
      *i += 2;
      return -2;
    }
  if (start[1] != '{')
    {
      *out_message = g_strdup ("'$' must start a ${VARIABLE}; write '$$' for a literal '$'");
      return -1;
    }
  close = strchr (start + 2, '}');
  if (close == NULL)
    {
      *out_message = g_strdup ("unterminated '${'");
      return -1;
    }
  var = lookup_var (start + 2, (gsize) (close - start - 2));
  if (var < 0)
    {
      g_autofree char *name = g_strndup (start, (gsize) (close - start + 1));

      *out_message = g_strdup_printf ("unknown variable '%s'; known are ${HOME}, ${UID}, "
                                      "${XDG_RUNTIME_DIR}, ${WORKDIR} and ${TMPDIR}",
                                      name);
      return -1;
    }
  *i += (gsize) (close - start + 1);
  return var;
}

gboolean
cordon_vars_validate (const char *text,
                      gsize *out_offset,
                      char **out_message)
{
  gsize i = 0;

  while (text[i] != '\0')
    {
      gsize at = i;
      char *message = NULL;

      if (text[i] != '$')
        {
          i++;
          continue;
        }
      if (scan_ref (text, &i, &message) == -1)
        {
          if (out_offset != NULL)
            *out_offset = at;
          if (out_message != NULL)
            *out_message = message;
          else
            g_free (message);
          return FALSE;
        }
    }
  return TRUE;
}

/* Every variable but ${UID} holds an absolute path, so a value that
 * starts with one of them is absolute. */
gboolean
cordon_vars_starts_with_var (const char *text)
{
  gsize i = 0;
  char *message = NULL;
  int var;

  if (text[0] != '$')
    return FALSE;
  var = scan_ref (text, &i, &message);
  g_free (message);
  return var >= 0 && var != CORDON_VAR_UID;
}

char *
cordon_vars_expand (const char *text,
                    const CordonVars *vars,
                    const char **out_missing)
{
  g_autoptr(GString) out = NULL;
  gsize i = 0;

  /* Check, scan and compile expand every path of the policy, most of
   * them without a variable. */
  if (strchr (text, '$') == NULL)
    return g_strdup (text);
  out = g_string_sized_new (strlen (text) + 64);
  while (text[i] != '\0')
    {
      gsize run = strcspn (text + i, "$");
      char *message = NULL;
      int var;

      if (run > 0)
        {
          g_string_append_len (out, text + i, (gssize) run);
          i += run;
          continue;
        }
      var = scan_ref (text, &i, &message);
      g_free (message);
      if (var == -2)
        g_string_append_c (out, '$');
      else if (var < 0 || vars->values[var] == NULL)
        {
          if (out_missing != NULL)
            *out_missing = var < 0 ? "?" : var_names[var];
          return NULL;
        }
      else
        g_string_append (out, vars->values[var]);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}
