/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* plan: construction and teardown of the compiled plan. */
#include "config.h"

#include <string.h>

#include "path-util.h"
#include "plan.h"

void
cordon_op_free (CordonOp *op)
{
  if (op == NULL)
    return;
  g_free (op->src);
  g_free (op->dest);
  g_free (op->why);
  g_free (op);
}

void
cordon_stage_free (CordonStage *stage)
{
  if (stage == NULL)
    return;
  g_free (stage->path);
  g_free (stage->why);
  g_free (stage);
}

const char *
cordon_stage_kind_name (CordonStageKind kind)
{
  static const char * const names[CORDON_STAGE_MAX] = { "shadow", "idmap", "clone" };

  g_return_val_if_fail (kind < CORDON_STAGE_MAX, "?");
  return names[kind];
}

static void
skip_free (gpointer p)
{
  CordonSkip *skip = p;

  g_free (skip->path);
  g_free (skip->reason);
  g_free (skip);
}

void
cordon_env_decision_free (CordonEnvDecision *d)
{
  if (d == NULL)
    return;
  g_free (d->name);
  g_free (d->reason);
  g_free (d);
}

CordonPlan *
cordon_plan_new (const char *policy_name)
{
  CordonPlan *plan = g_new0 (CordonPlan, 1);

  plan->policy_name = g_strdup (policy_name);
  plan->ops = g_ptr_array_new_with_free_func ((GDestroyNotify) cordon_op_free);
  plan->skipped = g_ptr_array_new_with_free_func (skip_free);
  plan->adapted = g_ptr_array_new_with_free_func (skip_free);
  plan->env_decisions = g_ptr_array_new_with_free_func ((GDestroyNotify) cordon_env_decision_free);
  plan->envp = g_ptr_array_new_with_free_func (g_free);
  plan->abstract_sockets = g_ptr_array_new_with_free_func (g_free);
  plan->seccomp_allow = g_ptr_array_new_with_free_func (g_free);
  plan->seccomp_deny = g_ptr_array_new_with_free_func (g_free);
  plan->seccomp_deny_rules = g_array_new (FALSE, TRUE, sizeof (CordonLocation));
  plan->stage = g_ptr_array_new_with_free_func ((GDestroyNotify) cordon_stage_free);
  plan->unreachable = g_ptr_array_new_with_free_func (g_free);
  plan->cgroup_dirs = g_ptr_array_new_with_free_func ((GDestroyNotify) cordon_cgroup_dir_free);
  return plan;
}

void
cordon_plan_free (CordonPlan *plan)
{
  if (plan == NULL)
    return;
  g_free (plan->policy_name);
  g_free (plan->description);
  g_ptr_array_unref (plan->ops);
  g_ptr_array_unref (plan->skipped);
  g_ptr_array_unref (plan->adapted);
  g_ptr_array_unref (plan->env_decisions);
  g_ptr_array_unref (plan->envp);
  g_ptr_array_unref (plan->abstract_sockets);
  g_ptr_array_unref (plan->seccomp_allow);
  g_ptr_array_unref (plan->seccomp_deny);
  g_array_unref (plan->seccomp_deny_rules);
  g_ptr_array_unref (plan->stage);
  g_ptr_array_unref (plan->unreachable);
  g_ptr_array_unref (plan->cgroup_dirs);
  for (guint i = 0; i < CORDON_LIMIT_MAX; i++)
    g_free (plan->limits[i].unheld);
  g_free (plan->unprotected_dir);
  g_strfreev (plan->protect_entries);
  g_free (plan->workdir);
  g_free (plan);
}

/* `item` NULL marks a built-in op, or one that comes from a key's
 * default when `key` is given: explain says which. */
CordonOp *
cordon_op_new (CordonOpKind kind,
               const char *src,
               const char *dest,
               const CordonItem *item,
               const char *why)
{
  CordonOp *op = g_new0 (CordonOp, 1);

  op->kind = kind;
  op->src = g_strdup (src);
  op->dest = g_strdup (dest);
  op->key = item != NULL ? item->key : CORDON_KEY_INVALID;
  if (item != NULL)
    op->rule = item->loc;
  op->why = g_strdup (why);
  return op;
}

CordonOp *
cordon_plan_add_op (CordonPlan *plan,
                    CordonOpKind kind,
                    const char *src,
                    const char *dest,
                    const CordonItem *item,
                    const char *why)
{
  CordonOp *op = cordon_op_new (kind, src, dest, item, why);

  g_ptr_array_add (plan->ops, op);
  return op;
}

