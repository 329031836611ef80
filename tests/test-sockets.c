/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-sockets: the socket catalog and the decoders that read a variable
 * (DBUS_SESSION_BUS_ADDRESS, DISPLAY, WAYLAND_DISPLAY, DOCKER_HOST,
 * SSH_AUTH_SOCK, ...) as the path of the socket it points clients at.
 * A path decoded wrong is a socket the sandbox can still connect to: the
 * mask lands elsewhere and the variable that names the socket is passed
 * into the sandbox. Each case goes through the catalog, so it also checks
 * that the variable is read with the decoder the catalog names. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include <glib.h>
#include <gio/gio.h>

#include "embedded.h"
#include "sockets.h"

#define RUNTIME_DIR "/run/user/1000"

/* The paths `var`=`value` locates, with $XDG_RUNTIME_DIR at
 * `runtime_dir`, are exactly `expected` (NULL-terminated), in order. */
static void
assert_locates_all_in (const char *var,
                       const char *value,
                       const char *runtime_dir,
                       const char * const *expected)
{
  g_auto(GStrv) paths = cordon_socket_paths_from_env (var, value, runtime_dir);
  g_autofree char *got = g_strjoinv (" ", paths);
  g_autofree char *want = g_strjoinv (" ", (char **) expected);

  if (!g_strv_equal ((const char * const *) paths, expected))
    fail_msg ("%s=%s located [%s]; expected [%s]", var, value != NULL ? value : "(unset)",
              got, want);
}

/* One path, or none for a NULL `expected`. */
static void
assert_locates_in (const char *var,
                   const char *value,
                   const char *runtime_dir,
                   const char *expected)
{
  const char *want[] = { expected, NULL };

  assert_locates_all_in (var, value, runtime_dir, want);
}

static void
assert_locates (const char *var,
                const char *value,
                const char *expected)
{
  assert_locates_in (var, value, RUNTIME_DIR, expected);
}

static void
assert_locates_all (const char *var,
                    const char *value,
                    const char * const *expected)
{
  assert_locates_all_in (var, value, RUNTIME_DIR, expected);
}

/* --- the catalog -------------------------------------------------------- */

/* An entry the loader refuses (a bad env= item) empties the catalog:
 * every group of the embedded file must come back as an entry. */
static void
test_catalog_loads_every_entry_of_the_embedded_file (void **state)
{
  const CordonEmbeddedFile *file = cordon_embedded_lookup ("data/sockets.catalog");
  g_autoptr(GKeyFile) kf = g_key_file_new ();
  g_auto(GStrv) groups = NULL;

  assert_non_null (file);
  assert_true (g_key_file_load_from_data (kf, file->text, file->size, G_KEY_FILE_NONE, NULL));
  groups = g_key_file_get_groups (kf, NULL);
  assert_true (g_strv_length (groups) > 0);
  assert_int_equal (cordon_socket_catalog_len (), g_strv_length (groups));
  for (guint i = 0; groups[i] != NULL; i++)
    assert_string_equal (cordon_socket_catalog_get (i)->name, groups[i]);
}

/* cordon reads the catalog without GKeyFile where it keeps to a simple
 * form: what it reads is what GKeyFile reads, list by list, the
 * variables of env= by name, the authority byte for byte. */
static void
test_catalog_holds_what_gkeyfile_reads_of_the_embedded_file (void **state)
{
  const CordonEmbeddedFile *file = cordon_embedded_lookup ("data/sockets.catalog");
  g_autoptr(GKeyFile) kf = g_key_file_new ();

  assert_true (g_key_file_load_from_data (kf, file->text, file->size, G_KEY_FILE_NONE, NULL));
  for (guint i = 0; i < cordon_socket_catalog_len (); i++)
    {
      const CordonSocketEntry *e = cordon_socket_catalog_get (i);
      g_auto(GStrv) paths = g_key_file_get_string_list (kf, e->name, "paths", NULL, NULL);
      g_auto(GStrv) env = g_key_file_get_string_list (kf, e->name, "env", NULL, NULL);
      g_autofree char *authority = g_key_file_get_string (kf, e->name, "authority", NULL);
      g_autoptr(GPtrArray) vars = g_ptr_array_new_with_free_func (g_free);

      for (guint j = 0; env != NULL && env[j] != NULL; j++)
        g_ptr_array_add (vars, g_strndup (env[j], strcspn (env[j], ":")));
      g_ptr_array_add (vars, NULL);
      assert_non_null (paths);
      assert_true (g_strv_equal ((const char * const *) paths, e->paths));
      assert_true (g_strv_equal ((const char * const *) vars->pdata, e->env));
      assert_non_null (authority);
      assert_string_equal (authority, e->authority);
    }
}

