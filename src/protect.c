/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* protect: see protect.h. Only a path the sandbox could write is bound
 * (its covering mount is a writable bind): one under a read-only bind, a
 * tmpfs or a mask is left as it is, and a bind there would uncover what
 * those hide (a .git file, which the sandbox may have written, can name
 * any directory as its gitdir). */
#include "config.h"

#include <string.h>

#include "cordon-error.h"
#include "path-util.h"
#include "protect.h"
#include "protocol.h"

/* What an entry is: a directory (its item ends in '/'), one of a
 * repository's (.git/...), one whose absence takes a placeholder. */
typedef enum
{
  ENTRY_DIR = 1 << 0,
  ENTRY_IN_GIT = 1 << 1,
  ENTRY_PLACEABLE = 1 << 2,
} EntryFlags;

typedef struct
{
  CordonPlan *plan;
  const CordonHostFacts *facts;
  guint before;               /* the plan's ops before this step */
} Protector;

static gboolean
refuse (const CordonItem *item,
        const char *path,
        const char *what,
        GError **error)
{
  g_autofree char *entry = cordon_protect_entry_path (item);

  cordon_error_set_at (error, &item->loc, CORDON_ERROR_HOST,
                       "'%s' %s: [filesystem] protect= can keep only a file or a directory read-only "
                       "(replace it, or take the entry out with unprotect=%s)", path, what, entry);
  return FALSE;
}

/* What a read-only bind of `path` would not hold: a file with another
 * hard link (written there, it changes here), a symbolic link below a
 * protected directory to what the sandbox may write. FALSE (refused)
 * for the first; the links to elsewhere (a store, /usr) hold. */
static gboolean
check_links (const Protector *p,
             const CordonItem *item,
             const char *path,
             const CordonPathInfo *info,
             GError **error)
{
  GPtrArray *inside = cordon_host_facts_inside (p->facts, path);

  if (info->kind == CORDON_PATH_FILE && info->nlink > 1)
    return refuse (item, path, "has another hard link, where the sandbox could write it", error);
  for (guint i = 0; inside != NULL && i < inside->len; i++)
    {
      const char *child = g_ptr_array_index (inside, i);
      const CordonPathInfo *c = child[0] != '\0' ? cordon_host_facts_lookup (p->facts, child) : NULL;
      g_autofree char *dir = NULL;
      g_autofree char *target = NULL;
      const CordonOp *cover;

      if (child[0] == '\0')
        return refuse (item, path, "holds more than " G_STRINGIFY (CORDON_INSIDE_MAX)
                       " entries, too many to look for links in", error);
      if (c == NULL)
        continue;
      if (c->kind == CORDON_PATH_FILE && c->nlink > 1)
        return refuse (item, child, "has another hard link, where the sandbox could write it", error);
      if (c->kind != CORDON_PATH_SYMLINK || c->link_target == NULL)
        continue;
      dir = g_path_get_dirname (child);
      target = g_canonicalize_filename (c->link_target, dir);
      cover = cordon_plan_cover (p->plan, target, NULL);
      if (cover != NULL && cover->kind == CORDON_OP_BIND)
        return refuse (item, child, "is a symbolic link to what the sandbox may write", error);
    }
  return TRUE;
}

/* The directories strictly between the writable bind `top` and `path`,
 * shallowest first, into `between`; FALSE (refused) where one is a
 * symlink; *absent where one is missing or not a directory (nothing to
 * protect there). */
static gboolean
collect_between (const Protector *p,
                 const CordonItem *item,
                 const char *top,
                 const char *path,
                 GPtrArray *between,
                 gboolean *absent,
                 GError **error)
{
  *absent = FALSE;
  for (g_autofree char *d = g_path_get_dirname (path); strlen (d) > strlen (top);)
    {
      const CordonPathInfo *info = cordon_host_facts_lookup (p->facts, d);
      char *parent;

      /* A file on the way (a worktree's .git) holds nothing below it. */
      if (info == NULL || info->kind != CORDON_PATH_DIR)
        *absent = TRUE;
      if (info != NULL && info->kind == CORDON_PATH_SYMLINK)
        return refuse (item, d, "is a symbolic link on the way", error);
      g_ptr_array_insert (between, 0, g_strdup (d));
      parent = g_path_get_dirname (d);
      g_free (d);
      d = parent;
    }
  return TRUE;
}

