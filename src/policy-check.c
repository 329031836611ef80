/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* policy-check: diagnostics that need the whole merged policy. Paths are
 * compared symbolically, variables unexpanded (${HOME}/x is under
 * ${HOME}), so the result does not depend on the host that runs check.
 * What run refuses by the policy's text alone is asked of the predicates
 * run uses (src/refusal.h), so the two say the same in the same words. */
#include "config.h"

#include <string.h>

#include "credentials.h"
#include "env-filter.h"
#include "path-util.h"
#include "policy-check.h"
#include "refusal.h"
#include "seccomp-filter.h"

static void
diag (CordonDiagnostics *diags,
      CordonSeverity severity,
      const CordonItem *item,
      const char *format,
      ...) G_GNUC_PRINTF (4, 5);

static void
diag (CordonDiagnostics *diags,
      CordonSeverity severity,
      const CordonItem *item,
      const char *format,
      ...)
{
  g_autofree char *msg = NULL;
  va_list ap;

  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  cordon_diagnostics_add (diags, severity, &item->loc, "%s", msg);
}

/* The policy, and the values of its path lists normalized once: the
 * checks compare lists pairwise, and normalizing in the inner loops was
 * most of check's time. */
typedef struct
{
  const CordonPolicy *policy;
  GPtrArray *norm[CORDON_KEY_MAX];  /* char*, by item index; NULL until asked */
} Check;

