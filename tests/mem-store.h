/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* mem-store: policies held in memory, by name, for cordon_policy_load in
 * the unit tests (no test reads the host's policy directories). Each
 * policy NAME is loaded as the file "mem/NAME.policy"; every lookup is
 * logged in `calls` as "REF<FROM" (FROM "(top)" for the first). */
#pragma once

#include <glib.h>

#include "policy-parse.h"

G_BEGIN_DECLS

typedef struct
{
  GHashTable *texts;   /* name -> policy text */
  GPtrArray *calls;    /* "REF<FROM", in lookup order */
} MemStore;

MemStore *store_new (void);
void store_free (MemStore *store);
void store_add (MemStore *store,
                const char *name,
                const char *text);
gboolean mem_resolve (gpointer user_data,
                      const char *ref,
                      const char *from_file,
                      char **out_file,
                      char **out_text,
                      GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MemStore, store_free)

G_END_DECLS
