/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* credentials: see credentials.h. */
#include "config.h"

#include <string.h>

#include "embedded.h"
#include "credentials.h"
#include "path-util.h"
#include "policy-parse.h"

/* The policy whose [secrets] mask= is the list of stores. */
#define STORES_FILE "policies/desktop-readonly-home.policy"
#define STORES_POLICY "<embedded>/desktop-readonly-home.policy"

/* Names that hold a credential by the way they are spelt. Not AWS_*:
 * AWS_REGION and AWS_PROFILE say where, not who (a glob AWS_* still
 * warns: it matches AWS_SECRET_ACCESS_KEY below). */
static const char * const env_globs[] = {
  "*_TOKEN",           /* GITHUB_TOKEN, GH_TOKEN, NPM_TOKEN, CI_JOB_TOKEN, ... */
  "*_SECRET*",         /* AWS_SECRET_ACCESS_KEY, AZURE_CLIENT_SECRET */
  "*_PASSWORD*",       /* TWINE_PASSWORD, DOCKER_PASSWORD */
  "*_KEY",             /* OPENAI_API_KEY, ANTHROPIC_API_KEY */
  "*_ACCESS_KEY*",     /* AWS_ACCESS_KEY_ID */
  "*_CREDENTIALS",     /* GOOGLE_APPLICATION_CREDENTIALS: the key file */
  "PGPASSWORD",        /* libpq */
  "MYSQL_PWD",
  NULL
};

/* Well-known credential variables, each matched by a glob above: what a
 * glob of an allow= (GH*, AWS_*, *) is tested against. */
static const char * const env_names[] = {
  "GITHUB_TOKEN", "GH_TOKEN", "GITLAB_TOKEN", "CI_JOB_TOKEN", "NPM_TOKEN",
  "NODE_AUTH_TOKEN", "CARGO_REGISTRY_TOKEN", "HF_TOKEN", "VAULT_TOKEN",
  "AWS_SECRET_ACCESS_KEY", "AWS_ACCESS_KEY_ID", "AWS_SESSION_TOKEN",
  "AZURE_CLIENT_SECRET", "GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_API_KEY",
  "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "TWINE_PASSWORD", "DOCKER_PASSWORD",
  "PGPASSWORD", "MYSQL_PWD",
  NULL
};

static gpointer
load_stores (gpointer data)
{
  const CordonEmbeddedFile *file = cordon_embedded_lookup (STORES_FILE);
  g_autoptr(CordonPolicy) policy = cordon_policy_new ("stores");
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autofree char *text = NULL;
  GPtrArray *stores = g_ptr_array_new ();
  GPtrArray *masks;

  /* Embedded at build time: present, and clean (shipped-policies.test). */
  if (file != NULL)
    text = g_strndup (file->text, file->size);
  if (text != NULL)
    cordon_policy_parse_text (policy, STORES_POLICY, text, diags);
  masks = cordon_policy_get_list (policy, CORDON_KEY_SECRETS_MASK);
  for (guint i = 0; i < masks->len; i++)
    g_ptr_array_add (stores, g_strdup (((CordonItem *) g_ptr_array_index (masks, i))->text));
  g_ptr_array_add (stores, NULL);
  return g_ptr_array_free (stores, FALSE);
}

const char * const *
cordon_credentials_stores (void)
{
  static GOnce once = G_ONCE_INIT;

  return g_once (&once, load_stores, NULL);
}

/* Matching the glob against the allow= value's own text: a '*' or '?'
 * there is a character no literal of the glob equals, so only the
 * glob's wildcards take it, and what matches is spelt by the value. */
const char *
cordon_credentials_env_glob (const char *pattern)
{
  for (guint i = 0; env_globs[i] != NULL; i++)
    if (cordon_glob_match (env_globs[i], pattern))
      return env_globs[i];
  return NULL;
}

const char *
cordon_credentials_env_name (const char *pattern)
{
  for (guint i = 0; env_names[i] != NULL; i++)
    if (cordon_glob_match (pattern, env_names[i]))
      return env_names[i];
  return NULL;
}

const char * const *
cordon_credentials_env_globs (void)
{
  return env_globs;
}

const char * const *
cordon_credentials_env_names (void)
{
  return env_names;
}