static CordonOp *
add_pinned (Protector *p,
            CordonOpKind kind,
            const char *path,
            const CordonItem *item,
            const char *why)
{
  CordonOp *op = cordon_plan_add_op (p->plan, kind, kind == CORDON_OP_MASK_DIR ? NULL : path, path, item, why);

  op->pinned = TRUE;
  return op;
}

/* Each directory on the way pinned once: a second entry's way starts
 * at the first's pin (its cover). One pinned now hides what earlier
 * steps mounted below it: made again after it (but not below the
 * read-only entry). */
static void
pin_between (Protector *p,
             const CordonItem *item,
             const char *path,
             GPtrArray *between)
{
  for (guint i = 0; i < between->len; i++)
    {
      add_pinned (p, CORDON_OP_BIND, g_ptr_array_index (between, i), item,
                  "above a protected path: a mount point, so it cannot be moved aside");
      cordon_plan_remount_below (p->plan, g_ptr_array_index (between, i), path, p->before);
    }
}

/* Not in a writable bind's own directory the caller cannot write nor
 * chmod: neither can the sandbox, which cannot move it aside either (a
 * mount point); the keeper could not make the placeholder. Below it, a
 * directory of someone else's could be moved aside: the keeper's mkdir
 * there fails the launch instead. */
static void
place_placeholder (Protector *p,
                   const CordonItem *item,
                   const char *path,
                   const char *top,
                   GPtrArray *between)
{
  g_autofree char *dir = g_path_get_dirname (path);
  const CordonPathInfo *info = cordon_host_facts_lookup (p->facts, dir);

  if (g_str_equal (dir, top) && (info == NULL || !info->writable))
    {
      cordon_plan_add_skip (p->plan, item, path, "absent, in a directory the sandbox cannot write: "
                            "nothing can be made there");
      return;
    }
  pin_between (p, item, path, between);
  add_pinned (p, CORDON_OP_MASK_DIR, path, item,
              "protected, absent: an empty read-only directory for the run (cordon-keeper makes it, "
              "and removes it after), so none can be made there")->placeholder = TRUE;
}

/* A placeholder of another run's, going on, or one a keeper killed left
 * behind: an empty directory of the placeholder's mode. It is shared
 * (src/keeper-placeholder.h), and so removed after the last run. */
static gboolean
is_placeholder (const CordonPathInfo *info)
{
  return info->kind == CORDON_PATH_DIR && info->empty && (info->mode & 07777) == CORDON_PLACEHOLDER_MODE;
}

/* `path` (an entry below a writable bind, or below a repository
 * directory), as `flags` say. Absent, an entry of a repository's that is
 * a directory becomes an empty read-only one for good (git makes hooks/
 * where it finds none, and takes an empty one); a placeable one an empty
 * read-only directory for the run only, whose mount point cordon-keeper
 * makes and removes; any other is skipped. */
