/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* refusal: see refusal.h. A rule here is refused by its text alone (the
 * system directories are named, not looked up), so check and run cannot
 * disagree on it; what depends on the host (a path absent, a variable
 * unset, a setuid bwrap) stays with compile. */
#include "config.h"

#include <string.h>

#include "path-util.h"
#include "refusal.h"

/* What cordon's helper holds and opens before the command: its fds, and
 * the processes of bwrap, the helper and its checks. */
#define OPEN_FILES_MIN 16
#define PIDS_MIN 8

/* sethostname(2) takes a host name's letters, at most 64 bytes: checked
 * here, so that bwrap never fails on one once the sandbox is half made. */
char *
cordon_refusal_hostname (const CordonItem *it,
                         guint namespaces)
{
  gsize len = it != NULL ? strlen (it->text) : 0;

  if (it == NULL)
    return NULL;
  if (len == 0 || len > 64 || it->text[0] == '-' || it->text[0] == '.'
      || strspn (it->text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.") != len)
    return g_strdup_printf ("[namespaces] hostname='%s' is no host name: 1 to 64 letters, digits, "
                            "'-' and '.', not starting with '-' or '.'", it->text);
  if (!(namespaces & CORDON_NS_UTS))
    return g_strdup ("[namespaces] hostname= needs a uts namespace of the sandbox's own: add uts "
                     "to [namespaces] unshare=");
  return NULL;
}

/* The command could replace the programs and libraries every later
 * process runs. */
char *
cordon_refusal_writable (const char *path)
{
  if (!cordon_path_is_system_dir (path))
    return NULL;
  return g_strdup_printf ("refusing to make the system directory '%s' writable", path);
}

/* The host's /dev/shm has the host's size: scratch= would bound the
 * tmpfs the policy makes and leave that one as big as the RAM. */
char *
cordon_refusal_scratch_bind (const char *dest,
                             const CordonLocation *bind)
{
  g_autofree char *where = NULL;

  if (!g_str_equal (dest, "/dev/shm"))
    return NULL;
  where = cordon_location_to_string (bind);
  return g_strdup_printf ("[limits] scratch= sizes /dev/shm, which %s binds from the host: give the "
                          "sandbox a /dev/shm of its own, or leave scratch= out", where);
}

char *
cordon_refusal_open_files (const CordonItem *it)
{
  if (it == NULL || it->num >= OPEN_FILES_MIN)
    return NULL;
  return g_strdup_printf ("[limits] open-files is at least %d (cordon's helper holds and opens fds "
                          "of its own first)", OPEN_FILES_MIN);
}

/* pids=none lifts an included policy's limit: no minimum applies. */
char *
cordon_refusal_pids (const CordonItem *it)
{
  if (it == NULL || g_str_equal (it->text, "none") || it->num >= PIDS_MIN)
    return NULL;
  return g_strdup_printf ("[limits] pids is at least %d (bwrap's, cordon's helper's and its "
                          "checks' processes come first)", PIDS_MIN);
}

/* memory=none lifts the swap beside it too, so only a swap= with no
 * memory= at all is refused. */
char *
cordon_refusal_swap (const CordonItem *swap,
                     const CordonItem *memory)
{
  if (swap == NULL || g_str_equal (swap->text, "none") || memory != NULL)
    return NULL;
  return g_strdup ("[limits] swap= is the swap allowed beside memory=: set memory= too");
}
