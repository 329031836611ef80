/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* policy: the in-memory model of a policy after parsing and merging its
 * includes. Every value keeps the file:line:col it came from, so any later
 * stage (check, compile, explain, verify) can point the author at the line
 * that caused a decision. The set of sections and keys is one table
 * (policy-keys.h), shared by the parser (which keys exist), the checker,
 * the man page test and the "did you mean" suggestions. */
#pragma once

#include <glib.h>
#include "cordon-error.h"
#include "policy-keys.h"

G_BEGIN_DECLS

#define CORDON_KEY_ENUM(id, ...) CORDON_KEY_##id,
typedef enum
{
  CORDON_KEYS (CORDON_KEY_ENUM)
  CORDON_KEY_MAX,
  CORDON_KEY_INVALID = -1
} CordonKey;
#undef CORDON_KEY_ENUM

typedef enum
{
  CORDON_VALUE_STRING,     /* free text */
  CORDON_VALUE_BOOL,       /* true | false */
  CORDON_VALUE_ENUM,       /* one word of the key's enum table */
  CORDON_VALUE_UINT,       /* decimal, bounded */
  CORDON_VALUE_SIZE,       /* bytes: decimal, with K, M, G or T (powers of 1024), bounded */
  CORDON_VALUE_PERCENT,    /* a whole number followed by '%', bounded */
  CORDON_VALUE_POLICY_REF, /* list: policy name or path */
  CORDON_VALUE_ENV_GLOB,   /* list: variable name or glob of names */
  CORDON_VALUE_ENV_ASSIGN, /* list: NAME=VALUE (value may use ${VARS}) */
  CORDON_VALUE_PATH,       /* list: absolute path, ${VARS} allowed */
  CORDON_VALUE_PATH_GLOB,  /* list: like PATH, glob characters allowed */
  CORDON_VALUE_REL_PATH,   /* list: a path below each writable bind: relative, plain components */
  CORDON_VALUE_SOCKET,     /* list: @catalog-name or PATH_GLOB */
  CORDON_VALUE_NAMESPACE,  /* list: user ipc pid net uts cgroup */
  CORDON_VALUE_SYSCALL,    /* list: a system call name libseccomp knows */
  CORDON_VALUE_CAPABILITY, /* list: a capability name libcap knows */
  CORDON_VALUE_HOST_USER,  /* auto | root | a user name | a uid */
  CORDON_VALUE_MAX
} CordonValueType;

typedef enum { CORDON_ROOT_READ_ONLY, CORDON_ROOT_MINIMAL, CORDON_ROOT_MAX } CordonRootMode;
typedef enum { CORDON_PROC_PRIVATE, CORDON_PROC_HOST_RO, CORDON_PROC_NONE, CORDON_PROC_MAX } CordonProcMode;
typedef enum { CORDON_SECCOMP_DEFAULT, CORDON_SECCOMP_NONE, CORDON_SECCOMP_STRICT, CORDON_SECCOMP_MAX } CordonSeccompProfile;
/* [identity] host-user=: the num of its item. A user name keeps its text
 * and CORDON_HOST_USER_NAMED; a uid is its own number (never 0: that is
 * CORDON_HOST_USER_ROOT). */
#define CORDON_HOST_USER_AUTO  (-1)
#define CORDON_HOST_USER_ROOT  0
#define CORDON_HOST_USER_NAMED (-2)

/* The least [limits] memory= takes. */
#define CORDON_MEMORY_MIN (16u << 20)

typedef enum { CORDON_ENFORCE_REQUIRED, CORDON_ENFORCE_BEST_EFFORT, CORDON_ENFORCE_MAX } CordonEnforce;
typedef enum { CORDON_AUDIT_WARN, CORDON_AUDIT_FAIL, CORDON_AUDIT_QUARANTINE, CORDON_AUDIT_MAX } CordonAuditMode;
typedef enum { CORDON_FALLBACK_REFUSE, CORDON_FALLBACK_HOST_RO, CORDON_FALLBACK_NONE, CORDON_FALLBACK_MAX } CordonProcFallback;

