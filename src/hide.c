/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* hide: see hide.h. The tmpfs is sorted with the step's other mounts, a
 * parent before its children, so bwrap makes each mount point below it
 * while it is still writable; the read-only remount comes after every
 * mount (it is not recursive: a writable workdir below stays writable).
 * A hidden directory under the minimal root, or under a tmpfs or another
 * hidden one, needs nothing. */
#include "config.h"

#include <string.h>

#include "cordon-error.h"
#include "hide.h"
#include "path-util.h"

typedef struct
{
  CordonPlan *plan;
  const CordonHostFacts *facts;
  GPtrArray *mounts;
} Hider;

/* The deepest mount at or above `path`, of the plan's and the step's. */
static const CordonOp *
cover (const Hider *h,
       const char *path)
{
  const CordonOp *best = cordon_plan_cover (h->plan, path, NULL);

  for (guint i = 0; i < h->mounts->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (h->mounts, i);

      if (cordon_path_is_ancestor (op->dest, path, TRUE)
          && (best == NULL || cordon_path_depth (op->dest) >= cordon_path_depth (best->dest)))
        best = op;
    }
  return best;
}

static const char *
skip_reason (const Hider *h,
             const char *path,
             char **owned)
{
  const CordonPathInfo *info = cordon_host_facts_lookup (h->facts, path);
  const CordonOp *c;

  if (info->kind == CORDON_PATH_ABSENT)
    return "absent on this host: nothing to hide";
  if (info->kind == CORDON_PATH_SYMLINK)
    return "a symbolic link on this host, to no directory: nothing to hide";
  if (info->kind != CORDON_PATH_DIR)
    return "not a directory: [secrets] mask= hides a file";
  if ((c = cover (h, path)) == NULL)
    return "not in the sandbox's root: nothing to hide";
  if (g_str_equal (c->dest, path))
    {
      g_autofree char *rule = c->rule.file != NULL ? cordon_location_to_string (&c->rule) : NULL;

      if (c->kind == CORDON_OP_HIDE_DIR || c->kind == CORDON_OP_TMPFS || c->kind == CORDON_OP_MASK_DIR)
        return *owned = g_strdup_printf ("hidden already: the %s of %s", c->kind == CORDON_OP_TMPFS
                                         ? "tmpfs" : "empty directory", rule != NULL ? rule : "cordon");
      return *owned = g_strdup_printf ("shown: %s binds it", rule != NULL ? rule : "cordon");
    }
  if (c->kind == CORDON_OP_TMPFS || c->kind == CORDON_OP_HIDE_DIR || c->kind == CORDON_OP_MASK_DIR)
    return *owned = g_strdup_printf ("already hidden by the %s at %s", c->kind == CORDON_OP_TMPFS
                                     ? "tmpfs" : "empty directory", c->dest);
  return NULL;
}

static gboolean hide_one (Hider *h, const CordonItem *item, const char *path, const char *why,
                          GError **error);

/* The host may show a hidden directory elsewhere too (a bind mount of
 * it, or of a part, such as a runner's volume of the jobs): hidden there
 * as well, or the other jobs would be in view at the other path. */
static void
hide_aliases (Hider *h,
              const CordonItem *item,
              const char *path,
              GError **error)
{
  const CordonPathInfo *info = cordon_host_facts_lookup (h->facts, path);

  for (guint i = 0; info->aliases != NULL && i < info->aliases->len; i++)
    {
      const char *alias = g_ptr_array_index (info->aliases, i);
      g_autofree char *why = g_strdup_printf ("hidden: %s, mounted here too", path);

      if (cordon_host_facts_lookup (h->facts, alias) != NULL)
        hide_one (h, item, alias, why, error);
      if (error != NULL && *error != NULL)
        return;
    }
}

/* The hiding tmpfs at `path`, or a skip; TRUE when it is added. */
static gboolean
hide_one (Hider *h,
          const CordonItem *item,
          const char *path,
          const char *why,
          GError **error)
{
  g_autofree char *owned = NULL;
  const char *reason;

  if (cordon_host_facts_lookup (h->facts, path) == NULL)
    {
      /* A programming error, but a fail-closed one: never guess. */
      cordon_error_set_at (error, item != NULL ? &item->loc : NULL, CORDON_ERROR_HOST,
                           "no host facts for '%s'", path);
      return FALSE;
    }
  if ((reason = skip_reason (h, path, &owned)) != NULL)
    {
      cordon_plan_add_skip (h->plan, item, path, reason);
      return FALSE;
    }
  g_ptr_array_add (h->mounts, cordon_op_new (CORDON_OP_HIDE_DIR, NULL, path, item, why));
  hide_aliases (h, item, path, error);
  return error == NULL || *error == NULL;
}

