/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* compile: policy + host facts -> plan, in the order of invariant 6.
 *
 * Pure: everything about the host comes from CordonHostFacts, so the same
 * inputs give the same plan, byte for byte (golden tests hold it). The
 * mount order is what keeps the policy's promises: the root first, then
 * /proc and /dev, then scratch tmpfs and binds sorted by depth (a parent
 * before its children, so a workdir under a tmpfs /tmp is bound after the
 * tmpfs and stays visible), then masks, so nothing mounted later can
 * uncover a masked secret. */
#include "config.h"

#include <string.h>

#include "cache.h"
#include "caps.h"
#include "compile.h"
#include "env-filter.h"
#include "hide.h"
#include "identity.h"
#include "resource-limits.h"
#include "path-util.h"
#include "protect.h"
#include "policy-vars.h"
#include "refusal.h"
#include "sockets.h"

typedef struct
{
  const CordonPolicy *policy;
  const CordonHostFacts *facts;
  const CordonCompileOptions *options;
  CordonPlan *plan;
  CordonVars vars;
  char uid_buf[16];
  GPtrArray *mounts;    /* CordonOp* of the depth-sorted middle stage, owned */
  GPtrArray *masks;     /* CordonOp*, owned */
  GHashTable *allowed_sockets;  /* expanded path not to mask -> its allow= item */
  GHashTable *masked_vars;      /* variable -> what it locates: dropped */
} Compiler;

static const CordonItem *
scalar_item (const Compiler *c,
             CordonKey key)
{
  return cordon_policy_get (c->policy, key);
}

/* Expands ${VARS} and normalizes; NULL (with *out_missing) when a
 * variable has no value on this host. */
static char *
expand_path (const Compiler *c,
             const char *text,
             const char **out_missing)
{
  g_autofree char *expanded = cordon_vars_expand (text, &c->vars, out_missing);

  return expanded != NULL ? cordon_path_normalize (expanded) : NULL;
}

static gboolean
lookup_kind (const Compiler *c,
             const char *path,
             const CordonItem *item,
             CordonPathKind *out_kind,
             GError **error)
{
  const CordonPathInfo *info = cordon_host_facts_lookup (c->facts, path);

  if (info == NULL)
    {
      /* A programming error, but a fail-closed one: never guess. */
      cordon_error_set_at (error, item != NULL ? &item->loc : NULL, CORDON_ERROR_HOST,
                           "no host facts for '%s'", path);
      return FALSE;
    }
  *out_kind = info->kind;
  return TRUE;
}

/* A rule the host's answer changed, for explain: `what`, beside it. */
static void
add_adapted (CordonPlan *plan,
             const CordonItem *item,
             const char *what,
             const char *why)
{
  CordonSkip *a = g_new0 (CordonSkip, 1);

  a->key = item != NULL ? item->key : CORDON_KEY_INVALID;
  if (item != NULL)
    a->rule = item->loc;
  a->path = g_strdup (what);
  a->reason = g_strdup (why);
  g_ptr_array_add (plan->adapted, a);
}

static void
add_namespaces (Compiler *c)
{
  GPtrArray *unshare = cordon_policy_get_list (c->policy, CORDON_KEY_NS_UNSHARE);
  guint wanted = cordon_policy_get_namespaces (c->policy);

  for (guint bit = 0; bit < CORDON_N_NAMESPACES; bit++)
    for (guint i = 0; i < unshare->len && (wanted & (1u << bit)); i++)
      {
        const CordonItem *it = g_ptr_array_index (unshare, i);

        /* A setuid bwrap makes the user namespace as root, so the caller
         * holds no capability in it and the kernel refuses cordon the
         * /proc files of the processes there: the sandbox could not be
         * checked from outside. It is left out (a degradation run names);
         * setuid bwrap makes the other namespaces without one. */
        if ((guint) it->num == 1u << bit && it->num == CORDON_NS_USER && c->options->share_user)
          {
            add_adapted (c->plan, it, "user namespace", "left out for a setuid bwrap, which "
                         "makes it as root: the sandbox could not be checked from outside");
            break;
          }
        if ((guint) it->num == 1u << bit)
          {
            g_autofree char *why = g_strconcat ("new ", it->text, " namespace", NULL);
            CordonOp *op = cordon_plan_add_op (c->plan, CORDON_OP_UNSHARE, NULL, NULL, it, why);

            op->ns = 1u << bit;
            c->plan->namespaces |= op->ns;
            break;
          }
      }
}

/* [namespaces] hostname=: the name a new uts namespace gets, as
 * sethostname(2) takes one (src/refusal.c, which check asks too). */
static gboolean
add_hostname (Compiler *c,
              GError **error)
{
  const CordonItem *it = scalar_item (c, CORDON_KEY_NS_HOSTNAME);
  g_autofree char *refused = cordon_refusal_hostname (it, c->plan->namespaces);

  if (it == NULL)
    return TRUE;
  if (refused != NULL)
    {
      cordon_error_set_at (error, &it->loc, CORDON_ERROR_POLICY, "%s", refused);
      return FALSE;
    }
  cordon_plan_add_op (c->plan, CORDON_OP_OPTION, "--hostname", it->text, it, "the sandbox's hostname");
  return TRUE;
}

/* [capabilities] keep=: each named capability stays, in order, once. */
static void
add_kept_caps (Compiler *c)
{
  GPtrArray *keep = cordon_policy_get_list (c->policy, CORDON_KEY_CAPS_KEEP);

  for (guint i = 0; i < keep->len; i++)
    {
      const CordonItem *it = g_ptr_array_index (keep, i);
      g_autofree char *name = NULL;
      guint bit;

      if (!cordon_caps_parse (it->text, &bit, &name) || (c->plan->keep_caps & (G_GUINT64_CONSTANT (1) << bit)))
        continue;
      c->plan->keep_caps |= G_GUINT64_CONSTANT (1) << bit;
      cordon_plan_add_op (c->plan, CORDON_OP_CAP_ADD, name, NULL, it, "a capability the policy keeps");
    }
}

