/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* expect-diag: cmocka assertions on a CordonDiagnostics, shared by the
 * parser's and the checker's tests. On failure each prints every
 * diagnostic there was. */
#pragma once

#include <glib.h>

#include "diagnostic.h"

G_BEGIN_DECLS

char *dump_diags (const CordonDiagnostics *diags);
/* What policy check reports on `text`, parsed as the single source
 * `file`; the parse itself must be clean (the test fails otherwise). */
CordonDiagnostics *check_policy_text (const char *file,
                                      const char *text);
void expect_n_diags (const CordonDiagnostics *diags,
                     guint n);
const CordonDiagnostic *expect_diag (const CordonDiagnostics *diags,
                                     CordonSeverity severity,
                                     const char *fragment,
                                     const char *file,
                                     guint line,
                                     guint col);

G_END_DECLS
