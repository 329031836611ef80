/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fuzz-spec: libFuzzer harness for the specs cordon hands its helpers
 * (spec-codec.c, and the encoder in path-util.c). Three properties, on
 * every input: a path encoded as verify.c and stage.c encode it comes
 * back byte for byte from the decoder, and stays one field of one line
 * when split as cordon-exec and cordon-keeper split a spec (strtok_r on
 * newline, then on tab); the decoder, given any text in a buffer of
 * exactly its size, reads nothing past the NUL and never lengthens it;
 * and the fd reader returns what was written, NUL-terminated, or E2BIG
 * exactly when it holds more than its limit. Build and run:
 * make fuzz [FUZZ_SECONDS=N]. */
#include "config.h"

#include <errno.h>
#include <glib.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "path-util.h"
#include "spec-codec.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* The fields of one spec line, split and decoded as the helpers do. */
static guint
split_line (char *line,
            char **f)
{
  guint n = 0;

  for (char *save = NULL, *tok = strtok_r (line, "\t", &save); tok != NULL && n < 4;
       tok = strtok_r (NULL, "\t", &save))
    f[n++] = tok;
  for (guint i = 1; i < n; i++)
    cordon_spec_decode (f[i]);
  return n;
}

/* Two lines, as verify.c writes them, each must give back `path`. */
static void
check_round_trip (const char *path)
{
  g_autoptr(GString) spec = g_string_new (NULL);
  g_autofree char *decoded = NULL, *one = NULL;
  gsize specials = 0;
  guint lines = 0;

  for (const char *p = path; *p != '\0'; p++)
    specials += *p == '%' || *p == '\t' || *p == '\n';
  cordon_path_append_encoded (spec, path);
  g_assert_cmpuint (spec->len, ==, strlen (path) + 2 * specials);
  g_assert (strpbrk (spec->str, "\t\n") == NULL);
  decoded = g_strdup (spec->str);
  cordon_spec_decode (decoded);
  g_assert_cmpstr (decoded, ==, path);
  /* strtok_r drops empty fields: no spec names an empty path. */
  if (*path == '\0')
    return;
  one = g_strconcat ("secret-file\t7\t", spec->str, "\n", NULL);
  g_string_printf (spec, "%s%s", one, one);
  for (char *save = NULL, *line = strtok_r (spec->str, "\n", &save); line != NULL;
       line = strtok_r (NULL, "\n", &save), lines++)
    {
      char *f[4] = { NULL, NULL, NULL, NULL };

      g_assert_cmpuint (split_line (line, f), ==, 3);
      g_assert_cmpstr (f[0], ==, "secret-file");
      g_assert_cmpstr (f[1], ==, "7");
      g_assert_cmpstr (f[2], ==, path);
    }
  g_assert_cmpuint (lines, ==, 2);
}

/* In a buffer of exactly its size, so that ASan sees a read past it. */
static void
check_decode (const uint8_t *data,
              size_t size)
{
  size_t len = strnlen ((const char *) data, size);
  char *text = malloc (len + 1);

  g_assert (text != NULL);
  memcpy (text, data, len);
  text[len] = '\0';
  cordon_spec_decode (text);
  g_assert_cmpuint (strlen (text), <=, len);
  /* Only "%XX" is decoded: text without '%' is kept as it is. */
  if (memchr (data, '%', len) == NULL)
    g_assert (memcmp (text, data, len) == 0 && text[len] == '\0');
  free (text);
}

/* The input `copies` times over (past the reader's first 4 KiB), against
 * a limit just below, at or just above its size, or far from it. */
static void
check_read_fd (const uint8_t *data,
               size_t size)
{
  guint copies = size > 0 ? 1 + data[0] % 40 : 1;
  size_t total = size * copies;
  size_t limits[] = { total, total + 1, total > 0 ? total - 1 : 0, 0, 4095, 4096, (size_t) -1 };
  size_t max = limits[size > 1 ? data[1] % G_N_ELEMENTS (limits) : 0];
  int fd = memfd_create ("fuzz-spec", MFD_CLOEXEC);
  char *got;

  g_assert (fd >= 0);
  for (guint i = 0; i < copies; i++)
    g_assert (write (fd, data, size) == (ssize_t) size);
  g_assert (lseek (fd, 0, SEEK_SET) == 0);
  errno = 0;
  got = cordon_spec_read_fd (fd, max);
  close (fd);
  if (total > max)
    {
      g_assert (got == NULL && errno == E2BIG);
      return;
    }
  g_assert (got != NULL);
  for (guint i = 0; i < copies; i++)
    g_assert (memcmp (got + i * size, data, size) == 0);
  g_assert (got[total] == '\0');
  free (got);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t size)
{
  g_autofree char *path = g_strndup ((const char *) data, size);

  check_round_trip (path);
  check_decode (data, size);
  check_read_fd (data, size);
  return 0;
}
