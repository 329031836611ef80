/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* seccomp-cache: see seccomp-cache.h. A file is named after the filter's
 * inputs (so that a new build of cordon replaces the file rather than
 * adding one), and holds "cordon-seccomp 1", the key on a line of its own
 * (SHA-256 of the inputs and of the code that builds the program: this
 * cordon binary and the libseccomp it runs with), then the BPF, whole
 * instructions. */
#include "config.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <seccomp.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file-util.h"
#include "probe.h"
#include "seccomp-cache.h"

#define CACHE_MAGIC "cordon-seccomp 1\n"
#define KEY_LEN 64
#define HEADER_LEN (sizeof CACHE_MAGIC - 1 + sizeof "key=" - 1 + KEY_LEN + 1)
#define MAX_PROGRAM (BPF_MAXINSNS * sizeof (struct sock_filter))

/* A file's identity: device, inode and modification time. */
static char *
identity_of (const char *path)
{
  struct stat st;

  if (path == NULL || stat (path, &st) != 0)
    return NULL;
  return g_strdup_printf ("%lu:%lu:%lld.%09ld", (gulong) st.st_dev, (gulong) st.st_ino,
                          (long long) st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
}

/* The key: the inputs, and the code that makes the program of them.
 * Another build of cordon may build another program of the same rules,
 * and another libseccomp of the same version other numbers (a library
 * updated in place): either changes the key. */
static char *
cache_key (const char *inputs)
{
  Dl_info ours = { 0 }, theirs = { 0 };
  g_autofree char *self = identity_of ("/proc/self/exe");
  g_autofree char *lib = NULL;
  g_autofree char *text = NULL;

  if (self == NULL || dladdr ((void *) cache_key, &ours) == 0 || dladdr ((void *) seccomp_init, &theirs) == 0)
    return NULL;
  /* Linked into cordon (configure.ac), libseccomp is the binary's. */
  lib = theirs.dli_fbase == ours.dli_fbase ? g_strdup ("cordon's own") : identity_of (theirs.dli_fname);
  if (lib == NULL)
    return NULL;
  text = g_strdup_printf ("%s\nexe=%s\nlibseccomp=%s\n", inputs, self, lib);
  return g_compute_checksum_for_string (G_CHECKSUM_SHA256, text, -1);
}

static char *
name_of (const char *inputs)
{
  g_autofree char *sum = g_compute_checksum_for_string (G_CHECKSUM_SHA256, inputs, -1);

  return g_strdup_printf ("seccomp-%.32s", sum);
}

char *
cordon_seccomp_cache_name (const CordonPlan *plan,
                           CordonSeccompFilterKind kind)
{
  g_autofree char *inputs = cordon_seccomp_filter_inputs (plan, kind);

  return name_of (inputs);
}

/* The BPF of the file `name` in `dir` if the directory and the file are
 * the caller's, nobody else's to write, and it holds a program for
 * exactly `key`; else NULL. */
static GBytes *
cache_read (const char *dir,
            const char *name,
            const char *key,
            uid_t uid)
{
  g_autofree char *header = g_strdup_printf ("%skey=%s\n", CACHE_MAGIC, key);
  g_autofree char *text = NULL;
  int dfd = cordon_probe_open_cache_dir (dir, uid);
  gsize len = 0;

  if (dfd < 0)
    return NULL;
  text = cordon_file_read_owned_at (dfd, name, uid, HEADER_LEN + MAX_PROGRAM, &len);
  close (dfd);
  if (text == NULL || len <= HEADER_LEN || memcmp (text, header, HEADER_LEN) != 0
      || (len - HEADER_LEN) % sizeof (struct sock_filter) != 0)
    return NULL;
  return g_bytes_new (text + HEADER_LEN, len - HEADER_LEN);
}

/* Best effort: a cache that cannot be written costs the next run the
 * making of the filter, nothing else. */
static void
cache_write (const char *dir,
             const char *name,
             const char *key,
             uid_t uid,
             GBytes *bpf)
{
  g_autofree char *header = g_strdup_printf ("%skey=%s\n", CACHE_MAGIC, key);
  g_autoptr(GByteArray) text = g_byte_array_new ();
  gsize size;
  const guint8 *data = g_bytes_get_data (bpf, &size);
  int dfd;

  if (g_mkdir_with_parents (dir, 0700) != 0 || (dfd = cordon_probe_open_cache_dir (dir, uid)) < 0)
    return;
  g_byte_array_append (text, (const guint8 *) header, strlen (header));
  g_byte_array_append (text, data, (guint) size);
  /* Through the directory just checked; a reader never sees half a file. */
  (void) cordon_file_replace_at (dfd, name, (const char *) text->data, text->len, 0600, NULL);
  close (dfd);
}

GBytes *
cordon_seccomp_cache_get (const CordonPlan *plan,
                          CordonSeccompFilterKind kind,
                          const char *dir,
                          uid_t uid,
                          gboolean *out_cached,
                          GError **error)
{
  g_autofree char *inputs = dir != NULL ? cordon_seccomp_filter_inputs (plan, kind) : NULL;
  g_autofree char *key = inputs != NULL ? cache_key (inputs) : NULL;
  g_autofree char *name = key != NULL ? name_of (inputs) : NULL;
  GBytes *bpf = name != NULL ? cache_read (dir, name, key, uid) : NULL;
  gboolean cached = bpf != NULL;

  if (bpf == NULL && (bpf = cordon_seccomp_bpf (plan, kind, error)) == NULL)
    return NULL;
  if (!cached && name != NULL)
    cache_write (dir, name, key, uid, bpf);
  if (out_cached != NULL)
    *out_cached = cached;
  return bpf;
}
