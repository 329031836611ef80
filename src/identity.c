/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* identity: a root caller's sandbox is not host root.
 *
 * Dropping capabilities is not enough for uid 0: every check that
 * compares uids rather than capabilities still passes (the files of
 * /proc/sys, /etc/shadow, any file of root's with mode 0600). So the
 * sandbox of a root caller runs as another host user ([identity]
 * host-user=, by default a dedicated uid that owns nothing): cordon-keeper
 * starts bwrap as uid 0 of a user namespace of root's whose uid 0 is that
 * user (see userns-fork.c for why root must own it), and the sandbox is
 * uid 0 there, without capabilities, and that user on the host.
 *
 * Two things must be ready before, in a mount namespace of the keeper's
 * own (nothing of it is seen on the host):
 * - each writable path is bound in idmapped: the user's writes there are
 *   the caller's on the host (files it makes are root's), and root's
 *   files there are the user's to change; the file system must support
 *   idmapped mounts (Linux 5.12 and later);
 * - bwrap, run as that user, must reach every path it binds. Where a
 *   directory on the way cannot be searched by the user (root's 0700
 *   home, a private mktemp -d), an empty read-only tmpfs is laid over it
 *   (a shadow) holding only the paths below it the sandbox is given. The
 *   user could not have searched it, so it loses nothing it could see.
 * A mask or a tmpfs the user cannot reach anyway is left out, and the
 * verification proves the path unreachable instead.
 *
 * Pure: it reads the plan, the policy and the host facts. */
#include "config.h"

#include <linux/capability.h>
#include <string.h>

#include "identity.h"
#include "path-util.h"
#include "seccomp-filter.h"

#define CAP_BIT(n) (G_GUINT64_CONSTANT (1) << (n))
#define CAP_SETGID_BIT CAP_BIT (CAP_SETGID)
#define CAP_SETUID_BIT CAP_BIT (CAP_SETUID)
#define CAP_SYS_ADMIN_BIT CAP_BIT (CAP_SYS_ADMIN)

typedef struct
{
  CordonPlan *plan;
  const CordonHostFacts *facts;
  const CordonItem *rule;     /* [identity] host-user, NULL for its default */
  uid_t uid;
  gid_t gid;
} Ctx;

static void
fail (const Ctx *x,
      const CordonLocation *loc,
      GError **error,
      const char *format,
      ...) G_GNUC_PRINTF (4, 5);

static void
fail (const Ctx *x,
      const CordonLocation *loc,
      GError **error,
      const char *format,
      ...)
{
  g_autofree char *msg = NULL;
  va_list ap;

  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  if (loc == NULL && x->rule != NULL)
    loc = &x->rule->loc;
  if (loc != NULL && loc->file != NULL)
    cordon_error_set_at (error, loc, CORDON_ERROR_HOST, "%s", msg);
  else
    g_set_error_literal (error, CORDON_ERROR, CORDON_ERROR_HOST, msg);
}

static const CordonStage *
stage_at_or_above (const Ctx *x,
                   const char *path,
                   CordonStageKind kind)
{
  const CordonStage *best = NULL;

  for (guint i = 0; i < x->plan->stage->len; i++)
    {
      const CordonStage *s = g_ptr_array_index (x->plan->stage, i);

      if (s->kind == kind && cordon_path_is_ancestor (s->path, path, TRUE)
          && (best == NULL || cordon_path_depth (s->path) > cordon_path_depth (best->path)))
        best = s;
    }
  return best;
}

/* May the host user search directory `dir` on the host? Owner, group and
 * other bits as the kernel applies them to it (no supplementary group:
 * the keeper drops them). Below an idmapped writable path, the caller's
 * (root's) files are the user's. Unknown paths are left to bwrap. */
