/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* policy: the key table (made from policy-keys.h, the one place that
 * says which sections and keys exist, their value types and defaults;
 * parse, check and compile read it, and tests/man.test holds
 * cordon.policy(5) to it) and the merged policy model. */
#include "config.h"

#include <string.h>

#include "policy.h"

#define KEY_INFO(id, section, name, is_list, type, words, def, max, summary) \
  [CORDON_KEY_##id] = { CORDON_KEY_##id, section, name, CORDON_VALUE_##type, is_list, words, def, max, summary },

static const CordonKeyInfo key_table[CORDON_KEY_MAX] = {
  CORDON_KEYS (KEY_INFO)
};

#undef KEY_INFO

const CordonKeyInfo *
cordon_key_info (CordonKey key)
{
  g_return_val_if_fail (key >= 0 && key < CORDON_KEY_MAX, NULL);
  return &key_table[key];
}

const CordonKeyInfo *
cordon_key_lookup (const char *section,
                   const char *name)
{
  for (guint i = 0; i < CORDON_KEY_MAX; i++)
    if (g_str_equal (key_table[i].section, section)
        && g_str_equal (key_table[i].name, name))
      return &key_table[i];
  return NULL;
}

/* The sections, in the table's order, NULL-terminated. */
const char * const *
cordon_policy_sections (void)
{
  static const char *sections[CORDON_KEY_MAX + 1];
  static gsize made = 0;

  if (g_once_init_enter (&made))
    {
      guint n = 0;

      for (guint i = 0; i < CORDON_KEY_MAX; i++)
        if (!g_strv_contains ((const char * const *) sections, key_table[i].section))
          sections[n++] = key_table[i].section;
      g_once_init_leave (&made, 1);
    }
  return sections;
}

gboolean
cordon_section_is_known (const char *section)
{
  for (guint i = 0; i < CORDON_KEY_MAX; i++)
    if (g_str_equal (key_table[i].section, section))
      return TRUE;
  return FALSE;
}

const char *
cordon_namespace_name (CordonNamespaces ns)
{
  const char * const *words = key_table[CORDON_KEY_NS_UNSHARE].words;

  for (guint i = 0; words[i] != NULL; i++)
    if ((guint) ns == 1u << i)
      return words[i];
  return NULL;
}

struct _CordonPolicy
{
  char *name;
  GPtrArray *source_files;          /* interned names: not owned */
  GPtrArray *source_texts;          /* char*, owned */
  CordonItem *scalars[CORDON_KEY_MAX];
  GPtrArray *lists[CORDON_KEY_MAX];
  guint n_set;                      /* scalars set so far, for CordonItem.seq */
};

CordonItem *
cordon_item_new (CordonKey key,
                 const char *text,
                 gint64 num,
                 const CordonLocation *loc)
{
  CordonItem *item = g_new0 (CordonItem, 1);

  item->key = key;
  item->text = g_strdup (text);
  item->num = num;
  if (loc != NULL)
    item->loc = *loc;
  return item;
}

void
cordon_item_free (CordonItem *item)
{
  if (item == NULL)
    return;
  g_free (item->text);
  g_free (item);
}

/* "[filesystem] writable=${WORKDIR}", as explain shows a rule. */
char *
cordon_item_describe (const CordonItem *item)
{
  const CordonKeyInfo *info = cordon_key_info (item->key);

  return g_strdup_printf ("[%s] %s=%s", info->section, info->name, item->text);
}

CordonPolicy *
cordon_policy_new (const char *name)
{
  CordonPolicy *policy = g_new0 (CordonPolicy, 1);

  policy->name = g_strdup (name);
  policy->source_files = g_ptr_array_new ();
  policy->source_texts = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < CORDON_KEY_MAX; i++)
    if (key_table[i].is_list)
      policy->lists[i] = g_ptr_array_new_with_free_func ((GDestroyNotify) cordon_item_free);
  return policy;
}

void
cordon_policy_free (CordonPolicy *policy)
{
  if (policy == NULL)
    return;
  for (guint i = 0; i < CORDON_KEY_MAX; i++)
    {
      cordon_item_free (policy->scalars[i]);
      if (policy->lists[i] != NULL)
        g_ptr_array_unref (policy->lists[i]);
    }
  g_ptr_array_unref (policy->source_files);
  g_ptr_array_unref (policy->source_texts);
  g_free (policy->name);
  g_free (policy);
}

const char *
cordon_policy_get_name (const CordonPolicy *policy)
{
  return policy->name;
}

