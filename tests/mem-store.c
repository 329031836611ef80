/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* mem-store: see mem-store.h. */
#include "config.h"

#include "cordon-error.h"
#include "mem-store.h"

MemStore *
store_new (void)
{
  MemStore *store = g_new0 (MemStore, 1);

  store->texts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  store->calls = g_ptr_array_new_with_free_func (g_free);
  return store;
}

void
store_free (MemStore *store)
{
  g_hash_table_unref (store->texts);
  g_ptr_array_unref (store->calls);
  g_free (store);
}

void
store_add (MemStore *store,
           const char *name,
           const char *text)
{
  g_hash_table_insert (store->texts, g_strdup (name), g_strdup (text));
}

gboolean
mem_resolve (gpointer user_data,
             const char *ref,
             const char *from_file,
             char **out_file,
             char **out_text,
             GError **error)
{
  MemStore *store = user_data;
  const char *text = g_hash_table_lookup (store->texts, ref);

  g_ptr_array_add (store->calls, g_strdup_printf ("%s<%s", ref, from_file ? from_file : "(top)"));
  if (text == NULL)
    {
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_NOT_FOUND, "no policy named '%s'", ref);
      return FALSE;
    }
  *out_file = g_strdup_printf ("mem/%s.policy", ref);
  *out_text = g_strdup (text);
  return TRUE;
}
