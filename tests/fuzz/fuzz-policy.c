/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fuzz-policy: libFuzzer harness for the pure core. The input is a
 * policy; text after a line "----" is served as the text of every policy
 * it includes, so include chains, cycles and merges are reached too. A
 * policy without errors is then compiled against a small fixture host and
 * rendered in every format, so the compiler and renderers see whatever
 * the parser lets through. Build and run: make fuzz [FUZZ_SECONDS=N]. */
#include "config.h"

#include <glib/gstdio.h>
#include <stdint.h>
#include <string.h>

#include "compile.h"
#include "policy-check.h"
#include "policy-parse.h"
#include "json-writer.h"
#include "render.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static char *sysroot;

typedef struct
{
  const char *top;
  const char *included;
} Texts;

static gboolean
resolve (gpointer user_data,
         const char *ref,
         const char *from_file,
         char **out_file,
         char **out_text,
         GError **error)
{
  const Texts *texts = user_data;

  if (from_file == NULL)
    {
      *out_file = g_strdup ("fuzz/top.policy");
      *out_text = g_strdup (texts->top);
      return TRUE;
    }
  if (texts->included == NULL || g_str_equal (ref, "missing"))
    {
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_NOT_FOUND, "no policy '%s'", ref);
      return FALSE;
    }
  /* Distinct names give distinct files, so depth limits are reached;
   * equal names give one file, so cycles are. Keyed on the first byte
   * only: file names are interned for the life of the process, and an
   * unbounded set of them would read as a leak. */
  *out_file = g_strdup_printf ("fuzz/inc-%02x.policy", (guint) (guchar) ref[0]);
  *out_text = g_strdup (texts->included);
  return TRUE;
}

int
LLVMFuzzerInitialize (int *argc,
                      char ***argv)
{
  static const char * const dirs[] = {
    "usr/bin", "etc", "tmp", "var/tmp", "run/user/1000", "home/u/work", "home/u/.ssh", NULL
  };

  sysroot = g_dir_make_tmp ("cordon-fuzz-XXXXXX", NULL);
  g_assert (sysroot != NULL);
  for (guint i = 0; dirs[i] != NULL; i++)
    {
      g_autofree char *d = g_build_filename (sysroot, dirs[i], NULL);

      g_mkdir_with_parents (d, 0755);
    }
  {
    g_autofree char *f = g_build_filename (sysroot, "home/u/.netrc", NULL);
    g_autofree char *l = g_build_filename (sysroot, "bin", NULL);

    g_file_set_contents (f, "", 0, NULL);
    (void) symlink ("usr/bin", l);
  }
  return 0;
}

static void
compile_and_render (const CordonPolicy *policy,
                    gboolean token_in_policy)
{
  static const char * const envp[] = {
    "HOME=/home/u", "XDG_RUNTIME_DIR=/run/user/1000", "PATH=/usr/bin", "LANG=C",
    "LD_PRELOAD=/x.so", "TOKEN=Zq9vTokenValue", NULL
  };
  g_autoptr(CordonHostFacts) facts = cordon_host_facts_new (sysroot, envp, "/home/u/work", NULL);
  g_autoptr(CordonPlan) plan = NULL;
  g_autoptr(CordonBwrapArgv) argv = NULL;
  g_autofree char *shell = NULL, *json = NULL, *explain = NULL;
  g_autoptr(GBytes) nul = NULL;

  g_assert (facts != NULL);
  facts->uid = 1000;
  cordon_host_facts_scan_policy (facts, policy);
  /* The probe's every answer and a setuid bwrap's shape, as run gives
   * them to compile: a plan must come of the policy either way. */
  {
    static const CordonCompileOptions host = { TRUE, TRUE, TRUE };
    g_autoptr(CordonPlan) adapted = cordon_compile_with (policy, facts, &host, NULL);

    plan = cordon_compile (policy, facts, NULL);
    g_assert ((plan == NULL) == (adapted == NULL));
  }
  if (plan == NULL)
    return;
  argv = cordon_render_argv (plan);
  shell = cordon_render_shell (plan, argv, "/usr/bin/bwrap", "cordon compile p --format=seccomp", NULL);
  {
    g_autoptr(GVariant) value = cordon_render_json (plan, argv, "/usr/bin/bwrap", NULL);

    json = cordon_json_variant_to_text (value, NULL);
    g_assert (json != NULL);
  }
  explain = cordon_render_explain (plan, argv);
  nul = cordon_bwrap_argv_to_nul (argv);
  /* No caller value may ever be rendered (unless the policy text itself
   * holds it: then it is policy text, not the caller's value). */
  if (token_in_policy)
    return;
  g_assert (strstr (shell, "Zq9vTokenValue") == NULL);
  g_assert (strstr (json, "Zq9vTokenValue") == NULL);
  g_assert (strstr (explain, "Zq9vTokenValue") == NULL);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  char *split = strstr (text, "\n----\n");
  Texts texts = { text, NULL };
  CordonPolicyResolver resolver = { resolve, &texts };
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = NULL;

  if (split != NULL)
    {
      *split = '\0';
      texts.included = split + strlen ("\n----\n");
    }
  policy = cordon_policy_load ("top", &resolver, diags, NULL);
  if (policy == NULL)
    return 0;
  cordon_policy_check (policy, diags);
  for (guint i = 0; i < cordon_diagnostics_len (diags); i++)
    g_free (cordon_diagnostic_format (cordon_diagnostics_get (diags, i)));
  if (cordon_diagnostics_count (diags, CORDON_SEVERITY_ERROR) == 0)
    compile_and_render (policy, g_strstr_len ((const char *) data, (gssize) size, "Zq9v") != NULL);
  return 0;
}
