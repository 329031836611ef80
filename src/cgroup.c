/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cgroup: which cgroups of this host cordon may make a sandbox's own in,
 * and what the keeper said of them after the run. A v1 hierarchy is
 * mounted with its controllers among the super options ("rw,memory");
 * /proc/self/cgroup names cordon's cgroup in each ("4:memory:/a/b"), a
 * path within the hierarchy, which the mount shows below its point when
 * the mount's root is above it (a container sees only its own subtree). */
#include "config.h"

#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "cgroup.h"
#include "mount-table.h"
#include "path-util.h"

const char *
cordon_cgroup_mechanism_name (CordonCgroupMechanism mechanism)
{
  static const char * const names[CORDON_CGROUP_MAX] = {
    "none", "systemd", "delegated", "cgroup-v1"
  };

  g_return_val_if_fail (mechanism < CORDON_CGROUP_MAX, "?");
  return names[mechanism];
}

const char *
cordon_controller_name (CordonController controller)
{
  static const char * const names[CORDON_CONTROLLER_MAX] = { "memory", "pids", "cpu", "cpuacct" };

  g_return_val_if_fail (controller < CORDON_CONTROLLER_MAX, "?");
  return names[controller];
}

/* Whether the comma-separated `list` holds `word`, without splitting it
 * (asked of every mount's options for each controller). */
static gboolean
list_has (const char *list,
          const char *word)
{
  gsize len = strlen (word);

  if (*list == '\0')
    return FALSE;   /* no item, as g_strsplit has none of "" */
  for (const char *p = list;; p++)
    {
      gsize n = strcspn (p, ",");

      if (n == len && strncmp (p, word, len) == 0)
        return TRUE;
      p += n;
      if (*p == '\0')
        return FALSE;
    }
}

/* The host path of hierarchy path `inner` through `m`, or NULL when the
 * mount does not show it (its root is elsewhere). */
static char *
shown_at (const CordonMount *m,
          const char *inner)
{
  gsize n = strlen (m->root);

  if (g_str_equal (m->root, "/"))
    return g_str_equal (inner, "/") ? g_strdup (m->point) : g_build_filename (m->point, inner, NULL);
  if (strncmp (inner, m->root, n) != 0 || (inner[n] != '\0' && inner[n] != '/'))
    return NULL;
  return inner[n] == '\0' ? g_strdup (m->point) : g_build_filename (m->point, inner + n, NULL);
}

/* The mount of the v1 hierarchy with `controller`, showing `inner`. */
static char *
v1_dir (GPtrArray *mounts,
        const char *controller,
        const char *inner)
{
  for (guint i = 0; i < mounts->len; i++)
    {
      const CordonMount *m = g_ptr_array_index (mounts, i);
      char *dir;

      if (g_str_equal (m->fstype, "cgroup") && list_has (m->super_opts, controller)
          && (dir = shown_at (m, inner)) != NULL)
        return dir;
    }
  return NULL;
}

static guint64
meminfo_bytes (const char *meminfo,
               const char *field)
{
  const char *at = meminfo != NULL ? strstr (meminfo, field) : NULL;

  while (at != NULL && at != meminfo && at[-1] != '\n')
    at = strstr (at + 1, field);
  return at != NULL ? g_ascii_strtoull (at + strlen (field), NULL, 10) * 1024 : 0;
}

static void
parse_line (CordonCgroupHost *host,
            GPtrArray *mounts,
            const char *line)
{
  g_auto(GStrv) f = g_strsplit (line, ":", 3);

  if (g_strv_length (f) != 3 || f[2][0] != '/')
    return;
  if (f[1][0] == '\0' && host->unified == NULL)
    {
      for (guint i = 0; i < mounts->len && host->unified == NULL; i++)
        {
          const CordonMount *m = g_ptr_array_index (mounts, i);

          if (g_str_equal (m->fstype, "cgroup2") && (host->unified = shown_at (m, f[2])) != NULL
              && g_str_equal (m->root, "/"))
            host->unified_mount = g_strdup (m->point);
          if (host->unified != NULL)
            host->nsdelegate = list_has (m->super_opts, "nsdelegate");
        }
      return;
    }
  for (guint c = 0; c < CORDON_CONTROLLER_MAX; c++)
    if (host->parent[c] == NULL && list_has (f[1], cordon_controller_name (c)))
      host->parent[c] = v1_dir (mounts, cordon_controller_name (c), f[2]);
}

