/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cordon-error: the CORDON_ERROR domain and the file:line:col prefix every
 * policy error carries, written in one place so all of them look alike. */
#include "config.h"

#include "cordon-error.h"

G_DEFINE_QUARK (cordon-error-quark, cordon_error)

char *
cordon_location_to_string (const CordonLocation *loc)
{
  if (loc == NULL || loc->file == NULL)
    return g_strdup ("cordon");
  if (loc->line == 0)
    return g_strdup (loc->file);
  if (loc->col == 0)
    return g_strdup_printf ("%s:%u", loc->file, loc->line);
  return g_strdup_printf ("%s:%u:%u", loc->file, loc->line, loc->col);
}

void
cordon_error_set_at (GError **error,
                     const CordonLocation *loc,
                     CordonErrorCode code,
                     const char *format,
                     ...)
{
  g_autofree char *where = cordon_location_to_string (loc);
  g_autofree char *what = NULL;
  va_list ap;

  va_start (ap, format);
  what = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error (error, CORDON_ERROR, code, "%s: %s", where, what);
}