static gboolean
protect_path (Protector *p,
              const CordonItem *item,
              const char *path,
              EntryFlags flags,
              GError **error)
{
  const CordonOp *cover = cordon_plan_cover (p->plan, path, NULL);
  const CordonPathInfo *info = cordon_host_facts_lookup (p->facts, path);
  g_autoptr(GPtrArray) between = g_ptr_array_new_with_free_func (g_free);
  gboolean absent, place, git_dir;

  if (cover == NULL || cover->kind != CORDON_OP_BIND)
    return TRUE;
  if (!collect_between (p, item, cover->dest, path, between, &absent, error))
    return FALSE;
  place = !absent && info != NULL && (flags & ENTRY_PLACEABLE)
          && (info->kind == CORDON_PATH_ABSENT || is_placeholder (info));
  git_dir = (flags & ENTRY_DIR) && (flags & ENTRY_IN_GIT);
  if (absent || info == NULL || (info->kind == CORDON_PATH_ABSENT && !place && !git_dir))
    {
      cordon_plan_add_skip (p->plan, item, path, "absent: nothing to keep read-only here");
      return TRUE;
    }
  if (place)
    {
      place_placeholder (p, item, path, cover->dest, between);
      return TRUE;
    }
  if (info->kind == CORDON_PATH_SYMLINK)
    return refuse (item, path, "is a symbolic link", error);
  if (info->kind != CORDON_PATH_ABSENT && info->kind != CORDON_PATH_FILE && info->kind != CORDON_PATH_DIR)
    return refuse (item, path, "is neither a file nor a directory", error);
  if (!check_links (p, item, path, info, error))
    return FALSE;
  pin_between (p, item, path, between);
  if (info->kind == CORDON_PATH_ABSENT)
    add_pinned (p, CORDON_OP_MASK_DIR, path, item,
                "protected, absent: an empty read-only directory, so none can be made there");
  else
    add_pinned (p, CORDON_OP_RO_BIND, path, item, "protected: read-only inside the writable bind");
  return TRUE;
}

/* The .git file of `bind`, read-only, and the .git/ entries in each
 * repository directory it names. */
static gboolean
protect_gitdirs (Protector *p,
                 const char *bind,
                 GPtrArray *items,
                 GError **error)
{
  g_autofree char *dot_git = g_build_filename (bind, ".git", NULL);
  GPtrArray *dirs = cordon_host_facts_gitdirs (p->facts, dot_git);
  const CordonItem *first = NULL;

  for (guint i = 0; i < items->len && first == NULL; i++)
    if (g_str_has_prefix (((const CordonItem *) g_ptr_array_index (items, i))->text, ".git/"))
      first = g_ptr_array_index (items, i);
  if (dirs == NULL || first == NULL)
    return TRUE;
  if (!protect_path (p, first, dot_git, 0, error))
    return FALSE;
  for (guint d = 0; d < dirs->len; d++)
    for (guint i = 0; i < items->len; i++)
      {
        const CordonItem *it = g_ptr_array_index (items, i);
        g_autofree char *entry = cordon_protect_entry_path (it);
        g_autofree char *path = NULL;

        if (!g_str_has_prefix (entry, ".git/"))
          continue;
        path = g_build_filename (g_ptr_array_index (dirs, d), entry + strlen (".git/"), NULL);
        /* A worktree's gitdir takes its hooks from its commondir: no
         * empty directory is made for them there. */
        if (!protect_path (p, it, path, (!g_str_equal (entry, it->text) ? ENTRY_DIR : 0)
                           | (d > 0 || dirs->len == 1 ? ENTRY_IN_GIT : 0), error))
          return FALSE;
      }
  return TRUE;
}

/* The shallowest directory of `path` below `bind` that is absent, else
 * `path` (a copy either way): where a hooks directory git would run from
 * could be made, the placeholder goes (scripts/ for scripts/hooks). */
static char *
first_absent (const Protector *p,
              const char *bind,
              const char *path)
{
  size_t n = strlen (bind);

  for (const char *slash = cordon_path_is_ancestor (bind, path, FALSE) ? strchr (path + n + 1, '/') : NULL;
       slash != NULL; slash = strchr (slash + 1, '/'))
    {
      g_autofree char *d = g_strndup (path, (gsize) (slash - path));
      const CordonPathInfo *info = cordon_host_facts_lookup (p->facts, d);

      if (info != NULL && info->kind == CORDON_PATH_ABSENT)
        return g_steal_pointer (&d);
    }
  return g_strdup (path);
}