/* A symbolic link to a directory (/home on an image-based host, a link
 * to /var/home) is hidden where it leads: there the sandbox sees it. */
static const char *
real_dir (const Hider *h,
          const char *path)
{
  const CordonPathInfo *info = cordon_host_facts_lookup (h->facts, path);
  const CordonPathInfo *target = info != NULL && info->canonical != NULL
                                 ? cordon_host_facts_lookup (h->facts, info->canonical) : NULL;

  return info != NULL && info->kind == CORDON_PATH_SYMLINK && target != NULL && target->kind == CORDON_PATH_DIR
         ? info->canonical : path;
}

static gboolean
hide_listed (Hider *h,
             const CordonPolicy *policy,
             const CordonVars *vars,
             GError **error)
{
  GPtrArray *list = cordon_policy_get_list (policy, CORDON_KEY_FS_HIDE);

  for (guint i = 0; i < list->len; i++)
    {
      const CordonItem *it = g_ptr_array_index (list, i);
      const char *missing = NULL;
      g_autofree char *expanded = cordon_vars_expand (it->text, vars, &missing);
      g_autofree char *path = expanded != NULL ? cordon_path_normalize (expanded) : NULL;
      g_autofree char *reason = NULL;

      if (path == NULL)
        {
          reason = g_strdup_printf ("${%s} is not set on this host", missing);
          cordon_plan_add_skip (h->plan, it, it->text, reason);
          continue;
        }
      hide_one (h, it, real_dir (h, path), "hidden: an empty read-only directory, but for what is "
                "bound below", error);
      if (error != NULL && *error != NULL)
        return FALSE;
    }
  return TRUE;
}

/* hide-siblings=: the directory of each writable bind the policy names,
 * but not a system directory nor one the host's programs live in. */
static gboolean
hide_siblings (Hider *h,
               const CordonPolicy *policy,
               GError **error)
{
  const CordonItem *it = cordon_policy_get (policy, CORDON_KEY_FS_HIDE_SIBLINGS);
  g_autoptr(GPtrArray) parents = g_ptr_array_new_with_free_func (g_free);

  if (it == NULL || !it->num)
    return TRUE;
  for (guint i = 0; i < h->mounts->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (h->mounts, i);

      /* A cache's bind (src/cache.h) is in a scratch home: nothing of the host is beside it. */
      g_autofree char *parent = op->kind == CORDON_OP_BIND && op->key != CORDON_KEY_CACHE_USE
                                ? g_path_get_dirname (op->dest) : NULL;

      if (parent != NULL && !g_ptr_array_find_with_equal_func (parents, parent, g_str_equal, NULL))
        g_ptr_array_add (parents, g_steal_pointer (&parent));
    }
  for (guint i = 0; i < parents->len; i++)
    {
      const char *parent = g_ptr_array_index (parents, i);

      /* A workdir there does not hide the host's programs. */
      if (cordon_path_is_host_dir (parent))
        {
          cordon_plan_add_skip (h->plan, it, parent, "a system directory, or one the host's programs "
                                "live in: what is beside the writable bind there stays in view");
          continue;
        }
      hide_one (h, it, parent, "hidden: the directory of a writable bind shows only what is bound there",
                error);
      if (error != NULL && *error != NULL)
        return FALSE;
    }
  return TRUE;
}

/* The [namespaces] unshare= item that makes namespace `bit` new. */
static const CordonItem *
unshare_item (const CordonPolicy *policy,
              guint bit)
{
  GPtrArray *unshare = cordon_policy_get_list (policy, CORDON_KEY_NS_UNSHARE);

  for (guint i = 0; i < unshare->len; i++)
    {
      const CordonItem *it = g_ptr_array_index (unshare, i);

      if ((guint) it->num == bit)
        return it;
    }
  return NULL;
}