static void
add_session_ops (Compiler *c)
{
  static const struct { CordonKey key; CordonOpKind kind; const char *why; } flags[] = {
    { CORDON_KEY_NS_NEW_SESSION, CORDON_OP_NEW_SESSION,
      "new terminal session: no TIOCSTI into the caller's terminal" },
    { CORDON_KEY_NS_DIE_WITH_PARENT, CORDON_OP_DIE_WITH_PARENT,
      "the sandbox dies with cordon" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (flags); i++)
    if (cordon_policy_get_num (c->policy, flags[i].key))
      cordon_plan_add_op (c->plan, flags[i].kind, NULL, NULL,
                          scalar_item (c, flags[i].key), flags[i].why)->key = flags[i].key;
  /* Invariant 5: a root caller (say, a container granted CAP_SYS_ADMIN)
   * would otherwise hand its capabilities to the sandbox, which could
   * then unmount the masks. */
  if (c->facts->uid == 0)
    cordon_plan_add_op (c->plan, CORDON_OP_CAP_DROP_ALL, NULL, NULL, NULL,
                        "root caller: the sandbox holds no capability");
  add_kept_caps (c);
}

static gboolean
add_root (Compiler *c,
          GError **error)
{
  const CordonItem *root = scalar_item (c, CORDON_KEY_FS_ROOT);

  if (cordon_policy_get_num (c->policy, CORDON_KEY_FS_ROOT) == CORDON_ROOT_READ_ONLY)
    {
      cordon_plan_add_op (c->plan, CORDON_OP_RO_BIND, "/", "/", root,
                          "host root, read-only")->key = CORDON_KEY_FS_ROOT;
      return TRUE;
    }
  for (guint i = 0; cordon_minimal_root_entries[i] != NULL; i++)
    {
      const char *p = cordon_minimal_root_entries[i];
      const CordonPathInfo *info = cordon_host_facts_lookup (c->facts, p);
      CordonPathKind kind;

      if (!lookup_kind (c, p, root, &kind, error))
        return FALSE;
      if (kind == CORDON_PATH_DIR)
        cordon_plan_add_op (c->plan, CORDON_OP_RO_BIND, p, p, root, "minimal root: host directory, read-only");
      else if (kind == CORDON_PATH_SYMLINK && info->link_target != NULL)
        cordon_plan_add_op (c->plan, CORDON_OP_SYMLINK, info->link_target, p, root,
                            "minimal root: the host's symlink");
      else
        cordon_plan_add_skip (c->plan, root, p, kind == CORDON_PATH_ABSENT
                              ? "absent on this host" : "neither a directory nor a symlink");
    }
  return TRUE;
}

static gboolean
is_minimal_root (const Compiler *c)
{
  return cordon_policy_get_num (c->policy, CORDON_KEY_FS_ROOT) == CORDON_ROOT_MINIMAL;
}

/* The kernel's settings check the writer's uid against the host's root,
 * not a capability: a sandbox that is uid 0 on the host could set
 * kernel.core_pattern to a program in the workdir, run as root at the
 * next crash. bwrap's --proc leaves /proc/sys writable, so it is bound
 * read-only over itself, in every sandbox. (A sandbox inside this one
 * cannot then mount a /proc of its own: the kernel refuses a procfs that
 * would show what a mount hides. Its policy falls back to host-ro.) */
static void
add_proc_sys (Compiler *c,
              const CordonItem *mode)
{
  cordon_plan_add_op (c->plan, CORDON_OP_RO_BIND, "/proc/sys", "/proc/sys", mode,
                      "kernel settings read-only: /proc/sys checks uids, not "
                      "capabilities")->key = CORDON_KEY_PROC_MODE;
}

static void
add_proc_dev (Compiler *c)
{
  const CordonItem *mode = scalar_item (c, CORDON_KEY_PROC_MODE);
  const char *cause = "";

  c->plan->proc_mode = (CordonProcMode) cordon_policy_get_num (c->policy, CORDON_KEY_PROC_MODE);
  c->plan->proc_fallback = (CordonProcFallback) cordon_policy_get_num (c->policy, CORDON_KEY_PROC_FALLBACK);
  /* The probe found that no private /proc can be mounted here: the
   * policy's fallback= is the rule that applies. */
  if (c->plan->proc_mode == CORDON_PROC_PRIVATE && c->options->proc_fallback
      && c->plan->proc_fallback != CORDON_FALLBACK_REFUSE)
    {
      c->plan->proc_mode = c->plan->proc_fallback == CORDON_FALLBACK_HOST_RO ? CORDON_PROC_HOST_RO
                                                                           : CORDON_PROC_NONE;
      mode = scalar_item (c, CORDON_KEY_PROC_FALLBACK);
      cause = " (the probe: a private /proc cannot be mounted here)";
      add_adapted (c->plan, mode, "/proc", c->plan->proc_mode == CORDON_PROC_HOST_RO
                   ? "the host's, read-only: the probe found that a private /proc cannot be mounted here"
                   : "none: the probe found that a private /proc cannot be mounted here");
    }
  if (c->plan->proc_mode == CORDON_PROC_PRIVATE)
    {
      cordon_plan_add_op (c->plan, CORDON_OP_PROC, NULL, "/proc", mode,
                          "private /proc: only the sandbox's processes")->key = CORDON_KEY_PROC_MODE;
      add_proc_sys (c, mode);
    }
  else if (c->plan->proc_mode == CORDON_PROC_HOST_RO)
    cordon_plan_take_op (c->plan, CORDON_OP_RO_BIND, "/proc", "/proc", mode,
                         g_strconcat ("degraded: the host /proc, read-only", cause, NULL));
  else if (!is_minimal_root (c))
    /* The host root is bound recursively, its /proc with it: hide it. */
    cordon_plan_take_op (c->plan, CORDON_OP_MASK_DIR, NULL, "/proc", mode,
                         g_strconcat ("no /proc: the host's, under the read-only root, is hidden",
                                      cause, NULL));
  /* Always a fresh /dev: under a read-only host root, /dev would be the
   * host's, and a read-only bind does not stop writes to device nodes. */
  cordon_plan_add_op (c->plan, CORDON_OP_DEV, NULL, "/dev", NULL,
                      "fresh minimal /dev (null, zero, full, random, urandom, tty)");
}

typedef struct
{
  CordonKey key;
  CordonOpKind kind;
  gboolean optional;
  const char *why;
} MountRule;

static const MountRule mount_rules[] = {
  { CORDON_KEY_FS_TMPFS, CORDON_OP_TMPFS, TRUE, "scratch tmpfs" },
  { CORDON_KEY_FS_READ_ONLY, CORDON_OP_RO_BIND, FALSE, "host path, read-only" },
  { CORDON_KEY_FS_READ_ONLY_TRY, CORDON_OP_RO_BIND, TRUE, "host path, read-only" },
  { CORDON_KEY_FS_WRITABLE, CORDON_OP_BIND, FALSE, "host path, writable" },
  { CORDON_KEY_FS_WRITABLE_TRY, CORDON_OP_BIND, TRUE, "host path, writable" },
};


/* One tmpfs or bind. A required path that is absent is an error: the
 * author named it, so running without it would be a silent change. */
static gboolean
add_mount (Compiler *c,
           const MountRule *rule,
           const CordonItem *it,
           GError **error)
{
  const char *missing = NULL;
  g_autofree char *path = expand_path (c, it->text, &missing);
  CordonPathKind kind;

  if (path == NULL)
    {
      g_autofree char *reason = g_strconcat ("${", missing, "} is not set on this host", NULL);

      if (!rule->optional)
        {
          cordon_error_set_at (error, &it->loc, CORDON_ERROR_HOST, "%s", reason);
          return FALSE;
        }
      cordon_plan_add_skip (c->plan, it, it->text, reason);
      return TRUE;
    }
  if (!lookup_kind (c, path, it, &kind, error))
    return FALSE;
  if (kind == CORDON_PATH_ABSENT && rule->kind == CORDON_OP_TMPFS && is_minimal_root (c))
    kind = CORDON_PATH_DIR;   /* bwrap creates it in its own root */
  if (kind == CORDON_PATH_ABSENT && !rule->optional)
    {
      cordon_error_set_at (error, &it->loc, CORDON_ERROR_HOST,
                           "'%s' does not exist on this host (use %s-try for an optional path)",
                           path, cordon_key_info (it->key)->name);
      return FALSE;
    }
  if (kind == CORDON_PATH_ABSENT)
    {
      cordon_plan_add_skip (c->plan, it, path, rule->kind == CORDON_OP_TMPFS
                            ? "absent on this host: nothing to hide, and the read-only root "
                              "has no place for a mount point"
                            : "absent on this host (optional)");
      return TRUE;
    }
  g_ptr_array_add (c->mounts, cordon_op_new (rule->kind, rule->kind == CORDON_OP_TMPFS ? NULL : path,
                                      path, it, rule->why));
  return TRUE;
}

static int
mount_rank (CordonOpKind kind)
{
  return kind == CORDON_OP_TMPFS || kind == CORDON_OP_HIDE_DIR ? 0 : kind == CORDON_OP_RO_BIND ? 1 : 2;
}

static int
compare_mounts (gconstpointer a,
                gconstpointer b)
{
  const CordonOp *x = *(const CordonOp * const *) a;
  const CordonOp *y = *(const CordonOp * const *) b;
  int c = cordon_path_compare_by_depth (x->dest, y->dest);

  if (c != 0)
    return c;
  return mount_rank (x->kind) - mount_rank (y->kind);
}

static gboolean
same_op (const CordonOp *a,
         const CordonOp *b)
{
  return a->kind == b->kind && g_strcmp0 (a->src, b->src) == 0
         && g_strcmp0 (a->dest, b->dest) == 0;
}

/* Moves the sorted, de-duplicated `ops` into the plan. A duplicate keeps
 * the rule that came first in merge order (the sort is stable). */
static void
flush_sorted (Compiler *c,
              GPtrArray *ops)
{
  const CordonOp *last = NULL;

  g_ptr_array_sort (ops, compare_mounts);
  for (guint i = 0; i < ops->len; i++)
    {
      CordonOp *op = g_ptr_array_index (ops, i);

      if (last != NULL && same_op (last, op))
        continue;
      g_ptr_array_add (c->plan->ops, op);
      ops->pdata[i] = NULL;
      last = op;
    }
}

/* Paths as expanded on this host can collide where the policy text did
 * not (check compares the text): ${WORKDIR} may be ${HOME}. A bind at the
 * path of a tmpfs is mounted after it and uncovers what the tmpfs was
 * there to hide (the caller's whole home), so refuse rather than choose. */
static gboolean
check_mount_conflicts (Compiler *c,
                       GError **error)
{
  for (guint i = 0; i < c->mounts->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (c->mounts, i);
      g_autofree char *refused = op->kind == CORDON_OP_BIND ? cordon_refusal_writable (op->dest) : NULL;

      if (refused != NULL)
        {
          cordon_error_set_at (error, &op->rule, CORDON_ERROR_HOST, "%s", refused);
          return FALSE;
        }
      for (guint j = 0; op->kind != CORDON_OP_TMPFS && j < c->mounts->len; j++)
        {
          const CordonOp *t = g_ptr_array_index (c->mounts, j);
          g_autofree char *where = NULL;

          if (t->kind != CORDON_OP_TMPFS || !g_str_equal (t->dest, op->dest))
            continue;
          where = cordon_location_to_string (&t->rule);
          cordon_error_set_at (error, &op->rule, CORDON_ERROR_HOST,
                               "'%s' is bound here but is also a tmpfs (%s) on this host: the "
                               "bind would uncover what the tmpfs hides; choose a workdir "
                               "beneath it (-C)", op->dest, where);
          return FALSE;
        }
    }
  return TRUE;
}

/* [limits] scratch=: every tmpfs the policy makes is that big at most,
 * and so is /dev/shm, a tmpfs of its own; /dev, the tmpfs bwrap makes
 * and the sandbox's user owns, is made read-only once its mount points
 * are in (add_launch_ops): else either would take the host's RAM
 * (tmpfs's default is half of it). Device nodes on a read-only mount are
 * written as before. */
static gboolean
add_scratch (Compiler *c,
             GError **error)
{
  const CordonItem *it = scalar_item (c, CORDON_KEY_LIMITS_SCRATCH);
  gboolean has_shm = FALSE;

  if (it == NULL)
    return TRUE;
  /* A tmpfs of size 0 is one of no limit (the parser refuses it too). */
  if (it->num == 0)
    {
      cordon_error_set_at (error, &it->loc, CORDON_ERROR_POLICY, "[limits] scratch=0 would be no "
                           "limit (a tmpfs of size 0 has none): give a size such as 512M, or leave "
                           "the key out");
      return FALSE;
    }
  /* bwrap: "The --size option is not permitted in setuid mode". */
  if (c->options->share_user)
    {
      cordon_error_set_at (error, &it->loc, CORDON_ERROR_HOST, "[limits] scratch= cannot be met: a "
                           "setuid bwrap refuses --size; use a bwrap without the setuid bit");
      return FALSE;
    }
  c->plan->scratch = (guint64) it->num;
  for (guint i = 0; i < c->mounts->len; i++)
    {
      CordonOp *op = g_ptr_array_index (c->mounts, i);
      /* The host's /dev/shm bound writable has the host's size. */
      g_autofree char *refused = op->kind == CORDON_OP_BIND || op->kind == CORDON_OP_RO_BIND
                                 ? cordon_refusal_scratch_bind (op->dest, &op->rule) : NULL;

      if (op->kind == CORDON_OP_TMPFS)
        op->size = c->plan->scratch;
      has_shm = has_shm || (op->kind == CORDON_OP_TMPFS && g_str_equal (op->dest, "/dev/shm"));
      if (refused != NULL)
        {
          cordon_error_set_at (error, &it->loc, CORDON_ERROR_POLICY, "%s", refused);
          return FALSE;
        }
    }
  if (!has_shm)
    {
      CordonOp *shm = cordon_op_new (CORDON_OP_TMPFS, NULL, "/dev/shm", it, "scratch tmpfs of its "
                                     "own for /dev/shm, sized: /dev's is the host's RAM");

      shm->size = c->plan->scratch;
      g_ptr_array_add (c->mounts, shm);
    }
  return TRUE;
}

/* The item of [cache] use= that names `use` (its last). */
static const CordonItem *
cache_item (const Compiler *c,
            const char *use)
{
  GPtrArray *list = cordon_policy_get_list (c->policy, CORDON_KEY_CACHE_USE);
  const CordonItem *found = NULL;

  for (guint i = 0; i < list->len; i++)
    if (g_str_equal (((const CordonItem *) g_ptr_array_index (list, i))->text, use))
      found = g_ptr_array_index (list, i);
  return found;
}

/* The mount that will show `path` once the pending mounts are in: the
 * deepest of them above it (tmpfs or bind), else the plan's own (the
 * root). */
static const CordonOp *
pending_cover (const Compiler *c,
               const char *path)
{
  const CordonOp *best = cordon_plan_cover (c->plan, path, NULL);

  for (guint j = 0; j < c->mounts->len; j++)
    {
      const CordonOp *op = g_ptr_array_index (c->mounts, j);

      if ((op->kind == CORDON_OP_TMPFS || op->kind == CORDON_OP_BIND || op->kind == CORDON_OP_RO_BIND)
          && cordon_path_is_ancestor (op->dest, path, TRUE)
          && (best == NULL || cordon_path_depth (op->dest) >= cordon_path_depth (best->dest)))
        best = op;
    }
  return best;
}

/* cordon's caches of every policy (the parent of each policy's
 * directory): where a bind shows them (a cache home outside the scratch
 * home), masked, so a run reaches its own caches only through their
 * binds, and no other policy's. Once. */
static void
hide_caches (Compiler *c,
             const CordonItem *it,
             const char *cache_dir)
{
  g_autofree char *policy_dir = g_path_get_dirname (cache_dir);
  g_autofree char *all = g_path_get_dirname (policy_dir);
  const CordonOp *cover = pending_cover (c, all);

  if (cover == NULL || (cover->kind != CORDON_OP_BIND && cover->kind != CORDON_OP_RO_BIND))
    return;
  for (guint i = 0; i < c->masks->len; i++)
    if (g_str_equal (((CordonOp *) g_ptr_array_index (c->masks, i))->dest, all))
      return;
  g_ptr_array_add (c->masks, cordon_op_new (CORDON_OP_MASK_DIR, NULL, all, it,
                                            "cordon's caches of every policy, out of view: each run has its "
                                            "own through their binds"));
}

/* [cache] use=: each directory cordon made for it (host facts), bound
 * writable where the tool looks in the sandbox's home. The home must be
 * scratch (trial's tmpfs=${HOME}): anywhere else the mount point would
 * be made in the caller's own home, or could not be. */
static gboolean
add_caches (Compiler *c,
            GError **error)
{
  for (guint i = 0; c->facts->caches != NULL && i < c->facts->caches->len; i++)
    {
      const CordonCacheDir *d = g_ptr_array_index (c->facts->caches, i);
      const CordonItem *it = cache_item (c, d->entry->use);
      g_autofree char *dest = c->facts->home != NULL ? g_build_filename (c->facts->home, d->entry->home_path, NULL)
                                                     : NULL;
      const CordonOp *home = NULL;
      g_autofree char *why = NULL;

      /* The deepest mount above it must be a tmpfs. */
      home = dest != NULL ? pending_cover (c, dest) : NULL;
      if (home != NULL && home->kind != CORDON_OP_TMPFS)
        home = NULL;
      if (d->error != NULL || home == NULL)
        {
          cordon_error_set_at (error, &it->loc, CORDON_ERROR_HOST, d->error != NULL
                               ? "cannot make the cache directory for '%s': %s"
                               : "'%s' needs a scratch home (tmpfs=${HOME}, as trial has), where its cache "
                                 "is bound: %s", d->entry->use, d->error != NULL ? d->error : dest);
          return FALSE;
        }
      why = g_strdup_printf ("cache of %s, kept by cordon for the caller and this policy", d->entry->use);
      g_ptr_array_add (c->mounts, cordon_op_new (CORDON_OP_BIND, d->path, dest, it, why));
      hide_caches (c, it, d->path);
    }
  return TRUE;
}

static gboolean
add_mounts (Compiler *c,
            GError **error)
{
  for (guint r = 0; r < G_N_ELEMENTS (mount_rules); r++)
    {
      GPtrArray *list = cordon_policy_get_list (c->policy, mount_rules[r].key);

      for (guint i = 0; i < list->len; i++)
        if (!add_mount (c, &mount_rules[r], g_ptr_array_index (list, i), error))
          return FALSE;
    }
  if (!add_caches (c, error))
    return FALSE;
  if (!cordon_hide_collect (c->plan, c->policy, c->facts, &c->vars, c->mounts, error)
      || !check_mount_conflicts (c, error) || !add_scratch (c, error))
    return FALSE;
  flush_sorted (c, c->mounts);
  return TRUE;
}

static const CordonOp *
covering_mount (const Compiler *c,
                const char *path)
{
  return cordon_plan_cover (c->plan, path, NULL);
}

/* One mask op at `path`, unless the sandbox cannot see it anyway. */
static void
mask_one (Compiler *c,
          const CordonItem *it,
          const char *path,
          CordonPathKind kind,
          const char *why)
{
  const CordonOp *cover = covering_mount (c, path);

  if (cover == NULL || cover->kind == CORDON_OP_TMPFS || cover->kind == CORDON_OP_MASK_DIR
      || cover->kind == CORDON_OP_HIDE_DIR)
    {
      g_autofree char *reason = cover == NULL
        ? g_strdup ("not visible in the sandbox: no mask needed")
        : g_strdup_printf ("hidden by the %s at %s: no mask needed",
                           cover->kind == CORDON_OP_TMPFS ? "tmpfs"
                           : cover->kind == CORDON_OP_HIDE_DIR ? "hidden directory" : "empty /proc",
                           cover->dest);

      cordon_plan_add_skip (c->plan, it, path, reason);
      return;
    }
  g_ptr_array_add (c->masks, cordon_op_new (kind == CORDON_PATH_DIR ? CORDON_OP_MASK_DIR : CORDON_OP_MASK_FILE,
                                            kind == CORDON_PATH_DIR ? NULL : "/dev/null", path, it, why));
}

/* An exemption covers the socket wherever it is: its canonical path and
 * every alias, however the allow= rule or its variable spelled it. */
static void
allow_socket_path (Compiler *c,
                   const CordonItem *it,
                   const char *path)
{
  const CordonPathInfo *info = cordon_host_facts_lookup (c->facts, path);
  const char *real = info != NULL && info->canonical != NULL ? info->canonical : path;
  const CordonPathInfo *rinfo = cordon_host_facts_lookup (c->facts, real);

  if (!g_hash_table_contains (c->allowed_sockets, path))
    g_hash_table_insert (c->allowed_sockets, g_strdup (path), (gpointer) it);
  if (!g_hash_table_contains (c->allowed_sockets, real))
    g_hash_table_insert (c->allowed_sockets, g_strdup (real), (gpointer) it);
  for (guint i = 0; rinfo != NULL && rinfo->aliases != NULL && i < rinfo->aliases->len; i++)
    if (!g_hash_table_contains (c->allowed_sockets, g_ptr_array_index (rinfo->aliases, i)))
      g_hash_table_insert (c->allowed_sockets, g_strdup (g_ptr_array_index (rinfo->aliases, i)), (gpointer) it);
}

/* The socket at `path`, and every directory between `top` (the mount
 * that would hide it) and it, are the caller's and no one else may
 * rename or replace them: so the catalog's glob (/tmp/ssh-*) names no
 * other user's socket, and bwrap, which binds by path at launch, binds
 * what the facts saw. `top` itself, if others may write it, is sticky. */
static gboolean
socket_is_callers (const Compiler *c,
                   const char *path,
                   const char *top)
{
  const CordonPathInfo *info = cordon_host_facts_lookup (c->facts, path);
  const CordonPathInfo *t = cordon_host_facts_lookup (c->facts, top);
  g_autofree char *dir = g_path_get_dirname (path);

  if (info == NULL || info->uid != c->facts->uid || t == NULL || t->kind != CORDON_PATH_DIR
      || ((t->mode & 002) != 0 && (t->mode & 01000) == 0))
    return FALSE;
  while (strcmp (dir, top) != 0 && cordon_path_is_ancestor (top, dir, FALSE))
    {
      const CordonPathInfo *d = cordon_host_facts_lookup (c->facts, dir);
      char *up;

      if (d == NULL || d->kind != CORDON_PATH_DIR || d->uid != c->facts->uid || (d->mode & 022) != 0)
        return FALSE;
      up = g_path_get_dirname (dir);
      g_free (dir);
      dir = up;
    }
  return strcmp (dir, top) == 0;
}

/* An allowed socket is of use only where the sandbox sees it: one that a
 * scratch tmpfs or a hidden directory covers (ssh-agent's in the host's
 * /tmp) is bound again at its own place, read-only (connect() asks no
 * writable mount). Not under a minimal root, which shows only what it
 * names; and a mask of a directory above it still wins (flush_masks).
 * Only a socket at its canonical path that the caller can connect to,
 * and that is the caller's (socket_is_callers): a symlink to one is not
 * followed, another user's is not shown. */
static void
show_allowed_sockets (Compiler *c)
{
  g_autofree gpointer *paths = g_hash_table_get_keys_as_array (c->allowed_sockets, NULL);

  for (guint i = 0; paths[i] != NULL; i++)
    {
      const char *path = paths[i];
      const CordonPathInfo *info = cordon_host_facts_lookup (c->facts, path);
      const CordonOp *cover = covering_mount (c, path);

      if (info == NULL || info->kind != CORDON_PATH_SOCKET || !info->connectable
          || (info->canonical != NULL && strcmp (info->canonical, path) != 0)
          || cover == NULL || (cover->kind != CORDON_OP_TMPFS && cover->kind != CORDON_OP_HIDE_DIR)
          || !socket_is_callers (c, path, cover->dest))
        continue;
      g_ptr_array_add (c->masks, cordon_op_new (CORDON_OP_RO_BIND, path, path,
                                                g_hash_table_lookup (c->allowed_sockets, path),
                                                "allowed socket, bound where the sandbox would not see it"));
    }
}

static gboolean
socket_is_allowed (const Compiler *c,
                   const char *path)
{
  const CordonPathInfo *info = cordon_host_facts_lookup (c->facts, path);

  return g_hash_table_contains (c->allowed_sockets, path)
         || (info != NULL && info->canonical != NULL
             && g_hash_table_contains (c->allowed_sockets, info->canonical));
}

static gboolean
is_allowed_socket (const Compiler *c,
                   const CordonItem *it,
                   const char *path,
                   const char *real)
{
  return (it->key == CORDON_KEY_SOCKETS_MASK || it->key == CORDON_KEY_SOCKETS_MASK_LISTENING)
         && (socket_is_allowed (c, path) || g_hash_table_contains (c->allowed_sockets, real));
}

/* Masks what is at `path` at its canonical place (symlinks resolved: a
 * mask mounted through a symlinked parent would land elsewhere) and, for
 * a socket, at every other place the host shows it (invariant 7). A
 * socket the caller cannot connect to needs no mask: the sandbox, with
 * less authority than the caller, cannot either. */
static void
add_mask_path (Compiler *c,
               const CordonItem *it,
               const char *path,
               const char *what)
{
  const CordonPathInfo *info = cordon_host_facts_lookup (c->facts, path);
  const char *real = info != NULL && info->canonical != NULL ? info->canonical : path;
  const CordonPathInfo *rinfo = cordon_host_facts_lookup (c->facts, real);
  CordonPathKind kind = rinfo != NULL ? rinfo->kind : CORDON_PATH_ABSENT;
  g_autofree char *why = NULL;

  if (is_allowed_socket (c, it, path, real))
    {
      cordon_plan_add_skip (c->plan, it, path, "allowed by [sockets] allow=");
      return;
    }
  if (kind == CORDON_PATH_ABSENT || kind == CORDON_PATH_SYMLINK)
    {
      /* Never create a placeholder on the host: nothing there, nothing to hide. */
      cordon_plan_add_skip (c->plan, it, real, "absent on this host: nothing to mask");
      return;
    }
  /* /proc/net/unix lists the path a socket was bound to, in whatever
   * mount namespace that was: only a socket there now is masked, never
   * a file or directory another process's socket happens to name. */
  if (it->key == CORDON_KEY_SOCKETS_MASK_LISTENING && kind != CORDON_PATH_SOCKET)
    {
      cordon_plan_add_skip (c->plan, it, real, "not a socket on this host: left alone");
      return;
    }
  if (kind == CORDON_PATH_SOCKET && !rinfo->connectable)
    {
      cordon_plan_add_skip (c->plan, it, real,
                            "the caller cannot connect to it (no write permission): no mask needed");
      return;
    }
  if (real != path)
    why = g_strconcat ("mask ", what, " (", cordon_path_kind_name (kind), "), reached through the symlinked path ",
                       path, NULL);
  else
    why = g_strconcat ("mask ", what, " (", cordon_path_kind_name (kind), ")", NULL);
  mask_one (c, it, real, kind, why);
  for (guint i = 0; kind == CORDON_PATH_SOCKET && rinfo->aliases != NULL && i < rinfo->aliases->len; i++)
    {
      const char *alias = g_ptr_array_index (rinfo->aliases, i);
      g_autofree char *alias_why = g_strconcat ("mask ", what, " (socket), also at ", real, NULL);

      mask_one (c, it, alias, kind, alias_why);
    }
}

static gboolean
add_mask_pattern (Compiler *c,
                  const CordonItem *it,
                  const char *text,
                  const char *what,
                  GError **error)
{
  const char *missing = NULL;
  g_autofree char *path = expand_path (c, text, &missing);

  if (path == NULL)
    {
      g_autofree char *reason = g_strconcat ("${", missing, "} is not set on this host: nothing to mask", NULL);

      cordon_plan_add_skip (c->plan, it, text, reason);
      return TRUE;
    }
  if (cordon_path_has_glob (path))
    {
      GPtrArray *matches = cordon_host_facts_glob_matches (c->facts, path);

      if (matches != NULL && matches->len >= CORDON_HOST_FACTS_MAX_GLOB)
        {
          cordon_error_set_at (error, &it->loc, CORDON_ERROR_HOST,
                               "glob '%s' matches %d paths or more; narrow it",
                               path, CORDON_HOST_FACTS_MAX_GLOB);
          return FALSE;
        }
      if (matches == NULL || matches->len == 0)
        cordon_plan_add_skip (c->plan, it, path, "glob matches nothing on this host");
      for (guint i = 0; matches != NULL && i < matches->len; i++)
        add_mask_path (c, it, g_ptr_array_index (matches, i), what);
      return TRUE;
    }
  add_mask_path (c, it, path, what);
  return TRUE;
}

/* The sockets a variable such as SSH_AUTH_SOCK or DOCKER_HOST points at
 * (every address of a D-Bus list: clients try them in turn): masked
 * wherever they are, catalogued paths or not, since the variable is how
 * clients find them. The paths, not the value, are reported. */
static void
add_env_socket_mask (Compiler *c,
                     const CordonItem *it,
                     const char *var,
                     const char *what)
{
  g_auto(GStrv) paths = cordon_socket_paths_from_env (var, cordon_host_facts_getenv (c->facts, var),
                                                      c->facts->xdg_runtime_dir);
  g_autofree char *why = g_strconcat (what, ", located by $", var, NULL);

  for (guint i = 0; paths[i] != NULL; i++)
    {
      /* The variable tells the sandbox where the authority lives: it
       * goes with a socket it names that is not exempt, even if the
       * environment allowlist passes it. */
      if (!socket_is_allowed (c, paths[i]))
        g_hash_table_insert (c->masked_vars, g_strdup (var), g_strdup (what));
      add_mask_path (c, it, paths[i], why);
    }
}

/* Every path an allow= glob (${VARS} expanded) matches on this host, and
 * the path itself when it holds no glob. */
static void
allow_socket_glob (Compiler *c,
                   const CordonItem *it,
                   const char *glob)
{
  g_autofree char *p = expand_path (c, glob, NULL);
  GPtrArray *m = p != NULL ? cordon_host_facts_glob_matches (c->facts, p) : NULL;

  for (guint k = 0; m != NULL && k < m->len; k++)
    allow_socket_path (c, it, g_ptr_array_index (m, k));
  if (p != NULL && !cordon_path_has_glob (p))
    allow_socket_path (c, it, p);
}

static void
collect_allowed_sockets (Compiler *c)
{
  GPtrArray *allow = cordon_policy_get_list (c->policy, CORDON_KEY_SOCKETS_ALLOW);

  for (guint i = 0; i < allow->len; i++)
    {
      const CordonItem *it = g_ptr_array_index (allow, i);
      const CordonSocketEntry *entry = it->text[0] == '@' ? cordon_socket_catalog_lookup (it->text + 1) : NULL;
      gboolean located = FALSE;

      /* Where the caller's variable is the socket's path (SSH_AUTH_SOCK),
       * that one is the caller's: only it is let through; the catalog's
       * globs, which match every agent of the caller's (one forwarded
       * from another login, say), only without. */
      for (guint j = 0; entry != NULL && entry->env != NULL && entry->env[j] != NULL; j++)
        {
          g_auto(GStrv) paths = cordon_socket_paths_from_env (entry->env[j],
                                                              cordon_host_facts_getenv (c->facts, entry->env[j]),
                                                              c->facts->xdg_runtime_dir);

          for (guint k = 0; paths[k] != NULL; k++)
            allow_socket_path (c, it, paths[k]);
          located = located || (paths[0] != NULL && cordon_socket_env_names_the_one (entry->env[j]));
        }
      for (guint j = 0; entry != NULL && !located && entry->paths[j] != NULL; j++)
        allow_socket_glob (c, it, entry->paths[j]);
      if (entry == NULL)
        allow_socket_glob (c, it, it->text);
    }
}

/* A mask beneath a directory mask is already hidden, and could not be
 * mounted anyway: the empty read-only tmpfs has no place for its mount
 * point. Report it instead. */
static void
flush_masks (Compiler *c)
{
  g_autoptr(GPtrArray) dirs = g_ptr_array_new ();

  g_ptr_array_sort (c->masks, compare_mounts);
  for (guint i = 0; i < c->masks->len; i++)
    {
      CordonOp *op = g_ptr_array_index (c->masks, i);

      for (guint j = 0; j < dirs->len; j++)
        {
          const CordonOp *dir = g_ptr_array_index (dirs, j);

          if (cordon_path_is_ancestor (dir->dest, op->dest, FALSE))
            {
              g_autofree char *reason = g_strdup_printf ("hidden by the mask of %s: no mask needed",
                                                         dir->dest);

              cordon_plan_add_skip_at (c->plan, op->key, &op->rule, op->dest, reason);
              g_ptr_array_remove_index (c->masks, i--);
              op = NULL;
              break;
            }
        }
      if (op != NULL && op->kind == CORDON_OP_MASK_DIR)
        g_ptr_array_add (dirs, op);
    }
  flush_sorted (c, c->masks);
}

static gboolean
add_masks (Compiler *c,
           GError **error)
{
  GPtrArray *secrets = cordon_policy_get_list (c->policy, CORDON_KEY_SECRETS_MASK);
  GPtrArray *sockets = cordon_policy_get_list (c->policy, CORDON_KEY_SOCKETS_MASK);
  const CordonItem *listening = scalar_item (c, CORDON_KEY_SOCKETS_MASK_LISTENING);

  if (listening != NULL && listening->num
      && (c->facts->unix_paths == NULL || c->facts->unix_unreadable))
    {
      cordon_error_set_at (error, &listening->loc, CORDON_ERROR_HOST,
                           "mask-listening=true, but /proc/net/unix cannot be read on this host");
      return FALSE;
    }
  collect_allowed_sockets (c);
  for (guint i = 0; i < secrets->len; i++)
    {
      const CordonItem *it = g_ptr_array_index (secrets, i);

      if (!add_mask_pattern (c, it, it->text, "secret", error))
        return FALSE;
    }
  for (guint i = 0; i < sockets->len; i++)
    {
      const CordonItem *it = g_ptr_array_index (sockets, i);
      const CordonSocketEntry *entry = it->text[0] == '@' ? cordon_socket_catalog_lookup (it->text + 1) : NULL;
      g_autofree char *what = g_strconcat ("socket ", it->text, NULL);

      if (entry == NULL && !add_mask_pattern (c, it, it->text, what, error))
        return FALSE;
      for (guint j = 0; entry != NULL && entry->paths[j] != NULL; j++)
        if (!add_mask_pattern (c, it, entry->paths[j], what, error))
          return FALSE;
      for (guint j = 0; entry != NULL && entry->env != NULL && entry->env[j] != NULL; j++)
        add_env_socket_mask (c, it, entry->env[j], what);
    }
  for (guint i = 0; listening != NULL && listening->num && i < c->facts->unix_paths->len; i++)
    add_mask_path (c, listening, g_ptr_array_index (c->facts->unix_paths, i), "listening socket");
  show_allowed_sockets (c);
  flush_masks (c);
  return TRUE;
}

/* cordon's own directories (the caller's policies, the probe cache) stay
 * read-only wherever a writable bind would expose them: a sandbox must not
 * rewrite the policy or the probe answer of the next run. Nor may it move
 * one aside and make another in its place: every directory between the
 * writable bind and the protected one is bound onto itself, a mount point
 * that cannot be renamed or removed (it stays writable). A protected
 * directory that is absent, or reached through a symlink, below a
 * writable bind cannot be held so: the plan records it, and the run is
 * refused (plan->unprotected_dir). */
static void
protect_dir (Compiler *c,
             const char *dir)
{
  const CordonOp *cover = covering_mount (c, dir);
  g_autoptr(GPtrArray) between = g_ptr_array_new_with_free_func (g_free);
  const char *hole = NULL;
  guint before;

  if (cover == NULL || cover->kind != CORDON_OP_BIND)
    return;
  for (g_autofree char *p = g_strdup (dir); p != NULL && !g_str_equal (p, cover->dest);)
    {
      const CordonPathInfo *info = cordon_host_facts_lookup (c->facts, p);
      char *parent = g_path_get_dirname (p);

      if (info == NULL || info->kind == CORDON_PATH_ABSENT)
        hole = "is missing under a writable bind: the sandbox could make it (cordon run makes it first)";
      else if (info->kind != CORDON_PATH_DIR)
        hole = "is reached through a symlink (or is not a directory) under a writable bind";
      else if (!g_str_equal (p, dir))
        g_ptr_array_insert (between, 0, g_strdup (p));
      g_free (p);
      p = parent;
      if (g_str_equal (p, "/"))
        break;
    }
  if (hole != NULL)
    {
      g_autofree char *reason = g_strdup_printf ("cordon's own directory %s", hole);

      cordon_plan_add_skip (c->plan, NULL, dir, reason);
      if (c->plan->unprotected_dir == NULL)
        c->plan->unprotected_dir = g_strdup (dir);
      return;
    }
  before = c->plan->ops->len;
  for (guint i = 0; i < between->len; i++)
    {
      const char *p = g_ptr_array_index (between, i);

      cordon_plan_add_op (c->plan, CORDON_OP_BIND, p, p, NULL,
                          "above cordon's own directory: a mount point, so it cannot be moved aside");
    }
  cordon_plan_add_op (c->plan, CORDON_OP_RO_BIND, dir, dir, NULL,
                      "cordon's own directory, read-only under a writable bind");
  cordon_plan_remount_below (c->plan, between->len > 0 ? g_ptr_array_index (between, 0) : dir, dir, before);
}

/* Each directory as cordon names it and, where a symlink above it makes
 * them differ, as it really is: a writable bind may be given either way. */
static void
add_protected_dirs (Compiler *c)
{
  const char *dirs[] = { c->facts->config_dir, c->facts->cache_dir };
  const char *real[] = { c->facts->config_dir_real, c->facts->cache_dir_real };

  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      if (dirs[i] != NULL)
        protect_dir (c, dirs[i]);
      if (dirs[i] != NULL && real[i] != NULL && !g_str_equal (real[i], dirs[i]))
        protect_dir (c, real[i]);
    }
}

