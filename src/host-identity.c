/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* host-identity: [identity] host-user= as this host can meet it.
 *
 * auto's uid must be a dedicated identity: no account, no group and no
 * user's subordinate ids may have it (a process of such a user could
 * then be that uid too). A named user must not be root nor in root's
 * group. Any id must be mapped in cordon's own user namespace: a process
 * cannot become an unmapped one. Under a sysroot (the tests' fixture),
 * the fixture's /etc files are read, and every id counts as mapped. */
#include "config.h"

#include <grp.h>
#include <linux/capability.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "host-identity.h"
#include "probe.h"

/* An account, from the host's user database, or from the fixture's
 * /etc/passwd under a sysroot (a test must not depend on the machine). */
static gboolean
lookup_account (const CordonHostFacts *facts,
                const char *name,
                uid_t uid,
                uid_t *out_uid,
                gid_t *out_gid,
                char **out_name)
{
  struct passwd *pw = NULL;
  FILE *f = NULL;

  if (facts->sysroot[0] == '\0')
    pw = name != NULL ? getpwnam (name) : getpwuid (uid);
  else
    {
      g_autofree char *path = g_strconcat (facts->sysroot, "/etc/passwd", NULL);

      f = fopen (path, "re");
      while (f != NULL && (pw = fgetpwent (f)) != NULL
             && !(name != NULL ? g_str_equal (pw->pw_name, name) : pw->pw_uid == uid))
        ;
    }
  if (pw != NULL)
    {
      *out_uid = pw->pw_uid;
      *out_gid = pw->pw_gid;
      *out_name = g_strdup (pw->pw_name);
    }
  if (f != NULL)
    fclose (f);
  return pw != NULL;
}

/* The name of the group `gid`, or NULL. */
static char *
group_name (const CordonHostFacts *facts,
            gid_t gid)
{
  struct group *gr = NULL;
  FILE *f = NULL;
  char *name;

  if (facts->sysroot[0] == '\0')
    gr = getgrgid (gid);
  else
    {
      g_autofree char *path = g_strconcat (facts->sysroot, "/etc/group", NULL);

      f = fopen (path, "re");
      while (f != NULL && (gr = fgetgrent (f)) != NULL && gr->gr_gid != gid)
        ;
    }
  name = gr != NULL ? g_strdup (gr->gr_name) : NULL;
  if (f != NULL)
    fclose (f);
  return name;
}

/* The user whose subordinate ids (/etc/subuid or /etc/subgid lines
 * "NAME:FIRST:COUNT") include `id`, or NULL. */
static char *
subid_owner (const CordonHostFacts *facts,
             const char *file,
             guint64 id)
{
  g_autofree char *path = g_strconcat (facts->sysroot, file, NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i], ":", 3);
      guint64 first, count;

      if (g_strv_length (f) != 3)
        continue;
      first = g_ascii_strtoull (f[1], NULL, 10);
      count = g_ascii_strtoull (f[2], NULL, 10);
      if (id >= first && id - first < count)
        return g_strdup (f[0]);
    }
  return NULL;
}

/* Whether `id` is mapped in `map` (read once, with the host facts); and
 * *out_outside, what it is in the namespace above. Under a sysroot (the
 * fixture's, where nothing is read) without a map of the test's, every
 * id counts as mapped, as itself. */
static gboolean
is_mapped (const CordonHostFacts *facts,
           const GArray *map,
           guint64 id,
           guint64 *out_outside)
{
  if (map == NULL && facts->sysroot[0] != '\0')
    {
      *out_outside = id;
      return TRUE;
    }
  return cordon_probe_id_map_find (map, id, out_outside);
}

/* The highest id that `map` maps at or below `id`, 0 for none. */
static guint64
highest_mapped (const GArray *map,
                guint64 id)
{
  guint64 best = 0;

  for (guint i = 0; map != NULL && i < map->len; i++)
    {
      const CordonIdRange *r = &g_array_index (map, CordonIdRange, i);

      if (r->inside <= id)
        best = MAX (best, MIN (id, r->inside + r->count - 1));
    }
  return best;
}

static gboolean
ids_mapped (const CordonHostFacts *facts,
            uid_t uid,
            gid_t gid)
{
  guint64 u, g;

  return is_mapped (facts, facts->uid_map, uid, &u) && is_mapped (facts, facts->gid_map, gid, &g);
}

/* Whether `uid` or `gid` is root's, or root's group, in the user
 * namespace above cordon's (a map of a container's that gives another
 * number the outside 0): the sandbox would be root there. */
