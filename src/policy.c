/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* policy: the key table and the merged policy model. The table is the one
 * place that says which sections and keys exist, their value types and
 * defaults; parse, check and compile read it, and tests/man.test holds
 * cordon.policy(5) to it. */
#include "config.h"

#include "policy.h"

const char * const cordon_policy_sections[] = {
  "policy", "environment", "filesystem", "sockets", "secrets",
  "namespaces", "proc", "limits", "seccomp", "capabilities", "identity", NULL
};

static const char * const root_words[] = { "read-only", "minimal", NULL };
static const char * const proc_words[] = { "private", "host-ro", "none", NULL };
static const char * const fallback_words[] = { "refuse", "host-ro", "none", NULL };
static const char * const seccomp_words[] = { "default", "none", "strict", NULL };
/* Index i is the namespace bit 1 << i. */
static const char * const namespace_words[] = {
  "user", "ipc", "pid", "net", "uts", "cgroup", NULL
};

#define SCALAR(k, s, n, t, w, d, m, sum) \
  [k] = { k, s, n, t, FALSE, w, d, m, sum }
#define LIST(k, s, n, t, w, sum) \
  [k] = { k, s, n, t, TRUE, w, 0, 0, sum }

static const CordonKeyInfo key_table[CORDON_KEY_MAX] = {
  SCALAR (CORDON_KEY_POLICY_DESCRIPTION, "policy", "description",
          CORDON_VALUE_STRING, NULL, 0, 0, "what the policy is for"),
  LIST (CORDON_KEY_POLICY_INCLUDE, "policy", "include",
        CORDON_VALUE_POLICY_REF, NULL, "policies merged before this one"),
  LIST (CORDON_KEY_ENV_ALLOW, "environment", "allow",
        CORDON_VALUE_ENV_GLOB, NULL, "variables passed from the caller"),
  LIST (CORDON_KEY_ENV_SET, "environment", "set",
        CORDON_VALUE_ENV_ASSIGN, NULL, "variables set by the policy"),
  SCALAR (CORDON_KEY_FS_ROOT, "filesystem", "root",
          CORDON_VALUE_ENUM, root_words, CORDON_ROOT_READ_ONLY, 0,
          "what of the host / the sandbox sees"),
  LIST (CORDON_KEY_FS_WRITABLE, "filesystem", "writable",
        CORDON_VALUE_PATH, NULL, "host paths bound writable"),
  LIST (CORDON_KEY_FS_WRITABLE_TRY, "filesystem", "writable-try",
        CORDON_VALUE_PATH, NULL, "like writable, skipped where absent"),
  LIST (CORDON_KEY_FS_READ_ONLY, "filesystem", "read-only",
        CORDON_VALUE_PATH, NULL, "host paths bound read-only"),
  LIST (CORDON_KEY_FS_READ_ONLY_TRY, "filesystem", "read-only-try",
        CORDON_VALUE_PATH, NULL, "like read-only, skipped where absent"),
  LIST (CORDON_KEY_FS_TMPFS, "filesystem", "tmpfs",
        CORDON_VALUE_PATH, NULL, "empty scratch tmpfs mounts"),
  LIST (CORDON_KEY_SOCKETS_MASK, "sockets", "mask",
        CORDON_VALUE_SOCKET, NULL, "host sockets made unreachable"),
  SCALAR (CORDON_KEY_SOCKETS_MASK_LISTENING, "sockets", "mask-listening",
          CORDON_VALUE_BOOL, NULL, FALSE, 0,
          "also mask every listening pathname socket"),
  LIST (CORDON_KEY_SOCKETS_ALLOW, "sockets", "allow",
        CORDON_VALUE_SOCKET, NULL, "exceptions to the socket masks"),
  LIST (CORDON_KEY_SECRETS_MASK, "secrets", "mask",
        CORDON_VALUE_PATH_GLOB, NULL, "files and directories hidden"),
  LIST (CORDON_KEY_NS_UNSHARE, "namespaces", "unshare",
        CORDON_VALUE_NAMESPACE, namespace_words, "namespaces made new"),
  LIST (CORDON_KEY_NS_SHARE, "namespaces", "share",
        CORDON_VALUE_NAMESPACE, namespace_words,
        "namespaces kept shared even where an included policy unshares them"),
  SCALAR (CORDON_KEY_NS_NEW_SESSION, "namespaces", "new-session",
          CORDON_VALUE_BOOL, NULL, TRUE, 0,
          "detach from the caller's terminal session"),
  SCALAR (CORDON_KEY_NS_DIE_WITH_PARENT, "namespaces", "die-with-parent",
          CORDON_VALUE_BOOL, NULL, TRUE, 0,
          "kill the sandbox when cordon dies"),
  SCALAR (CORDON_KEY_PROC_MODE, "proc", "mode",
          CORDON_VALUE_ENUM, proc_words, CORDON_PROC_PRIVATE, 0,
          "which /proc the sandbox sees"),
  SCALAR (CORDON_KEY_PROC_FALLBACK, "proc", "fallback",
          CORDON_VALUE_ENUM, fallback_words, CORDON_FALLBACK_REFUSE, 0,
          "what to do when a private /proc cannot be mounted"),
  SCALAR (CORDON_KEY_LIMITS_TIMEOUT, "limits", "timeout",
          CORDON_VALUE_UINT, NULL, 0, 7 * 24 * 3600,
          "seconds before the sandbox is killed; 0 for none"),
  SCALAR (CORDON_KEY_SECCOMP_PROFILE, "seccomp", "profile",
          CORDON_VALUE_ENUM, seccomp_words, CORDON_SECCOMP_DEFAULT, 0,
          "the system-call filter of the sandbox"),
  LIST (CORDON_KEY_SECCOMP_ALLOW, "seccomp", "allow",
        CORDON_VALUE_SYSCALL, NULL, "system calls taken out of the profile"),
  LIST (CORDON_KEY_SECCOMP_DENY, "seccomp", "deny",
        CORDON_VALUE_SYSCALL, NULL, "system calls refused beyond the profile (EPERM)"),
  LIST (CORDON_KEY_CAPS_KEEP, "capabilities", "keep",
        CORDON_VALUE_CAPABILITY, NULL, "capabilities the sandbox keeps"),
  SCALAR (CORDON_KEY_IDENTITY_HOST_USER, "identity", "host-user",
          CORDON_VALUE_HOST_USER, NULL, CORDON_HOST_USER_AUTO, 0,
          "the host user a root caller's sandbox runs as"),
};

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

gboolean
cordon_section_is_known (const char *section)
{
  return g_strv_contains (cordon_policy_sections, section);
}

const char *
cordon_namespace_name (CordonNamespaces ns)
{
  for (guint i = 0; namespace_words[i] != NULL; i++)
    if ((guint) ns == 1u << i)
      return namespace_words[i];
  return NULL;
}

struct _CordonPolicy
{
  char *name;
  GPtrArray *source_files;          /* interned names: not owned */
  GPtrArray *source_texts;          /* char*, owned */
  CordonItem *scalars[CORDON_KEY_MAX];
  GPtrArray *lists[CORDON_KEY_MAX];
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