/* The protected entries, for the audit after the run: where protect.c
 * could hold none read-only nor put a placeholder (an entry whose
 * directory was absent), the sandbox may make one, and the audit names
 * it. */
static void
add_protect_entries (Compiler *c)
{
  g_autoptr(GPtrArray) items = cordon_policy_get_protected (c->policy);
  GPtrArray *entries = g_ptr_array_new ();

  for (guint i = 0; i < items->len; i++)
    g_ptr_array_add (entries, cordon_protect_entry_path (g_ptr_array_index (items, i)));
  g_ptr_array_add (entries, NULL);
  c->plan->protect_entries = (GStrv) g_ptr_array_free (entries, FALSE);
}

static gboolean
add_chdir (Compiler *c,
           GError **error)
{
  const CordonOp *cover;
  CordonPathKind kind;

  if (!lookup_kind (c, c->facts->workdir, NULL, &kind, error))
    return FALSE;
  if (kind != CORDON_PATH_DIR)
    {
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST,
                   "workdir '%s' is not a directory on this host", c->facts->workdir);
      return FALSE;
    }
  c->plan->workdir = g_strdup (c->facts->workdir);
  cover = covering_mount (c, c->facts->workdir);
  if (cover == NULL || cover->kind == CORDON_OP_TMPFS || cover->kind == CORDON_OP_HIDE_DIR)
    {
      cordon_plan_add_skip (c->plan, NULL, c->facts->workdir,
                            "workdir not visible in the sandbox: the command starts in /");
      return TRUE;
    }
  cordon_plan_add_op (c->plan, CORDON_OP_CHDIR, NULL, c->facts->workdir, NULL,
                      "the command starts in the workdir");
  return TRUE;
}