/* Where the repository at `bind` takes its hooks from, by its protected
 * .git/config (core.hooksPath: .husky/_, a .githooks of its own): kept
 * read-only as .git/hooks is. A value cordon cannot read as git does is
 * refused, not guessed. */
static gboolean
protect_hooks_path (Protector *p,
                    const char *bind,
                    GPtrArray *items,
                    GError **error)
{
  const char *path = cordon_host_facts_hooks_path (p->facts, bind);
  const CordonItem *config = NULL;
  g_autofree char *file = NULL;
  g_autofree char *where = NULL;

  for (guint i = 0; i < items->len && config == NULL; i++)
    if (g_str_equal (((const CordonItem *) g_ptr_array_index (items, i))->text, ".git/config"))
      config = g_ptr_array_index (items, i);
  if (path == NULL || config == NULL)
    return TRUE;
  file = g_build_filename (bind, ".git/config", NULL);
  if (path[0] == '\0')
    return refuse (config, file, "sets core.hooksPath as cordon cannot read it (quoted, escaped, "
                   "commented, from '~', or too large)", error);
  where = first_absent (p, bind, path);
  return protect_path (p, config, where, ENTRY_DIR | ENTRY_PLACEABLE, error);
}

gboolean
cordon_protect_compile (CordonPlan *plan,
                        const CordonPolicy *policy,
                        const CordonHostFacts *facts,
                        GError **error)
{
  g_autoptr(GPtrArray) items = cordon_policy_get_protected (policy);
  g_autoptr(GPtrArray) binds = g_ptr_array_new_with_free_func (g_free);
  Protector p = { plan, facts, plan->ops->len };

  if (items->len == 0)
    return TRUE;
  /* The policy's writable binds, before this step adds its own. */
  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);

      if (op->kind == CORDON_OP_BIND && (op->key == CORDON_KEY_FS_WRITABLE || op->key == CORDON_KEY_FS_WRITABLE_TRY))
        g_ptr_array_add (binds, g_strdup (op->dest));
    }
  for (guint b = 0; b < binds->len; b++)
    {
      const char *bind = g_ptr_array_index (binds, b);

      for (guint i = 0; i < items->len; i++)
        {
          const CordonItem *it = g_ptr_array_index (items, i);
          g_autofree char *entry = cordon_protect_entry_path (it);
          g_autofree char *path = g_build_filename (bind, entry, NULL);
          EntryFlags flags = g_str_has_prefix (entry, ".git/") ? ENTRY_IN_GIT : ENTRY_PLACEABLE;

          if (!g_str_equal (entry, it->text))
            flags |= ENTRY_DIR;
          if (!protect_path (&p, it, path, flags, error))
            return FALSE;
        }
      if (!protect_gitdirs (&p, bind, items, error) || !protect_hooks_path (&p, bind, items, error))
        return FALSE;
    }
  return TRUE;
}

void
cordon_protect_drop_masked (CordonPlan *plan)
{
  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);
      const CordonOp *mask = NULL;

      if (!op->pinned)
        continue;
      for (guint j = i + 1; j < plan->ops->len && mask == NULL; j++)
        {
          const CordonOp *m = g_ptr_array_index (plan->ops, j);

          if ((m->kind == CORDON_OP_MASK_FILE || m->kind == CORDON_OP_MASK_DIR) && !m->pinned
              && cordon_path_is_ancestor (m->dest, op->dest, TRUE))
            mask = m;
        }
      if (mask == NULL)
        continue;
      if (op->kind != CORDON_OP_BIND)
        {
          g_autofree char *reason = g_strdup_printf ("hidden by the mask at %s: nothing to keep read-only",
                                                     mask->dest);

          cordon_plan_add_skip_at (plan, op->key, &op->rule, op->dest, reason);
        }
      g_ptr_array_remove_index (plan->ops, i--);
    }
}
