/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* policy-source: finds and reads policy text on the host: by path, in the
 * search directories, or in the set embedded in the binary (so that an
 * uninstalled build runs on its default policy). Reads are bounded so a
 * hostile or mistaken file cannot make cordon read without end. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "embedded.h"
#include "path-util.h"
#include "policy-source.h"
#include "suggest.h"

#define EMBEDDED_PREFIX "policies/"
#define EMBEDDED_DISPLAY "<embedded>/"

struct _CordonPolicySource
{
  GPtrArray *dirs;   /* char*, NULL-terminated */
};

static const char *
env_lookup (const char * const *envp,
            const char *name)
{
  return envp != NULL ? g_environ_getenv ((char **) envp, name) : NULL;
}

/* CORDON_POLICY_NOSYSTEM (set, neither empty nor "0") leaves out the
 * system directories, as GIT_CONFIG_NOSYSTEM does git's system config:
 * with XDG_CONFIG_HOME at an empty directory a name then resolves to the
 * embedded copy, which is how the test suite tests the build tree's
 * policies and not an installed copy. It can only narrow the search: it
 * adds no directory, so it opens no new place a sandbox could plant a
 * policy in for a later run. */
static gboolean
skip_system_dirs (const char * const *envp)
{
  const char *value = env_lookup (envp, "CORDON_POLICY_NOSYSTEM");

  return value != NULL && value[0] != '\0' && !g_str_equal (value, "0");
}

CordonPolicySource *
cordon_policy_source_new (const char * const *envp)
{
  CordonPolicySource *source = cordon_policy_source_new_embedded_only ();
  const char *config = env_lookup (envp, "XDG_CONFIG_HOME");
  const char *home = env_lookup (envp, "HOME");

  g_ptr_array_remove_index (source->dirs, source->dirs->len - 1);
  if (config != NULL && g_path_is_absolute (config))
    g_ptr_array_add (source->dirs, g_build_filename (config, "cordon", "policies", NULL));
  else if (home != NULL && g_path_is_absolute (home))
    g_ptr_array_add (source->dirs, g_build_filename (home, ".config", "cordon", "policies", NULL));
  if (!skip_system_dirs (envp))
    {
      g_ptr_array_add (source->dirs, g_strdup (CORDON_SYSCONFDIR "/policies"));
      g_ptr_array_add (source->dirs, g_strdup (CORDON_DATADIR "/policies"));
    }
  g_ptr_array_add (source->dirs, NULL);
  return source;
}

CordonPolicySource *
cordon_policy_source_new_embedded_only (void)
{
  CordonPolicySource *source = g_new0 (CordonPolicySource, 1);

  source->dirs = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (source->dirs, NULL);
  return source;
}

void
cordon_policy_source_free (CordonPolicySource *source)
{
  if (source == NULL)
    return;
  g_ptr_array_unref (source->dirs);
  g_free (source);
}

const char * const *
cordon_policy_source_get_dirs (CordonPolicySource *source)
{
  return (const char * const *) source->dirs->pdata;
}

gboolean
cordon_policy_ref_is_path (const char *ref)
{
  return strchr (ref, '/') != NULL || g_str_has_suffix (ref, ".policy");
}

static gboolean
name_is_valid (const char *name)
{
  if (name[0] == '\0' || name[0] == '.')
    return FALSE;
  for (const char *p = name; *p != '\0'; p++)
    if (!(g_ascii_isalnum (*p) || *p == '-' || *p == '_' || *p == '.'))
      return FALSE;
  return TRUE;
}

/* Reads at most CORDON_POLICY_MAX_BYTES + 1 bytes: enough for the parser
 * to say the file is too large, never more. */
