/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* embedded: looks up the files build-aux/embed-text.sh built into
 * cordon (see embedded.h). */
#include "config.h"

#include <string.h>

#include "embedded.h"

/* NULL when no file of that name is embedded. */
const CordonEmbeddedFile *
cordon_embedded_lookup (const char *name)
{
  for (const CordonEmbeddedFile *f = cordon_embedded_files; f->name != NULL; f++)
    if (strcmp (f->name, name) == 0)
      return f;
  return NULL;
}
