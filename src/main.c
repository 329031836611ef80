/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* main: the command line. The only file that prints for the user and
 * picks the exit status: every module below reports through GError or a
 * diagnostics list. */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "compile.h"
#include "host-facts.h"
#include "policy-check.h"
#include "policy-parse.h"
#include "policy-source.h"
#include "render.h"

/* 125: cordon itself failed before any command ran (usage, policy, host). */
#define EXIT_CORDON_FAILED 125

extern char **environ;

typedef int (*CommandFunc) (int argc, char **argv);

/* With --werror a warning is reported as the error it now is, the way
 * gcc marks one "[-Werror]". */
static void
print_diagnostics (CordonDiagnostics *diags,
                   gboolean werror)
{
  cordon_diagnostics_sort (diags);
  for (guint i = 0; i < cordon_diagnostics_len (diags); i++)
    {
      CordonDiagnostic d = *cordon_diagnostics_get (diags, i);
      gboolean promoted = werror && d.severity == CORDON_SEVERITY_WARNING;
      g_autofree char *line = NULL;

      if (promoted)
        d.severity = CORDON_SEVERITY_ERROR;
      line = cordon_diagnostic_format (&d);
      fprintf (stderr, "%s%s\n", line, promoted ? " [--werror]" : "");
    }
}

static int
fail (const char *format,
      ...) G_GNUC_PRINTF (1, 2);

static int
fail (const char *format,
      ...)
{
  g_autofree char *msg = NULL;
  va_list ap;

  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  fprintf (stderr, "cordon: %s\n", msg);
  return EXIT_CORDON_FAILED;
}

/* Loads and checks one policy; prints every diagnostic. NULL when the
 * policy has an error (the caller exits 125). */
static CordonPolicy *
load_checked (const char *ref,
              gboolean werror,
              gboolean *out_had_warnings)
{
  g_autoptr(CordonPolicySource) source = cordon_policy_source_new ((const char * const *) environ);
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPolicy) policy = NULL;
  CordonPolicyResolver resolver;

  cordon_policy_source_get_resolver (source, &resolver);
  policy = cordon_policy_load (ref, &resolver, diags, &error);
  if (policy == NULL)
    {
      fail ("%s", error->message);
      return NULL;
    }
  cordon_policy_check (policy, diags);
  print_diagnostics (diags, werror);
  if (out_had_warnings != NULL)
    *out_had_warnings = cordon_diagnostics_count (diags, CORDON_SEVERITY_WARNING) > 0;
  if (cordon_diagnostics_count (diags, CORDON_SEVERITY_ERROR) > 0)
    return NULL;
  return g_steal_pointer (&policy);
}

static GOptionContext *
command_context (const char *usage,
                 const char *summary,
                 const GOptionEntry *entries)
{
  GOptionContext *ctx = g_option_context_new (usage);

  g_option_context_set_summary (ctx, summary);
  g_option_context_add_main_entries (ctx, entries, NULL);
  return ctx;
}

static gboolean
parse_options (GOptionContext *ctx,
               int *argc,
               char ***argv)
{
  g_autoptr(GError) error = NULL;

  if (!g_option_context_parse (ctx, argc, argv, &error))
    {
      fail ("%s (see --help)", error->message);
      return FALSE;
    }
  return TRUE;
}