/* A directory of the host's /sys under a bind of the host's (not under
 * a minimal root, nor a policy's tmpfs): the views apply there alone,
 * and nothing is said of the others. */
static gboolean
sys_in_view (const Hider *h,
             const char *path)
{
  const CordonPathInfo *info = cordon_host_facts_lookup (h->facts, path);
  const CordonOp *c = cover (h, path);

  return info != NULL && info->kind == CORDON_PATH_DIR && c != NULL
         && (c->kind == CORDON_OP_RO_BIND || c->kind == CORDON_OP_BIND) && !g_str_equal (c->dest, path);
}

/* What a fresh sysfs of the sandbox's own namespaces would show: of the
 * network, one entry, lo, an empty directory (its name, not the host's
 * lo, whose counters would show the host's local traffic); of the
 * virtual interfaces, none; of the cgroups, nothing of the host's tree.
 * Each view stands on its own: a policy's hide= above one leaves the
 * others. */
static gboolean
hide_sys (Hider *h,
          const CordonPolicy *policy,
          GError **error)
{
  const CordonItem *net = (h->plan->namespaces & CORDON_NS_NET) ? unshare_item (policy, CORDON_NS_NET) : NULL;
  const CordonItem *cgroup = (h->plan->namespaces & CORDON_NS_CGROUP)
                             ? unshare_item (policy, CORDON_NS_CGROUP) : NULL;

  if (net != NULL && sys_in_view (h, "/sys/class/net")
      && hide_one (h, net, "/sys/class/net", "new net namespace: of the host's interfaces, lo alone", error))
    g_ptr_array_add (h->mounts, cordon_op_new (CORDON_OP_HIDE_DIR, NULL, "/sys/class/net/lo", net,
                                               "lo, by name alone: an empty read-only directory"));
  if (error != NULL && *error != NULL)
    return FALSE;
  if (net != NULL && sys_in_view (h, "/sys/devices/virtual/net"))
    hide_one (h, net, "/sys/devices/virtual/net", "new net namespace: none of the host's virtual interfaces",
              error);
  if (error != NULL && *error != NULL)
    return FALSE;
  if (cgroup != NULL && sys_in_view (h, "/sys/fs/cgroup"))
    hide_one (h, cgroup, "/sys/fs/cgroup", "new cgroup namespace: nothing of the host's cgroup tree",
              error);
  return error == NULL || *error == NULL;
}

gboolean
cordon_hide_collect (CordonPlan *plan,
                     const CordonPolicy *policy,
                     const CordonHostFacts *facts,
                     const CordonVars *vars,
                     GPtrArray *mounts,
                     GError **error)
{
  Hider h = { plan, facts, mounts };

  return hide_listed (&h, policy, vars, error) && hide_siblings (&h, policy, error)
         && hide_sys (&h, policy, error);
}

void
cordon_hide_seal (CordonPlan *plan)
{
  guint n = plan->ops->len;

  for (guint i = 0; i < n; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);
      CordonOp *seal;

      if (op->kind != CORDON_OP_HIDE_DIR)
        continue;
      seal = cordon_op_new (CORDON_OP_OPTION, "--remount-ro", op->dest, NULL,
                            "the hidden directory read-only: its last mount point is in");
      seal->key = op->key;
      seal->rule = op->rule;
      g_ptr_array_add (plan->ops, seal);
    }
}

char *
cordon_hide_shown (const CordonPlan *plan,
                   const char *dir)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  GString *out = g_string_new ("/");
  gsize len = strlen (dir);

  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);
      const char *rest;
      char *name;

      if (op->dest == NULL || op->kind == CORDON_OP_CHDIR || op->kind == CORDON_OP_OPTION
          || !cordon_path_is_ancestor (dir, op->dest, FALSE))
        continue;
      rest = op->dest + len + (g_str_equal (dir, "/") ? 0 : 1);
      name = g_strndup (rest, strcspn (rest, "/"));
      if (g_ptr_array_find_with_equal_func (names, name, g_str_equal, NULL))
        g_free (name);
      else
        g_ptr_array_add (names, name);
    }
  g_ptr_array_sort (names, cordon_compare_string_ptrs);
  for (guint i = 0; i < names->len; i++)
    g_string_append_printf (out, "%s%s", i > 0 ? "/" : "", (const char *) g_ptr_array_index (names, i));
  return g_string_free (out, FALSE);
}