static void
test_catalog_entry_lists_its_variables_by_name (void **state)
{
  const CordonSocketEntry *dbus = cordon_socket_catalog_lookup ("dbus");

  assert_non_null (dbus);
  assert_int_equal (g_strv_length ((char **) dbus->env), 2);
  assert_string_equal (dbus->env[0], "DBUS_SESSION_BUS_ADDRESS");
  assert_string_equal (dbus->env[1], "DBUS_SYSTEM_BUS_ADDRESS");
}

static void
test_catalog_entry_without_env_has_an_empty_list (void **state)
{
  const CordonSocketEntry *avahi = cordon_socket_catalog_lookup ("avahi");

  assert_non_null (avahi);
  assert_non_null (avahi->env);
  assert_null (avahi->env[0]);
}

static void
test_a_variable_no_entry_names_locates_nothing (void **state)
{
  assert_locates ("HOME", "/home/alice", NULL);
  assert_locates ("XDG_RUNTIME_DIR", RUNTIME_DIR, NULL);
}

static void
test_an_unset_variable_locates_nothing (void **state)
{
  assert_locates ("SSH_AUTH_SOCK", NULL, NULL);
}

/* Joined to $XDG_RUNTIME_DIR, an empty name would be the directory. */
static void
test_an_empty_variable_locates_nothing (void **state)
{
  assert_locates ("WAYLAND_DISPLAY", "", NULL);
}

/* --- DBUS_SESSION_BUS_ADDRESS, DBUS_SYSTEM_BUS_ADDRESS ------------------ */

static void
test_dbus_unix_path_is_located (void **state)
{
  assert_locates ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/user/1000/bus", "/run/user/1000/bus");
}

static void
test_dbus_system_bus_address_is_read_the_same_way (void **state)
{
  assert_locates ("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/run/dbus/system_bus_socket",
                  "/run/dbus/system_bus_socket");
}

static void
test_dbus_guid_after_the_path_is_ignored (void **state)
{
  assert_locates ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/tmp/dbus-x,guid=0123456789abcdef",
                  "/tmp/dbus-x");
}

static void
test_dbus_guid_before_the_path_is_skipped (void **state)
{
  assert_locates ("DBUS_SESSION_BUS_ADDRESS", "unix:guid=0123456789abcdef,path=/tmp/dbus-x",
                  "/tmp/dbus-x");
}

static void
test_dbus_abstract_address_names_no_file (void **state)
{
  assert_locates ("DBUS_SESSION_BUS_ADDRESS", "unix:abstract=/tmp/dbus-x,guid=01", NULL);
}

static void
test_dbus_tcp_address_names_no_file (void **state)
{
  assert_locates ("DBUS_SESSION_BUS_ADDRESS", "tcp:host=localhost,port=4711", NULL);
}

static void
test_dbus_unixexec_path_is_a_program_not_a_socket (void **state)
{
  assert_locates ("DBUS_SESSION_BUS_ADDRESS", "unixexec:path=/usr/bin/dbus-bridge", NULL);
}

static void
test_dbus_path_after_a_tcp_address_is_located (void **state)
{
  assert_locates ("DBUS_SESSION_BUS_ADDRESS", "tcp:host=localhost,port=4711;unix:path=/run/bus",
                  "/run/bus");
}

static void
test_dbus_path_after_an_abstract_address_is_located (void **state)
{
  assert_locates ("DBUS_SESSION_BUS_ADDRESS", "unix:abstract=/tmp/x;unix:path=/run/bus",
                  "/run/bus");
}

static void
test_dbus_path_is_normalized (void **state)
{
  assert_locates ("DBUS_SESSION_BUS_ADDRESS", "unix:path=//run//user/./1000/bus/",
                  "/run/user/1000/bus");
}