static gboolean
maps_to_root (const CordonHostFacts *facts,
              uid_t uid,
              gid_t gid)
{
  guint64 u = 1, g = 1;

  return (is_mapped (facts, facts->uid_map, uid, &u) && u == 0)
         || (is_mapped (facts, facts->gid_map, gid, &g) && g == 0);
}

static void
identity_fail (CordonHostIdentity *id,
               const char *format,
               ...) G_GNUC_PRINTF (2, 3);

static void
identity_fail (CordonHostIdentity *id,
               const char *format,
               ...)
{
  va_list ap;

  va_start (ap, format);
  g_free (id->error);
  id->error = g_strdup_vprintf (format, ap);
  va_end (ap);
}

/* auto's uid (and gid, the same number): CORDON_AUTO_HOST_UID; where
 * cordon is root of a container's user namespace that does not map it,
 * the highest mapped id below it, 65533 for an overflow id. 0 for none. */
static uid_t
auto_uid (const CordonHostFacts *facts)
{
  guint64 id = CORDON_AUTO_HOST_UID;

  if (ids_mapped (facts, id, id))
    return (uid_t) id;
  id = MIN (highest_mapped (facts->uid_map, id), highest_mapped (facts->gid_map, id));
  /* Not the overflow ids (nobody, and the kernel's "no id"). */
  if (id == 65534 || id == 65535)
    id = 65533;
  return id > 0 && ids_mapped (facts, id, id) ? (uid_t) id : 0;
}

/* Who else on this host may be `uid` or `gid`, by which claim; the
 * name in *out_name. Accounts are asked only where `accounts`. */
typedef enum
{
  ID_FREE,
  ID_ACCOUNT,     /* an account has the uid */
  ID_GROUP,       /* a group has the gid */
  ID_SUBORDINATE, /* the uid or gid lies in a user's /etc/subuid or /etc/subgid */
} IdClaim;

static IdClaim
id_claim (const CordonHostFacts *facts,
          uid_t uid,
          gid_t gid,
          gboolean accounts,
          char **out_name)
{
  uid_t u;
  gid_t g;

  if (accounts && lookup_account (facts, NULL, uid, &u, &g, out_name))
    return ID_ACCOUNT;
  if ((*out_name = group_name (facts, gid)) != NULL)
    return ID_GROUP;
  if ((*out_name = subid_owner (facts, "/etc/subuid", uid)) != NULL
      || (*out_name = subid_owner (facts, "/etc/subgid", gid)) != NULL)
    return ID_SUBORDINATE;
  return ID_FREE;
}

/* Whether `uid` is nobody's: FALSE, with the reason, if an account, a
 * group or a user's subordinate ids have it. */
static gboolean
is_dedicated (CordonHostIdentity *id,
              const CordonHostFacts *facts,
              uid_t uid)
{
  static const char * const fix = "name an unprivileged user for the sandbox with [identity] host-user=";
  g_autofree char *name = NULL;

  switch (id_claim (facts, uid, (gid_t) uid, TRUE, &name))
    {
    case ID_ACCOUNT:
      identity_fail (id, "uid %u (host-user=auto) is the account '%s' on this host, not a dedicated "
                     "identity: %s", (guint) uid, name, fix);
      return FALSE;
    case ID_GROUP:
      identity_fail (id, "gid %u (host-user=auto) is the group '%s' on this host, not a dedicated "
                     "identity: %s", (guint) uid, name, fix);
      return FALSE;
    case ID_SUBORDINATE:
      identity_fail (id, "uid %u (host-user=auto) lies in the subordinate ids of '%s' (/etc/subuid, "
                     "/etc/subgid), whose processes may be that uid: %s", (guint) uid, name, fix);
      return FALSE;
    case ID_FREE:
    default:
      return TRUE;
    }
}

/* A uid of no account takes the same number as gid: that must not hand
 * the sandbox an existing group's files (27 is sudo's), nor be a user's
 * subordinate id (that user's containers run as it). */
static gboolean
is_unused_number (CordonHostIdentity *id,
                  const CordonHostFacts *facts,
                  uid_t uid)
{
  g_autofree char *name = NULL;
  IdClaim claim = id_claim (facts, uid, (gid_t) uid, FALSE, &name);

  if (claim == ID_GROUP)
    identity_fail (id, "uid %u is no account's, and gid %u, which it would take, is the group "
                   "'%s' on this host: name an account, whose primary group is taken, or an "
                   "unused number", (guint) uid, (guint) uid, name);
  else if (claim == ID_SUBORDINATE)
    identity_fail (id, "uid %u lies in the subordinate ids of '%s' (/etc/subuid, /etc/subgid), "
                   "whose processes may be that uid: name an unused number", (guint) uid, name);
  return claim == ID_FREE;
}