static void
check_clear (Check *c)
{
  for (guint k = 0; k < CORDON_KEY_MAX; k++)
    g_clear_pointer (&c->norm[k], g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Check, check_clear)

/* Item `i` of list `key`, normalized. */
static const char *
norm (Check *c,
      CordonKey key,
      guint i)
{
  if (c->norm[key] == NULL)
    {
      GPtrArray *list = cordon_policy_get_list (c->policy, key);

      c->norm[key] = g_ptr_array_new_full (list->len, g_free);
      for (guint j = 0; j < list->len; j++)
        g_ptr_array_add (c->norm[key], cordon_path_normalize (((CordonItem *) g_ptr_array_index (list, j))->text));
    }
  return g_ptr_array_index (c->norm[key], i);
}

static void
check_env_allow (const CordonPolicy *policy,
                 CordonDiagnostics *diags)
{
  GPtrArray *allow = cordon_policy_get_list (policy, CORDON_KEY_ENV_ALLOW);

  for (guint i = 0; i < allow->len; i++)
    {
      const CordonItem *it = g_ptr_array_index (allow, i);
      const char *hit = cordon_env_never_pass_overlap (it->text);
      const char *glob = cordon_credentials_env_glob (it->text);
      const char *name = glob == NULL ? cordon_credentials_env_name (it->text) : NULL;

      if (hit != NULL)
        diag (diags, CORDON_SEVERITY_ERROR, it,
              "'%s' is allowed but matches the never-pass variable '%s', which "
              "runs code of the caller's choosing; it is always dropped", it->text, hit);
      /* A token passed is the caller's authority handed over: the
       * sandbox can use it wherever its network reaches. */
      if (glob != NULL)
        diag (diags, CORDON_SEVERITY_WARNING, it, "'%s' is allowed and looks like a credential "
              "(as '%s' does): the sandbox can read its value and use it", it->text, glob);
      else if (name != NULL)
        diag (diags, CORDON_SEVERITY_WARNING, it, "'%s' is allowed and can pass the credential "
              "'%s': the sandbox can read its value and use it", it->text, name);
      for (guint j = 0; j < i; j++)
        if (g_str_equal (it->text, ((CordonItem *) g_ptr_array_index (allow, j))->text))
          {
            diag (diags, CORDON_SEVERITY_WARNING, it, "'%s' is allowed twice", it->text);
            break;
          }
    }
}

static char *
assignment_name (const CordonItem *it)
{
  const char *eq = strchr (it->text, '=');

  return g_strndup (it->text, eq != NULL ? (gsize) (eq - it->text) : strlen (it->text));
}

static void
check_env_set (const CordonPolicy *policy,
               CordonDiagnostics *diags)
{
  GPtrArray *set = cordon_policy_get_list (policy, CORDON_KEY_ENV_SET);

  for (guint i = 0; i < set->len; i++)
    {
      const CordonItem *it = g_ptr_array_index (set, i);
      g_autofree char *name = assignment_name (it);

      if (cordon_env_is_never_pass (name))
        diag (diags, CORDON_SEVERITY_ERROR, it,
              "'%s' is in the never-pass set and cannot be set", name);
      for (guint j = 0; j < i; j++)
        {
          const CordonItem *prev = g_ptr_array_index (set, j);
          g_autofree char *prev_name = assignment_name (prev);

          if (g_str_equal (name, prev_name))
            {
              diag (diags, CORDON_SEVERITY_WARNING, it,
                    "'%s' is set again (first at %s:%u); the last value wins",
                    name, prev->loc.file, prev->loc.line);
              break;
            }
        }
    }
}

static const CordonKey writable_keys[] = { CORDON_KEY_FS_WRITABLE, CORDON_KEY_FS_WRITABLE_TRY };
static const CordonKey read_only_keys[] = { CORDON_KEY_FS_READ_ONLY, CORDON_KEY_FS_READ_ONLY_TRY };
static const CordonKey bind_keys[] = { CORDON_KEY_FS_READ_ONLY, CORDON_KEY_FS_READ_ONLY_TRY,
                                       CORDON_KEY_FS_WRITABLE, CORDON_KEY_FS_WRITABLE_TRY };

static void
check_writable_against (Check *c,
                        const CordonItem *w,
                        const char *wpath,
                        CordonDiagnostics *diags)
{
  GPtrArray *tmpfs = cordon_policy_get_list (c->policy, CORDON_KEY_FS_TMPFS);

  for (guint i = 0; i < tmpfs->len; i++)
    {
      const CordonItem *t = g_ptr_array_index (tmpfs, i);
      const char *tpath = norm (c, CORDON_KEY_FS_TMPFS, i);

      if (g_str_equal (tpath, wpath))
        diag (diags, CORDON_SEVERITY_ERROR, t,
              "'%s' is both a tmpfs here and %s at %s:%u:%u; choose one",
              t->text, cordon_key_info (w->key)->name, w->loc.file, w->loc.line, w->loc.col);
      else if (cordon_path_is_ancestor (wpath, tpath, FALSE))
        diag (diags, CORDON_SEVERITY_WARNING, t,
              "tmpfs '%s' hides part of the writable path '%s' (%s:%u); "
              "what is written beneath it is lost", t->text, w->text, w->loc.file, w->loc.line);
    }
  for (guint k = 0; k < G_N_ELEMENTS (read_only_keys); k++)
    {
      GPtrArray *ro = cordon_policy_get_list (c->policy, read_only_keys[k]);

      for (guint i = 0; i < ro->len; i++)
        {
          const CordonItem *r = g_ptr_array_index (ro, i);

          if (g_str_equal (norm (c, read_only_keys[k], i), wpath))
            diag (diags, CORDON_SEVERITY_ERROR, r,
                  "'%s' is both read-only here and writable at %s:%u:%u; choose one",
                  r->text, w->loc.file, w->loc.line, w->loc.col);
        }
    }
}

/* A mask applies last (invariant 6): over a writable path, or over one
 * of its ancestors, it hides the path the policy meant to give. */
static gboolean
mask_covers (const char *mask,
             const char *path)
{
  g_autofree char *current = g_strdup (path);

  if (!cordon_path_has_glob (mask))
    return cordon_path_is_ancestor (mask, path, TRUE);
  for (;;)
    {
      char *slash;

      if (cordon_glob_match (mask, current))
        return TRUE;
      slash = strrchr (current, '/');
      if (slash == NULL || slash == current)
        return FALSE;
      *slash = '\0';
    }
}

static void
check_masks_against (Check *c,
                     const CordonItem *w,
                     const char *wpath,
                     CordonDiagnostics *diags)
{
  static const CordonKey mask_keys[] = { CORDON_KEY_SECRETS_MASK, CORDON_KEY_SOCKETS_MASK };

  for (guint k = 0; k < G_N_ELEMENTS (mask_keys); k++)
    {
      GPtrArray *masks = cordon_policy_get_list (c->policy, mask_keys[k]);

      for (guint i = 0; i < masks->len; i++)
        {
          const CordonItem *m = g_ptr_array_index (masks, i);

          if (m->text[0] == '@')
            continue;
          if (mask_covers (norm (c, mask_keys[k], i), wpath))
            diag (diags, CORDON_SEVERITY_ERROR, m,
                  "mask '%s' hides the writable path '%s' (%s:%u): masks are applied last",
                  m->text, w->text, w->loc.file, w->loc.line);
        }
    }
}

/* A read-only bind at the path of a tmpfs is mounted after it and
 * uncovers what the tmpfs hides. */
static void
check_read_only_against_tmpfs (Check *c,
                               CordonDiagnostics *diags)
{
  GPtrArray *tmpfs = cordon_policy_get_list (c->policy, CORDON_KEY_FS_TMPFS);

  for (guint k = 0; k < G_N_ELEMENTS (read_only_keys); k++)
    {
      GPtrArray *ro = cordon_policy_get_list (c->policy, read_only_keys[k]);

      for (guint i = 0; i < ro->len; i++)
        {
          const CordonItem *r = g_ptr_array_index (ro, i);
          const char *rpath = norm (c, read_only_keys[k], i);

          for (guint j = 0; j < tmpfs->len; j++)
            {
              const CordonItem *t = g_ptr_array_index (tmpfs, j);

              if (g_str_equal (norm (c, CORDON_KEY_FS_TMPFS, j), rpath))
                diag (diags, CORDON_SEVERITY_ERROR, t,
                      "'%s' is both a tmpfs here and %s at %s:%u:%u; choose one",
                      t->text, cordon_key_info (r->key)->name, r->loc.file, r->loc.line, r->loc.col);
            }
        }
    }
}

/* hide= covers what the host has there with an empty directory: '/'
 * would be nothing at all (root=minimal is the way to less), and /proc
 * and /dev are the sandbox's own, cordon's helper among them. */
static void
check_hide (Check *c,
            CordonDiagnostics *diags)
{
  static const char * const refused[] = { "/", "/proc", "/dev", NULL };
  GPtrArray *hide = cordon_policy_get_list (c->policy, CORDON_KEY_FS_HIDE);

  for (guint i = 0; i < hide->len; i++)
    {
      const CordonItem *h = g_ptr_array_index (hide, i);
      const char *path = norm (c, CORDON_KEY_FS_HIDE, i);

      if (g_strv_contains (refused, path) || cordon_path_is_ancestor ("/proc", path, FALSE)
          || cordon_path_is_ancestor ("/dev", path, FALSE))
        diag (diags, CORDON_SEVERITY_ERROR, h, "'%s' cannot be hidden: %s", h->text,
              g_str_equal (path, "/") ? "that would leave nothing; root=minimal shows less of the host"
                                      : "the sandbox's own, not the host's");
    }
}

/* What run refuses of a writable path by its text alone, and what it
 * lets the sandbox leave for the host to run. Wherever a policy's
 * writable path is a directory of the host's programs, root runs what is
 * there sooner or later (its PATH, services, package scripts); and the
 * sandbox of a root caller writes there as root. check cannot know the
 * caller, so it warns for every one. */
static void
check_writable_path (const CordonItem *w,
                     const char *path,
                     CordonDiagnostics *diags)
{
  g_autofree char *refused = NULL;

  if (g_str_equal (path, "/"))
    diag (diags, CORDON_SEVERITY_ERROR, w, "a writable '/' makes the whole host writable");
  else if ((refused = cordon_refusal_writable (path)) != NULL)
    diag (diags, CORDON_SEVERITY_ERROR, w, "%s", refused);
  else if (cordon_path_holds_host_programs (path))
    diag (diags, CORDON_SEVERITY_WARNING, w, "%s '%s' is where the host's programs live: code "
          "the sandbox leaves there runs later on the host, as root when root runs it",
          cordon_key_info (w->key)->name, w->text);
}

static void
check_filesystem (Check *c,
                  CordonDiagnostics *diags)
{
  check_read_only_against_tmpfs (c, diags);
  check_hide (c, diags);
  for (guint k = 0; k < G_N_ELEMENTS (writable_keys); k++)
    {
      GPtrArray *writable = cordon_policy_get_list (c->policy, writable_keys[k]);

      for (guint i = 0; i < writable->len; i++)
        {
          const CordonItem *w = g_ptr_array_index (writable, i);
          const char *wpath = norm (c, writable_keys[k], i);

          check_writable_path (w, wpath, diags);
          check_writable_against (c, w, wpath, diags);
          check_masks_against (c, w, wpath, diags);
        }
    }
}

/* Where a bind at `bind` (`blen` bytes) shows the credential store
 * `store` ("${HOME}/...", both normalized), or NULL: the bind is the
 * store or a directory of ${HOME} that holds it, or is the store below a
 * home spelt out (/home/u/.ssh). A bind below a store is a chosen entry of it
 * (.ssh/known_hosts), not the store; one of '/' is refused or shows the
 * whole host anyway. */
static const char *
store_shown (const char *bind,
             gsize blen,
             const char *store)
{
  const char *rel = strncmp (store, "/${HOME}/", strlen ("/${HOME}/")) == 0 ? store + strlen ("/${HOME}") : NULL;
  gsize rlen = rel != NULL ? strlen (rel) : 0;

  if (strncmp (bind, "/${HOME}", strlen ("/${HOME}")) == 0 && cordon_path_is_ancestor (bind, store, TRUE))
    return store;
  if (rel != NULL && blen > rlen && memcmp (bind + blen - rlen, rel, rlen) == 0)
    return bind;
  return NULL;
}

/* Whether the sandbox does not see `shown` through the bind at `bind`
 * after all: a mask covers it (masks come last), or a tmpfs or hidden
 * directory at or below the bind does (mounted after it, by depth). */
static gboolean
store_is_hidden (Check *c,
                 const char *bind,
                 const char *shown)
{
  static const CordonKey covers[] = { CORDON_KEY_SECRETS_MASK, CORDON_KEY_FS_TMPFS, CORDON_KEY_FS_HIDE };

  for (guint k = 0; k < G_N_ELEMENTS (covers); k++)
    {
      GPtrArray *list = cordon_policy_get_list (c->policy, covers[k]);

      for (guint i = 0; i < list->len; i++)
        {
          const char *path = norm (c, covers[k], i);

          if (covers[k] == CORDON_KEY_SECRETS_MASK ? mask_covers (path, shown)
              : cordon_path_is_ancestor (path, shown, TRUE) && cordon_path_is_ancestor (bind, path, TRUE))
            return TRUE;
        }
    }
  return FALSE;
}

/* A bind that shows a credential store the shipped masks hide: what is
 * there (keys, tokens) proves the caller's identity to whatever the
 * sandbox can reach. One warning per bind, naming the first store.
 * `stores` are cordon_credentials_stores (), each normalized. */
static void
check_store_bind (Check *c,
                  const CordonItem *it,
                  const char *bind,
                  GPtrArray *stores,
                  CordonDiagnostics *diags)
{
  g_autofree char *more = NULL;
  const char *first = NULL;
  gsize blen = strlen (bind);
  guint n = 0;

  for (guint i = 0; i < stores->len; i++)
    {
      const char *shown = store_shown (bind, blen, g_ptr_array_index (stores, i));

      if (shown == NULL || store_is_hidden (c, bind, shown))
        continue;
      if (n++ == 0)
        first = cordon_credentials_stores ()[i];
    }
  if (n == 0)
    return;
  more = n > 1 ? g_strdup_printf (" and %u more", n - 1) : g_strdup ("");
  diag (diags, CORDON_SEVERITY_WARNING, it, "%s '%s' shows the sandbox the credential store '%s'%s: "
        "the keys and tokens there can be read and used; bind only the entries needed, or hide "
        "it with [secrets] mask=",
        cordon_key_info (it->key)->name, it->text, first, more);
}

static void
check_stores (Check *c,
              CordonDiagnostics *diags)
{
  const char * const *stores = cordon_credentials_stores ();
  g_autoptr(GPtrArray) normalized = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; stores[i] != NULL; i++)
    g_ptr_array_add (normalized, cordon_path_normalize (stores[i]));
  for (guint k = 0; k < G_N_ELEMENTS (bind_keys); k++)
    {
      GPtrArray *list = cordon_policy_get_list (c->policy, bind_keys[k]);

      for (guint i = 0; i < list->len; i++)
        check_store_bind (c, g_ptr_array_index (list, i), norm (c, bind_keys[k], i), normalized, diags);
    }
}