static void
parse_with (CordonCgroupHost *host,
            const char *proc_cgroup,
            GPtrArray *mounts,
            const char *meminfo)
{
  g_auto(GStrv) lines = g_strsplit (proc_cgroup != NULL ? proc_cgroup : "", "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    parse_line (host, mounts, lines[i]);
  host->mem_total = meminfo_bytes (meminfo, "MemTotal:");
  host->swap_total = meminfo_bytes (meminfo, "SwapTotal:");
}

void
cordon_cgroup_host_parse (CordonCgroupHost *host,
                          const char *proc_cgroup,
                          const char *mountinfo,
                          const char *meminfo)
{
  g_autoptr(GPtrArray) mounts = cordon_mount_table_parse (mountinfo);

  parse_with (host, proc_cgroup, mounts, meminfo);
}

/* Why no cgroup of this host holds `controller` for this caller: one
 * of the reasons below. */
typedef enum
{
  WHY_NOT_DELEGATED, WHY_NOT_ENABLED, WHY_ROOT_ONLY, WHY_READ_ONLY, WHY_V2_NOT_DELEGATED, WHY_V2_WITHOUT,
  WHY_ABSENT, WHY_MAX
} WhyNot;

static WhyNot
why_not (const CordonCgroupHost *host,
         uid_t euid,
         CordonController controller)
{
  const char *name = cordon_controller_name (controller);

  if (host->mechanism == CORDON_CGROUP_SYSTEMD)
    return WHY_NOT_DELEGATED;
  if (host->delegated != NULL
      && (host->mechanism == CORDON_CGROUP_DELEGATED || host->parent[controller] == NULL))
    return WHY_NOT_ENABLED;
  if (host->parent[controller] != NULL)
    return euid == 0 ? WHY_READ_ONLY : WHY_ROOT_ONLY;
  if (host->unified_controllers != NULL && list_has (host->unified_controllers, name))
    return WHY_V2_NOT_DELEGATED;
  return host->unified != NULL ? WHY_V2_WITHOUT : WHY_ABSENT;
}

/* The clause of one reason, for `names` ("memory, pids"). */
static void
append_reason (GString *out,
               const CordonCgroupHost *host,
               uid_t euid,
               WhyNot w,
               const char *names)
{
  static const char * const reasons[WHY_MAX] = {
    [WHY_NOT_DELEGATED] = "the user's systemd does not delegate %s (Delegate= of user@.service)",
    [WHY_NOT_ENABLED] = "the delegated cgroup %s does not enable %s for its children (cgroup.subtree_control)",
    [WHY_ROOT_ONLY] = "the host's cgroup v1 hierarchies of %s are root's: run cordon as root",
    [WHY_READ_ONLY] = "cordon's cgroup in the cgroup v1 hierarchies of %s is not writable, root as it is "
                      "(a read-only cgroup mount, a container's default): give the container a writable one",
    [WHY_V2_NOT_DELEGATED] = "cgroup v2 has %s, but cordon's cgroup there is not a child of one delegated to "
                             "it (%s): run cordon in a child cgroup of a delegated one (systemd-run --scope "
                             "-p Delegate=yes, then a cgroup of its own below: see cordon.policy(5))%s",
    [WHY_V2_WITHOUT] = "the cgroup v2 hierarchy gives cordon's cgroup no %s controller: boot with "
                       "systemd.unified_cgroup_hierarchy=1, or delegate it",
    [WHY_ABSENT] = "this host mounts no cgroup with %s",
  };

  if (out->len > 0)
    g_string_append (out, "; ");
  if (w == WHY_NOT_ENABLED)
    g_string_append_printf (out, reasons[w], host->delegated, names);
  else if (w == WHY_V2_NOT_DELEGATED)
    g_string_append_printf (out, reasons[w], names,
                            host->delegation_refused != NULL ? host->delegation_refused : "none is",
                            euid != 0 ? ", or run it with the user's systemd on its bus ($XDG_RUNTIME_DIR/bus), "
                                        "handing on the controllers" : "");
  else
    g_string_append_printf (out, reasons[w], names);
}

/* "memory, pids and cpu: REASON", one clause per reason. */
static char *
missing_text (const CordonCgroupHost *host,
              uid_t euid)
{
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint w = 0; w < WHY_MAX; w++)
    {
      g_autoptr(GString) names = g_string_new (NULL);

      for (guint c = 0; c < CORDON_CONTROLLER_CPUACCT; c++)
        if (!host->writable[c] && why_not (host, euid, c) == w)
          g_string_append_printf (names, "%s%s", names->len > 0 ? ", " : "", cordon_controller_name (c));
      if (names->len > 0)
        append_reason (out, host, euid, w, names->str);
    }
  return out->len > 0 ? g_string_free (g_steal_pointer (&out), FALSE) : NULL;
}

