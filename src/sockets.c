/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sockets: the socket catalog (data/sockets.catalog) and the variables
 * that locate a socket. A read-only bind does not stop connect(), so each
 * of these is masked, not merely made read-only. The catalog names, for
 * each variable, the decoder that reads its value as a path; the decoders
 * are the table below, so a new socket is one catalog entry. */
#include "config.h"

#include <string.h>

#include "embedded.h"
#include "env-filter.h"
#include "path-util.h"
#include "sockets.h"

#define CATALOG_FILE "data/sockets.catalog"

/* A variable's value -> the raw socket paths it names, added to `out`
 * (char*) in the order clients try them; none for a form that names no
 * file (TCP, abstract, a relative path). The value is neither NULL nor
 * empty. */
typedef void (*SocketDecodeFunc) (const char *value,
                                  const char *xdg_runtime_dir,
                                  GPtrArray *out);

typedef struct
{
  const char *name;          /* as written after the ':' of env= */
  SocketDecodeFunc decode;
} SocketDecoder;

typedef struct
{
  GPtrArray *entries;        /* CordonSocketEntry*, in the file's order */
  GHashTable *decoders;      /* variable -> const SocketDecoder* */
} SocketCatalog;

static SocketCatalog *catalog;   /* never freed */

/* A relative path is resolved against the client's working directory,
 * which cordon cannot know: only an absolute one is added. */
static void
add_absolute (GPtrArray *out,
              const char *p)
{
  if (p != NULL && p[0] == '/')
    g_ptr_array_add (out, g_strdup (p));
}

/* SSH_AUTH_SOCK: the value is the path. */
static void
decode_path (const char *value,
             const char *xdg_runtime_dir,
             GPtrArray *out)
{
  add_absolute (out, value);
}

/* DOCKER_HOST: "unix://PATH"; "unix://" alone is the client's default
 * socket (opts.ParseHost), /var/run/docker.sock, which is not /run's
 * where /var/run is a directory of its own. tcp://, ssh:// and the
 * others reach no file. */
static void
decode_docker_host_url (const char *value,
                        const char *xdg_runtime_dir,
                        GPtrArray *out)
{
  const char *path;

  if (!g_str_has_prefix (value, "unix://"))
    return;
  path = value + strlen ("unix://");
  add_absolute (out, path[0] != '\0' ? path : "/var/run/docker.sock");
}

/* CONTAINER_HOST as podman reads it (pkg/bindings/connection.go): a URL
 * of scheme unix, parsed as Go's url.Parse does (the query and fragment
 * apart, %XX decoded, the scheme in any case); one that does not start
 * "unix:///" has its host joined to its path, so "unix://run/x" and
 * "unix:/run/x" are /run/x. An opaque "unix:run/x" reaches no socket. */
static void
decode_container_host_url (const char *value,
                           const char *xdg_runtime_dir,
                           GPtrArray *out)
{
  g_autoptr(GUri) uri = g_uri_parse (value, G_URI_FLAGS_NONE, NULL);
  const char *host = uri != NULL ? g_uri_get_host (uri) : NULL;
  g_autofree char *path = NULL;

  if (uri == NULL || g_strcmp0 (g_uri_get_scheme (uri), "unix") != 0
      || g_uri_get_path (uri)[0] != '/')
    return;
  path = g_strconcat ("/", host != NULL ? host : "", "/", g_uri_get_path (uri), NULL);
  g_ptr_array_add (out, g_steal_pointer (&path));
}

/* D-Bus writes each byte of a value outside [-0-9A-Za-z_/.\*] as %XX
 * ("unix:path=/tmp/my%20bus"); the socket is at the decoded path, so the
 * mask must be. Clients refuse a broken escape: NULL. libdbus passes the
 * value on as a C string, so the path ends at an escaped NUL. */
static char *
dbus_unescape (const char *value)
{
  g_autoptr(GBytes) bytes = g_uri_unescape_bytes (value, -1, NULL, NULL);
  gsize len = 0;
  const char *data = bytes != NULL ? g_bytes_get_data (bytes, &len) : NULL;

  return data != NULL ? g_strndup (data, len) : NULL;
}

/* The "unix:path=" of every address of a D-Bus address list: clients
 * try them in turn, so a socket named after the first is reached when
 * the first is absent or masked. Abstract and TCP addresses have no file
 * to mask (the network namespace hides them). The list and the key=value
 * pairs are split before the values are unescaped: an escaped ';' or ','
 * is part of the path. */