static gboolean
may_search (const Ctx *x,
            const char *dir,
            guint depth)
{
  const CordonPathInfo *info = cordon_host_facts_lookup (x->facts, dir);
  gboolean mapped = stage_at_or_above (x, dir, CORDON_STAGE_IDMAP) != NULL;
  uid_t owner;
  gid_t group;
  guint bits;

  if (info == NULL || info->kind == CORDON_PATH_ABSENT)
    return TRUE;
  if (info->kind == CORDON_PATH_SYMLINK && info->link_target != NULL && depth < 8)
    {
      g_autofree char *parent = g_path_get_dirname (dir);
      g_autofree char *target = g_canonicalize_filename (info->link_target, parent);

      return may_search (x, target, depth + 1);
    }
  owner = mapped ? (info->uid == 0 ? x->uid : (uid_t) -1) : info->uid;
  group = mapped ? (info->gid == 0 ? x->gid : (gid_t) -1) : info->gid;
  bits = owner == x->uid ? info->mode >> 6 : group == x->gid ? info->mode >> 3 : info->mode;
  return (bits & 1) != 0;
}

static char *
describe_dir (const Ctx *x,
              const char *dir)
{
  const CordonPathInfo *info = cordon_host_facts_lookup (x->facts, dir);

  if (info == NULL)
    return g_strdup (dir);
  return g_strdup_printf ("%s (mode %04o, owner uid %u)", dir, info->mode, (guint) info->uid);
}

/* The way to a path: "/", "/a", "/a/b" for "/a/b", every path from the
 * root down to it (empty components skipped), each in turn in one buffer
 * (identity asks it of every mount point, and of every source twice). */
typedef struct
{
  GString *at;        /* the path on the way reached: "/", then "/a"... */
  const char *rest;   /* what is left of the path */
} Way;

static void
way_clear (Way *w)
{
  if (w->at != NULL)
    g_string_free (w->at, TRUE);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Way, way_clear)

static void
way_start (Way *w,
           const char *path)
{
  w->at = g_string_sized_new (strlen (path) + 1);
  w->rest = path;
}

/* The next path on the way in w->at; FALSE past the last. */
static gboolean
way_next (Way *w)
{
  gsize n;

  if (w->at->len == 0)
    {
      g_string_append_c (w->at, '/');
      return TRUE;
    }
  w->rest += strspn (w->rest, "/");
  if (*w->rest == '\0')
    return FALSE;
  n = strcspn (w->rest, "/");
  if (w->at->len == 1)
    g_string_truncate (w->at, 0);
  g_string_append_c (w->at, '/');
  g_string_append_len (w->at, w->rest, (gssize) n);
  w->rest += n;
  return TRUE;
}

/* Whether w->at is the path itself, the last on the way. */
static gboolean
way_at_end (const Way *w)
{
  return w->rest[strspn (w->rest, "/")] == '\0';
}

/* The topmost directory above `path` that the user cannot search, or
 * NULL. */
static char *
first_closed_ancestor (const Ctx *x,
                       const char *path)
{
  g_auto(Way) way = { NULL, NULL };

  way_start (&way, path);
  while (way_next (&way) && !way_at_end (&way))
    if (!may_search (x, way.at->str, 0))
      return g_strdup (way.at->str);
  return NULL;
}

static CordonStage *
add_stage (Ctx *x,
           CordonStageKind kind,
           const char *path,
           const CordonOp *op,
           char *why)
{
  CordonStage *s = g_new0 (CordonStage, 1);
  const CordonPathInfo *info = cordon_host_facts_lookup (x->facts, path);

  s->kind = kind;
  s->path = g_strdup (path);
  s->is_file = kind != CORDON_STAGE_SHADOW && info != NULL && info->kind != CORDON_PATH_DIR;
  s->key = op != NULL ? op->key : CORDON_KEY_INVALID;
  if (op != NULL)
    s->rule = op->rule;
  s->why = why;
  g_ptr_array_add (x->plan->stage, s);
  return s;
}

static gboolean
is_writable_rule (const CordonOp *op)
{
  return op->kind == CORDON_OP_BIND
         && (op->key == CORDON_KEY_FS_WRITABLE || op->key == CORDON_KEY_FS_WRITABLE_TRY
             || op->key == CORDON_KEY_CACHE_USE);
}

/* The first symlink on the way to `path`, `path` itself included, or
 * NULL. */