/* A socket of the caller's own (not one another user laid there). */
static gboolean
own_socket (const char *path,
            uid_t euid)
{
  struct stat st;

  return lstat (path, &st) == 0 && S_ISSOCK (st.st_mode) && st.st_uid == euid;
}

/* The user's bus, as a client finds it: DBUS_SESSION_BUS_ADDRESS when it
 * is a plain socket path of the caller's, else $XDG_RUNTIME_DIR/bus;
 * NULL. */
static char *
user_bus_path (const char *bus_address,
               const char *runtime_dir,
               uid_t euid)
{
  g_autofree char *bus = NULL;

  if (bus_address != NULL && g_str_has_prefix (bus_address, "unix:path=")
      && strpbrk (bus_address, ",;%") == NULL && own_socket (bus_address + strlen ("unix:path="), euid))
    return g_strdup (bus_address + strlen ("unix:path="));
  bus = runtime_dir != NULL ? g_build_filename (runtime_dir, "bus", NULL) : NULL;
  return bus != NULL && own_socket (bus, euid) ? g_steal_pointer (&bus) : NULL;
}

/* SYSTEMD: the user's manager, reachable on its bus, with memory, pids
 * or cpu among the controllers its cgroup can hand a scope. TRUE when
 * found (writable[] then says which). */
static gboolean
find_user_manager (CordonCgroupHost *host,
                   uid_t euid,
                   const char *bus_address,
                   const char *runtime_dir)
{
  g_autofree char *bus = user_bus_path (bus_address, runtime_dir, euid);
  g_autofree char *service = NULL, *file = NULL, *controllers = NULL, *slice = NULL, *swap = NULL;
  gboolean any = FALSE;

  if (host->unified_mount == NULL || bus == NULL)
    return FALSE;
  service = g_strdup_printf ("%s/user.slice/user-%u.slice/user@%u.service", host->unified_mount,
                             (guint) euid, (guint) euid);
  file = g_build_filename (service, "cgroup.controllers", NULL);
  slice = g_build_filename (service, "app.slice", NULL);
  swap = g_build_filename (service, "memory.swap.max", NULL);
  /* The scope goes into app.slice, which must be there to be opened. */
  if (!g_file_get_contents (file, &controllers, NULL, NULL) || !g_file_test (slice, G_FILE_TEST_IS_DIR))
    return FALSE;
  g_strdelimit (g_strstrip (controllers), " ", ',');
  for (guint c = 0; c < CORDON_CONTROLLER_CPUACCT; c++)
    any |= host->writable[c] = list_has (controllers, cordon_controller_name (c));
  if (!any)
    return FALSE;
  host->mechanism = CORDON_CGROUP_SYSTEMD;
  host->user_service = g_steal_pointer (&service);
  host->user_bus = g_strconcat ("unix:path=", bus, NULL);
  host->memsw = g_file_test (swap, G_FILE_TEST_EXISTS);
  host->missing = missing_text (host, euid);
  return TRUE;
}

const char *
cordon_cgroup_delegation_refusal (const CordonCgroupDelegation *d,
                                  uid_t euid)
{
  if (!d->may_write)
    return "not writable for the caller (to make a cgroup there and move a process in)";
  /* Whoever owns it may mark it (user.delegate), move what is in it or
   * take its controllers away: it must be the caller's own. */
  if (d->parent_uid != euid)
    return euid == 0 ? "another user's, who could change it under cordon: root takes only a cgroup of root's"
                     : "neither marked delegated (trusted.delegate or user.delegate) nor the caller's own";
  if (d->marked)
    return NULL;
  if (euid != 0 && (d->parent_is_top || d->grandparent_uid != euid))
    return NULL;
  if (euid != 0)
    return "the caller's, as its own parent is: a manager's cgroup (the user's systemd), not one delegated";
  if (d->parent_is_top && !d->pid1_is_systemd)
    return NULL;
  return d->parent_is_top ? "the top of systemd's hierarchy, not marked delegated"
                          : "neither marked delegated (trusted.delegate or user.delegate) nor the caller's own";
}