static int
cmd_check (int argc,
           char **argv)
{
  g_auto(GStrv) refs = NULL;
  gboolean werror = FALSE;
  const GOptionEntry entries[] = {
    { "werror", 0, 0, G_OPTION_ARG_NONE, &werror, "Treat warnings as errors", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &refs, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = command_context ("POLICY...", "Check policies; print gcc-style diagnostics.", entries);
  int status = 0;

  if (!parse_options (ctx, &argc, &argv))
    return EXIT_CORDON_FAILED;
  if (refs == NULL || refs[0] == NULL)
    return fail ("check: name at least one policy (a name such as 'trial', or a path)");
  for (guint i = 0; refs[i] != NULL; i++)
    {
      gboolean warned = FALSE;
      g_autoptr(CordonPolicy) policy = load_checked (refs[i], werror, &warned);

      if (policy == NULL || (werror && warned))
        status = EXIT_CORDON_FAILED;
    }
  return status;
}

typedef struct
{
  CordonPolicy *policy;
  CordonHostFacts *facts;
  CordonPlan *plan;
  CordonBwrapArgv *argv;
} Compiled;

static void
compiled_clear (Compiled *c)
{
  g_clear_pointer (&c->argv, cordon_bwrap_argv_free);
  g_clear_pointer (&c->plan, cordon_plan_free);
  g_clear_pointer (&c->facts, cordon_host_facts_free);
  g_clear_pointer (&c->policy, cordon_policy_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Compiled, compiled_clear)

/* policy -> facts -> plan -> argv, printing the first error. */
static gboolean
compile_policy (const char *ref,
                const char *workdir,
                Compiled *out)
{
  g_autoptr(GError) error = NULL;

  out->policy = load_checked (ref, FALSE, NULL);
  if (out->policy == NULL)
    return FALSE;
  out->facts = cordon_host_facts_new ("", (const char * const *) environ, workdir, &error);
  if (out->facts == NULL)
    return fail ("%s", error->message), FALSE;
  cordon_host_facts_scan_policy (out->facts, out->policy);
  out->plan = cordon_compile (out->policy, out->facts, &error);
  if (out->plan == NULL)
    return fail ("%s", error->message), FALSE;
  out->argv = cordon_render_argv (out->plan);
  return TRUE;
}

static int
write_all (GBytes *bytes)
{
  gsize len = 0;
  const char *data = g_bytes_get_data (bytes, &len);

  if (fwrite (data, 1, len, stdout) != len || fflush (stdout) != 0)
    return fail ("cannot write the output: %s", g_strerror (errno));
  return 0;
}

static int
cmd_compile (int argc,
             char **argv)
{
  g_autofree char *workdir = NULL;
  g_autofree char *format = NULL;
  g_auto(GStrv) rest = NULL;
  const GOptionEntry entries[] = {
    { "workdir", 'C', 0, G_OPTION_ARG_FILENAME, &workdir, "The workdir (default: the current directory)", "DIR" },
    { "format", 0, 0, G_OPTION_ARG_STRING, &format, "shell (default), nul or json", "FORMAT" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = command_context ("POLICY [-- CMD [ARG...]]",
                                                   "Print the bwrap command a policy compiles to.", entries);
  g_auto(Compiled) c = { 0 };
  g_autofree char *text = NULL;

  if (!parse_options (ctx, &argc, &argv))
    return EXIT_CORDON_FAILED;
  if (format == NULL)
    format = g_strdup ("shell");
  if (!g_str_equal (format, "shell") && !g_str_equal (format, "nul") && !g_str_equal (format, "json"))
    return fail ("compile: unknown --format '%s' (shell, nul or json)", format);
  if (rest == NULL || rest[0] == NULL)
    return fail ("compile: name a policy");
  if (!compile_policy (rest[0], workdir, &c))
    return EXIT_CORDON_FAILED;
  if (g_str_equal (format, "nul"))
    {
      g_autoptr(GBytes) bytes = cordon_bwrap_argv_to_nul (c.argv);

      return write_all (bytes);
    }
  if (g_str_equal (format, "json"))
    text = cordon_render_json (c.plan, c.argv, c.facts->bwrap_path, (const char * const *) rest + 1);
  else
    text = cordon_render_shell (c.plan, c.argv, c.facts->bwrap_path, (const char * const *) rest + 1);
  fputs (text, stdout);
  if (g_str_equal (format, "json"))
    fputc ('\n', stdout);
  return fflush (stdout) == 0 ? 0 : fail ("cannot write the output");
}

static int
cmd_explain (int argc,
             char **argv)
{
  g_autofree char *workdir = NULL;
  g_auto(GStrv) rest = NULL;
  const GOptionEntry entries[] = {
    { "workdir", 'C', 0, G_OPTION_ARG_FILENAME, &workdir, "The workdir (default: the current directory)", "DIR" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = command_context ("POLICY",
                                                   "Show each bwrap argument beside the policy rule that produced it.",
                                                   entries);
  g_auto(Compiled) c = { 0 };
  g_autofree char *text = NULL;

  if (!parse_options (ctx, &argc, &argv))
    return EXIT_CORDON_FAILED;
  if (rest == NULL || rest[0] == NULL || rest[1] != NULL)
    return fail ("explain: name exactly one policy");
  if (!compile_policy (rest[0], workdir, &c))
    return EXIT_CORDON_FAILED;
  text = cordon_render_explain (c.plan, c.argv);
  fputs (text, stdout);
  return fflush (stdout) == 0 ? 0 : fail ("cannot write the output");
}

static const struct
{
  const char *name;
  CommandFunc func;
  const char *summary;
} commands[] = {
  { "check", cmd_check, "check policies; gcc-style file:line:col diagnostics" },
  { "compile", cmd_compile, "print the bwrap command of a policy (shell, nul or json)" },
  { "explain", cmd_explain, "each bwrap argument beside the rule that produced it" },
};

static int
usage (FILE *out,
       int status)
{
  fprintf (out, "Usage: cordon COMMAND [OPTION...]\n\nCommands:\n");
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %-9s %s\n", commands[i].name, commands[i].summary);
  fprintf (out, "\nRun 'cordon COMMAND --help' for the options of a command; see cordon(1).\n");
  return status;
}

int
main (int argc,
      char **argv)
{
  setlocale (LC_ALL, "");
  if (argc < 2)
    return usage (stderr, EXIT_CORDON_FAILED);
  if (g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h") || g_str_equal (argv[1], "help"))
    return usage (stdout, 0);
  if (g_str_equal (argv[1], "--version"))
    {
      printf ("cordon %s\n", PACKAGE_VERSION);
      return 0;
    }
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (argv[1], commands[i].name))
      {
        g_autofree char *prgname = g_strconcat ("cordon ", argv[1], NULL);

        g_set_prgname (prgname);
        argv[1] = argv[0];
        return commands[i].func (argc - 1, argv + 1);
      }
  fprintf (stderr, "cordon: unknown command '%s'\n", argv[1]);
  return usage (stderr, EXIT_CORDON_FAILED);
}