static CordonEnvDecision *
decide (GHashTable *decisions,
        const char *name)
{
  CordonEnvDecision *d = g_hash_table_lookup (decisions, name);

  if (d == NULL)
    {
      d = g_new0 (CordonEnvDecision, 1);
      d->name = g_strdup (name);
      g_hash_table_insert (decisions, d->name, d);
    }
  return d;
}

static const CordonItem *
allowing_item (const Compiler *c,
               const char *name)
{
  GPtrArray *allow = cordon_policy_get_list (c->policy, CORDON_KEY_ENV_ALLOW);

  for (guint i = 0; i < allow->len; i++)
    {
      const CordonItem *it = g_ptr_array_index (allow, i);

      if (cordon_glob_match (it->text, name))
        return it;
    }
  return NULL;
}

static void
decide_host_env (Compiler *c,
                 GHashTable *decisions,
                 GHashTable *values)
{
  for (guint i = 0; c->facts->env[i] != NULL; i++)
    {
      const char *entry = c->facts->env[i];
      const char *eq = strchr (entry, '=');
      g_autofree char *name = eq != NULL ? g_strndup (entry, (gsize) (eq - entry)) : NULL;
      const CordonItem *it;
      CordonEnvDecision *d;

      if (name == NULL || !cordon_env_name_is_valid (name))
        continue;
      d = decide (decisions, name);
      it = allowing_item (c, name);
      if (it != NULL)
        d->rule = it->loc;
      if (cordon_env_is_never_pass (name))
        d->reason = g_strdup ("dropped: never-pass (runs code of the caller's choosing)");
      else if (g_hash_table_contains (c->masked_vars, name))
        {
          const char *what = g_hash_table_lookup (c->masked_vars, name);

          /* "socket @NAME": the rule that unmasks it, and then the variable passes. */
          d->reason = g_str_has_prefix (what, "socket @")
            ? g_strconcat ("dropped: locates a masked ", what, " (a policy's [sockets] allow=",
                           what + strlen ("socket "), " unmasks it)", NULL)
            : g_strconcat ("dropped: locates a masked ", what, NULL);
        }
      else if (it == NULL)
        d->reason = g_strdup ("dropped: not allowed");
      else
        {
          d->passed = TRUE;
          d->reason = g_strconcat ("passed: allow=", it->text, NULL);
          g_hash_table_insert (values, g_strdup (name), g_strdup (eq + 1));
        }
    }
}