static gboolean
xattr_is_one (const char *path,
              const char *name)
{
  char value[8];
  ssize_t n = getxattr (path, name, value, sizeof value);

  return n == 1 && value[0] == '1';
}

/* The facts of `parent`, the cgroup cordon's (`own`) is a child of. */
static void
read_delegation (CordonCgroupDelegation *d,
                 const CordonCgroupHost *host,
                 const char *parent)
{
  g_autofree char *procs = g_build_filename (parent, "cgroup.procs", NULL);
  g_autofree char *home = g_build_filename (host->unified, "cgroup.procs", NULL);
  g_autofree char *grand = g_path_get_dirname (parent);
  g_autofree char *pid1 = NULL;
  struct stat st;

  d->parent_is_top = g_str_equal (parent, host->unified_mount);
  d->marked = xattr_is_one (parent, "trusted.delegate") || xattr_is_one (parent, "user.delegate");
  d->pid1_is_systemd = g_file_get_contents ("/proc/1/comm", &pid1, NULL, NULL)
                       && g_str_equal (g_strstrip (pid1), "systemd");
  d->parent_uid = stat (parent, &st) == 0 ? st.st_uid : (uid_t) -1;
  d->grandparent_uid = !d->parent_is_top && stat (grand, &st) == 0 ? st.st_uid : (uid_t) -1;
  d->may_write = access (parent, W_OK) == 0 && access (procs, W_OK) == 0 && access (home, W_OK) == 0;
}

/* DELEGATED: the parent of cordon's cgroup v2 cgroup, delegated to the
 * caller, with memory, pids or cpu on for its children. TRUE when found
 * (writable[] then says which); else delegation_refused says why not,
 * where it was not delegated. */
static gboolean
find_delegated (CordonCgroupHost *host,
                uid_t euid)
{
  CordonCgroupDelegation d = { 0 };
  g_autofree char *parent = NULL, *file = NULL, *control = NULL, *swap = NULL;
  const char *refusal;
  gboolean any = FALSE;

  if (host->unified == NULL || host->unified_mount == NULL || g_str_equal (host->unified, host->unified_mount))
    return FALSE;
  parent = g_path_get_dirname (host->unified);
  read_delegation (&d, host, parent);
  if ((refusal = cordon_cgroup_delegation_refusal (&d, euid)) != NULL)
    {
      host->delegation_refused = g_strdup_printf ("%s is %s", parent, refusal);
      return FALSE;
    }
  file = g_build_filename (parent, "cgroup.subtree_control", NULL);
  swap = g_build_filename (host->unified, "memory.swap.max", NULL);
  host->delegated = g_steal_pointer (&parent);
  if (g_file_get_contents (file, &control, NULL, NULL))
    g_strdelimit (g_strstrip (control), " ", ',');
  for (guint c = 0; c < CORDON_CONTROLLER_CPUACCT; c++)
    any |= host->writable[c] = control != NULL && list_has (control, cordon_controller_name (c));
  host->memsw = g_file_test (swap, G_FILE_TEST_EXISTS);
  if (any)
    host->mechanism = CORDON_CGROUP_DELEGATED;
  return any;
}

void
cordon_cgroup_host_find (CordonCgroupHost *host,
                         uid_t euid,
                         const char *bus_address,
                         const char *runtime_dir)
{
  cordon_cgroup_host_find_in (host, NULL, euid, bus_address, runtime_dir);
}

