/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* policy-parse: GKeyFile-syntax text to a CordonPolicy, keeping the
 * file:line:col of every value, and the merge of include= chains with
 * cycle detection and bounds. Parsing is pure: the only input is text;
 * reading an include goes through a resolver the caller provides (the
 * host's search path in cordon, an in-memory table in the tests). */
#pragma once

#include <glib.h>
#include "diagnostic.h"
#include "policy.h"

G_BEGIN_DECLS

/* Bounds on untrusted input; each has an error past it. */
#define CORDON_POLICY_MAX_BYTES     (64 * 1024)
#define CORDON_POLICY_MAX_LINE      4096
#define CORDON_POLICY_MAX_DEPTH     8
#define CORDON_POLICY_MAX_ITEMS     1024   /* values of one policy, merged */
#define CORDON_POLICY_MAX_FILES     32     /* files merged into one policy */

/* Finds the text of a policy named by `ref` (a name, or a path when it
 * holds a '/'), seen from `from_file` (NULL for the top file). Writes a
 * display name (interned by the caller) and the text on success. */
typedef gboolean (*CordonResolveFunc) (gpointer user_data,
                                       const char *ref,
                                       const char *from_file,
                                       char **out_file,
                                       char **out_text,
                                       GError **error);

typedef struct
{
  CordonResolveFunc resolve;
  gpointer user_data;
} CordonPolicyResolver;

void cordon_policy_parse_text (CordonPolicy *policy,
                               const char *file,
                               const char *text,
                               CordonDiagnostics *diags);

CordonPolicy *cordon_policy_load (const char *ref,
                                  const CordonPolicyResolver *resolver,
                                  CordonDiagnostics *diags,
                                  GError **error);

G_END_DECLS