static gboolean
decide_set_env (Compiler *c,
                GHashTable *decisions,
                GHashTable *values,
                GError **error)
{
  GPtrArray *set = cordon_policy_get_list (c->policy, CORDON_KEY_ENV_SET);

  for (guint i = 0; i < set->len; i++)
    {
      const CordonItem *it = g_ptr_array_index (set, i);
      const char *eq = strchr (it->text, '=');
      g_autofree char *name = g_strndup (it->text, (gsize) (eq - it->text));
      const char *missing = NULL;
      g_autofree char *value = cordon_vars_expand (eq + 1, &c->vars, &missing);
      CordonEnvDecision *d;

      if (cordon_env_is_never_pass (name))
        {
          cordon_error_set_at (error, &it->loc, CORDON_ERROR_POLICY,
                               "'%s' is in the never-pass set and cannot be set", name);
          return FALSE;
        }
      if (value == NULL)
        {
          cordon_error_set_at (error, &it->loc, CORDON_ERROR_HOST,
                               "${%s} is not set on this host", missing);
          return FALSE;
        }
      d = decide (decisions, name);
      d->passed = TRUE;
      d->set_by_policy = TRUE;
      d->rule = it->loc;
      g_free (d->reason);
      d->reason = g_strdup ("set by the policy");
      g_hash_table_insert (values, g_strdup (name), g_steal_pointer (&value));
    }
  return TRUE;
}