static void
test_dbus_relative_or_empty_path_locates_nothing (void **state)
{
  assert_locates ("DBUS_SESSION_BUS_ADDRESS", "unix:path=bus", NULL);
  assert_locates ("DBUS_SESSION_BUS_ADDRESS", "unix:path=", NULL);
}

static void
test_dbus_path_with_dotdot_locates_nothing (void **state)
{
  assert_locates ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/user/../../etc/bus", NULL);
}

static void
test_dbus_garbage_locates_nothing (void **state)
{
  assert_locates ("DBUS_SESSION_BUS_ADDRESS", "garbage", NULL);
  assert_locates ("DBUS_SESSION_BUS_ADDRESS", "unix:", NULL);
  assert_locates ("DBUS_SESSION_BUS_ADDRESS", ";;", NULL);
  assert_locates ("DBUS_SESSION_BUS_ADDRESS", "path=/run/bus", NULL);
}

/* Clients try the addresses in turn: when the first socket is absent
 * or masked, they connect to the next. */
static void
test_dbus_every_unix_path_of_the_list_is_located (void **state)
{
  const char *both[] = { "/run/user/1000/bus", "/tmp/dbus-fallback", NULL };

  assert_locates_all ("DBUS_SESSION_BUS_ADDRESS",
                      "unix:path=/run/user/1000/bus;tcp:host=h,port=1;unix:path=/tmp/dbus-fallback",
                      both);
}

static void
test_dbus_path_named_twice_is_located_once (void **state)
{
  assert_locates ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/bus;unix:path=//run/bus/", "/run/bus");
}

/* D-Bus writes every byte outside [-0-9A-Za-z_/.\*] of a value as %XX:
 * the socket is at the decoded path. */
static void
test_dbus_escaped_path_is_decoded (void **state)
{
  assert_locates ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/tmp/dbus%2dtest", "/tmp/dbus-test");
  assert_locates ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/tmp/my%20bus", "/tmp/my bus");
}

static void
test_dbus_path_escaped_from_its_first_slash_is_absolute (void **state)
{
  assert_locates ("DBUS_SESSION_BUS_ADDRESS", "unix:path=%2frun%2Fuser%2f1000%2fbus",
                  "/run/user/1000/bus");
}

static void
test_dbus_escaped_separators_stay_in_the_path (void **state)
{
  assert_locates ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/tmp/a%2cb,guid=01", "/tmp/a,b");
  assert_locates ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/tmp/a%3bb", "/tmp/a;b");
}

/* Clients refuse an address with a broken escape: it reaches nothing. */
static void
test_dbus_malformed_escape_locates_nothing (void **state)
{
  assert_locates ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/tmp/bus%zz", NULL);
  assert_locates ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/tmp/bus%2", NULL);
}

static void
test_dbus_escaped_dotdot_locates_nothing (void **state)
{
  assert_locates ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/%2e%2e/etc/bus", NULL);
}

/* libdbus hands the decoded value on as a C string: the socket it
 * connects to ends at an escaped NUL. */
static void
test_dbus_escaped_nul_ends_the_path (void **state)
{
  assert_locates ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/tmp/bus%00.hidden", "/tmp/bus");
}

/* --- DISPLAY ------------------------------------------------------------ */

static void
test_display_colon_number_is_the_x11_socket (void **state)
{
  assert_locates ("DISPLAY", ":0", "/tmp/.X11-unix/X0");
  assert_locates ("DISPLAY", ":12", "/tmp/.X11-unix/X12");
}

static void
test_display_screen_number_is_dropped (void **state)
{
  assert_locates ("DISPLAY", ":1.0", "/tmp/.X11-unix/X1");
}

static void
test_display_unix_host_is_the_x11_socket (void **state)
{
  assert_locates ("DISPLAY", "unix:3", "/tmp/.X11-unix/X3");
}

static void
test_display_with_a_host_is_tcp (void **state)
{
  assert_locates ("DISPLAY", "host:0", NULL);
  assert_locates ("DISPLAY", "localhost:10.0", NULL);
}

/* libxcb (1.15 and later) connects to a DISPLAY that is a path, or
 * "unix:" and a path, as the socket itself: XQuartz's launchd sockets,
 * a socket a nested server made anywhere. */
static void
test_display_path_is_the_socket_itself (void **state)
{
  assert_locates ("DISPLAY", "/tmp/launch-x/org.x:0", "/tmp/launch-x/org.x:0");
  assert_locates ("DISPLAY", "/run/user/1000/nested/x11", "/run/user/1000/nested/x11");
}