static gboolean
read_bounded (const char *path,
              char **out_text,
              GError **error)
{
  g_autofree char *buf = g_malloc (CORDON_POLICY_MAX_BYTES + 2);
  gsize len = 0;
  /* O_NONBLOCK: a FIFO planted as a policy must not hang cordon before
   * the regular-file check below refuses it. */
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  struct stat st;

  if (fd < 0)
    {
      int saved = errno;

      g_set_error (error, CORDON_ERROR, saved == ENOENT ? CORDON_ERROR_NOT_FOUND : CORDON_ERROR_FAILED,
                   "%s: %s", path, g_strerror (saved));
      return FALSE;
    }
  if (fstat (fd, &st) == 0 && !S_ISREG (st.st_mode))
    {
      close (fd);
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_FAILED, "%s: not a regular file", path);
      return FALSE;
    }
  while (len <= CORDON_POLICY_MAX_BYTES)
    {
      ssize_t n = read (fd, buf + len, CORDON_POLICY_MAX_BYTES + 1 - len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      len += (gsize) n;
    }
  close (fd);
  buf[len] = '\0';
  if (memchr (buf, '\0', len) != NULL)
    {
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_POLICY,
                   "%s: contains a NUL byte; a policy is text", path);
      return FALSE;
    }
  *out_text = g_steal_pointer (&buf);
  return TRUE;
}

static gboolean
lookup_embedded (const char *name,
                 char **out_file,
                 char **out_text)
{
  g_autofree char *rpath = g_strconcat (EMBEDDED_PREFIX, name, ".policy", NULL);
  const CordonEmbeddedFile *file = cordon_embedded_lookup (rpath);

  if (file == NULL)
    return FALSE;
  *out_file = g_strconcat (EMBEDDED_DISPLAY, name, ".policy", NULL);
  *out_text = g_strndup (file->text, file->size);
  return TRUE;
}

static void
add_dir_names (GPtrArray *names,
               const char *dir_path)
{
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *entry;

  if (dir == NULL)
    return;
  while ((entry = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *stem = NULL;

      if (!g_str_has_suffix (entry, ".policy"))
        continue;
      stem = g_strndup (entry, strlen (entry) - strlen (".policy"));
      /* Only a valid name: a file name from the user's directory goes
       * into an error message for a terminal, and must carry no escape
       * sequence there. */
      if (name_is_valid (stem))
        g_ptr_array_add (names, g_steal_pointer (&stem));
    }
}

/* The names a reference may have meant: those in the search directories
 * and the embedded set, sorted so that a suggestion does not depend on
 * the order a directory lists its files in. */
static GPtrArray *
known_names (CordonPolicySource *source)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) embedded = cordon_policy_source_list_embedded ();

  for (guint i = 0; i + 1 < source->dirs->len; i++)
    add_dir_names (names, g_ptr_array_index (source->dirs, i));
  for (guint i = 0; embedded[i] != NULL; i++)
    g_ptr_array_add (names, g_strdup (embedded[i]));
  g_ptr_array_sort (names, cordon_compare_string_ptrs);
  return g_steal_pointer (&names);
}

/* What to add to "no policy named NAME" (a valid name): that the current
 * directory holds NAME.policy, else a known name a typo away. The file
 * in the current directory is only named, never read: a name never
 * resolves to the current directory, which may be a workdir an earlier
 * sandbox wrote to, and a policy planted there would then choose the
 * confinement of the next run. Only an explicit path takes it. */
static char *
name_hint (CordonPolicySource *source,
           const char *name,
           gboolean included)
{
  g_autofree char *file = g_strconcat (name, ".policy", NULL);
  g_autoptr(GPtrArray) names = NULL;
  struct stat st;

  /* An include= is not of the current directory: only the typo then.
   * Only a regular file of the caller's own is named: one a root
   * caller's sandbox wrote there (as its own host user), a link or a
   * FIFO is not offered to be run as a policy. */
  if (!included && lstat (file, &st) == 0 && S_ISREG (st.st_mode) && st.st_uid == getuid ())
    return g_strdup_printf ("; ./%s is in the current directory: -p ./%s to use it", file, file);
  names = known_names (source);
  g_ptr_array_add (names, NULL);
  return cordon_did_you_mean (name, (const char * const *) names->pdata);
}

static gboolean
resolve_name (CordonPolicySource *source,
              const char *name,
              gboolean included,
              char **out_file,
              char **out_text,
              GError **error)
{
  g_autofree char *hint = NULL;

  if (!name_is_valid (name))
    {
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_USAGE,
                   "'%s' is neither a policy name (letters, digits, '-', '_', '.') nor a path", name);
      return FALSE;
    }
  for (guint i = 0; i + 1 < source->dirs->len; i++)
    {
      g_autofree char *path = g_strconcat (g_ptr_array_index (source->dirs, i), "/", name, ".policy", NULL);

      if (g_file_test (path, G_FILE_TEST_EXISTS))
        {
          if (!read_bounded (path, out_text, error))
            return FALSE;
          *out_file = g_steal_pointer (&path);
          return TRUE;
        }
    }
  if (lookup_embedded (name, out_file, out_text))
    return TRUE;
  hint = name_hint (source, name, included);
  g_set_error (error, CORDON_ERROR, CORDON_ERROR_NOT_FOUND,
               "no policy named '%s' (searched the policy directories and the embedded set)%s", name, hint);
  return FALSE;
}