/* [environment] git-identity: the caller's user.name and user.email as
 * git's own variables, where neither the caller (allowed) nor the policy
 * (set=) gives one already. Values, not a file: nothing else of the
 * caller's git config enters (src/git-identity.h). */
static void
decide_git_identity (Compiler *c,
                     GHashTable *decisions,
                     GHashTable *values)
{
  static const char * const vars[][2] = {
    { "GIT_AUTHOR_NAME", "name" }, { "GIT_COMMITTER_NAME", "name" },
    { "GIT_AUTHOR_EMAIL", "email" }, { "GIT_COMMITTER_EMAIL", "email" },
  };
  const CordonItem *it = scalar_item (c, CORDON_KEY_ENV_GIT_IDENTITY);

  if (it == NULL || !it->num)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (vars); i++)
    {
      gboolean name = g_str_equal (vars[i][1], "name");
      const char *value = name ? c->facts->git_name : c->facts->git_email;
      const char *from = name ? c->facts->git_name_from : c->facts->git_email_from;
      CordonEnvDecision *d = g_hash_table_lookup (decisions, vars[i][0]);

      if (value == NULL && i % 2 == 0)
        cordon_plan_add_skip (c->plan, it, name ? "user.name" : "user.email",
                              "the caller's git config sets none that cordon takes: git inside has no such "
                              "identity");
      if (value == NULL || (d != NULL && d->passed))
        continue;
      d = decide (decisions, vars[i][0]);
      d->passed = TRUE;
      d->set_by_policy = TRUE;
      d->rule = it->loc;
      g_free (d->reason);
      d->reason = g_strdup_printf ("set from user.%s of %s (git-identity)", vars[i][1], from);
      g_hash_table_insert (values, g_strdup (vars[i][0]), g_strdup (value));
    }
}