/* Like cordon_plan_add_op, taking `why`. */
CordonOp *
cordon_plan_take_op (CordonPlan *plan,
                     CordonOpKind kind,
                     const char *src,
                     const char *dest,
                     const CordonItem *item,
                     char *why)
{
  CordonOp *op = cordon_plan_add_op (plan, kind, src, dest, item, why);

  g_free (why);
  return op;
}

void
cordon_plan_add_skip_at (CordonPlan *plan,
                         CordonKey key,
                         const CordonLocation *rule,
                         const char *path,
                         const char *reason)
{
  CordonSkip *skip = g_new0 (CordonSkip, 1);

  skip->key = key;
  if (rule != NULL)
    skip->rule = *rule;
  skip->path = g_strdup (path);
  skip->reason = g_strdup (reason);
  g_ptr_array_add (plan->skipped, skip);
}

void
cordon_plan_add_skip (CordonPlan *plan,
                      const CordonItem *item,
                      const char *path,
                      const char *reason)
{
  cordon_plan_add_skip_at (plan, item != NULL ? item->key : CORDON_KEY_INVALID,
                           item != NULL ? &item->loc : NULL, path, reason);
}

const char *
cordon_op_kind_name (CordonOpKind kind)
{
  static const char * const names[CORDON_OP_MAX] = {
    "unshare", "new-session", "die-with-parent", "cap-drop", "cap-add", "ro-bind", "bind",
    "symlink", "proc", "dev", "tmpfs", "mask-file", "mask-dir", "hide-dir", "chdir", "helper-bind",
    "status-fd", "disable-userns", "as-pid-1", "seccomp", "option",
  };

  g_return_val_if_fail (kind < CORDON_OP_MAX, "?");
  return names[kind];
}

/* The ops that make what the sandbox sees at a path: a root, tmpfs or
 * bind. */
static gboolean
is_cover (const CordonOp *op)
{
  return op->kind == CORDON_OP_TMPFS || op->kind == CORDON_OP_RO_BIND || op->kind == CORDON_OP_BIND
         || op->kind == CORDON_OP_PROC || op->kind == CORDON_OP_DEV || op->kind == CORDON_OP_MASK_DIR
         || op->kind == CORDON_OP_HIDE_DIR;
}

/* cordon_path_is_ancestor (dest, path, TRUE), with the common case of a
 * mount point whose first name starts otherwise than the path's told
 * first, without a call: identity asks it of every op for every mount
 * point on a root caller's run. */
static gboolean
covers_path (const char *dest,
             const char *path)
{
  if (dest[0] == '/' && path[0] == '/' && dest[1] != '\0' && dest[1] != '/' && dest[1] != path[1])
    return FALSE;
  return cordon_path_is_ancestor (dest, path, TRUE);
}

/* The mount that decides what the sandbox sees at `path`: the deepest
 * root, tmpfs or bind at or above it (`except` left out); of several as
 * deep, the last. NULL when nothing covers it (a minimal root outside
 * its few binds). */
const CordonOp *
cordon_plan_cover (const CordonPlan *plan,
                   const char *path,
                   const CordonOp *except)
{
  const CordonOp *best = NULL;
  guint best_depth = 0;

  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);
      guint depth;

      if (op == except || !is_cover (op) || !covers_path (op->dest, path))
        continue;
      depth = cordon_path_depth (op->dest);
      if (best == NULL || depth >= best_depth)
        {
          best = op;
          best_depth = depth;
        }
    }
  return best;
}

/* cordon_plan_cover of each path on the way to `path`: "/", then each
 * one a component longer ("/a", "/a/b" for "/a//b/"), in one pass over
 * the ops rather than one a path. A cover of one of them is an ancestor
 * of `path` (the way without its empty components) as deep as it or
 * less, and covers every one below it down to the next. */
GPtrArray *
cordon_plan_cover_way (const CordonPlan *plan,
                       const char *path,
                       const CordonOp *except)
{
  g_autoptr(GString) way = g_string_sized_new (strlen (path) + 1);
  GPtrArray *covers;

  for (const char *p = path; *p != '\0';)
    {
      gsize n = strcspn (p, "/");

      if (n > 0)
        {
          g_string_append_c (way, '/');
          g_string_append_len (way, p, (gssize) n);
        }
      p += n + (p[n] == '/');
    }
  if (way->len == 0)
    g_string_append_c (way, '/');
  covers = g_ptr_array_new ();
  g_ptr_array_set_size (covers, (gint) cordon_path_depth (way->str) + 1);
  /* First the last, deepest cover at each depth... */
  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);
      guint depth;

      if (op == except || !is_cover (op) || !covers_path (op->dest, way->str))
        continue;
      depth = cordon_path_depth (op->dest);
      if (depth < covers->len)
        covers->pdata[depth] = (gpointer) op;
    }
  /* ...then, where none is at a depth, the one above covers it. */
  for (guint d = 1; d < covers->len; d++)
    if (covers->pdata[d] == NULL)
      covers->pdata[d] = covers->pdata[d - 1];
  return covers;
}

