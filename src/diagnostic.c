/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* diagnostic: a list of gcc-style diagnostics, kept in the order they were
 * found and sorted by location on request. */
#include "config.h"

#include "diagnostic.h"

struct _CordonDiagnostics
{
  GPtrArray *items;
};

static void
diagnostic_free (gpointer p)
{
  CordonDiagnostic *d = p;

  g_free (d->message);
  g_free (d);
}

CordonDiagnostics *
cordon_diagnostics_new (void)
{
  CordonDiagnostics *diags = g_new0 (CordonDiagnostics, 1);

  diags->items = g_ptr_array_new_with_free_func (diagnostic_free);
  return diags;
}

void
cordon_diagnostics_free (CordonDiagnostics *diags)
{
  if (diags == NULL)
    return;
  g_ptr_array_unref (diags->items);
  g_free (diags);
}

void
cordon_diagnostics_add (CordonDiagnostics *diags,
                        CordonSeverity severity,
                        const CordonLocation *loc,
                        const char *format,
                        ...)
{
  CordonDiagnostic *d;
  va_list ap;

  if (diags == NULL)
    return;
  d = g_new0 (CordonDiagnostic, 1);
  d->severity = severity;
  if (loc != NULL)
    d->loc = *loc;
  va_start (ap, format);
  d->message = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_ptr_array_add (diags->items, d);
}

guint
cordon_diagnostics_count (const CordonDiagnostics *diags,
                          CordonSeverity severity)
{
  guint n = 0;

  for (guint i = 0; i < diags->items->len; i++)
    {
      const CordonDiagnostic *d = g_ptr_array_index (diags->items, i);

      if (d->severity == severity)
        n++;
    }
  return n;
}

guint
cordon_diagnostics_len (const CordonDiagnostics *diags)
{
  return diags->items->len;
}

const CordonDiagnostic *
cordon_diagnostics_get (const CordonDiagnostics *diags,
                        guint i)
{
  g_return_val_if_fail (i < diags->items->len, NULL);
  return g_ptr_array_index (diags->items, i);
}

static int
compare_diagnostics (gconstpointer a,
                     gconstpointer b)
{
  const CordonDiagnostic *x = *(const CordonDiagnostic * const *) a;
  const CordonDiagnostic *y = *(const CordonDiagnostic * const *) b;
  int c = g_strcmp0 (x->loc.file, y->loc.file);

  if (c != 0)
    return c;
  if (x->loc.line != y->loc.line)
    return x->loc.line < y->loc.line ? -1 : 1;
  if (x->loc.col != y->loc.col)
    return x->loc.col < y->loc.col ? -1 : 1;
  return 0;
}

/* Stable (g_ptr_array_sort is a merge sort), so two diagnostics at one
 * place keep the order they were found in. */
void
cordon_diagnostics_sort (CordonDiagnostics *diags)
{
  g_ptr_array_sort (diags->items, compare_diagnostics);
}

static const char *
severity_name (CordonSeverity severity)
{
  switch (severity)
    {
    case CORDON_SEVERITY_NOTE: return "note";
    case CORDON_SEVERITY_WARNING: return "warning";
    case CORDON_SEVERITY_ERROR:
    case CORDON_SEVERITY_MAX:
    default:
      return "error";
    }
}

char *
cordon_diagnostic_format (const CordonDiagnostic *diag)
{
  g_autofree char *where = cordon_location_to_string (&diag->loc);

  return g_strdup_printf ("%s: %s: %s", where,
                          severity_name (diag->severity), diag->message);
}

/* The first error as a GError, for callers (run, compile) that stop at
 * the first error instead of listing them all. */
gboolean
cordon_diagnostics_to_error (const CordonDiagnostics *diags,
                             GError **error)
{
  for (guint i = 0; i < diags->items->len; i++)
    {
      const CordonDiagnostic *d = g_ptr_array_index (diags->items, i);

      if (d->severity == CORDON_SEVERITY_ERROR)
        {
          cordon_error_set_at (error, &d->loc, CORDON_ERROR_POLICY,
                               "%s", d->message);
          return FALSE;
        }
    }
  return TRUE;
}