static void
test_display_unix_path_is_the_socket_itself (void **state)
{
  assert_locates ("DISPLAY", "unix:/run/user/1000/nested/x11", "/run/user/1000/nested/x11");
}

/* libxcb reads "PATH.S" as screen S of the socket PATH when no file
 * "PATH.S" exists (S from 1 up): both may be the socket. */
static void
test_display_path_with_a_screen_is_either_path (void **state)
{
  const char *both[] = { "/run/user/1000/nested/x11.1", "/run/user/1000/nested/x11", NULL };
  const char *unix_both[] = { "/run/x.12", "/run/x", NULL };

  assert_locates_all ("DISPLAY", "/run/user/1000/nested/x11.1", both);
  assert_locates_all ("DISPLAY", "unix:/run/x.12", unix_both);
}

static void
test_display_path_with_no_screen_suffix_is_one_path (void **state)
{
  assert_locates ("DISPLAY", "/run/x.0", "/run/x.0");
  assert_locates ("DISPLAY", "/run/x.1a", "/run/x.1a");
  assert_locates ("DISPLAY", "/run/a.1/x11", "/run/a.1/x11");
  assert_locates ("DISPLAY", "/run/x.", "/run/x.");
}

static void
test_display_path_with_dotdot_locates_nothing (void **state)
{
  assert_locates ("DISPLAY", "/tmp/../run/x11", NULL);
}

/* "PROTOCOL/HOST:N": the unix protocol is the local socket, whatever
 * the host; any other protocol never is. */
static void
test_display_unix_protocol_is_the_x11_socket (void **state)
{
  assert_locates ("DISPLAY", "unix/:2", "/tmp/.X11-unix/X2");
  assert_locates ("DISPLAY", "unix/somehost:2.1", "/tmp/.X11-unix/X2");
}

static void
test_display_tcp_protocol_is_tcp (void **state)
{
  assert_locates ("DISPLAY", "tcp/:0", NULL);
  assert_locates ("DISPLAY", "inet6/host:0", NULL);
}

/* libxcb reads the number with strtoul: ":01" is display 1. */
static void
test_display_number_loses_its_leading_zeros (void **state)
{
  assert_locates ("DISPLAY", ":01", "/tmp/.X11-unix/X1");
  assert_locates ("DISPLAY", ":00", "/tmp/.X11-unix/X0");
}

static void
test_display_garbage_locates_nothing (void **state)
{
  assert_locates ("DISPLAY", ":", NULL);
  assert_locates ("DISPLAY", ":x", NULL);
  assert_locates ("DISPLAY", "0", NULL);
  assert_locates ("DISPLAY", "garbage", NULL);
}

/* --- WAYLAND_DISPLAY ---------------------------------------------------- */

static void
test_wayland_name_is_in_the_runtime_dir (void **state)
{
  assert_locates ("WAYLAND_DISPLAY", "wayland-0", RUNTIME_DIR "/wayland-0");
}

static void
test_wayland_path_in_an_unnormalized_runtime_dir_is_normalized (void **state)
{
  assert_locates_in ("WAYLAND_DISPLAY", "wayland-1", "/run//user/1000/", RUNTIME_DIR "/wayland-1");
}

static void
test_wayland_name_without_a_runtime_dir_locates_nothing (void **state)
{
  assert_locates_in ("WAYLAND_DISPLAY", "wayland-0", NULL, NULL);
}

static void
test_wayland_absolute_path_is_itself (void **state)
{
  assert_locates ("WAYLAND_DISPLAY", "/tmp/compositor/wayland-9", "/tmp/compositor/wayland-9");
  assert_locates_in ("WAYLAND_DISPLAY", "/tmp/compositor/wayland-9", NULL,
                     "/tmp/compositor/wayland-9");
}

/* libwayland joins any name that is not absolute to $XDG_RUNTIME_DIR,
 * slashes and all: the socket of "compositor/wayland-0" is reachable. */
static void
test_wayland_name_with_a_slash_is_in_the_runtime_dir (void **state)
{
  assert_locates ("WAYLAND_DISPLAY", "compositor/wayland-0", RUNTIME_DIR "/compositor/wayland-0");
}