static const CordonItem *
last_item (const CordonPolicy *policy,
           CordonKey key)
{
  GPtrArray *list = cordon_policy_get_list (policy, key);

  return list->len > 0 ? g_ptr_array_index (list, list->len - 1) : NULL;
}

static void
check_authority (const CordonPolicy *policy,
                 CordonDiagnostics *diags)
{
  GPtrArray *allow = cordon_policy_get_list (policy, CORDON_KEY_SOCKETS_ALLOW);
  const CordonItem *unshare = last_item (policy, CORDON_KEY_NS_UNSHARE);
  const CordonItem *session = cordon_policy_get (policy, CORDON_KEY_NS_NEW_SESSION);
  const CordonItem *dwp = cordon_policy_get (policy, CORDON_KEY_NS_DIE_WITH_PARENT);
  GPtrArray *share = cordon_policy_get_list (policy, CORDON_KEY_NS_SHARE);
  const CordonItem *share_net = NULL;

  for (guint i = 0; i < share->len; i++)
    if (((CordonItem *) g_ptr_array_index (share, i))->num == CORDON_NS_NET)
      share_net = g_ptr_array_index (share, i);

  for (guint i = 0; i < allow->len; i++)
    {
      const CordonItem *it = g_ptr_array_index (allow, i);

      diag (diags, CORDON_SEVERITY_WARNING, it,
            "socket '%s' is allowed: the sandbox can connect to it and use its authority",
            it->text);
    }
  if (unshare == NULL && cordon_policy_n_sources (policy) > 0)
    {
      CordonLocation top = { cordon_policy_source_file (policy, 0), 0, 0 };

      cordon_diagnostics_add (diags, CORDON_SEVERITY_WARNING, &top,
                              "no [namespaces] unshare=: the sandbox shares every "
                              "namespace with the host");
    }
  else if (unshare != NULL && !(cordon_policy_get_namespaces (policy) & CORDON_NS_NET))
    diag (diags, CORDON_SEVERITY_WARNING, share_net != NULL ? share_net : unshare,
          "the network namespace is shared: the host network and its abstract "
          "unix sockets (X11, D-Bus) stay reachable");
  if (session != NULL && session->num == FALSE)
    diag (diags, CORDON_SEVERITY_WARNING, session,
          "new-session=false: the sandbox shares the caller's terminal and could "
          "push keystrokes into it with TIOCSTI");
  if (dwp != NULL && dwp->num == FALSE)
    diag (diags, CORDON_SEVERITY_WARNING, dwp,
          "die-with-parent=false: the sandbox may outlive cordon");
}