static void
decode_dbus_address (const char *value,
                     const char *xdg_runtime_dir,
                     GPtrArray *out)
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
          {
            g_autofree char *path = dbus_unescape (parts[j] + strlen ("path="));

            add_absolute (out, path);
            break;
          }
    }
}

/* Whether the text from `s` up to `end` is `word`. */
static gboolean
span_is (const char *s,
         const char *end,
         const char *word)
{
  return (gsize) (end - s) == strlen (word) && strncmp (s, word, end - s) == 0;
}

/* Whether libxcb takes "[PROTOCOL/]HOST:N" to the local socket: the
 * unix protocol whatever the host; no protocol and no host, or the host
 * "unix". Any other protocol is TCP or nothing. */
static gboolean
x11_is_local (const char *value,
              const char *slash,
              const char *host,
              const char *colon)
{
  if (slash != NULL)
    return span_is (value, slash, "unix");
  return colon == host || span_is (host, colon, "unix");
}

/* A DISPLAY path "PATH.S" (S digits, from 1 up) is screen S of the
 * socket PATH when no file "PATH.S" exists: libxcb stats the whole path
 * first, so either may be the socket, and both are added. */
static void
add_x11_path (GPtrArray *out,
              const char *path)
{
  const char *dot = strrchr (path, '.');

  add_absolute (out, path);
  if (dot != NULL && dot[1] >= '1' && dot[1] <= '9'
      && dot[1 + strspn (dot + 1, "0123456789")] == '\0')
    g_ptr_array_add (out, g_strndup (path, dot - path));
}

/* DISPLAY as libxcb reads it (xcb_util.c): a path, or "unix:" and a
 * path, is the socket itself (libxcb 1.15 and later); ":0", ":0.1",
 * "unix:0", "unix/host:0" -> /tmp/.X11-unix/X0 (the number as strtoul
 * reads it, leading zeros dropped); "host:0" and "tcp/:0" are TCP. */
static void
decode_x11_display (const char *value,
                    const char *xdg_runtime_dir,
                    GPtrArray *out)
{
  const char *slash, *host, *colon, *digits;
  gsize n;

  if (value[0] == '/' || g_str_has_prefix (value, "unix:/"))
    {
      add_x11_path (out, value[0] == '/' ? value : value + strlen ("unix:"));
      return;
    }
  slash = strrchr (value, '/');
  host = slash != NULL ? slash + 1 : value;
  colon = strrchr (host, ':');
  if (colon == NULL || !x11_is_local (value, slash, host, colon))
    return;
  digits = colon + 1;
  n = strspn (digits, "0123456789");
  if (n == 0)
    return;
  for (; n > 1 && digits[0] == '0'; n--)
    digits++;
  g_ptr_array_add (out, g_strdup_printf ("/tmp/.X11-unix/X%.*s", (int) n, digits));
}

/* An absolute path, or a path relative to $XDG_RUNTIME_DIR: libwayland
 * joins any other value to it, "compositor/wayland-0" too. */
static void
decode_wayland_display (const char *value,
                        const char *xdg_runtime_dir,
                        GPtrArray *out)
{
  if (value[0] == '/')
    add_absolute (out, value);
  else if (xdg_runtime_dir != NULL)
    g_ptr_array_add (out, g_build_filename (xdg_runtime_dir, value, NULL));
}

/* PULSE_SERVER as libpulse reads it: servers separated by white space,
 * tried in turn; each "[{MACHINE-ID}]unix:PATH" or "[{MACHINE-ID}]PATH"
 * is a socket, "tcp:HOST" and a bare host are not. The machine id only
 * limits a server to one machine, which a pure decoder cannot check:
 * the server counts. An unclosed '{' makes libpulse skip the server. */
static void
decode_pulse_server (const char *value,
                     const char *xdg_runtime_dir,
                     GPtrArray *out)
{
  g_auto(GStrv) servers = g_strsplit_set (value, " \t\n\r", -1);

  for (guint i = 0; servers[i] != NULL; i++)
    {
      const char *server = servers[i];

      if (server[0] == '{')
        {
          const char *close = strchr (server, '}');

          if (close == NULL)
            continue;
          server = close + 1;
        }
      add_absolute (out, g_str_has_prefix (server, "unix:") ? server + strlen ("unix:") : server);
    }
}