static void
test_wayland_name_climbing_out_of_the_runtime_dir_locates_nothing (void **state)
{
  assert_locates ("WAYLAND_DISPLAY", "../1001/wayland-0", NULL);
}

/* --- DOCKER_HOST, CONTAINER_HOST ---------------------------------------- */

static void
test_docker_host_unix_url_is_its_path (void **state)
{
  assert_locates ("DOCKER_HOST", "unix:///run/docker.sock", "/run/docker.sock");
  assert_locates ("DOCKER_HOST", "unix:///run/user/1000/docker.sock", "/run/user/1000/docker.sock");
}

/* The Docker client dials "unix://docker.sock" relative to its working
 * directory, which cordon cannot know. */
static void
test_docker_host_relative_unix_url_locates_nothing (void **state)
{
  assert_locates ("DOCKER_HOST", "unix://docker.sock", NULL);
}

/* The Docker client (opts.ParseHost) dials its default socket for a
 * unix:// with no path: /var/run/docker.sock, which need not be /run's
 * where /var/run is a directory of its own. */
static void
test_docker_host_unix_url_without_a_path_is_the_default_socket (void **state)
{
  assert_locates ("DOCKER_HOST", "unix://", "/var/run/docker.sock");
}

static void
test_docker_host_tcp_and_ssh_urls_name_no_file (void **state)
{
  assert_locates ("DOCKER_HOST", "tcp://127.0.0.1:2375", NULL);
  assert_locates ("DOCKER_HOST", "ssh://alice@build.example", NULL);
}

static void
test_docker_host_without_a_scheme_locates_nothing (void **state)
{
  assert_locates ("DOCKER_HOST", "/run/docker.sock", NULL);
  assert_locates ("DOCKER_HOST", "unix:/run/docker.sock", NULL);
}

static void
test_docker_host_path_with_dotdot_locates_nothing (void **state)
{
  assert_locates ("DOCKER_HOST", "unix:///run/../etc/docker.sock", NULL);
}

static void
test_container_host_unix_url_is_its_path (void **state)
{
  assert_locates ("CONTAINER_HOST", "unix:///run/podman/podman.sock", "/run/podman/podman.sock");
  assert_locates ("CONTAINER_HOST", "tcp://localhost:8888", NULL);
}

/* podman (pkg/bindings/connection.go) joins the host of a unix URL that
 * does not start "unix:///" to its path: "unix://run/x" is /run/x. */
static void
test_container_host_unix_url_with_a_host_is_absolute (void **state)
{
  assert_locates ("CONTAINER_HOST", "unix://run/user/1000/podman/podman.sock",
                  "/run/user/1000/podman/podman.sock");
  assert_locates ("CONTAINER_HOST", "unix:/run/podman/podman.sock", "/run/podman/podman.sock");
}

/* Go's url.Parse leaves the query and fragment out of the path, decodes
 * its %XX escapes and lowers the scheme. */
static void
test_container_host_url_is_parsed_as_a_url (void **state)
{
  assert_locates ("CONTAINER_HOST", "unix:///run/podman/podman.sock?secure=true",
                  "/run/podman/podman.sock");
  assert_locates ("CONTAINER_HOST", "unix:///run/my%20podman.sock#x", "/run/my podman.sock");
  assert_locates ("CONTAINER_HOST", "UNIX:///run/podman/podman.sock", "/run/podman/podman.sock");
}

static void
test_container_host_opaque_or_broken_url_locates_nothing (void **state)
{
  assert_locates ("CONTAINER_HOST", "unix:run/podman.sock", NULL);
  assert_locates ("CONTAINER_HOST", "unix:///run/podman%zz.sock", NULL);
}

/* An ssh:// URL names the socket on the remote host. */
static void
test_container_host_ssh_url_names_no_local_file (void **state)
{
  assert_locates ("CONTAINER_HOST", "ssh://core@build.example/run/podman/podman.sock", NULL);
}

/* --- SSH_AUTH_SOCK ------------------------------------------------------ */

static void
test_ssh_auth_sock_is_its_value (void **state)
{
  assert_locates ("SSH_AUTH_SOCK", "/tmp/ssh-XXXXabcd/agent.4242", "/tmp/ssh-XXXXabcd/agent.4242");
}

