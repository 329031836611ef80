/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cordon-scope: the SYSTEMD mechanism's one round trip, in a program of
 * its own so that GIO (GDBus) is loaded only on the hosts that use it,
 * never by every launch of cordon.
 *
 *   cordon-scope BUS_ADDRESS UNIT PID MEMORY SWAP TASKS CPU
 *
 * asks the user's manager, on the bus at BUS_ADDRESS, for a transient
 * scope UNIT in app.slice (StartTransientUnit) with PID, the waiting
 * cordon-keeper, its one process and the limits its properties: MEMORY
 * and SWAP in bytes (MemoryMax, MemorySwapMax), TASKS (TasksMax), CPU in
 * percent of one CPU (CPUQuotaPerSecUSec); "-" for a limit not held
 * there. Delegate, so the scope is the caller's; OOMPolicy=continue, so
 * one OOM kill does not stop the scope before the keeper has read
 * memory.events; CollectMode inactive-or-failed, so the scope goes once
 * the keeper leaves it, even failed. Exits 0 once the manager accepted
 * the job; else prints why on one line of stderr and exits 1 (2: usage).
 * cordon then watches /proc for the keeper in the scope (cgroup-scope.c).
 * Its environment is not read. */
#include "config.h"

#include <gio/gio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The bus's authentication and Hello, and the call, each bounded: a
 * socket that never answers must not hold the run. */
#define ANSWER_LIMIT_MS 5000

typedef struct
{
  const char *address;
  const char *unit;
  guint32 pid;
  gboolean has[4];
  guint64 value[4];           /* memory, swap, tasks, cpu percent */
} Request;

enum { MEMORY, SWAP, TASKS, CPU };

static gboolean
parse_number (const char *text,
              gboolean *out_has,
              guint64 *out_value)
{
  if (g_str_equal (text, "-"))
    {
      *out_has = FALSE;
      return TRUE;
    }
  *out_has = TRUE;
  return g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT64, out_value, NULL);
}

static gboolean
parse_request (int argc,
               char **argv,
               Request *out)
{
  guint64 pid;

  if (argc != 8 || !g_ascii_string_to_unsigned (argv[3], 10, 1, G_MAXINT32, &pid, NULL))
    return FALSE;
  out->address = argv[1];
  out->unit = argv[2];
  out->pid = (guint32) pid;
  for (guint i = 0; i < G_N_ELEMENTS (out->value); i++)
    if (!parse_number (argv[4 + i], &out->has[i], &out->value[i]))
      return FALSE;
  /* MemoryMax and MemorySwapMax go together, as cordon plans them. */
  return out->has[MEMORY] == out->has[SWAP];
}

static GVariant *
scope_properties (const Request *r)
{
  GVariantBuilder props;

  g_variant_builder_init (&props, G_VARIANT_TYPE ("a(sv)"));
  g_variant_builder_add (&props, "(sv)", "Description", g_variant_new_string ("cordon sandbox"));
  g_variant_builder_add (&props, "(sv)", "Slice", g_variant_new_string ("app.slice"));
  g_variant_builder_add (&props, "(sv)", "PIDs", g_variant_new_fixed_array (G_VARIANT_TYPE_UINT32, &r->pid, 1,
                                                                             sizeof r->pid));
  g_variant_builder_add (&props, "(sv)", "Delegate", g_variant_new_boolean (TRUE));
  g_variant_builder_add (&props, "(sv)", "OOMPolicy", g_variant_new_string ("continue"));
  g_variant_builder_add (&props, "(sv)", "CollectMode", g_variant_new_string ("inactive-or-failed"));
  if (r->has[MEMORY])
    {
      g_variant_builder_add (&props, "(sv)", "MemoryMax", g_variant_new_uint64 (r->value[MEMORY]));
      g_variant_builder_add (&props, "(sv)", "MemorySwapMax", g_variant_new_uint64 (r->value[SWAP]));
    }
  if (r->has[TASKS])
    g_variant_builder_add (&props, "(sv)", "TasksMax", g_variant_new_uint64 (r->value[TASKS]));
  /* CPU time per second of wall time: 50% is 500 ms of each second. */
  if (r->has[CPU])
    g_variant_builder_add (&props, "(sv)", "CPUQuotaPerSecUSec", g_variant_new_uint64 (r->value[CPU] * 10000));
  return g_variant_builder_end (&props);
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

static GDBusConnection *
connect_bus (const char *address,
             GError **error)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(GCancellable) cancel = g_cancellable_new ();
  g_autoptr(GSource) timer = g_timeout_source_new (ANSWER_LIMIT_MS);
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

static char *
start_scope (const Request *r)
{
  g_autoptr(GError) local = NULL;
  g_autoptr(GDBusConnection) bus = connect_bus (r->address, &local);
  g_autoptr(GVariant) reply = NULL;
  g_autofree char *remote = NULL;

  if (bus != NULL)
    reply = g_dbus_connection_call_sync (bus, "org.freedesktop.systemd1", "/org/freedesktop/systemd1",
                                         "org.freedesktop.systemd1.Manager", "StartTransientUnit",
                                         g_variant_new ("(ss@a(sv)a(sa(sv)))", r->unit, "fail",
                                                        scope_properties (r), NULL),
                                         G_VARIANT_TYPE ("(o)"), G_DBUS_CALL_FLAGS_NONE, ANSWER_LIMIT_MS,
                                         NULL, &local);
  if (reply != NULL)
    return NULL;
  if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return g_strdup_printf ("the user's bus (%s) did not answer within %d s", r->address,
                            ANSWER_LIMIT_MS / 1000);
  remote = g_dbus_error_get_remote_error (local);
  g_dbus_error_strip_remote_error (local);
  return g_strdup_printf ("the user's systemd made no scope for the sandbox (%s): %s%s%s", r->address,
                          local->message, remote != NULL ? " — " : "", remote != NULL ? remote : "");
}

int
main (int argc,
      char **argv)
{
  Request r = { 0 };
  g_autofree char *why = NULL;

  if (!parse_request (argc, argv, &r))
    {
      fputs ("usage: cordon-scope BUS_ADDRESS UNIT PID MEMORY SWAP TASKS CPU (a number or -)\n", stderr);
      return 2;
    }
  if ((why = start_scope (&r)) == NULL)
    return 0;
  fprintf (stderr, "%s\n", why);
  return 1;
}
