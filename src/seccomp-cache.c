/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* seccomp-cache: see seccomp-cache.h. A file is "cordon-seccomp 1", the
 * key (SHA-256 of the inputs, 64 hexadecimal digits) on a line of its
 * own, then the BPF, whole instructions. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file-util.h"
#include "probe.h"
#include "seccomp-cache.h"

#define CACHE_MAGIC "cordon-seccomp 1\n"
#define KEY_LEN 64
#define HEADER_LEN (sizeof CACHE_MAGIC - 1 + strlen ("key=") + KEY_LEN + 1)
#define MAX_PROGRAM (BPF_MAXINSNS * sizeof (struct sock_filter))

/* SHA-256 of the filter's inputs and of this binary's identity (another
 * build of cordon may build another program from the same rules). */
static char *
cache_key (const CordonPlan *plan,
           CordonSeccompFilterKind kind)
{
  g_autofree char *inputs = cordon_seccomp_filter_inputs (plan, kind);
  g_autofree char *text = NULL;
  struct stat self;

  if (stat ("/proc/self/exe", &self) != 0)
    return NULL;
  text = g_strdup_printf ("%s\nexe=%lu:%lu:%lld.%09ld\n", inputs, (gulong) self.st_dev, (gulong) self.st_ino,
                          (long long) self.st_mtim.tv_sec, self.st_mtim.tv_nsec);
  return g_compute_checksum_for_string (G_CHECKSUM_SHA256, text, -1);
}

static char *
name_of (const char *key)
{
  return g_strdup_printf ("seccomp-%.32s", key);
}

char *
cordon_seccomp_cache_name (const CordonPlan *plan,
                           CordonSeccompFilterKind kind)
{
  g_autofree char *key = cache_key (plan, kind);

  return key != NULL ? name_of (key) : NULL;
}

/* The BPF of the file `name` in `dir` if it is the caller's, nobody
 * else's to write, and holds a program for exactly `key`; else NULL.
 * Opened without following a link, checked and read through one fd. */
static GBytes *
cache_read (const char *dir,
            const char *name,
            const char *key,
            uid_t uid)
{
  g_autofree char *header = g_strdup_printf ("%skey=%s\n", CACHE_MAGIC, key);
  g_autofree char *buf = NULL;
  int dfd = cordon_probe_open_cache_dir (dir, uid);
  int fd = dfd >= 0 ? openat (dfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY) : -1;
  gsize max = HEADER_LEN + MAX_PROGRAM, got = 0;
  struct stat st;
  ssize_t n = 1;

  if (dfd >= 0)
    close (dfd);
  if (fd < 0)
    return NULL;
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) || st.st_uid != uid || (st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
    {
      close (fd);
      return NULL;
    }
  buf = g_malloc (max + 1);
  while (got <= max && (n = read (fd, buf + got, max + 1 - got)) != 0)
    if (n > 0)
      got += (gsize) n;
    else if (errno != EINTR)
      break;
  close (fd);
  if (n < 0 || got > max || got <= HEADER_LEN || memcmp (buf, header, HEADER_LEN) != 0
      || (got - HEADER_LEN) % sizeof (struct sock_filter) != 0)
    return NULL;
  return g_bytes_new (buf + HEADER_LEN, got - HEADER_LEN);
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
  g_autofree char *key = dir != NULL ? cache_key (plan, kind) : NULL;
  g_autofree char *name = key != NULL ? name_of (key) : NULL;
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