static void
test_ssh_auth_sock_is_normalized (void **state)
{
  assert_locates ("SSH_AUTH_SOCK", "/run/user/1000//keyring/./ssh", "/run/user/1000/keyring/ssh");
}

static void
test_ssh_auth_sock_relative_locates_nothing (void **state)
{
  assert_locates ("SSH_AUTH_SOCK", "agent.sock", NULL);
}

static void
test_ssh_auth_sock_with_dotdot_locates_nothing (void **state)
{
  assert_locates ("SSH_AUTH_SOCK", "/tmp/ssh-x/../agent", NULL);
}

/* --- PULSE_SERVER, GPG_AGENT_INFO --------------------------------------- */

static void
test_pulse_server_unix_or_plain_path_is_located (void **state)
{
  assert_locates ("PULSE_SERVER", "unix:/run/user/1000/pulse/native", "/run/user/1000/pulse/native");
  assert_locates ("PULSE_SERVER", "/run/user/1000/pulse/native", "/run/user/1000/pulse/native");
}

static void
test_pulse_server_tcp_or_host_names_no_file (void **state)
{
  assert_locates ("PULSE_SERVER", "tcp:localhost:4713", NULL);
  assert_locates ("PULSE_SERVER", "soundbox", NULL);
}

/* libpulse tries the servers of a space-separated list in turn. */
static void
test_pulse_server_list_locates_each_unix_server (void **state)
{
  const char *both[] = { "/run/user/1000/pulse/native", "/tmp/pulse-fallback", NULL };

  assert_locates_all ("PULSE_SERVER", "unix:/run/user/1000/pulse/native tcp:soundbox:4713\t/tmp/pulse-fallback\n",
                      both);
  assert_locates ("PULSE_SERVER", "soundbox unix:/run/pulse/native", "/run/pulse/native");
}

/* "{MACHINE-ID}" limits a server to that machine; cordon cannot tell
 * which machine the sandbox runs on, so the server counts. */
static void
test_pulse_server_machine_id_prefix_is_skipped (void **state)
{
  assert_locates ("PULSE_SERVER", "{0123456789abcdef}unix:/run/user/1000/pulse/native",
                  "/run/user/1000/pulse/native");
  assert_locates ("PULSE_SERVER", "{0123456789abcdef}/run/user/1000/pulse/native",
                  "/run/user/1000/pulse/native");
}

static void
test_pulse_server_unclosed_machine_id_locates_nothing (void **state)
{
  assert_locates ("PULSE_SERVER", "{0123456789abcdef/run/pulse/native", NULL);
}

