/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cordon-error: the one GError domain of cordon, with stable codes, and the
 * source location every policy value carries so that any error about it can
 * begin with "file:line:col:" through a single helper. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define CORDON_ERROR (cordon_error_quark ())

/* Stable: codes are part of the report format; append only. */
typedef enum
{
  CORDON_ERROR_FAILED = 0,
  CORDON_ERROR_POLICY,        /* the policy text is wrong */
  CORDON_ERROR_NOT_FOUND,     /* a policy, include or path is missing */
  CORDON_ERROR_LIMIT,         /* an input bound was exceeded */
  CORDON_ERROR_HOST,          /* the host cannot provide what is asked */
  CORDON_ERROR_USAGE,         /* bad command line */
  CORDON_ERROR_MAX
} CordonErrorCode;

/* Where a value came from. `file` is interned (g_intern_string), so
 * locations are copied by value and never freed. Line and column are
 * 1-based; column counts bytes, as gcc does. */
typedef struct
{
  const char *file;
  guint line;
  guint col;
} CordonLocation;

GQuark cordon_error_quark (void);

char *cordon_location_to_string (const CordonLocation *loc);

void cordon_error_set_at (GError **error,
                          const CordonLocation *loc,
                          CordonErrorCode code,
                          const char *format,
                          ...) G_GNUC_PRINTF (4, 5);

G_END_DECLS