void
cordon_cgroup_host_find_in (CordonCgroupHost *host,
                            GPtrArray *mounts,
                            uid_t euid,
                            const char *bus_address,
                            const char *runtime_dir)
{
  g_autofree char *proc_cgroup = NULL, *mountinfo = NULL, *meminfo = NULL, *controllers = NULL;
  g_autoptr(GPtrArray) own_mounts = NULL;

  g_file_get_contents ("/proc/self/cgroup", &proc_cgroup, NULL, NULL);
  if (mounts == NULL)
    {
      g_file_get_contents ("/proc/self/mountinfo", &mountinfo, NULL, NULL);
      mounts = own_mounts = cordon_mount_table_parse (mountinfo);
    }
  g_file_get_contents ("/proc/meminfo", &meminfo, NULL, NULL);
  parse_with (host, proc_cgroup, mounts, meminfo);
  if (host->unified != NULL)
    {
      g_autofree char *file = g_build_filename (host->unified, "cgroup.controllers", NULL);

      if (g_file_get_contents (file, &controllers, NULL, NULL))
        host->unified_controllers = g_strdelimit (g_strstrip (controllers), " ", ','), controllers = NULL;
    }
  host->mechanism = CORDON_CGROUP_NONE;
  if (euid != 0 && find_user_manager (host, euid, bus_address, runtime_dir))
    return;
  if (find_delegated (host, euid))
    {
      host->missing = missing_text (host, euid);
      return;
    }
  for (guint c = 0; c < CORDON_CONTROLLER_MAX; c++)
    {
      host->writable[c] = euid == 0 && host->parent[c] != NULL && access (host->parent[c], W_OK) == 0;
      if (host->writable[c] && c != CORDON_CONTROLLER_CPUACCT)
        host->mechanism = CORDON_CGROUP_V1;
    }
  if (host->parent[CORDON_CONTROLLER_MEMORY] != NULL)
    {
      g_autofree char *memsw = g_build_filename (host->parent[CORDON_CONTROLLER_MEMORY],
                                                 "memory.memsw.limit_in_bytes", NULL);

      host->memsw = g_file_test (memsw, G_FILE_TEST_EXISTS);
    }
  host->missing = missing_text (host, euid);
}

void
cordon_cgroup_host_clear (CordonCgroupHost *host)
{
  for (guint c = 0; c < CORDON_CONTROLLER_MAX; c++)
    g_clear_pointer (&host->parent[c], g_free);
  g_clear_pointer (&host->unified, g_free);
  g_clear_pointer (&host->unified_controllers, g_free);
  g_clear_pointer (&host->unified_mount, g_free);
  g_clear_pointer (&host->user_service, g_free);
  g_clear_pointer (&host->user_bus, g_free);
  g_clear_pointer (&host->delegated, g_free);
  g_clear_pointer (&host->delegation_refused, g_free);
  g_clear_pointer (&host->missing, g_free);
}

void
cordon_cgroup_stats_init (CordonCgroupStats *stats)
{
  stats->read = FALSE;
  stats->memory_peak = -1;
  stats->oom_kills = -1;
  stats->pids_max_hits = -1;
  stats->cpu_usec = -1;
}

/* The number after "KEY " at the start of one of the ';'-joined lines of
 * `text`, or -1. */
static gint64
keyed (const char *text,
       const char *key)
{
  gsize n = strlen (key);

  for (const char *p = text; p != NULL; p = strchr (p, ';'), p = p != NULL ? p + 1 : NULL)
    if (strncmp (p, key, n) == 0 && p[n] == ' ')
      return g_ascii_strtoll (p + n + 1, NULL, 10);
  return -1;
}

gboolean
cordon_cgroup_stats_take_line (CordonCgroupStats *stats,
                               const char *line)
{
  g_auto(GStrv) f = g_strsplit (line, " ", 3);
  const char *file, *text;

  if (g_strv_length (f) != 3)
    return FALSE;
  file = f[1];
  text = f[2];
  if (g_str_equal (file, "memory.max_usage_in_bytes") || g_str_equal (file, "memory.peak"))
    stats->memory_peak = g_ascii_strtoll (text, NULL, 10);
  else if (g_str_equal (file, "memory.oom_control") || g_str_equal (file, "memory.events"))
    stats->oom_kills = keyed (text, "oom_kill");
  else if (g_str_equal (file, "pids.events"))
    stats->pids_max_hits = keyed (text, "max");
  else if (g_str_equal (file, "cpuacct.usage"))
    stats->cpu_usec = g_ascii_strtoll (text, NULL, 10) / 1000;
  else if (g_str_equal (file, "cpu.stat"))
    stats->cpu_usec = keyed (text, "usage_usec");
  else
    return FALSE;
  stats->read = TRUE;
  return TRUE;
}
