/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* diagnostic: the gcc-style messages that parse and check produce about a
 * policy. They are collected, not printed: only main.c prints, so the same
 * list feeds `cordon check`, `cordon run` errors and the tests. */
#pragma once

#include <glib.h>
#include "cordon-error.h"

G_BEGIN_DECLS

typedef enum
{
  CORDON_SEVERITY_NOTE,
  CORDON_SEVERITY_WARNING,
  CORDON_SEVERITY_ERROR,
  CORDON_SEVERITY_MAX
} CordonSeverity;

typedef struct
{
  CordonSeverity severity;
  CordonLocation loc;
  char *message;
} CordonDiagnostic;

typedef struct _CordonDiagnostics CordonDiagnostics;

CordonDiagnostics *cordon_diagnostics_new (void);
void cordon_diagnostics_free (CordonDiagnostics *diags);
void cordon_diagnostics_add (CordonDiagnostics *diags,
                             CordonSeverity severity,
                             const CordonLocation *loc,
                             const char *format,
                             ...) G_GNUC_PRINTF (4, 5);
guint cordon_diagnostics_count (const CordonDiagnostics *diags,
                                CordonSeverity severity);
guint cordon_diagnostics_len (const CordonDiagnostics *diags);
const CordonDiagnostic *cordon_diagnostics_get (const CordonDiagnostics *diags,
                                                guint i);
void cordon_diagnostics_sort (CordonDiagnostics *diags);
char *cordon_diagnostic_format (const CordonDiagnostic *diag);
gboolean cordon_diagnostics_to_error (const CordonDiagnostics *diags,
                                      GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CordonDiagnostics, cordon_diagnostics_free)

G_END_DECLS
