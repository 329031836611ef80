/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* policy-vars: the ${VARIABLES} a policy value may use. Parse validates the
 * references (an unknown variable is an error at its column); compile
 * expands them from host facts. Both are pure. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  CORDON_VAR_HOME,
  CORDON_VAR_UID,
  CORDON_VAR_XDG_RUNTIME_DIR,
  CORDON_VAR_WORKDIR,
  CORDON_VAR_TMPDIR,
  CORDON_VAR_MAX
} CordonVar;

/* Values indexed by CordonVar; NULL when the host has no value. */
typedef struct
{
  const char *values[CORDON_VAR_MAX];
} CordonVars;

const char *cordon_var_name (CordonVar var);
gboolean cordon_vars_validate (const char *text,
                               gsize *out_offset,
                               char **out_message);
gboolean cordon_vars_starts_with_var (const char *text);
char *cordon_vars_expand (const char *text,
                          const CordonVars *vars,
                          const char **out_missing);

G_END_DECLS