/* Mounts added after the step's own would hide the deeper ones below
 * them (invariant 6: a read-only bind of ~/.config/git under the new bind
 * of ~/.config): each mount of the step below `top`, but not below the
 * protected `dir`, is made again after them, in its order. */
void
cordon_plan_remount_below (CordonPlan *plan,
                           const char *top,
                           const char *dir,
                           guint before)
{
  for (guint i = 0; i < before; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);
      CordonOp *copy;

      if ((op->kind != CORDON_OP_BIND && op->kind != CORDON_OP_RO_BIND && op->kind != CORDON_OP_TMPFS)
          || !cordon_path_is_ancestor (top, op->dest, FALSE) || cordon_path_is_ancestor (dir, op->dest, TRUE))
        continue;
      copy = g_new0 (CordonOp, 1);
      *copy = *op;
      copy->src = g_strdup (op->src);
      copy->dest = g_strdup (op->dest);
      copy->why = g_strdup (op->why);
      g_ptr_array_add (plan->ops, copy);
    }
}

/* The host paths bound writable, NULL-terminated (the plan keeps the
 * strings): where a sandbox may have left something for cordon. */
GPtrArray *
cordon_plan_get_writable (const CordonPlan *plan)
{
  GPtrArray *writable = g_ptr_array_new ();

  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);

      if (op->kind == CORDON_OP_BIND)
        g_ptr_array_add (writable, op->src);
    }
  g_ptr_array_add (writable, NULL);
  return writable;
}

/* Whether the host path `src` is bound writable for [cache] use=
 * (src/cache.h) alone: no other writable bind holds it. */
gboolean
cordon_plan_is_cache (const CordonPlan *plan,
                      const char *src)
{
  gboolean cache = FALSE;

  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);

      if (op->kind != CORDON_OP_BIND || !cordon_path_is_ancestor (op->src, src, TRUE))
        continue;
      if (op->key != CORDON_KEY_CACHE_USE)
        return FALSE;
      cache = TRUE;
    }
  return cache;
}

gboolean
cordon_plan_has_op (const CordonPlan *plan,
                    CordonOpKind kind)
{
  for (guint i = 0; i < plan->ops->len; i++)
    if (((const CordonOp *) g_ptr_array_index (plan->ops, i))->kind == kind)
      return TRUE;
  return FALSE;
}

gboolean
cordon_plan_has_stage (const CordonPlan *plan,
                       CordonStageKind kind)
{
  for (guint i = 0; i < plan->stage->len; i++)
    if (((const CordonStage *) g_ptr_array_index (plan->stage, i))->kind == kind)
      return TRUE;
  return FALSE;
}

static void
setting_free (gpointer p)
{
  CordonCgroupSetting *setting = p;

  g_free (setting->file);
  g_free (setting->value);
  g_free (setting);
}

CordonCgroupDir *
cordon_cgroup_dir_new (const char *parent,
                       guint controllers)
{
  CordonCgroupDir *dir = g_new0 (CordonCgroupDir, 1);

  dir->parent = g_strdup (parent);
  dir->controllers = controllers;
  dir->settings = g_ptr_array_new_with_free_func (setting_free);
  dir->stats = g_ptr_array_new_with_free_func (g_free);
  return dir;
}

void
cordon_cgroup_dir_free (CordonCgroupDir *dir)
{
  if (dir == NULL)
    return;
  g_free (dir->parent);
  g_free (dir->home);
  g_ptr_array_unref (dir->settings);
  g_ptr_array_unref (dir->stats);
  g_free (dir);
}

void
cordon_cgroup_dir_add_setting (CordonCgroupDir *dir,
                               const char *file,
                               const char *value,
                               CordonLimitKind limit)
{
  CordonCgroupSetting *setting = g_new0 (CordonCgroupSetting, 1);

  setting->file = g_strdup (file);
  setting->value = g_strdup (value);
  setting->limit = limit;
  g_ptr_array_add (dir->settings, setting);
}
