/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fuzz-git-config: libFuzzer harness for the reader of the git config
 * files a sandbox wrote (git-config.c). On every input: no crash, no read
 * past the bytes given (the input is copied to a buffer of exactly its
 * size, without a NUL), and each key returned is a name of cordon's own
 * making: lowercase letters, digits, '-', '.' and the "<...>" that stands
 * for a subsection or an alias's name (or "<unreadable>"), never text of
 * the file's, each once; and core.hooksPath is a plain value or odd,
 * never both. Build and run: make fuzz [FUZZ_SECONDS=N]. */
#include "config.h"

#include <glib.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "git-config.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static gboolean
is_own_name (const char *name)
{
  if (g_str_equal (name, "<unreadable>"))
    return TRUE;
  for (const char *p = name; *p != '\0'; p++)
    {
      if (g_str_has_prefix (p, "<...>"))
        {
          p += strlen ("<...>") - 1;
          continue;
        }
      if (!(g_ascii_islower (*p) || g_ascii_isdigit (*p) || *p == '-' || *p == '.'))
        return FALSE;
    }
  return name[0] != '\0';
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t size)
{
  char *copy = malloc (size > 0 ? size : 1);
  g_autoptr(GPtrArray) keys = NULL;

  memcpy (copy, data, size);
  keys = cordon_git_config_runners (copy, size);
  for (guint i = 0; i < keys->len; i++)
    {
      const char *name = g_ptr_array_index (keys, i);

      if (!is_own_name (name))
        abort ();
      for (guint j = 0; j < i; j++)
        if (g_str_equal (name, g_ptr_array_index (keys, j)))
          abort ();
    }
  /* core.hooksPath: a value, or odd, never both; a value holds none of
   * what the reader calls odd. */
  {
    gboolean odd = FALSE;
    g_autofree char *hooks = cordon_git_config_hooks_path (copy, size, &odd);

    if ((hooks != NULL && odd) || (hooks != NULL && (hooks[0] == '\0' || strpbrk (hooks, "\"\\#;\n") != NULL)))
      abort ();
  }
  free (copy);
  return 0;
}
