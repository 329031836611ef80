/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* main: the command line. The only file that prints for the user and
 * picks the exit status: every module below reports through GError or a
 * diagnostics list. */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "command-hint.h"
#include "doctor.h"
#include "json-writer.h"
#include "resource-limits.h"
#include "policy-check.h"
#include "policy-source.h"
#include "render.h"
#include "run.h"
#include "seccomp-filter.h"

extern char **environ;

/* When main() began: the report's durations_ms "start" and "total".
 * What comes before (execve, the loader) cordon cannot time: its CPU
 * time then holds its parent's fork too. cordon --version shows it. */
static gint64 main_began_us;

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

static G_GNUC_PRINTF (1, 2) int
fail (const char *format,
      ...)
{
  g_autofree char *msg = NULL;
  va_list ap;

  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  fprintf (stderr, "cordon: %s\n", msg);
  return CORDON_EXIT_FAILED;
}

/* Loads and checks one policy; prints every diagnostic. NULL when the
 * policy has an error (the caller exits 125). */
static CordonPolicy *
load_checked (const char *ref,
              gboolean werror,
              gboolean *out_had_warnings)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPolicy) policy = cordon_policy_source_load (ref, (const char * const *) environ,
                                                              diags, &error);

  if (policy == NULL)
    return fail ("%s", error->message), NULL;
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
      fail ("usage: %s (see --help)", error->message);
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
    return CORDON_EXIT_FAILED;
  if (refs == NULL || refs[0] == NULL)
    return fail ("check: name at least one policy (a name such as 'trial', or a path)");
  for (guint i = 0; refs[i] != NULL; i++)
    {
      gboolean warned = FALSE;
      g_autoptr(CordonPolicy) policy = load_checked (refs[i], werror, &warned);

      if (policy == NULL || (werror && warned))
        status = CORDON_EXIT_FAILED;
    }
  return status;
}

static void
tell_diagnostics (CordonDiagnostics *diags,
                  gpointer data)
{
  print_diagnostics (diags, FALSE);
}

static void
tell_degraded (const char *what,
               gpointer data)
{
  fprintf (stderr, "cordon: degraded: %s\n", what);
}

static void
tell_note (const char *what,
           gpointer data)
{
  fprintf (stderr, "cordon: %s\n", what);
}

/* A finding of the audit after the run: its path and what it is (the
 * command's output has come before it). */
static void
tell_finding (const CordonPlanted *finding,
              gpointer data)
{
  /* The names are the sandbox's: no byte of them reaches the terminal raw. */
  g_autofree char *path = g_strescape (finding->path, NULL);
  g_autofree char *moved = finding->quarantined != NULL ? g_strescape (finding->quarantined, NULL) : NULL;

  if (moved != NULL)
    fprintf (stderr, "cordon: audit: %s: %s (moved to %s)\n", path, finding->what, moved);
  else
    fprintf (stderr, "cordon: audit: %s: %s\n", path, finding->what);
}

/* The options of the commands that prepare a run, and main's own. */
typedef struct
{
  CordonRunOptions o;
  char *timeout;
  char *kill_after;
  char *report;
  char *report_fd;
  char **rest;
} RunArgs;