typedef enum
{
  CORDON_NS_USER   = 1 << 0,
  CORDON_NS_IPC    = 1 << 1,
  CORDON_NS_PID    = 1 << 2,
  CORDON_NS_NET    = 1 << 3,
  CORDON_NS_UTS    = 1 << 4,
  CORDON_NS_CGROUP = 1 << 5,
} CordonNamespaces;

/* How many namespaces a policy can unshare, and all of them at once. */
#define CORDON_N_NAMESPACES 6
#define CORDON_NS_ALL ((1u << CORDON_N_NAMESPACES) - 1)

typedef struct
{
  CordonKey key;
  const char *section;
  const char *name;
  CordonValueType type;
  gboolean is_list;
  const char * const *words;  /* ENUM and NAMESPACE: the accepted words */
  gint64 default_value;       /* BOOL, ENUM (index), UINT */
  gint64 max_value;           /* UINT */
  const char *summary;        /* one line, for explain and the man test */
} CordonKeyInfo;

/* One parsed value. For lists, one item per element. `num` holds the
 * meaning of BOOL/ENUM/UINT/NAMESPACE values (a bit for NAMESPACE). */
typedef struct
{
  CordonKey key;
  char *text;
  gint64 num;
  CordonLocation loc;
  guint seq;                  /* a scalar's place in merge order (1 first), set by cordon_policy_set */
} CordonItem;

typedef struct _CordonPolicy CordonPolicy;

const CordonKeyInfo *cordon_key_info (CordonKey key);
const CordonKeyInfo *cordon_key_lookup (const char *section,
                                        const char *name);
gboolean cordon_section_is_known (const char *section);
const char * const *cordon_policy_sections (void);

CordonPolicy *cordon_policy_new (const char *name);
void cordon_policy_free (CordonPolicy *policy);
const char *cordon_policy_get_name (const CordonPolicy *policy);

/* Sources: every file merged into the policy, in merge order, with its
 * text, so a report can hash exactly what was resolved. */
void cordon_policy_add_source (CordonPolicy *policy,
                               const char *file,
                               const char *text);
guint cordon_policy_n_sources (const CordonPolicy *policy);
const char *cordon_policy_source_file (const CordonPolicy *policy,
                                       guint i);
const char *cordon_policy_source_text (const CordonPolicy *policy,
                                       guint i);

/* Scalars: the last value set wins (an including file overrides what it
 * includes). Lists: values accumulate in merge order. */
void cordon_policy_set (CordonPolicy *policy,
                        CordonItem *item);
void cordon_policy_append (CordonPolicy *policy,
                           CordonItem *item);
const CordonItem *cordon_policy_get (const CordonPolicy *policy,
                                     CordonKey key);
gint64 cordon_policy_get_num (const CordonPolicy *policy,
                              CordonKey key);
GPtrArray *cordon_policy_get_list (const CordonPolicy *policy,
                                   CordonKey key);
/* The scalar `key`, or item `i` of list `key`, taken out of `policy`
 * (NULL is left in the list, which only freeing it then skips): a
 * merge moves a fragment's items rather than copying them. */
CordonItem *cordon_policy_take (CordonPolicy *policy,
                                CordonKey key);
CordonItem *cordon_policy_take_list_item (CordonPolicy *policy,
                                          CordonKey key,
                                          guint i);
guint cordon_policy_get_namespaces (const CordonPolicy *policy);
/* [filesystem] protect= items no unprotect= names (a trailing '/' on
 * either side ignored), in merge order, borrowed; and an entry's path
 * without that '/', which marks a directory. */
GPtrArray *cordon_policy_get_protected (const CordonPolicy *policy);
char *cordon_protect_entry_path (const CordonItem *item);

CordonItem *cordon_item_new (CordonKey key,
                             const char *text,
                             gint64 num,
                             const CordonLocation *loc);
void cordon_item_free (CordonItem *item);
char *cordon_item_describe (const CordonItem *item);

const char *cordon_namespace_name (CordonNamespaces ns);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CordonPolicy, cordon_policy_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CordonItem, cordon_item_free)

G_END_DECLS
