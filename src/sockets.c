/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sockets: the built-in socket catalog. A read-only bind does not stop
 * connect(), so each of these is masked, not merely made read-only. */
#include "config.h"

#include "sockets.h"

#define PATHS(...) (const char * const[]) { __VA_ARGS__, NULL }

static const CordonSocketEntry catalog[] = {
  { "avahi", PATHS ("/run/avahi-daemon/socket"),
    "publishes and browses services on the local network" },
  { "containerd", PATHS ("/run/containerd/containerd.sock"),
    "starts containers: root on the host" },
  { "cups", PATHS ("/run/cups/cups.sock"),
    "prints, and administers printers" },
  { "dbus", PATHS ("${XDG_RUNTIME_DIR}/bus", "/run/dbus/system_bus_socket"),
    "the session and system buses: every desktop and system service" },
  { "dbus-session", PATHS ("${XDG_RUNTIME_DIR}/bus"),
    "the session bus: every desktop service of the user" },
  { "dbus-system", PATHS ("/run/dbus/system_bus_socket"),
    "the system bus: logind, NetworkManager, polkit, systemd" },
  { "docker", PATHS ("/run/docker.sock", "${XDG_RUNTIME_DIR}/docker.sock"),
    "the Docker API: root on the host" },
  { "gpg-agent", PATHS ("${XDG_RUNTIME_DIR}/gnupg/S.*", "${HOME}/.gnupg/S.*"),
    "signs and decrypts with the user's keys" },
  { "libvirt", PATHS ("/run/libvirt/libvirt-sock", "${XDG_RUNTIME_DIR}/libvirt/libvirt-sock"),
    "manages virtual machines" },
  { "pipewire", PATHS ("${XDG_RUNTIME_DIR}/pipewire-*"),
    "microphone, camera and screen capture" },
  { "podman", PATHS ("/run/podman/podman.sock", "${XDG_RUNTIME_DIR}/podman/podman.sock"),
    "the Podman API: runs containers as the user or root" },
  { "pulse", PATHS ("${XDG_RUNTIME_DIR}/pulse/native"),
    "sound and microphone" },
  { "snapd", PATHS ("/run/snapd.socket", "/run/snapd-snap.socket"),
    "installs software as root" },
  { "ssh-agent", PATHS ("${XDG_RUNTIME_DIR}/keyring/ssh", "${XDG_RUNTIME_DIR}/gcr/ssh",
                        "${XDG_RUNTIME_DIR}/openssh_agent", "/tmp/ssh-*/agent.*"),
    "signs in as the user to every host that trusts their keys" },
  { "systemd", PATHS ("/run/systemd/private", "/run/systemd/notify",
                      "/run/systemd/journal/stdout", "${XDG_RUNTIME_DIR}/systemd/private"),
    "the service manager: starts units, as root for the system instance" },
  { "wayland", PATHS ("${XDG_RUNTIME_DIR}/wayland-*"),
    "the display: reads the screen and types into other windows" },
  { "x11", PATHS ("/tmp/.X11-unix/X*"),
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