/* A named user or uid: its ids, or FALSE with the reason. */
static gboolean
named_ids (CordonHostIdentity *id,
           const CordonHostFacts *facts,
           const CordonItem *host_user,
           uid_t *out_uid,
           gid_t *out_gid)
{
  g_autofree char *name = NULL;
  uid_t uid = 0;
  gid_t gid = 0;

  if (host_user->num == CORDON_HOST_USER_NAMED && !lookup_account (facts, host_user->text, 0, &uid, &gid, &name))
    {
      identity_fail (id, "no user '%s' on this host", host_user->text);
      return FALSE;
    }
  if (host_user->num > 0 && !lookup_account (facts, NULL, (uid_t) host_user->num, &uid, &gid, &name))
    {
      uid = gid = (uid_t) host_user->num;
      if (!is_unused_number (id, facts, uid))
        return FALSE;
    }
  if (uid == 0 || gid == 0)
    {
      identity_fail (id, "'%s' is uid %u, gid %u: root or root's group; write host-user=root for a "
                     "sandbox that runs as host root (a degradation)", host_user->text,
                     (guint) uid, (guint) gid);
      return FALSE;
    }
  g_free (id->name);
  id->name = g_steal_pointer (&name);
  *out_uid = uid;
  *out_gid = gid;
  return TRUE;
}

/* uid 0 that is not the host's root (it maps to another uid above: a
 * container's, or cordon inside another sandbox), and cannot change uid
 * or has no other uid to be: auto runs the sandbox as that uid 0. */
static gboolean
stays_the_caller (const CordonHostFacts *facts,
                  gint64 how,
                  uid_t auto_id)
{
  const guint64 setids = (G_GUINT64_CONSTANT (1) << CAP_SETUID) | (G_GUINT64_CONSTANT (1) << CAP_SETGID);

  return !facts->root_is_host_root && how == CORDON_HOST_USER_AUTO
         && ((facts->cap_eff & setids) != setids || auto_id == 0);
}

static gpointer
warm_up (gpointer data)
{
  struct passwd pw, *pw_found = NULL;
  struct group gr, *gr_found = NULL;
  char buf[4096];

  /* The answers are dropped: the reentrant calls only load and warm. */
  (void) getpwuid_r (CORDON_AUTO_HOST_UID, &pw, buf, sizeof buf, &pw_found);
  (void) getgrgid_r (CORDON_AUTO_HOST_UID, &gr, buf, sizeof buf, &gr_found);
  return NULL;
}

GThread *
cordon_host_identity_warm_up (void)
{
  if (getuid () != 0)
    return NULL;
  return g_thread_try_new ("cordon-nss", warm_up, NULL, NULL);
}

void
cordon_host_identity_resolve (CordonHostFacts *facts,
                              const CordonItem *host_user)
{
  CordonHostIdentity *id = &facts->identity;
  gint64 how = host_user != NULL ? host_user->num : CORDON_HOST_USER_AUTO;
  uid_t auto_id = facts->uid == 0 && how == CORDON_HOST_USER_AUTO ? auto_uid (facts) : 0;
  uid_t uid = 0;
  gid_t gid = 0;

  g_clear_pointer (&id->name, g_free);
  g_clear_pointer (&id->error, g_free);
  id->uid = facts->uid;
  id->gid = facts->gid;
  if (facts->uid != 0 || how == CORDON_HOST_USER_ROOT || stays_the_caller (facts, how, auto_id))
    return;
  if (how == CORDON_HOST_USER_AUTO)
    {
      uid = gid = auto_id;
      if (uid == 0)
        {
          identity_fail (id, "uid %u / gid %u is not mapped in cordon's user namespace (a "
                         "container's, or another sandbox's), nor any other to use: name a mapped "
                         "unprivileged user with [identity] host-user=", CORDON_AUTO_HOST_UID,
                         CORDON_AUTO_HOST_UID);
          return;
        }
      if (!is_dedicated (id, facts, uid))
        return;
    }
  else if (!named_ids (id, facts, host_user, &uid, &gid))
    return;
  if (!ids_mapped (facts, uid, gid))
    {
      identity_fail (id, "uid %u / gid %u is not mapped in cordon's user namespace (a container's, "
                     "or another sandbox's): name a mapped unprivileged user with [identity] "
                     "host-user=", (guint) uid, (guint) gid);
      return;
    }
  if (maps_to_root (facts, uid, gid))
    {
      identity_fail (id, "uid %u / gid %u maps to root (uid or gid 0) of the user namespace above "
                     "cordon's: the sandbox would be root there; name another unprivileged user "
                     "with [identity] host-user=", (guint) uid, (guint) gid);
      return;
    }
  id->uid = uid;
  id->gid = gid;
}