void
cordon_policy_add_source (CordonPolicy *policy,
                          const char *file,
                          const char *text)
{
  g_ptr_array_add (policy->source_files, (gpointer) g_intern_string (file));
  g_ptr_array_add (policy->source_texts, g_strdup (text));
}

guint
cordon_policy_n_sources (const CordonPolicy *policy)
{
  return policy->source_files->len;
}

const char *
cordon_policy_source_file (const CordonPolicy *policy,
                           guint i)
{
  return g_ptr_array_index (policy->source_files, i);
}

const char *
cordon_policy_source_text (const CordonPolicy *policy,
                           guint i)
{
  return g_ptr_array_index (policy->source_texts, i);
}

void
cordon_policy_set (CordonPolicy *policy,
                   CordonItem *item)
{
  g_return_if_fail (!key_table[item->key].is_list);
  cordon_item_free (policy->scalars[item->key]);
  item->seq = ++policy->n_set;
  policy->scalars[item->key] = item;
}

void
cordon_policy_append (CordonPolicy *policy,
                      CordonItem *item)
{
  g_return_if_fail (key_table[item->key].is_list);
  g_ptr_array_add (policy->lists[item->key], item);
}

const CordonItem *
cordon_policy_get (const CordonPolicy *policy,
                   CordonKey key)
{
  return policy->scalars[key];
}

gint64
cordon_policy_get_num (const CordonPolicy *policy,
                       CordonKey key)
{
  if (policy->scalars[key] != NULL)
    return policy->scalars[key]->num;
  return key_table[key].default_value;
}

GPtrArray *
cordon_policy_get_list (const CordonPolicy *policy,
                        CordonKey key)
{
  g_return_val_if_fail (key_table[key].is_list, NULL);
  return policy->lists[key];
}

CordonItem *
cordon_policy_take (CordonPolicy *policy,
                    CordonKey key)
{
  g_return_val_if_fail (!key_table[key].is_list, NULL);
  return g_steal_pointer (&policy->scalars[key]);
}

CordonItem *
cordon_policy_take_list_item (CordonPolicy *policy,
                              CordonKey key,
                              guint i)
{
  g_return_val_if_fail (key_table[key].is_list && i < policy->lists[key]->len, NULL);
  return g_steal_pointer (&policy->lists[key]->pdata[i]);
}

static guint
namespace_bits (const CordonPolicy *policy,
                CordonKey key)
{
  GPtrArray *list = policy->lists[key];
  guint ns = 0;

  for (guint i = 0; i < list->len; i++)
    ns |= (guint) ((CordonItem *) g_ptr_array_index (list, i))->num;
  return ns;
}

/* The namespaces made new: those unshared, less those a later rule (or
 * --share-net) keeps shared, since lists only accumulate across includes. */
guint
cordon_policy_get_namespaces (const CordonPolicy *policy)
{
  return namespace_bits (policy, CORDON_KEY_NS_UNSHARE) & ~namespace_bits (policy, CORDON_KEY_NS_SHARE);
}

char *
cordon_protect_entry_path (const CordonItem *item)
{
  gsize len = strlen (item->text);

  return g_strndup (item->text, len > 1 && item->text[len - 1] == '/' ? len - 1 : len);
}

/* Whether two protect= or unprotect= entries name one path (a trailing
 * '/' aside, as cordon_protect_entry_path drops it), without copying
 * them: check and compile ask it of every pair. */
static gboolean
same_entry (const CordonItem *a,
            const CordonItem *b)
{
  gsize la = strlen (a->text), lb = strlen (b->text);

  if (la > 1 && a->text[la - 1] == '/')
    la--;
  if (lb > 1 && b->text[lb - 1] == '/')
    lb--;
  return la == lb && memcmp (a->text, b->text, la) == 0;
}

GPtrArray *
cordon_policy_get_protected (const CordonPolicy *policy)
{
  GPtrArray *protect = cordon_policy_get_list (policy, CORDON_KEY_FS_PROTECT);
  GPtrArray *unprotect = cordon_policy_get_list (policy, CORDON_KEY_FS_UNPROTECT);
  GPtrArray *kept = g_ptr_array_new ();

  for (guint i = 0; i < protect->len; i++)
    {
      const CordonItem *item = g_ptr_array_index (protect, i);
      gboolean lifted = FALSE;

      for (guint j = 0; j < unprotect->len && !lifted; j++)
        lifted = same_entry (item, g_ptr_array_index (unprotect, j));
      for (guint j = 0; j < kept->len && !lifted; j++)
        lifted = same_entry (item, g_ptr_array_index (kept, j));
      if (!lifted)
        g_ptr_array_add (kept, (gpointer) item);
    }
  return kept;
}