static char *
symlink_on_the_way (const Ctx *x,
                    const char *path)
{
  g_auto(Way) way = { NULL, NULL };

  way_start (&way, path);
  way_next (&way);   /* "/" is no symlink */
  while (way_next (&way))
    {
      const CordonPathInfo *info = cordon_host_facts_lookup (x->facts, way.at->str);

      if (info != NULL && info->kind == CORDON_PATH_SYMLINK)
        return g_strdup (way.at->str);
    }
  return NULL;
}

/* cordon, as root, cuts the trees of the stage: it follows no symlink to
 * them. One in a writable path, this plan's or an earlier run's, may have
 * been made by a sandbox (through the idmapped path it is root's like any
 * other), and would have root bind a directory of its own writable, or
 * show files of root's. */
static gboolean
refuse_symlinked (const Ctx *x,
                  const char *path,
                  const CordonOp *op,
                  GError **error)
{
  g_autofree char *link = symlink_on_the_way (x, path);

  /* The workdir is known by its real path: how it was named counts too
   * (-C through a symlink an earlier run's sandbox left in its workdir). */
  if (link == NULL && x->facts->workdir_link != NULL && g_str_equal (path, x->facts->workdir))
    link = g_strdup (x->facts->workdir_link);
  if (link == NULL)
    return TRUE;
  fail (x, op != NULL ? &op->rule : NULL, error, "%s is reached through the symlink %s: for a "
        "sandbox run as uid %u, cordon follows no symlink to what it binds in before bwrap (a "
        "sandbox could have made it); name the real path", path, link, (guint) x->uid);
  return FALSE;
}

/* Each writable path of the policy, idmapped (one below another is
 * reached through it, idmap and all). */
static gboolean
stage_writable (Ctx *x,
                GError **error)
{
  for (guint i = 0; i < x->plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (x->plan->ops, i);

      if (!is_writable_rule (op) || stage_at_or_above (x, op->src, CORDON_STAGE_IDMAP) != NULL)
        continue;
      if (!refuse_symlinked (x, op->src, op, error))
        return FALSE;
      add_stage (x, CORDON_STAGE_IDMAP, op->src, op,
                 g_strdup_printf ("writable for uid %u, idmapped: what it makes there is the "
                                  "caller's on the host", (guint) x->uid));
    }
  return TRUE;
}

static gboolean
add_shadow (Ctx *x,
            const char *dir,
            const CordonOp *op,
            GError **error)
{
  g_autofree char *what = NULL;

  if (stage_at_or_above (x, dir, CORDON_STAGE_IDMAP) != NULL)
    {
      what = describe_dir (x, dir);
      fail (x, op != NULL ? &op->rule : NULL, error,
            "uid %u (the sandbox's host user) cannot reach %s: %s, inside a writable path, "
            "cannot be searched by it", (guint) x->uid, op != NULL ? op->src : dir, what);
      return FALSE;
    }
  if (stage_at_or_above (x, dir, CORDON_STAGE_SHADOW) != NULL)
    return TRUE;
  for (guint i = 0; i < x->plan->stage->len; i++)
    {
      const CordonStage *s = g_ptr_array_index (x->plan->stage, i);

      if (s->kind == CORDON_STAGE_SHADOW && cordon_path_is_ancestor (dir, s->path, FALSE))
        g_ptr_array_remove_index (x->plan->stage, i--);
    }
  /* Described only now: most sources below a shadow find it made. */
  what = describe_dir (x, dir);
  add_stage (x, CORDON_STAGE_SHADOW, dir, op,
             g_strdup_printf ("uid %u cannot search %s: an empty read-only tmpfs there holds only "
                              "what the sandbox is given below it", (guint) x->uid, what));
  return TRUE;
}

/* One path bwrap resolves on the host as the user: its binds' sources
 * and the helper. */