/* [cache] use=: the variable that names each cache to its tool (GOCACHE,
 * PIP_CACHE_DIR, ...) is its place in the sandbox, whatever the caller
 * passes; a policy's set= of it wins. */
static void
decide_cache_env (Compiler *c,
                  GHashTable *decisions,
                  GHashTable *values)
{
  for (guint i = 0; c->facts->caches != NULL && i < c->facts->caches->len; i++)
    {
      const CordonCacheDir *dir = g_ptr_array_index (c->facts->caches, i);
      const char *var = dir->entry->env;
      CordonEnvDecision *d;

      /* add_caches bound each one, or the compile failed there. */
      if (var == NULL || dir->path == NULL || c->facts->home == NULL
          || ((d = g_hash_table_lookup (decisions, var)) != NULL && d->set_by_policy))
        continue;
      d = decide (decisions, var);
      d->passed = TRUE;
      d->set_by_policy = TRUE;
      d->rule = cache_item (c, dir->entry->use)->loc;
      g_free (d->reason);
      d->reason = g_strdup_printf ("set by [cache] use=%s: its cache", dir->entry->use);
      g_hash_table_insert (values, g_strdup (var), g_build_filename (c->facts->home, dir->entry->home_path, NULL));
    }
}

static int
compare_decisions (gconstpointer a,
                   gconstpointer b)
{
  return strcmp ((*(const CordonEnvDecision * const *) a)->name,
                 (*(const CordonEnvDecision * const *) b)->name);
}

/* The envp bwrap is exec'd with (invariant 1): only what is allowed or
 * set, never-pass names dropped whatever the policy says. */
static gboolean
add_environment (Compiler *c,
                 GError **error)
{
  g_autoptr(GHashTable) decisions = g_hash_table_new_full (g_str_hash, g_str_equal,
                                                           NULL, (GDestroyNotify) cordon_env_decision_free);
  g_autoptr(GHashTable) values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  GHashTableIter iter;
  gpointer key, value;

  decide_host_env (c, decisions, values);
  if (!decide_set_env (c, decisions, values, error))
    return FALSE;
  decide_git_identity (c, decisions, values);
  decide_cache_env (c, decisions, values);
  g_hash_table_iter_init (&iter, decisions);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (c->plan->env_decisions, value);
  g_hash_table_steal_all (decisions);
  g_ptr_array_sort (c->plan->env_decisions, compare_decisions);
  g_hash_table_iter_init (&iter, values);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_ptr_array_add (c->plan->envp, g_strconcat (key, "=", value, NULL));
  g_ptr_array_sort (c->plan->envp, cordon_compare_string_ptrs);
  return TRUE;
}

