/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sockets: the socket catalog (data/sockets.catalog) and the variables
 * that locate a socket. A read-only bind does not stop connect(), so each
 * of these is masked, not merely made read-only. */
#include "config.h"

#include <string.h>

#include "cordon-resources.h"
#include "path-util.h"
#include "sockets.h"

#define CATALOG_RESOURCE "/org/cordon/data/sockets.catalog"

static GPtrArray *catalog;   /* CordonSocketEntry*, sorted by name; never freed */

static char **
catalog_list (GKeyFile *kf,
              const char *group,
              const char *key)
{
  char **list = g_key_file_get_string_list (kf, group, key, NULL, NULL);

  return list != NULL ? list : g_new0 (char *, 1);
}

/* The catalog is data (data/sockets.catalog), embedded in the binary and
 * parsed once. Its text is part of cordon, not of the host, so reading it
 * keeps parse and compile pure. A broken embedded catalog is a build
 * error, caught by the unit tests. */
static GPtrArray *
load_catalog (void)
{
  g_autoptr(GBytes) bytes = g_resource_lookup_data (cordon_get_resource (), CATALOG_RESOURCE,
                                                    G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
  g_autoptr(GKeyFile) kf = g_key_file_new ();
  g_auto(GStrv) groups = NULL;
  GPtrArray *entries = g_ptr_array_new ();

  if (bytes == NULL
      || !g_key_file_load_from_bytes (kf, bytes, G_KEY_FILE_NONE, NULL))
    return entries;
  groups = g_key_file_get_groups (kf, NULL);
  for (guint i = 0; groups[i] != NULL; i++)
    {
      CordonSocketEntry *e = g_new0 (CordonSocketEntry, 1);

      e->name = g_strdup (groups[i]);
      e->paths = (const char * const *) catalog_list (kf, groups[i], "paths");
      e->env = (const char * const *) catalog_list (kf, groups[i], "env");
      e->authority = g_key_file_get_string (kf, groups[i], "authority", NULL);
      g_ptr_array_add (entries, e);
    }
  return entries;
}

static GPtrArray *
get_catalog (void)
{
  static gsize once = 0;

  if (g_once_init_enter (&once))
    {
      catalog = load_catalog ();
      g_once_init_leave (&once, 1);
    }
  return catalog;
}

const CordonSocketEntry *
cordon_socket_catalog_lookup (const char *name)
{
  GPtrArray *entries = get_catalog ();

  for (guint i = 0; i < entries->len; i++)
    if (g_str_equal (((CordonSocketEntry *) g_ptr_array_index (entries, i))->name, name))
      return g_ptr_array_index (entries, i);
  return NULL;
}

const CordonSocketEntry *
cordon_socket_catalog_get (guint i)
{
  GPtrArray *entries = get_catalog ();

  g_return_val_if_fail (i < entries->len, NULL);
  return g_ptr_array_index (entries, i);
}

guint
cordon_socket_catalog_len (void)
{
  return get_catalog ()->len;
}

static char *
absolute_path (const char *p)
{
  return p != NULL && p[0] == '/' ? g_strdup (p) : NULL;
}

/* The first "unix:path=" of a D-Bus address list; abstract and TCP
 * addresses have no file to mask (the network namespace hides them). */
static char *
dbus_path (const char *value)
{
  g_auto(GStrv) addrs = g_strsplit (value, ";", -1);

  for (guint i = 0; addrs[i] != NULL; i++)
    {
      g_auto(GStrv) parts = NULL;

      if (!g_str_has_prefix (addrs[i], "unix:"))
        continue;
      parts = g_strsplit (addrs[i] + strlen ("unix:"), ",", -1);
      for (guint j = 0; parts[j] != NULL; j++)
        if (g_str_has_prefix (parts[j], "path="))
          return absolute_path (parts[j] + strlen ("path="));
    }
  return NULL;
}

/* ":0", ":0.1", "unix:0" -> /tmp/.X11-unix/X0; "host:0" is TCP. */
static char *
x11_path (const char *value)
{
  const char *colon = strrchr (value, ':');
  const char *digits;
  gsize n;

  if (colon == NULL || (colon != value && !g_str_has_prefix (value, "unix:")))
    return NULL;
  digits = colon + 1;
  n = strspn (digits, "0123456789");
  if (n == 0)
    return NULL;
  return g_strdup_printf ("/tmp/.X11-unix/X%.*s", (int) n, digits);
}

static char *
raw_path_from_env (const char *name,
                   const char *value,
                   const char *xdg_runtime_dir)
{
  if (value == NULL || value[0] == '\0')
    return NULL;
  if (g_str_equal (name, "SSH_AUTH_SOCK"))
    return absolute_path (value);
  if (g_str_equal (name, "DOCKER_HOST") || g_str_equal (name, "CONTAINER_HOST"))
    return g_str_has_prefix (value, "unix://") ? absolute_path (value + strlen ("unix://")) : NULL;
  if (g_str_has_prefix (name, "DBUS_") && g_str_has_suffix (name, "_BUS_ADDRESS"))
    return dbus_path (value);
  if (g_str_equal (name, "DISPLAY"))
    return x11_path (value);
  if (g_str_equal (name, "PULSE_SERVER"))
    return absolute_path (g_str_has_prefix (value, "unix:") ? value + strlen ("unix:") : value);
  if (g_str_equal (name, "WAYLAND_DISPLAY"))
    {
      if (value[0] == '/')
        return g_strdup (value);
      if (xdg_runtime_dir == NULL || strchr (value, '/') != NULL)
        return NULL;
      return g_build_filename (xdg_runtime_dir, value, NULL);
    }
  if (g_str_equal (name, "GPG_AGENT_INFO"))
    {
      g_auto(GStrv) parts = g_strsplit (value, ":", 2);

      return absolute_path (parts[0]);
    }
  return NULL;
}

/* The socket path a variable names, normalized, or NULL when it names
 * none (unset form, TCP, abstract) or one with a ".." left in it. Pure:
 * the variable's value comes from host facts. The value is never stored
 * anywhere but in the plan's mask. */
char *
cordon_socket_path_from_env (const char *name,
                             const char *value,
                             const char *xdg_runtime_dir)
{
  g_autofree char *raw = raw_path_from_env (name, value, xdg_runtime_dir);
  char *path = raw != NULL ? cordon_path_normalize (raw) : NULL;

  if (path != NULL && cordon_path_has_dotdot (path))
    g_clear_pointer (&path, g_free);
  return path;
}
