/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* spec-codec: see spec-codec.h. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spec-codec.h"

char *
cordon_read_fd_whole (int fd,
                      size_t max,
                      size_t *out_len)
{
  size_t size = 0, cap = 4096;
  char *buf = malloc (cap);

  while (buf != NULL)
    {
      ssize_t n = read (fd, buf + size, cap - size - 1);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        break;
      if (n == 0)
        {
          buf[size] = '\0';
          if (out_len != NULL)
            *out_len = size;
          return buf;
        }
      size += (size_t) n;
      if (size > max)
        {
          errno = E2BIG;
          break;
        }
      if (cap - size < 2)
        {
          char *bigger = realloc (buf, cap * 2);

          if (bigger == NULL)
            break;
          buf = bigger;
          cap *= 2;
        }
    }
  free (buf);
  return NULL;
}

char *
cordon_spec_read_fd (int fd,
                     size_t max)
{
  return cordon_read_fd_whole (fd, max, NULL);
}

void
cordon_spec_decode (char *s)
{
  char *out = s;

  for (char *p = s; *p != '\0'; p++)
    {
      /* Only what the encoder writes: anything else is kept as it is. */
      if (p[0] == '%' && isxdigit ((unsigned char) p[1]) && isxdigit ((unsigned char) p[2]))
        {
          char hex[3] = { p[1], p[2], '\0' };

          *out++ = (char) strtol (hex, NULL, 16);
          p += 2;
        }
      else
        *out++ = *p;
    }
  *out = '\0';
}

int
cordon_spec_split (char *line,
                   char **fields,
                   size_t max)
{
  size_t n = 0;

  for (char *p = line;; p++)
    {
      char *tab = strchr (p, '\t');

      if (n == max || *p == '\0' || *p == '\t')
        return -1;
      fields[n++] = p;
      if (tab == NULL)
        return (int) n;
      *tab = '\0';
      p = tab;
    }
}

int
cordon_spec_decode_strict (char *s)
{
  char *out = s;

  for (char *p = s; *p != '\0'; p++)
    {
      if (*p != '%')
        {
          *out++ = *p;
          continue;
        }
      if (p[1] == '2' && p[2] == '5')
        *out++ = '%';
      else if (p[1] == '0' && p[2] == '9')
        *out++ = '\t';
      else if (p[1] == '0' && (p[2] == 'A' || p[2] == 'a'))
        *out++ = '\n';
      else
        return -1;
      p += 2;
    }
  *out = '\0';
  return 0;
}

int
cordon_spec_index (const char *s,
                   size_t *out)
{
  size_t v = 0, n = 0;

  for (; s[n] != '\0'; n++)
    {
      if (s[n] < '0' || s[n] > '9' || n == 6)
        return -1;
      v = v * 10 + (size_t) (s[n] - '0');
    }
  if (n == 0)
    return -1;
  *out = v;
  return 0;
}