/* deny= cannot take the calls the profile filters by their arguments
 * (cordon_seccomp_filters_by_argument: a second rule would conflict),
 * nor these, which cordon-exec needs to prove the sandbox and start the
 * command: sendmsg hands cordon the listener (refused, it would wait on a
 * listener only it holds). (clone, which pid 1 forks the command with,
 * the profile filters by its arguments.) */
static const char * const needed_by_the_helper[] = {
  "execve", "execveat", "prctl", "read", "write", "sendmsg", "exit", "exit_group", NULL
};

static void
check_seccomp (const CordonPolicy *policy,
               CordonDiagnostics *diags)
{
  const CordonItem *profile = cordon_policy_get (policy, CORDON_KEY_SECCOMP_PROFILE);
  const CordonItem *session = cordon_policy_get (policy, CORDON_KEY_NS_NEW_SESSION);
  GPtrArray *allow = cordon_policy_get_list (policy, CORDON_KEY_SECCOMP_ALLOW);
  GPtrArray *keep = cordon_policy_get_list (policy, CORDON_KEY_CAPS_KEEP);
  GPtrArray *deny = cordon_policy_get_list (policy, CORDON_KEY_SECCOMP_DENY);

  if (profile != NULL && profile->num == CORDON_SECCOMP_NONE)
    diag (diags, CORDON_SEVERITY_WARNING, profile,
          "profile=none: the sandbox may use keyrings, TIOCSTI, nested user namespaces "
          "and every kernel interface");
  /* Without its own session the sandbox shares the caller's terminal;
   * then only the filter's TIOCSTI rule stands between them. */
  if (profile != NULL && profile->num == CORDON_SECCOMP_NONE && session != NULL && !session->num)
    diag (diags, CORDON_SEVERITY_WARNING, session,
          "new-session=false and seccomp profile=none: nothing stops TIOCSTI into the "
          "caller's terminal");
  for (guint i = 0; i < allow->len; i++)
    diag (diags, CORDON_SEVERITY_WARNING, g_ptr_array_index (allow, i),
          "'%s' is taken out of the seccomp profile", ((CordonItem *) g_ptr_array_index (allow, i))->text);
  for (guint i = 0; i < deny->len; i++)
    {
      const CordonItem *it = g_ptr_array_index (deny, i);

      gboolean by_argument = cordon_seccomp_filters_by_argument (it->text);

      if (by_argument || g_strv_contains (needed_by_the_helper, it->text))
        diag (diags, CORDON_SEVERITY_ERROR, it,
              "'%s' cannot be denied: %s", it->text,
              by_argument ? "the profile already filters it by its arguments"
                          : "the sandbox's first program needs it");
    }
  for (guint i = 0; i < keep->len; i++)
    {
      const CordonItem *it = g_ptr_array_index (keep, i);
      g_autofree char *lower = g_ascii_strdown (it->text, -1);

      /* The filter keeps set-ID bits off the sandbox's files; a kept
       * CAP_SETFCAP gives them file capabilities instead, which the host
       * honours as well (for a root caller, root's). */
      diag (diags, CORDON_SEVERITY_WARNING, it, "the sandbox keeps %s%s", it->text,
            g_str_has_suffix (lower, "setfcap")
            ? ": a file it writes in a writable path can be given capabilities that the host honours"
            : "");
    }
}

