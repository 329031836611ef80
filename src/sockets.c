/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sockets: the built-in socket catalog. A read-only bind does not stop
 * connect(), so each of these is masked, not merely made read-only. */
#include "config.h"

#include <string.h>

#include "sockets.h"

#define PATHS(...) (const char * const[]) { __VA_ARGS__, NULL }
#define ENV(...) (const char * const[]) { __VA_ARGS__, NULL }

static const CordonSocketEntry catalog[] = {
  { "avahi", PATHS ("/run/avahi-daemon/socket"),
    NULL,
    "publishes and browses services on the local network" },
  { "containerd", PATHS ("/run/containerd/containerd.sock"),
    NULL,
    "starts containers: root on the host" },
  { "cups", PATHS ("/run/cups/cups.sock"),
    NULL,
    "prints, and administers printers" },
  { "dbus", PATHS ("${XDG_RUNTIME_DIR}/bus", "/run/dbus/system_bus_socket"),
    ENV ("DBUS_SESSION_BUS_ADDRESS", "DBUS_SYSTEM_BUS_ADDRESS"),
    "the session and system buses: every desktop and system service" },
  { "dbus-session", PATHS ("${XDG_RUNTIME_DIR}/bus"),
    ENV ("DBUS_SESSION_BUS_ADDRESS"),
    "the session bus: every desktop service of the user" },
  { "dbus-system", PATHS ("/run/dbus/system_bus_socket"),
    ENV ("DBUS_SYSTEM_BUS_ADDRESS"),
    "the system bus: logind, NetworkManager, polkit, systemd" },
  { "docker", PATHS ("/run/docker.sock", "${XDG_RUNTIME_DIR}/docker.sock"),
    ENV ("DOCKER_HOST"),
    "the Docker API: root on the host" },
  { "gpg-agent", PATHS ("${XDG_RUNTIME_DIR}/gnupg/S.*", "${HOME}/.gnupg/S.*"),
    ENV ("GPG_AGENT_INFO"),
    "signs and decrypts with the user's keys" },
  { "libvirt", PATHS ("/run/libvirt/libvirt-sock", "${XDG_RUNTIME_DIR}/libvirt/libvirt-sock"),
    NULL,
    "manages virtual machines" },
  { "pipewire", PATHS ("${XDG_RUNTIME_DIR}/pipewire-*"),
    NULL,
    "microphone, camera and screen capture" },
  { "podman", PATHS ("/run/podman/podman.sock", "${XDG_RUNTIME_DIR}/podman/podman.sock"),
    ENV ("CONTAINER_HOST"),
    "the Podman API: runs containers as the user or root" },
  { "pulse", PATHS ("${XDG_RUNTIME_DIR}/pulse/native"),
    ENV ("PULSE_SERVER"),
    "sound and microphone" },
  { "snapd", PATHS ("/run/snapd.socket", "/run/snapd-snap.socket"),
    NULL,
    "installs software as root" },
  { "ssh-agent", PATHS ("${XDG_RUNTIME_DIR}/keyring/ssh", "${XDG_RUNTIME_DIR}/gcr/ssh",
                        "${XDG_RUNTIME_DIR}/openssh_agent", "/tmp/ssh-*/agent.*"),
    ENV ("SSH_AUTH_SOCK"),
    "signs in as the user to every host that trusts their keys" },
  { "systemd", PATHS ("/run/systemd/private", "/run/systemd/notify",
                      "/run/systemd/journal/stdout", "${XDG_RUNTIME_DIR}/systemd/private"),
    NULL,
    "the service manager: starts units, as root for the system instance" },
  { "wayland", PATHS ("${XDG_RUNTIME_DIR}/wayland-*"),
    ENV ("WAYLAND_DISPLAY"),
    "the display: reads the screen and types into other windows" },
  { "x11", PATHS ("/tmp/.X11-unix/X*"),
    ENV ("DISPLAY"),
    "the X display: keylogging and input injection into every window" },
};

const CordonSocketEntry *
cordon_socket_catalog_lookup (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (catalog); i++)
    if (g_str_equal (catalog[i].name, name))
      return &catalog[i];
  return NULL;
}

const CordonSocketEntry *
cordon_socket_catalog_get (guint i)
{
  g_return_val_if_fail (i < G_N_ELEMENTS (catalog), NULL);
  return &catalog[i];
}

guint
cordon_socket_catalog_len (void)
{
  return G_N_ELEMENTS (catalog);
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

/* The socket path a variable names, or NULL when it names none (unset
 * form, TCP, abstract). Pure: the variable's value comes from host
 * facts. The value is never stored anywhere but in the plan's mask. */
char *
cordon_socket_path_from_env (const char *name,
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
