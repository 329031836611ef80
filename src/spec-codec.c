/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* spec-codec: see spec-codec.h. */
#include "config.h"

#include <stdlib.h>

#include "spec-codec.h"

void
cordon_spec_decode (char *s)
{
  char *out = s;

  for (char *p = s; *p != '\0'; p++)
    {
      if (p[0] == '%' && p[1] != '\0' && p[2] != '\0')
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