static gboolean
stage_source (Ctx *x,
              const char *src,
              const CordonOp *op,
              GError **error)
{
  g_autofree char *closed = first_closed_ancestor (x, src);

  if (closed == NULL)
    return TRUE;
  if (!add_shadow (x, closed, op, error))
    return FALSE;
  /* Already attached, within a tree staged above it. */
  if (stage_at_or_above (x, src, CORDON_STAGE_IDMAP) != NULL
      || stage_at_or_above (x, src, CORDON_STAGE_CLONE) != NULL)
    return TRUE;
  if (!refuse_symlinked (x, src, op, error))
    return FALSE;
  add_stage (x, CORDON_STAGE_CLONE, src, op,
             g_strdup_printf ("bound below %s, which uid %u cannot search: attached in its "
                              "shadow", closed, (guint) x->uid));
  return TRUE;
}

static gboolean
is_source (const CordonOp *op)
{
  return (op->kind == CORDON_OP_BIND || op->kind == CORDON_OP_RO_BIND) && op->src != NULL;
}

static gboolean
stage_sources (Ctx *x,
               GError **error)
{
  for (guint i = 0; i < x->plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (x->plan->ops, i);

      if (is_source (op) && !stage_source (x, op->src, op, error))
        return FALSE;
    }
  if (x->facts->helper_path != NULL && !stage_source (x, x->facts->helper_path, NULL, error))
    return FALSE;
  /* A path bound as a whole cannot also be laid over by a shadow. */
  for (guint i = 0; i < x->plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (x->plan->ops, i);
      const CordonStage *s = is_source (op) ? stage_at_or_above (x, op->src, CORDON_STAGE_SHADOW) : NULL;

      if (s != NULL && g_str_equal (s->path, op->src))
        {
          fail (x, &op->rule, error, "%s is bound, and paths below it too that uid %u (the "
                "sandbox's host user) cannot reach through it: bind only those",
                op->src, (guint) x->uid);
          return FALSE;
        }
    }
  return TRUE;
}

typedef enum { VIEW_OPEN, VIEW_CLOSED, VIEW_MISSING } View;

/* What the user meets at host path `path` in the keeper's mount
 * namespace, shadows and all. */
static View
host_view (const Ctx *x,
           const char *path)
{
  const CordonStage *shadow = stage_at_or_above (x, path, CORDON_STAGE_SHADOW);
  const CordonStage *idmap = stage_at_or_above (x, path, CORDON_STAGE_IDMAP);
  const CordonStage *clone = stage_at_or_above (x, path, CORDON_STAGE_CLONE);
  gboolean attached = (idmap != NULL && (shadow == NULL || cordon_path_is_ancestor (shadow->path, idmap->path, TRUE)))
                      || (clone != NULL && (shadow == NULL || cordon_path_is_ancestor (shadow->path, clone->path, TRUE)));

  if (shadow != NULL && !attached)
    {
      /* In a shadow: only the way to what is attached there exists. */
      for (guint i = 0; i < x->plan->stage->len; i++)
        {
          const CordonStage *s = g_ptr_array_index (x->plan->stage, i);

          if (s->kind != CORDON_STAGE_SHADOW && cordon_path_is_ancestor (path, s->path, TRUE))
            return VIEW_OPEN;
        }
      return VIEW_MISSING;
    }
  return may_search (x, path, 0) ? VIEW_OPEN : VIEW_CLOSED;
}

/* Where on the way to op's mount point the user stops: a directory it
 * cannot search, or the point itself when nothing is there (a shadow).
 * NULL when bwrap, as the user, can make the mount. */
static char *
blocked_at (const Ctx *x,
            const CordonOp *op)
{
  g_auto(Way) way = { NULL, NULL };
  g_autoptr(GPtrArray) covers = cordon_plan_cover_way (x->plan, op->dest, op);

  way_start (&way, op->dest);
  for (guint i = 0; i < covers->len && way_next (&way); i++)
    {
      const char *at = way.at->str;
      const CordonOp *cover = g_ptr_array_index (covers, i);
      g_autofree char *host = NULL;
      View view;

      /* Below bwrap's own mounts (tmpfs, /proc, /dev), bwrap makes the way. */
      if (cover == NULL || (cover->kind != CORDON_OP_RO_BIND && cover->kind != CORDON_OP_BIND))
        continue;
      host = g_str_equal (cover->dest, "/") ? g_strdup (at)
             : g_strconcat (cover->src, at + strlen (cover->dest), NULL);
      view = host_view (x, host);
      if (view == VIEW_MISSING || (!way_at_end (&way) && view == VIEW_CLOSED))
        return g_steal_pointer (&host);
    }
  return NULL;
}