/* For a path not found: "trial.policy" with no '/' is a file of the
 * current directory, but whoever wrote it may have meant the policy
 * named trial. NULL when the stem names no known policy. */
static char *
path_hint (CordonPolicySource *source,
           const char *ref,
           gboolean included)
{
  g_autofree char *stem = NULL;
  g_autoptr(GPtrArray) names = NULL;

  if (strchr (ref, '/') != NULL || !g_str_has_suffix (ref, ".policy"))
    return NULL;
  stem = g_strndup (ref, strlen (ref) - strlen (".policy"));
  names = known_names (source);
  /* Only a known name is echoed, so the ref's own bytes never reach the
   * terminal through the hint. */
  if (!g_ptr_array_find_with_equal_func (names, stem, g_str_equal, NULL))
    return NULL;
  return g_strdup_printf ("; did you mean the policy named '%s' (%s%s)?", stem, included ? "include=" : "-p ",
                          stem);
}

static gboolean
read_path_ref (CordonPolicySource *source,
               const char *ref,
               gboolean included,
               const char *path,
               char **out_text,
               GError **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *hint = NULL;

  if (read_bounded (path, out_text, &local_error))
    return TRUE;
  if (g_error_matches (local_error, CORDON_ERROR, CORDON_ERROR_NOT_FOUND))
    hint = path_hint (source, ref, included);
  if (hint == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  g_set_error (error, CORDON_ERROR, CORDON_ERROR_NOT_FOUND, "%s%s", local_error->message, hint);
  return FALSE;
}

static gboolean
resolve (gpointer user_data,
         const char *ref,
         const char *from_file,
         char **out_file,
         char **out_text,
         GError **error)
{
  CordonPolicySource *source = user_data;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;

  if (!cordon_policy_ref_is_path (ref))
    return resolve_name (source, ref, from_file != NULL, out_file, out_text, error);
  if (from_file != NULL && g_str_has_prefix (from_file, EMBEDDED_DISPLAY) && !g_path_is_absolute (ref))
    {
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_NOT_FOUND,
                   "an embedded policy includes others by name, not by relative path");
      return FALSE;
    }
  dir = from_file != NULL ? g_path_get_dirname (from_file) : g_get_current_dir ();
  path = g_canonicalize_filename (ref, dir);
  if (!read_path_ref (source, ref, from_file != NULL, path, out_text, error))
    return FALSE;
  *out_file = g_steal_pointer (&path);
  return TRUE;
}

void
cordon_policy_source_get_resolver (CordonPolicySource *source,
                                   CordonPolicyResolver *out_resolver)
{
  out_resolver->resolve = resolve;
  out_resolver->user_data = source;
}

char **
cordon_policy_source_list_embedded (void)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  for (const CordonEmbeddedFile *f = cordon_embedded_files; f->name != NULL; f++)
    if (g_str_has_prefix (f->name, EMBEDDED_PREFIX) && g_str_has_suffix (f->name, ".policy")
        && strchr (f->name + strlen (EMBEDDED_PREFIX), '/') == NULL)
      g_ptr_array_add (names, g_strndup (f->name + strlen (EMBEDDED_PREFIX),
                                         strlen (f->name) - strlen (EMBEDDED_PREFIX) - strlen (".policy")));
  g_ptr_array_sort (names, cordon_compare_string_ptrs);
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&names), FALSE);
}

/* `ref` and its includes, as found on this host (`envp` locates the
 * user's policy directory). */
CordonPolicy *
cordon_policy_source_load (const char *ref,
                           const char * const *envp,
                           CordonDiagnostics *diags,
                           GError **error)
{
  g_autoptr(CordonPolicySource) source = cordon_policy_source_new (envp);
  CordonPolicyResolver resolver;

  cordon_policy_source_get_resolver (source, &resolver);
  return cordon_policy_load (ref, &resolver, diags, error);
}
