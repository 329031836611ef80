/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* expect-diag: see expect-diag.h. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "expect-diag.h"
#include "policy-check.h"
#include "policy-parse.h"

char *
dump_diags (const CordonDiagnostics *diags)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < cordon_diagnostics_len (diags); i++)
    {
      g_autofree char *line = cordon_diagnostic_format (cordon_diagnostics_get (diags, i));

      g_string_append_printf (s, "  %s\n", line);
    }
  if (s->len == 0)
    g_string_append (s, "  (none)\n");
  return g_string_free (s, FALSE);
}

void
expect_n_diags (const CordonDiagnostics *diags,
                guint n)
{
  if (cordon_diagnostics_len (diags) != n)
    {
      g_autofree char *all = dump_diags (diags);

      fail_msg ("expected %u diagnostics, got:\n%s", n, all);
    }
}

/* The first diagnostic of `severity` whose message holds `fragment`;
 * fails the test when there is none, or when it is not at
 * file:line:col. */
const CordonDiagnostic *
expect_diag (const CordonDiagnostics *diags,
             CordonSeverity severity,
             const char *fragment,
             const char *file,
             guint line,
             guint col)
{
  g_autofree char *all = dump_diags (diags);

  for (guint i = 0; i < cordon_diagnostics_len (diags); i++)
    {
      const CordonDiagnostic *d = cordon_diagnostics_get (diags, i);

      if (d->severity != severity || strstr (d->message, fragment) == NULL)
        continue;
      if (g_strcmp0 (d->loc.file, file) != 0 || d->loc.line != line || d->loc.col != col)
        fail_msg ("'%s' is at %s:%u:%u, expected %s:%u:%u; all:\n%s", fragment,
                  d->loc.file, d->loc.line, d->loc.col, file, line, col, all);
      return d;
    }
  fail_msg ("no %s containing '%s'; all:\n%s",
            severity == CORDON_SEVERITY_ERROR ? "error" : "warning", fragment, all);
  return NULL;
}

CordonDiagnostics *
check_policy_text (const char *file,
                   const char *text)
{
  g_autoptr(CordonPolicy) policy = cordon_policy_new ("t");
  g_autoptr(CordonDiagnostics) parse_diags = cordon_diagnostics_new ();
  CordonDiagnostics *diags = cordon_diagnostics_new ();

  cordon_policy_add_source (policy, file, text);
  cordon_policy_parse_text (policy, file, text, parse_diags);
  if (cordon_diagnostics_len (parse_diags) != 0)
    {
      g_autofree char *all = dump_diags (parse_diags);

      fail_msg ("the policy does not parse cleanly:\n%s", all);
    }
  cordon_policy_check (policy, diags);
  return diags;
}
