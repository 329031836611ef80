/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cgroup-scope: the SYSTEMD mechanism. The user's manager is asked, on
 * the user's bus, for a transient scope of the run's name in app.slice,
 * the waiting keeper its one process and the plan's limits its
 * properties: by cordon-scope (src/cordon-scope.c), a program of its
 * own, so that GIO and GDBus are loaded only where a scope is asked for.
 * The manager moves the keeper as it starts the unit: cordon watches
 * /proc for it there (bounded), not the job's signal. */
#include "config.h"

#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "cgroup-run.h"
#include "cordon-error.h"
#include "host-facts.h"
#include "proc-read.h"

/* cordon-scope's own bounds are 5 s for the bus and 5 s for the call. */
#define PLACE_LIMIT_US (5 * G_USEC_PER_SEC)

/* One of cordon-scope's limit arguments: the value, or "-" where the
 * limit is not held by the scope. */
static char *
limit_arg (const CordonLimit *limit,
           guint64 value)
{
  return limit->held_by == CORDON_HELD_CGROUP ? g_strdup_printf ("%" G_GUINT64_FORMAT, value) : g_strdup ("-");
}

/* Is `keeper` in the scope, in app.slice (its v2 line is "0::PATH/NAME"
 * with the host's app.slice, `parent`, ending in PATH)? */
static gboolean
placed (pid_t keeper,
        const char *parent,
        const char *name)
{
  g_autofree char *text = cordon_proc_read (keeper, "cgroup", NULL);
  g_autofree char *tail = g_strconcat ("/", name, "\n", NULL);
  char *at = text != NULL ? strstr (text, tail) : NULL;
  char *line;

  if (at == NULL)
    return FALSE;
  *at = '\0';
  line = strrchr (text, '\n') != NULL ? strrchr (text, '\n') + 1 : text;
  return g_str_has_prefix (line, "0::") && line[3] == '/' && g_str_has_suffix (parent, line + 3);
}

/* In cordon-scope, before its exec: it dies with cordon (it may wait on
 * the bus up to 10 s), or does not start where cordon is gone already. */
static void
die_with_cordon (gpointer data)
{
  pid_t cordon = GPOINTER_TO_INT (data);

  if (prctl (PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0 || getppid () != cordon)
    _exit (127);
}

/* cordon-scope, run to its end; its one line of stderr is the reason
 * it failed. */
static gboolean
ask_scope (const CordonCgroupRun *run,
           const CordonPlan *plan,
           pid_t keeper,
           GError **error)
{
  const CordonLimit *l = plan->limits;
  g_autofree char *helper = cordon_host_facts_find_helper ("cordon-scope", NULL, NULL, error);
  g_autofree char *pid = g_strdup_printf ("%d", (int) keeper);
  g_autofree char *memory = limit_arg (&l[CORDON_LIMIT_MEMORY], l[CORDON_LIMIT_MEMORY].value);
  g_autofree char *swap = limit_arg (&l[CORDON_LIMIT_MEMORY], l[CORDON_LIMIT_SWAP].value);
  g_autofree char *tasks = limit_arg (&l[CORDON_LIMIT_PIDS], l[CORDON_LIMIT_PIDS].value);
  g_autofree char *cpu = limit_arg (&l[CORDON_LIMIT_CPU], l[CORDON_LIMIT_CPU].value);
  g_autofree char *err = NULL;
  char *none[] = { NULL };
  int status = 0;

  if (helper == NULL)
    return FALSE;
  {
    char *argv[] = { helper, run->bus_address, run->name, pid, memory, swap, tasks, cpu, NULL };

    if (!g_spawn_sync (NULL, argv, none, G_SPAWN_STDOUT_TO_DEV_NULL, die_with_cordon, GINT_TO_POINTER (getpid ()),
                       NULL, &err, &status, error))
      return FALSE;
  }
  if (g_spawn_check_wait_status (status, NULL))
    return TRUE;
  g_strstrip (err);
  g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "%s",
               err[0] != '\0' ? err : "cordon-scope failed without saying why");
  return FALSE;
}

gboolean
cordon_cgroup_run_start_scope (const CordonCgroupRun *run,
                               const CordonPlan *plan,
                               pid_t keeper,
                               GError **error)
{
  gint64 deadline;

  if (!ask_scope (run, plan, keeper, error))
    return FALSE;
  for (deadline = g_get_monotonic_time () + PLACE_LIMIT_US;
       !placed (keeper, ((const CordonCgroupDir *) g_ptr_array_index (run->dirs, 0))->parent, run->name);)
    {
      if (g_get_monotonic_time () > deadline)
        {
          g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "the user's systemd did not place cordon-keeper "
                       "in the scope %s within %d s", run->name, (int) (PLACE_LIMIT_US / G_USEC_PER_SEC));
          return FALSE;
        }
      g_usleep (1000);
    }
  return TRUE;
}