static void
compiler_clear (Compiler *c)
{
  g_clear_pointer (&c->mounts, g_ptr_array_unref);
  g_clear_pointer (&c->masks, g_ptr_array_unref);
  g_clear_pointer (&c->allowed_sockets, g_hash_table_unref);
  g_clear_pointer (&c->masked_vars, g_hash_table_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Compiler, compiler_clear)

/* The plan's scalars and lists that are no mount: the timeout, the
 * seccomp profile and its exceptions, the description. */
static void
add_settings (Compiler *c)
{
  CordonPlan *plan = c->plan;
  GPtrArray *allow = cordon_policy_get_list (c->policy, CORDON_KEY_SECCOMP_ALLOW);
  GPtrArray *deny = cordon_policy_get_list (c->policy, CORDON_KEY_SECCOMP_DENY);
  const CordonItem *description = scalar_item (c, CORDON_KEY_POLICY_DESCRIPTION);

  const CordonItem *on_finding = scalar_item (c, CORDON_KEY_AUDIT_ON_FINDING);

  plan->timeout = (guint64) cordon_policy_get_num (c->policy, CORDON_KEY_LIMITS_TIMEOUT);
  plan->audit = cordon_policy_get_num (c->policy, CORDON_KEY_AUDIT_WALK) != 0;
  plan->audit_mode = (CordonAuditMode) cordon_policy_get_num (c->policy, CORDON_KEY_AUDIT_ON_FINDING);
  plan->audit_max = (guint) cordon_policy_get_num (c->policy, CORDON_KEY_AUDIT_MAX_ENTRIES);
  if (on_finding != NULL)
    plan->audit_rule = on_finding->loc;
  plan->seccomp = (CordonSeccompProfile) cordon_policy_get_num (c->policy, CORDON_KEY_SECCOMP_PROFILE);
  for (guint i = 0; i < allow->len; i++)
    g_ptr_array_add (plan->seccomp_allow, g_strdup (((CordonItem *) g_ptr_array_index (allow, i))->text));
  for (guint i = 0; i < deny->len; i++)
    {
      const CordonItem *it = g_ptr_array_index (deny, i);

      g_ptr_array_add (plan->seccomp_deny, g_strdup (it->text));
      g_array_append_val (plan->seccomp_deny_rules, it->loc);
    }
  if (scalar_item (c, CORDON_KEY_SECCOMP_PROFILE) != NULL)
    plan->seccomp_rule = scalar_item (c, CORDON_KEY_SECCOMP_PROFILE)->loc;
  /* A shared network reaches every abstract socket of the host: no mount
   * can hide those, so they are at least listed (invariant 8). */
  for (guint i = 0; !(plan->namespaces & CORDON_NS_NET) && c->facts->abstract_sockets != NULL
       && i < c->facts->abstract_sockets->len; i++)
    g_ptr_array_add (plan->abstract_sockets, g_strdup (g_ptr_array_index (c->facts->abstract_sockets, i)));
  if (description != NULL && description->text[0] != '\0')
    plan->description = g_strdup (description->text);
}

static gboolean
takes_syscall (const CordonPlan *plan,
               const char *name)
{
  return g_ptr_array_find_with_equal_func (plan->seccomp_allow, name, g_str_equal, NULL);
}

/* Invariant 4: no nested user namespace, by bwrap too where it can
 * (the filter refuses CLONE_NEWUSER already). A policy that takes
 * unshare or clone out of the profile asks for user namespaces inside
 * (a nested sandbox): bwrap must not refuse them either. */
static gboolean
wants_disable_userns (const CordonPlan *plan)
{
  return (plan->namespaces & CORDON_NS_USER) && !takes_syscall (plan, "unshare") && !takes_syscall (plan, "clone");
}

static CordonOp *
disable_userns_op (const CordonItem *profile)
{
  CordonOp *op = cordon_op_new (CORDON_OP_DISABLE_USERNS, NULL, NULL, profile, "no user namespace inside, by bwrap too");

  op->key = CORDON_KEY_SECCOMP_PROFILE;
  return op;
}

/* What bwrap is given beside the plan's mounts, last: the helper's bind,
 * the status fd, --disable-userns and the filter's fd. The bind comes
 * after the masks, against the letter of invariant 6, harmlessly: its
 * mount point is in the fresh /dev tmpfs (always mounted, before any
 * mask), where no mask of a host path can lie. */
static void
add_launch_ops (Compiler *c)
{
  CordonPlan *plan = c->plan;
  const CordonItem *profile = scalar_item (c, CORDON_KEY_SECCOMP_PROFILE);

  if (c->facts->helper_path != NULL)
    cordon_plan_add_op (plan, CORDON_OP_HELPER_BIND, c->facts->helper_path, CORDON_EXEC_SANDBOX_PATH,
                        NULL, "cordon-exec, the helper that proves the denials and starts the command");
  /* The last mount point in /dev is in: no file can be made there now;
   * nor in the tmpfs bwrap makes the root of under root=minimal. */
  if (plan->scratch > 0)
    cordon_plan_add_op (plan, CORDON_OP_OPTION, "--remount-ro", "/dev", scalar_item (c, CORDON_KEY_LIMITS_SCRATCH),
                        "/dev read-only: the tmpfs bwrap makes there has no size");
  if (plan->scratch > 0 && is_minimal_root (c))
    cordon_plan_add_op (plan, CORDON_OP_OPTION, "--remount-ro", "/", scalar_item (c, CORDON_KEY_LIMITS_SCRATCH),
                        "/ read-only: the tmpfs bwrap makes the minimal root of has no size");
  cordon_plan_add_op (plan, CORDON_OP_STATUS_FD, NULL, NULL, NULL,
                      "bwrap's status: the sandbox's first pid, its exit status")->fd = CORDON_BWRAP_FD_STATUS;
  /* bwrap's own init would be the one process inside without the
   * helper's filter, rlimits and keyring, and open to the sandbox: code
   * of its uid may write its memory. */
  if (c->facts->helper_path != NULL && (plan->namespaces & CORDON_NS_PID))
    cordon_plan_add_op (plan, CORDON_OP_AS_PID_1, NULL, NULL, NULL,
                        "cordon-exec is the pid namespace's init: no process inside lacks its filter");
  if (c->options->disable_userns && wants_disable_userns (plan))
    g_ptr_array_add (plan->ops, disable_userns_op (profile));
  if (plan->seccomp != CORDON_SECCOMP_NONE)
    {
      CordonOp *op = cordon_plan_add_op (plan, CORDON_OP_SECCOMP, NULL, NULL, profile,
                                         "the seccomp filter, its BPF in a sealed memfd");

      op->key = CORDON_KEY_SECCOMP_PROFILE;
      op->fd = CORDON_BWRAP_FD_SECCOMP;
    }
}

/* `plan`, compiled from `policy` without the option disable_userns, made
 * the plan compiled with it: the one op that option adds, where compile
 * adds it (before the filter's, the last). What the probe learns of this
 * bwrap then costs no second compile. Pure; the plan must not have the
 * op already. */
void
cordon_compile_add_disable_userns (CordonPlan *plan,
                                   const CordonPolicy *policy)
{
  guint last = plan->ops->len;

  if (!wants_disable_userns (plan))
    return;
  if (last > 0 && ((CordonOp *) g_ptr_array_index (plan->ops, last - 1))->kind == CORDON_OP_SECCOMP)
    last--;
  g_ptr_array_insert (plan->ops, (gint) last,
                      disable_userns_op (cordon_policy_get (policy, CORDON_KEY_SECCOMP_PROFILE)));
}

CordonPlan *
cordon_compile (const CordonPolicy *policy,
                const CordonHostFacts *facts,
                GError **error)
{
  return cordon_compile_with (policy, facts, NULL, error);
}

CordonPlan *
cordon_compile_with (const CordonPolicy *policy,
                     const CordonHostFacts *facts,
                     const CordonCompileOptions *options,
                     GError **error)
{
  static const CordonCompileOptions none = { FALSE, FALSE, FALSE };
  g_autoptr(CordonPlan) plan = cordon_plan_new (cordon_policy_get_name (policy));
  g_auto(Compiler) c = { 0 };

  c.policy = policy;
  c.facts = facts;
  c.options = options != NULL ? options : &none;
  c.plan = plan;
  c.mounts = g_ptr_array_new_with_free_func ((GDestroyNotify) cordon_op_free);
  c.masks = g_ptr_array_new_with_free_func ((GDestroyNotify) cordon_op_free);
  c.allowed_sockets = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  c.masked_vars = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  cordon_host_facts_get_vars (facts, c.uid_buf, &c.vars);
  if (g_str_equal (facts->workdir, "/"))
    {
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_USAGE,
                   "workdir '/' is refused: a policy that makes the workdir writable "
                   "would make the whole host writable");
      return NULL;
    }
  add_namespaces (&c);
  if (!add_hostname (&c, error))
    return NULL;
  add_session_ops (&c);
  if (!add_root (&c, error))
    return NULL;
  add_proc_dev (&c);
  if (!add_mounts (&c, error) || !cordon_protect_compile (plan, policy, facts, error))
    return NULL;
  add_protected_dirs (&c);
  add_protect_entries (&c);
  /* Before the limits: what the sandbox's filter lets through decides
   * whether a cgroup of the caller's can hold them. */
  add_settings (&c);
  if (!add_masks (&c, error))
    return NULL;
  cordon_protect_drop_masked (plan);
  if (!add_chdir (&c, error)
      || !add_environment (&c, error) || !cordon_identity_compile (plan, policy, facts, error)
      || !cordon_resource_limits_compile (plan, policy, facts, error))
    return NULL;
  cordon_hide_seal (plan);
  add_launch_ops (&c);
  return g_steal_pointer (&plan);
}
