/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cgroup-run: see cgroup-run.h. The name holds cordon's pid and 64
 * random bits: two runs never share one, and nothing of the sandbox's
 * can guess it ahead. A memory limit is kept in whole pages, so it is
 * read back as the page below the plan's value. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "cgroup-run.h"
#include "cordon-error.h"
#include "path-util.h"
#include "proc-read.h"
#include "protocol.h"

gboolean
cordon_cgroup_run_open (CordonCgroupRun *run,
                        const CordonPlan *plan,
                        const CordonCgroupHost *host,
                        GError **error)
{
  run->dirs = plan->cgroup_dirs;
  run->bus_address = g_strdup (host->user_bus);
  run->parent_fds = g_array_new (FALSE, FALSE, sizeof (int));
  run->home_fd = -1;
  cordon_cgroup_stats_init (&run->stats);
  run->mechanism = plan->cgroup_mechanism;
  run->name = g_strdup_printf ("cordon-%d-%08x%08x%s", (int) getpid (), g_random_int (), g_random_int (),
                               plan->cgroup_mechanism == CORDON_CGROUP_SYSTEMD ? ".scope" : "");
  for (guint i = 0; i < plan->cgroup_dirs->len; i++)
    {
      const CordonCgroupDir *dir = g_ptr_array_index (plan->cgroup_dirs, i);
      int fd = open (dir->parent, O_PATH | O_DIRECTORY | O_CLOEXEC);

      if (fd < 0)
        {
          int saved = errno;

          g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "cannot open the cgroup %s: %s",
                       dir->parent, g_strerror (saved));
          return FALSE;
        }
      g_array_append_val (run->parent_fds, fd);
      if (dir->home != NULL && run->home_fd < 0
          && (run->home_fd = open (dir->home, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
        {
          int saved = errno;

          g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "cannot open the cgroup %s: %s",
                       dir->home, g_strerror (saved));
          return FALSE;
        }
    }
  return TRUE;
}

void
cordon_cgroup_run_remove (const CordonCgroupRun *run)
{
  /* A scope is its manager's to remove. */
  for (guint i = 0; cordon_cgroup_run_any (run) && run->mechanism != CORDON_CGROUP_SYSTEMD
       && i < run->parent_fds->len; i++)
    (void) unlinkat (g_array_index (run->parent_fds, int, i), run->name, AT_REMOVEDIR);
}

void
cordon_cgroup_run_clear (CordonCgroupRun *run)
{
  for (guint i = 0; run->parent_fds != NULL && i < run->parent_fds->len; i++)
    close (g_array_index (run->parent_fds, int, i));
  if (run->home_fd >= 0)
    close (run->home_fd);
  run->home_fd = -1;
  g_clear_pointer (&run->parent_fds, g_array_unref);
  g_clear_pointer (&run->name, g_free);
  g_clear_pointer (&run->bus_address, g_free);
  run->dirs = NULL;
}

gboolean
cordon_cgroup_run_any (const CordonCgroupRun *run)
{
  return run->parent_fds != NULL && run->parent_fds->len > 0;
}

GBytes *
cordon_cgroup_run_spec (const CordonCgroupRun *run)
{
  g_autoptr(GString) spec = g_string_new (NULL);

  /* A scope is the manager's to make, limit and remove: the keeper
   * waits to be placed in it, and only reads its counters. */
  for (guint i = 0; i < run->parent_fds->len; i++)
    {
      const CordonCgroupDir *dir = g_ptr_array_index (run->dirs, i);

      g_string_append_printf (spec, "%s\t%u\t%s", run->mechanism == CORDON_CGROUP_SYSTEMD
                              ? CORDON_CGROUP_LINE_SCOPE : CORDON_CGROUP_LINE_DIR, i, run->name);
      if (run->mechanism == CORDON_CGROUP_SYSTEMD)
        {
          g_string_append_c (spec, '\t');
          cordon_path_append_encoded (spec, dir->parent);
        }
      g_string_append_c (spec, '\n');
      /* The keeper's way back, the fd after the parents'. */
      if (dir->home != NULL && run->home_fd >= 0)
        g_string_append_printf (spec, "%s\t%u\n", CORDON_CGROUP_LINE_HOME, i);
    }
  for (guint i = 0; i < run->parent_fds->len; i++)
    {
      const CordonCgroupDir *dir = g_ptr_array_index (run->dirs, i);

      for (guint s = 0; run->mechanism != CORDON_CGROUP_SYSTEMD && s < dir->settings->len; s++)
        {
          const CordonCgroupSetting *set = g_ptr_array_index (dir->settings, s);

          g_string_append_printf (spec, "%s\t%u\t%s\t%s\n", CORDON_CGROUP_LINE_SET, i, set->file, set->value);
        }
      for (guint s = 0; s < dir->stats->len; s++)
        g_string_append_printf (spec, "%s\t%u\t%s\n", CORDON_CGROUP_LINE_STAT, i,
                                (const char *) g_ptr_array_index (dir->stats, s));
    }
  return g_string_free_to_bytes (g_steal_pointer (&spec));
}

char *
cordon_cgroup_run_path (const CordonCgroupRun *run,
                        guint i)
{
  const CordonCgroupDir *dir = g_ptr_array_index (run->dirs, i);

  return g_build_filename (dir->parent, run->name, NULL);
}

/* What FILE of cgroup `i` holds, its trailing newline off; NULL. */
static char *
read_value (const CordonCgroupRun *run,
            guint i,
            const char *file)
{
  g_autofree char *path = g_build_filename (run->name, file, NULL);
  int fd = openat (g_array_index (run->parent_fds, int, i), path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  char buf[128];
  ssize_t n;

  if (fd < 0)
    return NULL;
  n = read (fd, buf, sizeof buf - 1);
  close (fd);
  if (n < 0)
    return NULL;
  buf[n] = '\0';
  return g_strdup (g_strchomp (buf));
}

static gboolean
value_holds (const CordonCgroupSetting *set,
             const char *got)
{
  guint64 want = g_ascii_strtoull (set->value, NULL, 10);
  guint64 page = (guint64) sysconf (_SC_PAGESIZE);

  if (g_str_has_suffix (set->file, "_in_bytes") || g_str_equal (set->file, "memory.max")
      || g_str_equal (set->file, "memory.swap.max"))
    return g_ascii_strtoull (got, NULL, 10) == want / page * page;
  return g_str_equal (got, set->value);
}

/* Is `pid` in cgroup `i` by /proc/PID/cgroup (its line of that
 * hierarchy ends in "/NAME")? */
static gboolean
member_of (const CordonCgroupRun *run,
           const char *proc_cgroup,
           pid_t pid,
           GString *why)
{
  /* A scope's sandbox is in its leaf (see keeper-cgroup.c). */
  g_autofree char *tail = g_strconcat ("/", run->name, run->mechanism == CORDON_CGROUP_SYSTEMD ? "/" : "",
                                       run->mechanism == CORDON_CGROUP_SYSTEMD ? CORDON_SCOPE_SANDBOX : "", NULL);
  g_auto(GStrv) lines = g_strsplit (proc_cgroup, "\n", -1);
  guint in = 0;

  for (guint l = 0; lines[l] != NULL; l++)
    in += g_str_has_suffix (lines[l], tail);
  /* One line per hierarchy of the run (co-mounted ones share a line). */
  if (in >= run->parent_fds->len)
    return TRUE;
  g_string_printf (why, "process %d is in %u of the sandbox's %u cgroups", (int) pid, in, run->parent_fds->len);
  return FALSE;
}

/* The scope limits memory (so its sandbox's leaf must end whole at the
 * first OOM kill). */
static gboolean
scope_holds_memory (const CordonCgroupRun *run)
{
  const CordonCgroupDir *dir = run->dirs->len > 0 ? g_ptr_array_index (run->dirs, 0) : NULL;

  for (guint s = 0; dir != NULL && s < dir->settings->len; s++)
    if (g_str_equal (((const CordonCgroupSetting *) g_ptr_array_index (dir->settings, s))->file, "memory.max"))
      return TRUE;
  return FALSE;
}

char *
cordon_cgroup_run_problem (const CordonCgroupRun *run,
                           pid_t pid)
{
  g_autofree char *proc_cgroup = cordon_proc_read (pid, "cgroup", NULL);
  g_autoptr(GString) why = g_string_new (NULL);

  if (proc_cgroup == NULL)
    return g_strdup_printf ("cannot read /proc/%d/cgroup", (int) pid);
  if (!member_of (run, proc_cgroup, pid, why))
    return g_string_free (g_steal_pointer (&why), FALSE);
  if (run->mechanism == CORDON_CGROUP_SYSTEMD && scope_holds_memory (run))
    {
      g_autofree char *group = read_value (run, 0, CORDON_SCOPE_SANDBOX "/memory.oom.group");

      if (g_strcmp0 (group, "1") != 0)
        return g_strdup_printf ("%s/%s/" CORDON_SCOPE_SANDBOX "/memory.oom.group holds %s, not 1",
                                ((const CordonCgroupDir *) g_ptr_array_index (run->dirs, 0))->parent, run->name,
                                group != NULL ? group : "nothing readable");
    }
  for (guint i = 0; i < run->parent_fds->len; i++)
    {
      const CordonCgroupDir *dir = g_ptr_array_index (run->dirs, i);

      for (guint s = 0; s < dir->settings->len; s++)
        {
          const CordonCgroupSetting *set = g_ptr_array_index (dir->settings, s);
          g_autofree char *got = read_value (run, i, set->file);

          if (got == NULL || !value_holds (set, got))
            return g_strdup_printf ("%s/%s/%s holds %s, not %s", dir->parent, run->name, set->file,
                                    got != NULL ? got : "nothing readable", set->value);
        }
    }
  return NULL;
}