static gboolean
prune_one (Ctx *x,
           guint index,
           GError **error)
{
  CordonOp *op = g_ptr_array_index (x->plan->ops, index);
  g_autofree char *at = NULL;
  g_autofree char *what = NULL;
  g_autofree char *reason = NULL;

  if (op->kind != CORDON_OP_MASK_FILE && op->kind != CORDON_OP_MASK_DIR && op->kind != CORDON_OP_TMPFS
      && op->kind != CORDON_OP_HIDE_DIR && op->kind != CORDON_OP_CHDIR && !is_source (op))
    return TRUE;
  if ((at = blocked_at (x, op)) == NULL)
    return TRUE;
  what = describe_dir (x, at);
  if (op->kind == CORDON_OP_CHDIR || is_source (op))
    {
      fail (x, &op->rule, error, "uid %u (the sandbox's host user) cannot reach %s: %s cannot "
            "be searched by it", (guint) x->uid, op->dest, what);
      return FALSE;
    }
  reason = g_strdup_printf ("uid %u, the sandbox's host user, cannot reach it (%s): no %s needed",
                            (guint) x->uid, what, op->kind == CORDON_OP_TMPFS ? "tmpfs"
                            : op->kind == CORDON_OP_HIDE_DIR ? "hiding" : "mask");
  cordon_plan_add_skip_at (x->plan, op->key, &op->rule, op->dest, reason);
  g_ptr_array_add (x->plan->unreachable, g_strdup (op->dest));
  g_ptr_array_remove_index (x->plan->ops, index);
  return TRUE;
}

static gboolean
prune_unreachable (Ctx *x,
                   GError **error)
{
  for (guint i = x->plan->ops->len; i-- > 0;)
    if (!prune_one (x, i, error))
      return FALSE;
  return TRUE;
}

static gboolean
check_caps (Ctx *x,
            guint64 need,
            GError **error)
{
  if ((x->facts->cap_eff & need) == need)
    return TRUE;
  fail (x, NULL, error, "cordon runs as uid 0 without %s (a container's root, a sandbox's, or root "
        "with them dropped): it cannot run the sandbox as uid %u; grant them, run cordon as an "
        "ordinary user, or set [identity] host-user=root (the sandbox then runs as cordon's uid 0, "
        "a degradation)",
        need & CAP_SYS_ADMIN_BIT ? "CAP_SYS_ADMIN, CAP_SETUID and CAP_SETGID" : "CAP_SETUID and CAP_SETGID",
        (guint) x->uid);
  return FALSE;
}

/* What the sandbox makes in an idmapped writable path is root's on the
 * host. Two ways around the set-ID filter would then hand every local
 * user root: a file capability (keep=setfcap), and the filter's mode
 * rules taken out (profile=none, or allow= of a call that sets a mode). */
