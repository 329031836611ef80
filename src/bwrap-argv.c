/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bwrap-argv: the argument vector handed to bwrap, each argument tagged
 * with the plan op it came from so explain can put the policy line beside
 * it. */
#include "config.h"

#include <string.h>

#include "bwrap-argv.h"

CordonBwrapArgv *
cordon_bwrap_argv_new (void)
{
  CordonBwrapArgv *argv = g_new0 (CordonBwrapArgv, 1);

  argv->args = g_ptr_array_new_with_free_func (g_free);
  argv->origins = g_array_new (FALSE, FALSE, sizeof (gint));
  return argv;
}

void
cordon_bwrap_argv_free (CordonBwrapArgv *argv)
{
  if (argv == NULL)
    return;
  g_ptr_array_unref (argv->args);
  g_array_unref (argv->origins);
  g_free (argv);
}

void
cordon_bwrap_argv_take (CordonBwrapArgv *argv,
                        gint origin,
                        char *arg)
{
  g_ptr_array_add (argv->args, arg);
  g_array_append_val (argv->origins, origin);
}

void
cordon_bwrap_argv_add (CordonBwrapArgv *argv,
                       gint origin,
                       const char *arg)
{
  cordon_bwrap_argv_take (argv, origin, g_strdup (arg));
}

void
cordon_bwrap_argv_add_many (CordonBwrapArgv *argv,
                            gint origin,
                            ...)
{
  va_list ap;
  const char *arg;

  va_start (ap, origin);
  while ((arg = va_arg (ap, const char *)) != NULL)
    cordon_bwrap_argv_add (argv, origin, arg);
  va_end (ap);
}

guint
cordon_bwrap_argv_len (const CordonBwrapArgv *argv)
{
  return argv->args->len;
}

const char *
cordon_bwrap_argv_get (const CordonBwrapArgv *argv,
                       guint i)
{
  g_return_val_if_fail (i < argv->args->len, NULL);
  return g_ptr_array_index (argv->args, i);
}

gint
cordon_bwrap_argv_origin (const CordonBwrapArgv *argv,
                          guint i)
{
  g_return_val_if_fail (i < argv->origins->len, -1);
  return g_array_index (argv->origins, gint, i);
}

/* Each argument NUL-terminated: the format bwrap's --args FD reads. */
GBytes *
cordon_bwrap_argv_to_nul (const CordonBwrapArgv *argv)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();

  for (guint i = 0; i < argv->args->len; i++)
    {
      const char *arg = g_ptr_array_index (argv->args, i);

      g_byte_array_append (out, (const guint8 *) arg, (guint) strlen (arg) + 1);
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}