/* "PATH:PID:PROTOCOL". */
static void
decode_gpg_agent_info (const char *value,
                       const char *xdg_runtime_dir,
                       GPtrArray *out)
{
  g_auto(GStrv) parts = g_strsplit (value, ":", 2);

  add_absolute (out, parts[0]);
}

static const SocketDecoder decoders[] = {
  { "path", decode_path },
  { "docker-host-url", decode_docker_host_url },
  { "container-host-url", decode_container_host_url },
  { "dbus-address", decode_dbus_address },
  { "x11-display", decode_x11_display },
  { "wayland-display", decode_wayland_display },
  { "pulse-server", decode_pulse_server },
  { "gpg-agent-info", decode_gpg_agent_info },
};

static const SocketDecoder *
find_decoder (const char *name)
{
  for (gsize i = 0; i < G_N_ELEMENTS (decoders); i++)
    if (g_str_equal (decoders[i].name, name))
      return &decoders[i];
  return NULL;
}

/* One "VARIABLE:DECODER" item of env=. A variable read two ways would
 * mask one socket and pass the other, so it has one decoder wherever the
 * catalog names it. */
static gboolean
add_env_item (SocketCatalog *cat,
              const char *item,
              GStrvBuilder *vars)
{
  const char *colon = strchr (item, ':');
  g_autofree char *var = colon != NULL ? g_strndup (item, colon - item) : NULL;
  const SocketDecoder *decoder = colon != NULL ? find_decoder (colon + 1) : NULL;
  const SocketDecoder *known;

  if (var == NULL || !cordon_env_name_is_valid (var) || decoder == NULL)
    return FALSE;
  known = g_hash_table_lookup (cat->decoders, var);
  if (known != NULL && known != decoder)
    return FALSE;
  g_hash_table_insert (cat->decoders, g_strdup (var), (gpointer) decoder);
  g_strv_builder_add (vars, var);
  return TRUE;
}

static void
socket_entry_free (gpointer p)
{
  CordonSocketEntry *e = p;

  g_free (e->name);
  g_strfreev ((char **) e->paths);
  g_strfreev ((char **) e->env);
  g_free (e->authority);
  g_free (e);
}

/* One [group] of the catalog file as read, before its env= items are
 * checked: the lists as g_key_file_get_string_list gives them (empty
 * when absent), the authority as g_key_file_get_string (NULL when absent). */
typedef struct
{
  char *name;
  char **paths;
  char **env;
  char *authority;
} RawEntry;

static void
raw_entry_free (gpointer p)
{
  RawEntry *r = p;

  g_free (r->name);
  g_strfreev (r->paths);
  g_strfreev (r->env);
  g_free (r->authority);
  g_free (r);
}

static gboolean
add_entry (SocketCatalog *cat,
           RawEntry *raw)
{
  g_autoptr(GStrvBuilder) vars = g_strv_builder_new ();
  CordonSocketEntry *e;

  for (guint i = 0; raw->env[i] != NULL; i++)
    if (!add_env_item (cat, raw->env[i], vars))
      {
        g_debug ("socket catalog [%s]: env item '%s' is not VARIABLE:DECODER "
                 "with a known decoder and one decoder per variable", raw->name, raw->env[i]);
        return FALSE;
      }
  e = g_new0 (CordonSocketEntry, 1);
  e->name = g_steal_pointer (&raw->name);
  e->paths = (const char * const *) g_steal_pointer (&raw->paths);
  e->env = (const char * const *) g_strv_builder_end (vars);
  e->authority = g_steal_pointer (&raw->authority);
  g_ptr_array_add (cat->entries, e);
  return TRUE;
}

static char **
catalog_list (GKeyFile *kf,
              const char *group,
              const char *key)
{
  char **list = g_key_file_get_string_list (kf, group, key, NULL, NULL);

  return list != NULL ? list : g_new0 (char *, 1);
}