static void
test_gpg_agent_info_is_the_part_before_the_pid (void **state)
{
  assert_locates ("GPG_AGENT_INFO", "/run/user/1000/gnupg/S.gpg-agent:4242:1",
                  "/run/user/1000/gnupg/S.gpg-agent");
  assert_locates ("GPG_AGENT_INFO", "S.gpg-agent:4242:1", NULL);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_catalog_loads_every_entry_of_the_embedded_file),
    cmocka_unit_test (test_catalog_holds_what_gkeyfile_reads_of_the_embedded_file),
    cmocka_unit_test (test_catalog_entry_lists_its_variables_by_name),
    cmocka_unit_test (test_catalog_entry_without_env_has_an_empty_list),
    cmocka_unit_test (test_a_variable_no_entry_names_locates_nothing),
    cmocka_unit_test (test_an_unset_variable_locates_nothing),
    cmocka_unit_test (test_an_empty_variable_locates_nothing),
    cmocka_unit_test (test_dbus_unix_path_is_located),
    cmocka_unit_test (test_dbus_system_bus_address_is_read_the_same_way),
    cmocka_unit_test (test_dbus_guid_after_the_path_is_ignored),
    cmocka_unit_test (test_dbus_guid_before_the_path_is_skipped),
    cmocka_unit_test (test_dbus_abstract_address_names_no_file),
    cmocka_unit_test (test_dbus_tcp_address_names_no_file),
    cmocka_unit_test (test_dbus_unixexec_path_is_a_program_not_a_socket),
    cmocka_unit_test (test_dbus_path_after_a_tcp_address_is_located),
    cmocka_unit_test (test_dbus_path_after_an_abstract_address_is_located),
    cmocka_unit_test (test_dbus_path_is_normalized),
    cmocka_unit_test (test_dbus_relative_or_empty_path_locates_nothing),
    cmocka_unit_test (test_dbus_path_with_dotdot_locates_nothing),
    cmocka_unit_test (test_dbus_garbage_locates_nothing),
    cmocka_unit_test (test_dbus_every_unix_path_of_the_list_is_located),
    cmocka_unit_test (test_dbus_path_named_twice_is_located_once),
    cmocka_unit_test (test_dbus_escaped_path_is_decoded),
    cmocka_unit_test (test_dbus_path_escaped_from_its_first_slash_is_absolute),
    cmocka_unit_test (test_dbus_escaped_separators_stay_in_the_path),
    cmocka_unit_test (test_dbus_malformed_escape_locates_nothing),
    cmocka_unit_test (test_dbus_escaped_dotdot_locates_nothing),
    cmocka_unit_test (test_dbus_escaped_nul_ends_the_path),
    cmocka_unit_test (test_display_colon_number_is_the_x11_socket),
    cmocka_unit_test (test_display_screen_number_is_dropped),
    cmocka_unit_test (test_display_unix_host_is_the_x11_socket),
    cmocka_unit_test (test_display_with_a_host_is_tcp),
    cmocka_unit_test (test_display_path_is_the_socket_itself),
    cmocka_unit_test (test_display_unix_path_is_the_socket_itself),
    cmocka_unit_test (test_display_path_with_a_screen_is_either_path),
    cmocka_unit_test (test_display_path_with_no_screen_suffix_is_one_path),
    cmocka_unit_test (test_display_path_with_dotdot_locates_nothing),
    cmocka_unit_test (test_display_unix_protocol_is_the_x11_socket),
    cmocka_unit_test (test_display_tcp_protocol_is_tcp),
    cmocka_unit_test (test_display_number_loses_its_leading_zeros),
    cmocka_unit_test (test_display_garbage_locates_nothing),
    cmocka_unit_test (test_wayland_name_is_in_the_runtime_dir),
    cmocka_unit_test (test_wayland_path_in_an_unnormalized_runtime_dir_is_normalized),
    cmocka_unit_test (test_wayland_name_without_a_runtime_dir_locates_nothing),
    cmocka_unit_test (test_wayland_absolute_path_is_itself),
    cmocka_unit_test (test_wayland_name_with_a_slash_is_in_the_runtime_dir),
    cmocka_unit_test (test_wayland_name_climbing_out_of_the_runtime_dir_locates_nothing),
    cmocka_unit_test (test_docker_host_unix_url_is_its_path),
    cmocka_unit_test (test_docker_host_relative_unix_url_locates_nothing),
    cmocka_unit_test (test_docker_host_unix_url_without_a_path_is_the_default_socket),
    cmocka_unit_test (test_docker_host_tcp_and_ssh_urls_name_no_file),
    cmocka_unit_test (test_docker_host_without_a_scheme_locates_nothing),
    cmocka_unit_test (test_docker_host_path_with_dotdot_locates_nothing),
    cmocka_unit_test (test_container_host_unix_url_is_its_path),
    cmocka_unit_test (test_container_host_unix_url_with_a_host_is_absolute),
    cmocka_unit_test (test_container_host_url_is_parsed_as_a_url),
    cmocka_unit_test (test_container_host_opaque_or_broken_url_locates_nothing),
    cmocka_unit_test (test_container_host_ssh_url_names_no_local_file),
    cmocka_unit_test (test_ssh_auth_sock_is_its_value),
    cmocka_unit_test (test_ssh_auth_sock_is_normalized),
    cmocka_unit_test (test_ssh_auth_sock_relative_locates_nothing),
    cmocka_unit_test (test_ssh_auth_sock_with_dotdot_locates_nothing),
    cmocka_unit_test (test_pulse_server_unix_or_plain_path_is_located),
    cmocka_unit_test (test_pulse_server_tcp_or_host_names_no_file),
    cmocka_unit_test (test_pulse_server_list_locates_each_unix_server),
    cmocka_unit_test (test_pulse_server_machine_id_prefix_is_skipped),
    cmocka_unit_test (test_pulse_server_unclosed_machine_id_locates_nothing),
    cmocka_unit_test (test_gpg_agent_info_is_the_part_before_the_pid),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