static gboolean
refuse_root_makers (Ctx *x,
                    const CordonPolicy *policy,
                    GError **error)
{
  GPtrArray *keep = cordon_policy_get_list (policy, CORDON_KEY_CAPS_KEEP);
  GPtrArray *allow = cordon_policy_get_list (policy, CORDON_KEY_SECCOMP_ALLOW);
  const CordonItem *profile = cordon_policy_get (policy, CORDON_KEY_SECCOMP_PROFILE);

  if (!cordon_plan_has_stage (x->plan, CORDON_STAGE_IDMAP))
    return TRUE;
  for (guint i = 0; i < keep->len; i++)
    {
      const CordonItem *it = g_ptr_array_index (keep, i);

      if (it->num == CAP_SETFCAP)
        {
          fail (x, &it->loc, error, "keep=%s cannot be given to a sandbox run as uid %u with a "
                "writable path: a file capability it set there would be root's on the host",
                it->text, (guint) x->uid);
          return FALSE;
        }
    }
  for (guint i = 0; i < allow->len; i++)
    {
      const CordonItem *it = g_ptr_array_index (allow, i);

      if (cordon_seccomp_sets_mode (it->text))
        {
          fail (x, &it->loc, error, "allow=%s cannot be given to a sandbox run as uid %u with a "
                "writable path: a set-user-ID file it made there would be root's on the host",
                it->text, (guint) x->uid);
          return FALSE;
        }
    }
  if (cordon_policy_get_num (policy, CORDON_KEY_SECCOMP_PROFILE) == CORDON_SECCOMP_NONE)
    {
      fail (x, profile != NULL ? &profile->loc : NULL, error, "profile=none cannot be given to a "
            "sandbox run as uid %u with a writable path: a set-user-ID file it made there would "
            "be root's on the host", (guint) x->uid);
      return FALSE;
    }
  return TRUE;
}

/* bwrap runs as uid 0 of the keeper's user namespace, with every
 * capability there. A sandbox left in that namespace ([namespaces]
 * share=user) is the same uid in the same namespace as bwrap's monitor,
 * which it could then trace (under a shared pid namespace, or the host's
 * /proc, it sees it): write its memory, follow its /proc/PID/root into
 * the keeper's mounts. In a namespace of its own the monitor's
 * capabilities are out of its reach, and so is the monitor. */
static void
unshare_user (Ctx *x)
{
  CordonOp *op;

  if (x->plan->namespaces & CORDON_NS_USER)
    return;
  op = cordon_op_new (CORDON_OP_UNSHARE, NULL, NULL, x->rule,
                      "new user namespace, always for a sandbox run as another host user: "
                      "bwrap's monitor, uid 0 of the namespace it runs in, stays out of reach");
  op->key = CORDON_KEY_IDENTITY_HOST_USER;
  op->ns = CORDON_NS_USER;
  g_ptr_array_insert (x->plan->ops, 0, op);
  x->plan->namespaces |= CORDON_NS_USER;
}

static int
compare_stages (gconstpointer a,
                gconstpointer b)
{
  const CordonStage *x = *(const CordonStage * const *) a;
  const CordonStage *y = *(const CordonStage * const *) b;

  if ((x->kind == CORDON_STAGE_SHADOW) != (y->kind == CORDON_STAGE_SHADOW))
    return x->kind == CORDON_STAGE_SHADOW ? -1 : 1;
  return cordon_path_compare_by_depth (x->path, y->path);
}

gboolean
cordon_identity_compile (CordonPlan *plan,
                         const CordonPolicy *policy,
                         const CordonHostFacts *facts,
                         GError **error)
{
  Ctx x = { plan, facts, cordon_policy_get (policy, CORDON_KEY_IDENTITY_HOST_USER),
            facts->identity.uid, facts->identity.gid };

  plan->host_uid = facts->identity.uid;
  plan->host_gid = facts->identity.gid;
  if (x.rule != NULL)
    plan->identity_rule = x.rule->loc;
  if (facts->uid != 0)
    return TRUE;
  if (facts->identity.error != NULL)
    {
      fail (&x, NULL, error, "[identity] host-user=%s: %s", x.rule != NULL ? x.rule->text : "auto",
            facts->identity.error);
      return FALSE;
    }
  if (facts->identity.uid == 0)
    {
      plan->host_root = facts->root_is_host_root;
      return TRUE;
    }
  plan->switch_identity = TRUE;
  if (!check_caps (&x, CAP_SETUID_BIT | CAP_SETGID_BIT, error))
    return FALSE;
  unshare_user (&x);
  if (!stage_writable (&x, error) || !refuse_root_makers (&x, policy, error)
      || !stage_sources (&x, error) || !prune_unreachable (&x, error))
    return FALSE;
  g_ptr_array_sort (plan->stage, compare_stages);
  return plan->stage->len == 0 || check_caps (&x, CAP_SYS_ADMIN_BIT | CAP_SETUID_BIT | CAP_SETGID_BIT, error);
}