static void
run_args_clear (RunArgs *a)
{
  g_free (a->o.policy);
  g_free (a->o.workdir);
  g_free (a->o.bwrap);
  g_strfreev (a->o.allow_env);
  g_strfreev (a->o.setenv);
  g_strfreev (a->o.writable);
  g_free (a->o.memory);
  g_free (a->o.pids);
  g_free (a->timeout);
  g_free (a->kill_after);
  g_free (a->report);
  g_free (a->report_fd);
  g_strfreev (a->rest);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (RunArgs, run_args_clear)

static RunArgs
run_args_for (CordonRunPurpose purpose)
{
  RunArgs a;

  memset (&a, 0, sizeof a);
  a.o.purpose = purpose;
  a.o.environ = (const char * const *) environ;
  a.o.diagnostics = tell_diagnostics;
  a.o.degraded = tell_degraded;
  a.o.note = tell_note;
  a.o.finding = tell_finding;
  a.o.began_us = main_began_us;
  return a;
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

/* The filter's BPF, as bwrap reads it from --seccomp's fd. */
static int
write_filter (const CordonPlan *plan)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;

  if (plan->seccomp == CORDON_SECCOMP_NONE)
    return fail ("compile: the policy has no seccomp filter ([seccomp] profile=none)");
  /* The filter whole, its refusals errors of their own: the one bwrap
   * is given under cordon notifies a listener of cordon's, and without it
   * would fail them with ENOSYS. */
  if ((bytes = cordon_seccomp_bpf (plan, CORDON_SECCOMP_FILTER_ERRNO, &error)) == NULL)
    return fail ("%s", error->message);
  return write_all (bytes);
}

static const char * const compile_formats[] = { "shell", "nul", "json", "seccomp", NULL };

/* compile (`explain` FALSE) and explain: the plan as run would launch
 * it, in the form asked for. */
static int
show (int argc,
      char **argv,
      gboolean explain)
{
  g_auto(RunArgs) a = run_args_for (CORDON_RUN_SHOW);
  g_autofree char *format = NULL;
  const GOptionEntry entries[] = {
    { "format", 0, 0, G_OPTION_ARG_STRING, &format, "shell (default), nul, json or seccomp", "FORMAT" },
    { "workdir", 'C', 0, G_OPTION_ARG_FILENAME, &a.o.workdir, "The workdir (default: the current directory)", "DIR" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &a.rest, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = explain
    ? command_context ("POLICY", "Show each bwrap argument beside the policy rule that produced it.", entries + 1)
    : command_context ("POLICY [-- CMD [ARG...]]", "Print the bwrap command a policy compiles to.", entries);
  g_auto(CordonRun) run;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *filter = NULL;
  g_autofree char *self = NULL;
  g_autofree char *ref = NULL;
  g_autoptr(GError) error = NULL;

  cordon_run_init (&run);
  if (!parse_options (ctx, &argc, &argv))
    return CORDON_EXIT_FAILED;
  if (format == NULL)
    format = g_strdup (explain ? "explain" : "shell");
  if (!explain && !g_strv_contains (compile_formats, format))
    return fail ("compile: unknown --format '%s' (shell, nul, json or seccomp)", format);
  if (a.rest == NULL || a.rest[0] == NULL || (explain && a.rest[1] != NULL))
    return fail (explain ? "explain: name exactly one policy" : "compile: name a policy");
  a.o.policy = g_strdup (a.rest[0]);
  /* A policy's errors are told by their diagnostics alone; a probe that
   * cannot answer leaves the policy's plan, and a note. */
  if (!cordon_run_prepare (&run, &a.o))
    return run.diagnosed ? CORDON_EXIT_FAILED : fail ("%s", run.failure_message);
  if (run.probe_note != NULL)
    fprintf (stderr, "cordon: note: not probed: %s; the options below are the policy's, "
                     "without the probe's answer\n", run.probe_note);
  if (g_str_equal (format, "seccomp"))
    return write_filter (run.plan);
  self = g_file_read_link ("/proc/self/exe", NULL);
  ref = cordon_policy_ref_is_path (a.rest[0]) ? g_canonicalize_filename (a.rest[0], NULL) : g_strdup (a.rest[0]);
  filter = cordon_render_filter_command (self != NULL ? self : "cordon", ref, run.facts->workdir);
  if (g_str_equal (format, "json"))
    {
      g_autoptr(GVariant) value = cordon_render_json (run.plan, run.argv, run.facts->bwrap_path,
                                                      (const char * const *) a.rest + 1);
      g_autofree char *json = cordon_json_variant_to_text (value, &error);
      char *text;

      if (json == NULL)
        return fail ("%s", error->message);
      text = g_strconcat (json, "\n", NULL);
      bytes = g_bytes_new_take (text, strlen (text));
    }
  else
    bytes = cordon_render_as (format, run.plan, run.argv, run.facts->bwrap_path, filter,
                              (const char * const *) a.rest + 1);
  return write_all (bytes);
}

static int
cmd_compile (int argc,
             char **argv)
{
  return show (argc, argv, FALSE);
}

static int
cmd_explain (int argc,
             char **argv)
{
  return show (argc, argv, TRUE);
}

/* What a run came to, on stderr: its failure with the reason, or what
 * became of the command; then a report that could not be written. */
/* "cordon: WHAT 256M (policy FILE:LINE)": a limit that stopped the
 * command, and the rule that set it. */
static void
tell_limit (const CordonPlan *plan,
            CordonLimitKind kind,
            const char *what)
{
  const CordonLimit *l = &plan->limits[kind];
  g_autofree char *size = cordon_resource_limits_format_size (l->value);
  g_autofree char *value = kind == CORDON_LIMIT_PIDS ? g_strdup_printf ("%" G_GUINT64_FORMAT, l->value)
                           : l->share > 0 ? g_strdup_printf ("%s (%u%% of RAM)", size, l->share)
                                          : g_strdup (size);
  g_autofree char *where = l->rule.file != NULL ? cordon_location_to_string (&l->rule) : g_strdup ("a default");

  /* An override's rule is a line of generated text: its option says more. */
  if (g_strcmp0 (l->rule.file, "<command line>") == 0)
    fprintf (stderr, "cordon: %s %s (--%s)\n", what, value, cordon_key_info (l->key)->name);
  else
    fprintf (stderr, "cordon: %s %s (policy %s)\n", what, value, where);
}

/* After a 126 or 127: where the host has the command, and the rule that
 * hides it from the sandbox (command-hint.h). */
static void
tell_hidden (const CordonPlan *plan,
             const char *command)
{
  g_autofree char *hint = cordon_command_hint (plan, command, g_getenv ("PATH"));

  if (hint != NULL)
    fprintf (stderr, "cordon: %s\n", hint);
}

/* Each call the seccomp filter refused after release, once, with the
 * rule and the key that would let it through (seccomp-notify.h). */
static void
tell_seccomp_denials (const CordonRun *run)
{
  const CordonSeccompDenials *d = &run->seccomp_denials;
  const char *profile = cordon_key_info (CORDON_KEY_SECCOMP_PROFILE)->words[run->plan->seccomp];

  for (guint i = 0; d->denials != NULL && i < d->denials->len; i++)
    {
      const CordonSeccompDenial *one = g_ptr_array_index (d->denials, i);
      CordonLocation at;
      gboolean by_deny = cordon_seccomp_refused_by_deny (run->plan, one->syscall, &at);
      g_autofree char *where = at.file != NULL ? cordon_location_to_string (&at) : g_strdup ("its default");

      if (by_deny)
        fprintf (stderr, "cordon: %s denied by [seccomp] deny=%s (%s); take it out of deny= to permit "
                 "(%" G_GUINT64_FORMAT " call%s, %s)\n", one->syscall, one->syscall, where, one->count,
                 one->count == 1 ? "" : "s", cordon_seccomp_errno_name (one->err));
      else
        fprintf (stderr, "cordon: %s denied by [seccomp] profile=%s (%s); allow=%s to permit "
                 "(%" G_GUINT64_FORMAT " call%s, %s)\n", one->syscall, profile, where, one->syscall, one->count,
                 one->count == 1 ? "" : "s", cordon_seccomp_errno_name (one->err));
    }
  if (d->others > 0)
    fprintf (stderr, "cordon: %" G_GUINT64_FORMAT " more calls of other names denied by [seccomp] "
             "profile=%s (see the report)\n", d->others, profile);
}

static int
print_run (const CordonRun *run,
           const CordonRunOptions *o,
           int status)
{
  const CordonRunResult *r = &run->result;

  if (run->failure == CORDON_FAILURE_VERIFY && run->verify != NULL)
    {
      g_autofree char *failures = cordon_verify_format_failures (run->verify);

      fputs (failures, stderr);
    }
  if (run->failure != CORDON_FAILURE_NONE)
    fprintf (stderr, "cordon: %s: %s\n", cordon_failure_name (run->failure), run->failure_message);
  else if (run->has_result && r->outcome == CORDON_OUTCOME_NOT_FOUND)
    fprintf (stderr, "cordon: %s: command not found in the sandbox\n", o->command[0]);
  else if (run->has_result && r->outcome == CORDON_OUTCOME_NOT_EXECUTABLE)
    fprintf (stderr, "cordon: %s: cannot execute: %s\n", o->command[0], g_strerror (r->exec_errno));
  else if (run->has_result && r->outcome == CORDON_OUTCOME_TIMED_OUT)
    fprintf (stderr, "cordon: timeout: the sandbox was killed after %.10g s\n", run->timeout_ms / 1000.0);
  else if (run->has_result && r->outcome == CORDON_OUTCOME_OOM_KILLED)
    tell_limit (run->plan, CORDON_LIMIT_MEMORY, "the command was killed: memory limit");
  if (run->failure == CORDON_FAILURE_NONE && run->has_result
      && (r->outcome == CORDON_OUTCOME_NOT_FOUND || r->outcome == CORDON_OUTCOME_NOT_EXECUTABLE))
    tell_hidden (run->plan, o->command[0]);
  if (run->has_result && run->seccomp_denials.listened)
    tell_seccomp_denials (run);
  if (run->has_result && run->cgroups.stats.pids_max_hits > 0)
    tell_limit (run->plan, CORDON_LIMIT_PIDS, "a fork failed: the sandbox was at its process limit,");
  if (run->report_error != NULL)
    fprintf (stderr, "cordon: report: %s\n", run->report_error);
  return status;
}

/* The options run and verify share, then `extra` (NULL-terminated). */
static GOptionContext *
run_context (RunArgs *a,
             const char *usage,
             const char *summary,
             const GOptionEntry *extra)
{
  const GOptionEntry shared[] = {
    { "workdir", 'C', 0, G_OPTION_ARG_FILENAME, &a->o.workdir, "The workdir (default: the current directory)", "DIR" },
    { "report", 0, 0, G_OPTION_ARG_FILENAME, &a->report, "Write a JSON report to FILE (- for standard output)", "FILE" },
    { "report-fd", 0, 0, G_OPTION_ARG_STRING, &a->report_fd, "Write the JSON report to the inherited fd N", "N" },
    { "bwrap", 0, 0, G_OPTION_ARG_FILENAME, &a->o.bwrap, "The bwrap to run (default: $CORDON_BWRAP, else /usr/bin/bwrap)", "PATH" },
    { "reprobe", 0, 0, G_OPTION_ARG_NONE, &a->o.reprobe, "Probe /proc again instead of using the cached answer", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &a->rest, NULL, NULL },
    { NULL }
  };
  GOptionContext *ctx = command_context (usage, summary, shared);

  g_option_context_add_main_entries (ctx, extra, NULL);
  return ctx;
}

static int
cmd_run (int argc,
         char **argv)
{
  g_auto(RunArgs) a = run_args_for (CORDON_RUN_COMMAND);
  const GOptionEntry entries[] = {
    { "policy", 'p', 0, G_OPTION_ARG_STRING, &a.o.policy, "Policy name or path (default: trial)", "POLICY" },
    { "timeout", 0, 0, G_OPTION_ARG_STRING, &a.timeout, "Kill the sandbox after S seconds (status 124)", "S" },
    { "kill-after", 0, 0, G_OPTION_ARG_STRING, &a.kill_after, "Grace between SIGTERM and SIGKILL at timeout (default 5)", "S" },
    { "allow-env", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a.o.allow_env, "Also pass this variable (or glob)", "NAME" },
    { "setenv", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a.o.setenv, "Set a variable in the sandbox", "NAME=VALUE" },
    { "writable", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &a.o.writable, "Also bind this host path writable", "PATH" },
    { "share-net", 0, 0, G_OPTION_ARG_NONE, &a.o.share_net, "Keep the host network (a degradation)", NULL },
    { "no-cache", 0, 0, G_OPTION_ARG_NONE, &a.o.no_cache, "Bind none of the policy's caches ([cache] enable=false)", NULL },
    { "memory", 0, 0, G_OPTION_ARG_STRING, &a.o.memory, "Bound the sandbox's memory for this run ([limits] memory)", "SIZE" },
    { "pids", 0, 0, G_OPTION_ARG_STRING, &a.o.pids, "Bound its processes for this run ([limits] pids)", "N" },
    { "no-verify", 0, 0, G_OPTION_ARG_NONE, &a.o.no_verify, "Skip the verification of the sandbox (a degradation)", NULL },
    { "no-audit", 0, 0, G_OPTION_ARG_NONE, &a.o.no_audit, "Skip the audit of the writable paths after the run (a degradation)", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = run_context (&a, "-- COMMAND [ARG...]", "Run a command in the sandbox of a policy.",
                                               entries);
  g_auto(CordonRun) run;

  cordon_run_init (&run);
  if (!parse_options (ctx, &argc, &argv))
    return CORDON_EXIT_FAILED;
  if (a.o.policy == NULL)
    a.o.policy = g_strdup ("trial");
  a.o.command = (const char * const *) a.rest;
  a.o.timeout_given = a.timeout != NULL;
  if (!cordon_run_open_report (&run, a.report, a.report_fd))
    return print_run (&run, &a.o, CORDON_EXIT_FAILED);
  if (!cordon_seconds_to_ms (a.timeout, 0, &a.o.timeout_ms)
      || !cordon_seconds_to_ms (a.kill_after, 5000, &a.o.kill_after_ms))
    return print_run (&run, &a.o, cordon_run_fail (&run, CORDON_FAILURE_USAGE, "--timeout and --kill-after "
                                                   "take seconds (a number >= 0)"));
  return print_run (&run, &a.o, cordon_run_execute (&run, &a.o));
}

static int
cmd_verify (int argc,
            char **argv)
{
  static const char * const nothing[] = { "true", NULL };
  g_auto(RunArgs) a = run_args_for (CORDON_RUN_VERIFY_ONLY);
  const GOptionEntry none[] = { { NULL } };
  g_autoptr(GOptionContext) ctx = run_context (&a, "POLICY", "Launch the sandbox of a policy, prove every "
                                               "denial, run nothing.", none);
  g_auto(CordonRun) run;
  g_autofree char *table = NULL;
  int status;

  cordon_run_init (&run);
  if (!parse_options (ctx, &argc, &argv))
    return CORDON_EXIT_FAILED;
  if (a.rest == NULL || a.rest[0] == NULL || a.rest[1] != NULL)
    return fail ("usage: verify: name exactly one policy");
  a.o.policy = g_strdup (a.rest[0]);
  a.o.command = nothing;
  if (!cordon_run_open_report (&run, a.report, a.report_fd))
    return print_run (&run, &a.o, CORDON_EXIT_FAILED);
  status = print_run (&run, &a.o, cordon_run_execute (&run, &a.o));
  /* Aligned on a terminal, tab-separated otherwise (for scripts). */
  if (run.verify != NULL)
    fputs ((table = cordon_verify_format_table (run.verify, isatty (STDOUT_FILENO))), stdout);
  return status;
}

static int
cmd_doctor (int argc,
            char **argv)
{
  gboolean json = FALSE;
  g_autofree char *bwrap = NULL;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "JSON output (the default when stdout is not a terminal)", NULL },
    { "bwrap", 0, 0, G_OPTION_ARG_FILENAME, &bwrap, "The bwrap to examine", "PATH" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = command_context ("", "Report what on this host decides whether a sandbox "
                                                       "can be made, each problem with its narrowest fix.",
                                                   entries);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) findings = NULL;
  g_autofree char *text = NULL;
  guint problems = 0;

  if (!parse_options (ctx, &argc, &argv))
    return CORDON_EXIT_FAILED;
  if ((findings = cordon_doctor_examine (bwrap, (const char * const *) environ, &error)) == NULL)
    return fail ("%s", error->message);
  for (guint i = 0; i < findings->len; i++)
    problems += !((CordonFinding *) g_ptr_array_index (findings, i))->ok;
  if (json || !isatty (STDOUT_FILENO))
    {
      if ((text = cordon_doctor_to_json (findings, &error)) == NULL)
        return fail ("%s", error->message);
      printf ("%s\n", text);
    }
  else
    fputs ((text = cordon_doctor_to_text (findings)), stdout);
  /* 0: a sandbox can be made here; 125: something above stops it. */
  return problems == 0 ? 0 : CORDON_EXIT_FAILED;
}

static const struct
{
  const char *name;
  CommandFunc func;
  const char *summary;
} commands[] = {
  { "check", cmd_check, "check policies; gcc-style file:line:col diagnostics" },
  { "compile", cmd_compile, "print the bwrap command of a policy (shell, nul, json or seccomp)" },
  { "explain", cmd_explain, "each bwrap argument beside the rule that produced it" },
  { "run", cmd_run, "run a command in the sandbox of a policy" },
  { "verify", cmd_verify, "prove every denial of a policy on a live sandbox; run nothing" },
  { "doctor", cmd_doctor, "what on this host decides whether a sandbox can be made, and the fix" },
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
  main_began_us = g_get_monotonic_time ();
  /* The caller's character set (GOption converts arguments with it) and
   * language (the system's messages): nothing of cordon's output depends
   * on the other categories, whose files each cost a load at every launch. */
  setlocale (LC_CTYPE, "");
  setlocale (LC_MESSAGES, "");
  /* A helper that died before reading cordon's word must not kill cordon
   * through the go pipe: the write fails and the run fails closed. */
  signal (SIGPIPE, SIG_IGN);
  if (argc < 2)
    return usage (stderr, CORDON_EXIT_FAILED);
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
  return usage (stderr, CORDON_EXIT_FAILED);
}