/* The catalog as GKeyFile reads it, or NULL where it cannot. */
static GPtrArray *
read_keyfile (const char *text,
              gsize size)
{
  g_autoptr(GKeyFile) kf = g_key_file_new ();
  g_auto(GStrv) groups = NULL;
  GPtrArray *raws;

  if (!g_key_file_load_from_data (kf, text, size, G_KEY_FILE_NONE, NULL))
    return NULL;
  groups = g_key_file_get_groups (kf, NULL);
  raws = g_ptr_array_new_with_free_func (raw_entry_free);
  for (guint i = 0; groups[i] != NULL; i++)
    {
      RawEntry *r = g_new0 (RawEntry, 1);

      r->name = g_strdup (groups[i]);
      r->paths = catalog_list (kf, groups[i], "paths");
      r->env = catalog_list (kf, groups[i], "env");
      r->authority = g_key_file_get_string (kf, groups[i], "authority", NULL);
      g_ptr_array_add (raws, r);
    }
  return raws;
}

static gboolean
is_plain (char c)
{
  return c >= 0x20 && c <= 0x7e && c != '\\';
}

static gboolean
is_group_char (char c)
{
  return g_ascii_islower (c) || g_ascii_isdigit (c) || c == '-';
}

static gboolean
is_key_char (char c)
{
  return g_ascii_islower (c);
}

/* Whether `s` (`len` bytes) is made of bytes that pass `test`, one at
 * least. */
static gboolean
made_of (const char *s,
         gsize len,
         gboolean (*test) (char c))
{
  for (gsize i = 0; i < len; i++)
    if (!test (s[i]))
      return FALSE;
  return len > 0;
}

/* A key of the simple form (below) into `r`: FALSE where the value is
 * not plain, or the key is set twice. */
static gboolean
simple_key (RawEntry *r,
            const char *key,
            gsize key_len,
            const char *value,
            gsize len)
{
  char ***list = key_len == 5 && strncmp (key, "paths", 5) == 0 ? &r->paths
                 : key_len == 3 && strncmp (key, "env", 3) == 0 ? &r->env : NULL;

  /* Printable ASCII, no escape, no white space at either end. */
  if (!made_of (value, len, is_plain) || value[0] == ' ' || value[len - 1] == ' ')
    return FALSE;
  if (key_len == 9 && strncmp (key, "authority", 9) == 0)
    {
      if (r->authority != NULL)
        return FALSE;
      r->authority = g_strndup (value, len);
      return TRUE;
    }
  if (list == NULL)
    return TRUE;   /* a key the catalog does not use */
  /* No empty item (";;", or a ';' at either end) and no white space to
   * split as GKeyFile does. */
  if (*list != NULL || value[0] == ';' || value[len - 1] == ';' || g_strstr_len (value, len, ";;") != NULL
      || memchr (value, ' ', len) != NULL)
    return FALSE;
  {
    g_autofree char *copy = g_strndup (value, len);

    *list = g_strsplit (copy, ";", -1);
  }
  return TRUE;
}

static gboolean
simple_line (GPtrArray *raws,
             const char *line,
             gsize len)
{
  const char *eq = memchr (line, '=', len);
  RawEntry *r = raws->len > 0 ? g_ptr_array_index (raws, raws->len - 1) : NULL;

  if (len == 0 || line[0] == '#')
    return TRUE;
  if (line[0] == '[')
    {
      if (len < 3 || line[len - 1] != ']' || !made_of (line + 1, len - 2, is_group_char))
        return FALSE;
      for (guint i = 0; i < raws->len; i++)
        if (strncmp (((RawEntry *) g_ptr_array_index (raws, i))->name, line + 1, len - 2) == 0
            && ((RawEntry *) g_ptr_array_index (raws, i))->name[len - 2] == '\0')
          return FALSE;
      r = g_new0 (RawEntry, 1);
      r->name = g_strndup (line + 1, len - 2);
      g_ptr_array_add (raws, r);
      return TRUE;
    }
  if (r == NULL || eq == NULL || !made_of (line, (gsize) (eq - line), is_key_char))
    return FALSE;
  return simple_key (r, line, (gsize) (eq - line), eq + 1, len - (gsize) (eq + 1 - line));
}

/* The catalog read without GKeyFile, where it keeps to a simple form:
 * comments and blank lines at the start of a line, "[name]" of
 * lower-case letters, digits and '-', and lower-case keys each set once
 * to printable ASCII without an escape, white space at either end or an
 * empty list item. Of such a file this reads what GKeyFile reads (test-
 * sockets holds the two to each other) at a third of the cost, and every
 * run of cordon reads it; NULL for anything else, which GKeyFile reads. */
