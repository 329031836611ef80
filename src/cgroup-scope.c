/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cgroup-scope: the SYSTEMD mechanism's one round trip. The user's
 * manager is asked, on the user's bus, for a transient scope of the
 * run's name in app.slice (StartTransientUnit), the waiting keeper its
 * one process and the plan's limits its properties: MemoryMax,
 * MemorySwapMax, TasksMax, CPUQuotaPerSecUSec; Delegate, so the scope is
 * the caller's; OOMPolicy=continue, so one OOM kill does not stop the
 * scope before the keeper has read memory.events; CollectMode
 * inactive-or-failed, so the scope goes once the keeper leaves it, even
 * failed. The manager moves the keeper as it starts the unit: cordon
 * watches /proc for it there (bounded), not the job's signal. */
#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "cgroup-run.h"
#include "cordon-error.h"
#include "proc-read.h"

#define PLACE_LIMIT_US (5 * G_USEC_PER_SEC)

static GVariant *
scope_properties (const CordonPlan *plan,
                  pid_t keeper)
{
  const CordonLimit *l = plan->limits;
  GVariantBuilder props;
  guint32 pid = (guint32) keeper;

  g_variant_builder_init (&props, G_VARIANT_TYPE ("a(sv)"));
  g_variant_builder_add (&props, "(sv)", "Description", g_variant_new_string ("cordon sandbox"));
  g_variant_builder_add (&props, "(sv)", "Slice", g_variant_new_string ("app.slice"));
  g_variant_builder_add (&props, "(sv)", "PIDs", g_variant_new_fixed_array (G_VARIANT_TYPE_UINT32, &pid, 1,
                                                                             sizeof pid));
  g_variant_builder_add (&props, "(sv)", "Delegate", g_variant_new_boolean (TRUE));
  g_variant_builder_add (&props, "(sv)", "OOMPolicy", g_variant_new_string ("continue"));
  g_variant_builder_add (&props, "(sv)", "CollectMode", g_variant_new_string ("inactive-or-failed"));
  if (l[CORDON_LIMIT_MEMORY].held_by == CORDON_HELD_CGROUP)
    {
      g_variant_builder_add (&props, "(sv)", "MemoryMax", g_variant_new_uint64 (l[CORDON_LIMIT_MEMORY].value));
      g_variant_builder_add (&props, "(sv)", "MemorySwapMax", g_variant_new_uint64 (l[CORDON_LIMIT_SWAP].value));
    }
  if (l[CORDON_LIMIT_PIDS].held_by == CORDON_HELD_CGROUP)
    g_variant_builder_add (&props, "(sv)", "TasksMax", g_variant_new_uint64 (l[CORDON_LIMIT_PIDS].value));
  /* CPU time per second of wall time: 50% is 500 ms of each second. */
  if (l[CORDON_LIMIT_CPU].held_by == CORDON_HELD_CGROUP)
    g_variant_builder_add (&props, "(sv)", "CPUQuotaPerSecUSec",
                           g_variant_new_uint64 (l[CORDON_LIMIT_CPU].value * 10000));
  return g_variant_builder_end (&props);
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

typedef struct
{
  GDBusConnection *bus;
  GError *error;
  gboolean done;
} Connecting;

static void
on_connected (GObject *source,
              GAsyncResult *result,
              gpointer data)
{
  Connecting *c = data;

  c->bus = g_dbus_connection_new_for_address_finish (result, &c->error);
  c->done = TRUE;
}

static gboolean
on_too_long (gpointer data)
{
  g_cancellable_cancel (data);
  return G_SOURCE_REMOVE;
}

/* The user's bus, its authentication and Hello bounded (a socket that
 * never answers must not hold the run before its timeout even starts). */
static GDBusConnection *
connect_bus (const char *address,
             GError **error)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(GCancellable) cancel = g_cancellable_new ();
  g_autoptr(GSource) timer = g_timeout_source_new (PLACE_LIMIT_US / 1000);
  Connecting c = { NULL, NULL, FALSE };

  g_main_context_push_thread_default (context);
  g_source_set_callback (timer, on_too_long, cancel, NULL);
  g_source_attach (timer, context);
  g_dbus_connection_new_for_address (address, G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT
                                     | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                     NULL, cancel, on_connected, &c);
  while (!c.done)
    g_main_context_iteration (context, TRUE);
  g_source_destroy (timer);
  g_main_context_pop_thread_default (context);
  if (c.bus == NULL)
    g_propagate_error (error, c.error);
  return c.bus;
}

gboolean
cordon_cgroup_run_start_scope (const CordonCgroupRun *run,
                               const CordonPlan *plan,
                               pid_t keeper,
                               GError **error)
{
  const char *bus_address = run->bus_address;

  g_autoptr(GError) local = NULL;
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(GVariant) reply = NULL;
  gint64 deadline;

  bus = connect_bus (bus_address, &local);
  if (bus != NULL)
    reply = g_dbus_connection_call_sync (bus, "org.freedesktop.systemd1", "/org/freedesktop/systemd1",
                                         "org.freedesktop.systemd1.Manager", "StartTransientUnit",
                                         g_variant_new ("(ss@a(sv)a(sa(sv)))", run->name, "fail",
                                                        scope_properties (plan, keeper), NULL),
                                         G_VARIANT_TYPE ("(o)"), G_DBUS_CALL_FLAGS_NONE, 5000, NULL, &local);
  if (reply == NULL && g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "the user's bus (%s) did not answer within %d s",
                   bus_address, (int) (PLACE_LIMIT_US / G_USEC_PER_SEC));
      return FALSE;
    }
  if (reply == NULL)
    {
      g_autofree char *remote = g_dbus_error_get_remote_error (local);

      g_dbus_error_strip_remote_error (local);
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "the user's systemd made no scope for the sandbox "
                   "(%s): %s%s%s", bus_address, local->message, remote != NULL ? " — " : "",
                   remote != NULL ? remote : "");
      return FALSE;
    }
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