/* An error from src/refusal.c (`why`, taken), at `it`. */
static void
refuse (CordonDiagnostics *diags,
        const CordonItem *it,
        char *why)
{
  g_autofree char *owned = why;

  if (owned != NULL)
    diag (diags, CORDON_SEVERITY_ERROR, it, "%s", owned);
}

/* What the stages of compile refuse whatever the host, at the rule
 * they would refuse it at (src/refusal.h). scratch= is refused beside
 * each bind of the host's /dev/shm, a -try one too: it is refused
 * wherever the host has one, which nearly every host has. */
static void
check_refusals (Check *c,
                CordonDiagnostics *diags)
{
  const CordonPolicy *policy = c->policy;
  const CordonItem *hostname = cordon_policy_get (policy, CORDON_KEY_NS_HOSTNAME);
  const CordonItem *scratch = cordon_policy_get (policy, CORDON_KEY_LIMITS_SCRATCH);
  const CordonItem *swap = cordon_policy_get (policy, CORDON_KEY_LIMITS_SWAP);
  const CordonItem *pids = cordon_policy_get (policy, CORDON_KEY_LIMITS_PIDS);
  const CordonItem *open_files = cordon_policy_get (policy, CORDON_KEY_LIMITS_OPEN_FILES);

  refuse (diags, hostname, cordon_refusal_hostname (hostname, cordon_policy_get_namespaces (policy)));
  refuse (diags, swap, cordon_refusal_swap (swap, cordon_policy_get (policy, CORDON_KEY_LIMITS_MEMORY)));
  refuse (diags, pids, cordon_refusal_pids (pids));
  refuse (diags, open_files, cordon_refusal_open_files (open_files));
  for (guint k = 0; scratch != NULL && k < G_N_ELEMENTS (bind_keys); k++)
    {
      GPtrArray *list = cordon_policy_get_list (policy, bind_keys[k]);

      for (guint i = 0; i < list->len; i++)
        {
          const CordonItem *it = g_ptr_array_index (list, i);

          refuse (diags, scratch, cordon_refusal_scratch_bind (norm (c, bind_keys[k], i), &it->loc));
        }
    }
}

void
cordon_policy_check (const CordonPolicy *policy,
                     CordonDiagnostics *diags)
{
  g_auto(Check) c = { policy, { NULL } };

  check_seccomp (policy, diags);
  check_env_allow (policy, diags);
  check_env_set (policy, diags);
  check_filesystem (&c, diags);
  check_stores (&c, diags);
  check_refusals (&c, diags);
  check_authority (policy, diags);
}