static GPtrArray *
read_simple (const char *text,
             gsize size)
{
  g_autoptr(GPtrArray) raws = g_ptr_array_new_with_free_func (raw_entry_free);

  for (const char *line = text, *end = text + size; line < end;)
    {
      const char *nl = memchr (line, '\n', (gsize) (end - line));
      gsize len = (gsize) ((nl != NULL ? nl : end) - line);

      if (!simple_line (raws, line, len))
        return NULL;
      line += len + 1;
    }
  for (guint i = 0; i < raws->len; i++)
    {
      RawEntry *r = g_ptr_array_index (raws, i);

      if (r->paths == NULL)
        r->paths = g_new0 (char *, 1);
      if (r->env == NULL)
        r->env = g_new0 (char *, 1);
    }
  return g_steal_pointer (&raws);
}

/* The catalog is data (data/sockets.catalog), embedded in the binary and
 * parsed once. Its text is part of cordon, not of the host, so reading it
 * keeps parse and compile pure. A broken embedded catalog is a build
 * error, caught by the unit tests: it loads as an empty catalog (every
 * @name unknown, so no policy that names one runs), never as a catalog
 * with an entry or a variable missing. */
static SocketCatalog *
load_catalog (void)
{
  const CordonEmbeddedFile *file = cordon_embedded_lookup (CATALOG_FILE);
  g_autoptr(GPtrArray) raws = NULL;
  SocketCatalog *cat = g_new0 (SocketCatalog, 1);

  cat->entries = g_ptr_array_new_with_free_func (socket_entry_free);
  cat->decoders = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (file == NULL)
    return cat;
  raws = read_simple (file->text, file->size);
  if (raws == NULL && (raws = read_keyfile (file->text, file->size)) == NULL)
    return cat;
  for (guint i = 0; i < raws->len; i++)
    if (!add_entry (cat, g_ptr_array_index (raws, i)))
      {
        g_ptr_array_set_size (cat->entries, 0);
        g_hash_table_remove_all (cat->decoders);
        break;
      }
  return cat;
}

static SocketCatalog *
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
  GPtrArray *entries = get_catalog ()->entries;

  for (guint i = 0; i < entries->len; i++)
    if (g_str_equal (((CordonSocketEntry *) g_ptr_array_index (entries, i))->name, name))
      return g_ptr_array_index (entries, i);
  return NULL;
}

const CordonSocketEntry *
cordon_socket_catalog_get (guint i)
{
  GPtrArray *entries = get_catalog ()->entries;

  g_return_val_if_fail (i < entries->len, NULL);
  return g_ptr_array_index (entries, i);
}

guint
cordon_socket_catalog_len (void)
{
  return get_catalog ()->entries->len;
}

/* The socket paths a variable names, normalized, in the order clients
 * try them, each once: none when it names none (unset, TCP, abstract, a
 * relative path) or when no catalog entry names the variable; a path
 * with a ".." left in it is dropped (resolving it would need the file
 * system). Pure: the variable's value comes from host facts. The value
 * is never stored anywhere but in the plan's masks. */
/* Whether `name`'s value is the socket's path itself (SSH_AUTH_SOCK): the
 * one socket of the service the caller's clients use, of several the
 * catalog's globs may match (an agent per login). */
gboolean
cordon_socket_env_names_the_one (const char *name)
{
  const SocketDecoder *decoder = g_hash_table_lookup (get_catalog ()->decoders, name);

  return decoder != NULL && decoder->decode == decode_path;
}

char **
cordon_socket_paths_from_env (const char *name,
                              const char *value,
                              const char *xdg_runtime_dir)
{
  const SocketDecoder *decoder = g_hash_table_lookup (get_catalog ()->decoders, name);
  g_autoptr(GPtrArray) raw = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);

  if (decoder != NULL && value != NULL && value[0] != '\0')
    decoder->decode (value, xdg_runtime_dir, raw);
  for (guint i = 0; i < raw->len; i++)
    {
      g_autofree char *path = cordon_path_normalize (g_ptr_array_index (raw, i));

      if (!cordon_path_has_dotdot (path)
          && !g_ptr_array_find_with_equal_func (paths, path, g_str_equal, NULL))
        g_ptr_array_add (paths, g_steal_pointer (&path));
    }
  g_ptr_array_add (paths, NULL);
  return g_strdupv ((char **) paths->pdata);
}
