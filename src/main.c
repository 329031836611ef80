/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* main: the command line. The only file that prints for the user and
 * picks the exit status: every module below reports through GError or a
 * diagnostics list. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "compile.h"
#include "doctor.h"
#include "host-facts.h"
#include "host-identity.h"
#include "policy-check.h"
#include "policy-parse.h"
#include "policy-source.h"
#include "launch.h"
#include "probe.h"
#include "render.h"
#include "report.h"
#include "supervisor.h"
#include "verify.h"

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
  if (out->facts != NULL)
    {
      /* Where the helper is decides what a root caller's sandbox needs
       * staged (see identity.c); a missing one is run's error, not ours. */
      out->facts->helper_path = cordon_launch_find_helper ("cordon-exec", "CORDON_EXEC_HELPER", NULL);
      cordon_host_facts_scan_policy (out->facts, out->policy);
      out->plan = cordon_compile (out->policy, out->facts, &error);
    }
  if (out->plan == NULL)
    {
      fail ("%s", error->message);
      return FALSE;
    }
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

typedef struct
{
  char *policy;
  char *workdir;
  char *timeout;
  char *kill_after;
  char *report;
  char *report_fd;
  char *bwrap;
  gboolean reprobe;
  char **allow_env;
  char **setenv;
  char **writable;
  gboolean share_net;
  gboolean no_verify;
  gboolean verify_only;      /* cordon verify: prove, run nothing */
  char **command;
} RunOptions;

static void
run_options_clear (RunOptions *o)
{
  g_free (o->policy);
  g_free (o->workdir);
  g_free (o->timeout);
  g_free (o->kill_after);
  g_free (o->report);
  g_free (o->report_fd);
  g_free (o->bwrap);
  g_strfreev (o->allow_env);
  g_strfreev (o->setenv);
  g_strfreev (o->writable);
  g_strfreev (o->command);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (RunOptions, run_options_clear)

/* State of one run, so every exit path can fill and write the report. */
typedef struct
{
  CordonReport report;
  CordonPolicy *policy;
  CordonHostFacts *facts;
  CordonPlan *plan;
  CordonProbe *probe;
  CordonBwrapArgv *argv;
  CordonVerify *verify;
  gboolean no_verify;
  gboolean setuid_bwrap;      /* the user namespace was left out for it */
  char *helper;
  char *keeper;
  CordonReportTarget *report_target;  /* opened before anything else */
} Run;

static void
run_clear (Run *run)
{
  cordon_report_clear (&run->report);
  g_clear_pointer (&run->argv, cordon_bwrap_argv_free);
  g_clear_pointer (&run->verify, cordon_verify_free);
  g_clear_pointer (&run->probe, cordon_probe_free);
  g_clear_pointer (&run->plan, cordon_plan_free);
  g_clear_pointer (&run->facts, cordon_host_facts_free);
  g_clear_pointer (&run->policy, cordon_policy_free);
  g_clear_pointer (&run->report_target, cordon_report_target_free);
  g_free (run->helper);
  g_free (run->keeper);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

static int
run_finish (Run *run,
            int status)
{
  g_autoptr(GError) error = NULL;

  run->report.exit_status = status;
  run->report.plan = run->plan;
  if (run->plan != NULL)
    run->report.proc_mode = cordon_key_info (CORDON_KEY_PROC_MODE)->words[run->plan->proc_mode];
  run->report.probe = run->probe;
  run->report.verify = run->verify;
  /* Once the command ran, its status is what cordon exits with: a 125
   * here would tell a trial runner the command never ran. */
  if (run->report_target != NULL && !cordon_report_write_target (&run->report, run->report_target, &error))
    fprintf (stderr, "cordon: report: %s\n", error->message);
  return status;
}

/* Every 125 names its reason (policy, host, probe, launch) on stderr and
 * in the report. */
static int
run_fail (Run *run,
          const char *reason,
          const char *message)
{
  fprintf (stderr, "cordon: %s: %s\n", reason, message);
  run->report.failure_reason = reason;
  run->report.failure_message = g_strdup (message);
  return run_finish (run, EXIT_CORDON_FAILED);
}

/* A value as GKeyFile text: escapes, and "$$" so that a --setenv value is
 * taken literally, never expanded as a ${VARIABLE}. */
static void
append_escaped (GString *out,
                const char *value)
{
  gsize len = strlen (value);

  for (gsize i = 0; i < len; i++)
    {
      char c = value[i];

      if (c == '\\' || c == ';')
        g_string_append_printf (out, "\\%c", c);
      else if (c == '\n')
        g_string_append (out, "\\n");
      else if (c == '\t')
        g_string_append (out, "\\t");
      else if (c == '\r')
        g_string_append (out, "\\r");
      else if (c == ' ' && (i == 0 || i + 1 == len))
        g_string_append (out, "\\s");
      else if (c == '$')
        g_string_append (out, "$$");
      else
        g_string_append_c (out, c);
    }
}

static void
append_override (GString *text,
                 const char **last_section,
                 const char *section,
                 const char *key,
                 char **values,
                 GPtrArray *recorded,
                 const char *flag,
                 gboolean record_value)
{
  if (values == NULL || values[0] == NULL)
    return;
  /* One header per section (the callers keep a section's keys together):
   * a repeated header would draw a warning. */
  if (g_strcmp0 (*last_section, section) != 0)
    g_string_append_printf (text, "[%s]\n", section);
  *last_section = section;
  g_string_append_printf (text, "%s=", key);
  for (guint i = 0; values[i] != NULL; i++)
    {
      g_autofree char *name = g_strndup (values[i], strcspn (values[i], "="));

      if (i > 0)
        g_string_append_c (text, ';');
      append_escaped (text, values[i]);
      /* The report names a --setenv variable, never its value. */
      g_ptr_array_add (recorded, g_strdup_printf ("%s %s", flag, record_value ? values[i] : name));
    }
  g_string_append_c (text, '\n');
}

static char *
overrides_text (RunOptions *o,
                GPtrArray *recorded)
{
  g_autoptr(GString) text = g_string_new (NULL);
  const char *last = NULL;

  for (guint i = 0; o->writable != NULL && o->writable[i] != NULL; i++)
    {
      g_autofree char *abs = g_canonicalize_filename (o->writable[i], NULL);

      g_free (o->writable[i]);
      o->writable[i] = g_steal_pointer (&abs);
    }
  append_override (text, &last, "environment", "allow", o->allow_env, recorded, "--allow-env", TRUE);
  append_override (text, &last, "environment", "set", o->setenv, recorded, "--setenv", FALSE);
  append_override (text, &last, "filesystem", "writable", o->writable, recorded, "--writable", TRUE);
  if (o->share_net)
    {
      g_string_append (text, "[namespaces]\nshare=net\n");
      g_ptr_array_add (recorded, g_strdup ("--share-net"));
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* A warning about an override (--share-net) would point at a line of
 * generated text; run names the degradation itself, in its own words. */
static void
print_diagnostics_of_run (CordonDiagnostics *diags)
{
  g_autoptr(CordonDiagnostics) shown = cordon_diagnostics_new ();

  for (guint i = 0; i < cordon_diagnostics_len (diags); i++)
    {
      const CordonDiagnostic *d = cordon_diagnostics_get (diags, i);

      if (d->severity == CORDON_SEVERITY_WARNING && g_strcmp0 (d->loc.file, "<command line>") == 0)
        continue;
      cordon_diagnostics_add (shown, d->severity, &d->loc, "%s", d->message);
    }
  print_diagnostics (shown, FALSE);
}

/* Loads the policy and applies the command-line overrides as one more
 * source, "<command line>", so they are validated like policy text and
 * counted in the policy's hash. */
static gboolean
run_load_policy (Run *run,
                 RunOptions *o)
{
  g_autoptr(CordonPolicySource) source = cordon_policy_source_new ((const char * const *) environ);
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = overrides_text (o, run->report.overrides);
  CordonPolicyResolver resolver;

  cordon_policy_source_get_resolver (source, &resolver);
  run->report.policy_name = o->policy;
  run->policy = cordon_policy_load (o->policy, &resolver, diags, &error);
  if (run->policy == NULL)
    {
      run_fail (run, "policy", error->message);
      return FALSE;
    }
  if (text[0] != '\0')
    {
      /* Hashed as the report lists them, by name: a --setenv value must
       * not be guessable from the policy's hash. */
      g_ptr_array_add (run->report.overrides, NULL);
      {
        g_autofree char *named = g_strjoinv ("\n", (char **) run->report.overrides->pdata);

        g_ptr_array_remove_index (run->report.overrides, run->report.overrides->len - 1);
        cordon_policy_add_source (run->policy, "<command line>", named);
      }
      cordon_policy_parse_text (run->policy, "<command line>", text, diags);
    }
  cordon_policy_check (run->policy, diags);
  print_diagnostics_of_run (diags);
  run->report.policy_sha256 = cordon_report_policy_sha256 (run->policy);
  if (cordon_diagnostics_count (diags, CORDON_SEVERITY_ERROR) > 0)
    {
      run_fail (run, "policy", "the policy has errors (above); nothing was launched");
      return FALSE;
    }
  return TRUE;
}

static gboolean
run_compile (Run *run)
{
  g_autoptr(GError) error = NULL;
  gint64 t0 = g_get_monotonic_time ();

  g_clear_pointer (&run->plan, cordon_plan_free);
  g_clear_pointer (&run->argv, cordon_bwrap_argv_free);
  run->plan = cordon_compile (run->policy, run->facts, &error);
  if (run->plan == NULL)
    {
      run_fail (run, g_error_matches (error, CORDON_ERROR, CORDON_ERROR_POLICY) ? "policy" : "host",
                error->message);
      return FALSE;
    }
  run->argv = cordon_render_argv (run->plan);
  run->report.compile_us += (guint64) (g_get_monotonic_time () - t0);
  return TRUE;
}

static void
degrade (Run *run,
         const char *what)
{
  fprintf (stderr, "cordon: degraded: %s\n", what);
  g_ptr_array_add (run->report.degradations, g_strdup (what));
}

/* Recompiles with [proc] mode set to the fallback: the degradation is a
 * rule of the policy (fallback=), applied where its condition holds, and
 * named on stderr and in the report (invariant 8). */
static gboolean
run_fall_back (Run *run,
               const char *mode,
               const char *degradation)
{
  g_autofree char *text = g_strdup_printf ("[proc]\nmode=%s\n", mode);
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();

  cordon_policy_parse_text (run->policy, "<proc fallback>", text, diags);
  degrade (run, degradation);
  return run_compile (run);
}

/* A setuid bwrap makes the user namespace as root, so the caller holds
 * no capability in it and the kernel refuses cordon the /proc files of
 * the processes there: the sandbox could not be checked from outside.
 * For a caller other than root the user namespace is left out, a rule
 * applied like a fallback and named (invariant 8); setuid bwrap makes
 * the other namespaces without one. */
static gboolean
run_adapt_to_setuid_bwrap (Run *run)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  GPtrArray *keep = cordon_policy_get_list (run->policy, CORDON_KEY_CAPS_KEEP);

  if (run->facts->uid == 0 || !cordon_launch_bwrap_is_setuid (run->facts->bwrap_path))
    return TRUE;
  /* A setuid bwrap gives no capability to a caller other than root
   * (--cap-add: "can be used only by root"): refused here, by name. */
  if (keep->len > 0)
    {
      const CordonItem *item = g_ptr_array_index (keep, 0);
      g_autofree char *where = cordon_location_to_string (&item->loc);
      g_autofree char *msg = g_strdup_printf ("%s: [capabilities] keep= cannot be met: a setuid "
                                              "bwrap keeps no capability for a caller other than "
                                              "root; drop keep=, or use a bwrap without the setuid "
                                              "bit", where);

      run_fail (run, "host", msg);
      return FALSE;
    }
  cordon_policy_parse_text (run->policy, "<setuid bwrap>", "[namespaces]\nshare=user\n", diags);
  run->setuid_bwrap = TRUE;
  return TRUE;
}

static gboolean
run_probe (Run *run,
           gboolean reprobe)
{
  g_autoptr(GError) error = NULL;
  CordonProbeRequest req = { run->facts->bwrap_path, run->plan->namespaces, run->facts->uid,
                             run->facts->cache_dir, reprobe, run->plan->switch_identity,
                             run->plan->host_uid, run->plan->host_gid };
  gint64 t0 = g_get_monotonic_time ();

  if (run->plan->proc_mode != CORDON_PROC_PRIVATE)
    return TRUE;
  run->probe = cordon_probe_run (&req, &error);
  run->report.probe_us = (guint64) (g_get_monotonic_time () - t0);
  if (run->probe == NULL)
    {
      run_fail (run, "probe", error->message);
      return FALSE;
    }
  if (run->probe->result == CORDON_PROBE_OK)
    return TRUE;
  if (run->probe->result == CORDON_PROBE_PROC_MASKED
      && run->plan->proc_fallback == CORDON_FALLBACK_HOST_RO)
    return run_fall_back (run, "host-ro", "host /proc");
  if (run->probe->result == CORDON_PROBE_PROC_MASKED
      && run->plan->proc_fallback == CORDON_FALLBACK_NONE)
    return run_fall_back (run, "none", "no /proc");
  run_fail (run, "probe", run->probe->detail);
  return FALSE;
}

static guint64
seconds_to_ms (const char *text,
               guint64 fallback,
               gboolean *ok)
{
  char *end = NULL;
  double s;

  if (text == NULL)
    return fallback;
  s = g_ascii_strtod (text, &end);
  if (end == text || *end != '\0' || !(s >= 0) || s > 7 * 24 * 3600)
    {
      *ok = FALSE;
      return 0;
    }
  /* A timeout shorter than a millisecond is still a timeout, not "none". */
  return s > 0 && s * 1000.0 < 1.0 ? 1 : (guint64) (s * 1000.0 + 0.5);
}

static void
report_outcome (const CordonRunResult *r,
                const char *command,
                guint64 timeout_ms)
{
  switch (r->outcome)
    {
    case CORDON_OUTCOME_NOT_FOUND:
      fprintf (stderr, "cordon: %s: command not found in the sandbox\n", command);
      break;
    case CORDON_OUTCOME_NOT_EXECUTABLE:
      fprintf (stderr, "cordon: %s: cannot execute: %s\n", command, g_strerror (r->exec_errno));
      break;
    case CORDON_OUTCOME_TIMED_OUT:
      fprintf (stderr, "cordon: timeout: the sandbox was killed after %.10g s\n", timeout_ms / 1000.0);
      break;
    case CORDON_OUTCOME_EXITED:
    case CORDON_OUTCOME_LAUNCH_FAILED:
    case CORDON_OUTCOME_SIGNALED:
    case CORDON_OUTCOME_MAX:
    default:
      break;
    }
}

/* Every failed check on stderr, beside the rule it checked. */
static void
print_failed_checks (const CordonVerify *verify)
{
  for (guint i = 0; i < cordon_verify_n_checks (verify); i++)
    {
      const CordonCheck *c = cordon_verify_get_check (verify, i);
      g_autofree char *where = c->rule.file != NULL ? cordon_location_to_string (&c->rule) : g_strdup ("cordon");

      if (c->done && c->ok)
        continue;
      fprintf (stderr, "cordon: verify: %s: %s%s%s: %s\n", where, c->target, c->target[0] != '\0' ? ": " : "",
               c->expect, !c->done ? "not checked" : c->detail[0] != '\0' ? c->detail : g_strerror (c->err));
    }
}

static int
run_result (Run *run,
            const CordonRunResult *result,
            RunOptions *o,
            guint64 timeout_ms)
{
  if (result->outcome == CORDON_OUTCOME_VERIFY_FAILED)
    {
      print_failed_checks (run->verify);
      return run_fail (run, "verify", "a denial of the policy does not hold in this sandbox; "
                                      "the command did not run");
    }
  if (result->outcome == CORDON_OUTCOME_LAUNCH_FAILED && result->keyring_errno != 0)
    {
      g_autofree char *msg = g_strdup_printf ("the sandbox could not join a fresh session keyring "
                                              "or set no_new_privs: %s",
                                              g_strerror (result->keyring_errno));

      return run_fail (run, "launch", msg);
    }
  if (result->outcome == CORDON_OUTCOME_LAUNCH_FAILED)
    {
      /* bwrap's own hint often names the wrong cause: cordon's checks of
       * the host, as the probe makes them, say which it is. */
      CordonProbeRequest req = { run->facts->bwrap_path, run->plan->namespaces, run->facts->uid,
                                 NULL, FALSE, run->plan->switch_identity, run->plan->host_uid,
                                 run->plan->host_gid };
      CordonProbeResult cause = cordon_probe_classify (&req, TRUE);

      if (cause != CORDON_PROBE_NAMESPACES_FAILED)
        {
          g_autofree char *detail = cordon_probe_describe (cause);
          g_autofree char *msg = g_strdup_printf ("bwrap failed before the command started: %s", detail);

          return run_fail (run, "host", msg);
        }
      return run_fail (run, "launch", "bwrap failed before the command started (its message is above)");
    }
  report_outcome (result, o->command[0], timeout_ms);
  return run_finish (run, result->exit_status);
}

static int
run_launch (Run *run,
            RunOptions *o,
            guint64 timeout_ms,
            guint64 kill_after_ms)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) spec = NULL;
  CordonLaunchRequest req = { run->facts->bwrap_path, run->helper, run->keeper, run->plan, run->argv,
                              (const char * const *) o->command, NULL, FALSE, NULL };
  g_auto(CordonStageSet) stage = { NULL, NULL };
  CordonSuperviseOptions sup = { timeout_ms, kill_after_ms,
                                 (run->plan->namespaces & CORDON_NS_PID) != 0, NULL, o->verify_only };
  CordonLaunch launch = { .pid = -1, .keeper_pid = -1, .life_fd = -1,
                          .status_fd = -1, .ready_fd = -1, .go_fd = -1 };
  CordonRunResult result;

  /* A policy that takes unshare or clone out of the seccomp profile asks
   * for user namespaces inside (a nested sandbox): bwrap must not refuse
   * them either. */
  req.disable_userns = run->probe != NULL && run->probe->disable_userns
                        && (run->plan->namespaces & CORDON_NS_USER) != 0
                        && !g_ptr_array_find_with_equal_func (run->plan->seccomp_allow, "unshare", g_str_equal, NULL)
                        && !g_ptr_array_find_with_equal_func (run->plan->seccomp_allow, "clone", g_str_equal, NULL);
  if (!o->no_verify)
    {
      run->verify = cordon_verify_new (run->plan, run->facts, (const char * const *) o->command);
      spec = cordon_verify_get_spec (run->verify);
      req.verify_spec = spec;
      sup.verify = run->verify;
    }
  /* The trees the keeper attaches are cut now, before anything of the
   * sandbox runs; a path that cannot be is the host's refusal. */
  if (run->plan->switch_identity)
    {
      if (!cordon_stage_open (run->plan, &stage, &error))
        return run_fail (run, "host", error->message);
      req.stage = &stage;
    }
  /* Invariant 3: cordon's own /proc entries (environ, fds, memory) stay
   * unreadable to anything running as the same user, the sandbox too. */
  if (prctl (PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
    return run_fail (run, "launch", "cannot make cordon non-dumpable");
  if (!cordon_supervisor_prepare (&error) || !cordon_launch_start (&req, &launch, &error))
    return run_fail (run, "launch", error->message);
  /* The keeper holds the trees now (or has attached them): none stays
   * open here for the whole run. */
  cordon_stage_set_clear (&stage);
  if (!cordon_supervise (&launch, &sup, &result, &error))
    return run_fail (run, "launch", error->message);
  run->report.result = &result;
  return run_result (run, &result, o, timeout_ms);
}

static gboolean
has_degradation (Run *run,
                 const char *what)
{
  for (guint i = 0; i < run->report.degradations->len; i++)
    if (g_str_equal (g_ptr_array_index (run->report.degradations, i), what))
      return TRUE;
  return FALSE;
}

/* Invariant 8: what weakens the sandbox is named on stderr and in the
 * report, however it was asked for (the policy or an override). */
static void
run_name_degradations (Run *run)
{
  gboolean dwp = FALSE;

  for (guint i = 0; i < run->plan->ops->len; i++)
    dwp = dwp || ((CordonOp *) g_ptr_array_index (run->plan->ops, i))->kind == CORDON_OP_DIE_WITH_PARENT;
  /* A policy that asks for the host's /proc, or none, degrades as much
   * as a fallback to it (which has named itself already). */
  if (run->plan->proc_mode == CORDON_PROC_HOST_RO && !has_degradation (run, "host /proc"))
    degrade (run, "host /proc");
  if (run->plan->proc_mode == CORDON_PROC_NONE && !has_degradation (run, "no /proc"))
    degrade (run, "no /proc");
  if (!(run->plan->namespaces & CORDON_NS_NET))
    degrade (run, "shared network");
  if (!(run->plan->namespaces & CORDON_NS_PID))
    degrade (run, "shared pid namespace");
  if (run->setuid_bwrap)
    degrade (run, "no user namespace (setuid bwrap)");
  if (!dwp)
    degrade (run, "the sandbox may outlive cordon (die-with-parent=false)");
  if (g_getenv ("CORDON_EXEC_HELPER") != NULL)
    degrade (run, "exec helper taken from CORDON_EXEC_HELPER");
  if (g_getenv ("CORDON_KEEPER_HELPER") != NULL)
    degrade (run, "keeper taken from CORDON_KEEPER_HELPER");
  /* Invariant 5: a root caller's sandbox is not host root unless the
   * policy says so. */
  if (run->plan->host_root)
    degrade (run, "the sandbox runs as host root (host-user=root)");
  if (run->no_verify)
    degrade (run, "not verified (--no-verify)");
  if (run->plan->seccomp == CORDON_SECCOMP_NONE)
    degrade (run, "no seccomp filter (profile=none)");
  else if (run->plan->seccomp_allow->len > 0)
    degrade (run, "seccomp profile with exceptions (allow=)");
}

/* The policy and the host facts (with cordon's own directories made and
 * its helpers found). FALSE after run_fail. */
static gboolean
run_gather (Run *run,
            RunOptions *o)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *mismatch = NULL;

  run->no_verify = o->no_verify;
  if (!run_load_policy (run, o))
    return FALSE;
  run->facts = cordon_host_facts_new ("", (const char * const *) environ, o->workdir, &error);
  if (run->facts == NULL)
    return run_fail (run, "host", error->message), FALSE;
  if ((mismatch = cordon_probe_proc_mismatch ()) != NULL)
    return run_fail (run, "host", mismatch), FALSE;
  if (o->bwrap != NULL)
    {
      g_free (run->facts->bwrap_path);
      run->facts->bwrap_path = g_canonicalize_filename (o->bwrap, NULL);
    }
  /* cordon's own directories exist before the host is examined, so that
   * the plan binds them read-only under a writable bind (a sandbox must
   * not make them, with a policy for the next run in them). */
  if (run->facts->config_dir != NULL)
    (void) g_mkdir_with_parents (run->facts->config_dir, 0700);
  if (run->facts->cache_dir != NULL)
    (void) g_mkdir_with_parents (run->facts->cache_dir, 0700);
  if ((run->helper = cordon_launch_find_helper ("cordon-exec", "CORDON_EXEC_HELPER", &error)) == NULL
      || (run->keeper = cordon_launch_find_helper ("cordon-keeper", "CORDON_KEEPER_HELPER", &error)) == NULL)
    return run_fail (run, "host", error->message), FALSE;
  run->facts->helper_path = g_strdup (run->helper);
  return TRUE;
}

/* Now that the writable paths are known, the report's path must not go
 * through anything a sandbox could have left in one (report-target.c). A
 * refused report is not written, like any usage error. */
static gboolean
run_check_report (Run *run)
{
  g_autoptr(GPtrArray) writable = NULL;
  g_autoptr(GError) error = NULL;

  if (run->report_target == NULL)
    return TRUE;
  writable = cordon_plan_get_writable (run->plan);
  if (cordon_report_target_settle (run->report_target, (const char * const *) writable->pdata, &error))
    return TRUE;
  g_clear_pointer (&run->report_target, cordon_report_target_free);
  /* A path the caller named is a usage error; a host that cannot tell
   * (no mountinfo) is the host's. */
  run_fail (run, error->code == CORDON_ERROR_HOST ? "host" : "usage", error->message);
  return FALSE;
}

/* Policy, host facts, plan, bwrap, helper and probe: everything before
 * the launch. FALSE after run_fail. */
static gboolean
run_prepare (Run *run,
             RunOptions *o)
{
  g_autoptr(GError) error = NULL;

  if (!run_gather (run, o))
    return FALSE;
  cordon_host_facts_scan_policy (run->facts, run->policy);
  if (!run_adapt_to_setuid_bwrap (run) || !run_compile (run) || !run_check_report (run))
    return FALSE;
  if (run->plan->unprotected_dir != NULL)
    {
      g_autofree char *msg = g_strdup_printf ("%s (cordon's own directory) cannot be held read-only "
                                              "under a writable bind: it does not exist and could "
                                              "not be made, or it (or a directory above it) is a "
                                              "symlink; the sandbox could leave a policy for the "
                                              "next run there; keep it out of the writable paths",
                                              run->plan->unprotected_dir);

      return run_fail (run, "host", msg), FALSE;
    }
  if (!cordon_launch_check_bwrap (run->facts->bwrap_path, &error))
    return run_fail (run, "host", error->message), FALSE;
  if (!run_probe (run, o->reprobe))
    return FALSE;
  run_name_degradations (run);
  return TRUE;
}

/* The report's destination, settled before anything else of the run:
 * before the policy is loaded, and so long before a sandbox could change
 * what the path resolves to (invariant 10). A report that cannot be
 * written is a usage error now, not a surprise after the command ran.
 * FALSE after run_fail (then no report is written). */
static gboolean
run_open_report (Run *run,
                 RunOptions *o)
{
  g_autoptr(GError) error = NULL;
  guint64 fd = 0;

  if (o->report != NULL && o->report_fd != NULL)
    {
      run_fail (run, "usage", "--report and --report-fd cannot be given together");
      return FALSE;
    }
  if (o->report_fd != NULL && !g_ascii_string_to_unsigned (o->report_fd, 10, 0, G_MAXINT, &fd, NULL))
    {
      run_fail (run, "usage", "--report-fd takes an fd number (0 or more)");
      return FALSE;
    }
  if (o->report != NULL)
    run->report_target = cordon_report_target_open (o->report, geteuid (), &error);
  else if (o->report_fd != NULL)
    run->report_target = cordon_report_target_open_fd ((int) fd, &error);
  if (error != NULL)
    {
      run_fail (run, "usage", error->message);
      return FALSE;
    }
  return TRUE;
}

static int
cmd_run (int argc,
         char **argv)
{
  g_auto(RunOptions) o = { 0 };
  const GOptionEntry entries[] = {
    { "policy", 'p', 0, G_OPTION_ARG_STRING, &o.policy, "Policy name or path (default: trial)", "POLICY" },
    { "workdir", 'C', 0, G_OPTION_ARG_FILENAME, &o.workdir, "The workdir (default: the current directory)", "DIR" },
    { "timeout", 0, 0, G_OPTION_ARG_STRING, &o.timeout, "Kill the sandbox after S seconds (status 124)", "S" },
    { "kill-after", 0, 0, G_OPTION_ARG_STRING, &o.kill_after, "Grace between SIGTERM and SIGKILL at timeout (default 5)", "S" },
    { "report", 0, 0, G_OPTION_ARG_FILENAME, &o.report, "Write a JSON report to FILE (- for standard output)", "FILE" },
    { "report-fd", 0, 0, G_OPTION_ARG_STRING, &o.report_fd, "Write the JSON report to the inherited fd N", "N" },
    { "bwrap", 0, 0, G_OPTION_ARG_FILENAME, &o.bwrap, "The bwrap to run (default: $CORDON_BWRAP, else /usr/bin/bwrap)", "PATH" },
    { "reprobe", 0, 0, G_OPTION_ARG_NONE, &o.reprobe, "Probe /proc again instead of using the cached answer", NULL },
    { "allow-env", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o.allow_env, "Also pass this variable (or glob)", "NAME" },
    { "setenv", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o.setenv, "Set a variable in the sandbox", "NAME=VALUE" },
    { "writable", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o.writable, "Also bind this host path writable", "PATH" },
    { "share-net", 0, 0, G_OPTION_ARG_NONE, &o.share_net, "Keep the host network (a degradation)", NULL },
    { "no-verify", 0, 0, G_OPTION_ARG_NONE, &o.no_verify, "Skip the verification of the sandbox (a degradation)", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &o.command, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = command_context ("-- COMMAND [ARG...]",
                                                   "Run a command in the sandbox of a policy.", entries);
  g_auto(Run) run = { 0 };
  g_autoptr(GError) error = NULL;
  gboolean ok = TRUE;
  guint64 timeout_ms, kill_after_ms;

  cordon_report_init (&run.report);
  if (!parse_options (ctx, &argc, &argv))
    return EXIT_CORDON_FAILED;
  if (!run_open_report (&run, &o))
    return EXIT_CORDON_FAILED;
  timeout_ms = seconds_to_ms (o.timeout, 0, &ok);
  kill_after_ms = seconds_to_ms (o.kill_after, 5000, &ok);
  if (!ok)
    return run_fail (&run, "usage", "--timeout and --kill-after take seconds (a number >= 0)");
  if (o.command == NULL || o.command[0] == NULL)
    return run_fail (&run, "usage", "run: name a command after '--'");
  if (o.policy == NULL)
    o.policy = g_strdup ("trial");
  if (!run_prepare (&run, &o))
    return EXIT_CORDON_FAILED;
  /* --timeout, even 0 (none), wins over [limits] timeout. */
  if (o.timeout == NULL)
    timeout_ms = run.plan->timeout * 1000;
  return run_launch (&run, &o, timeout_ms, kill_after_ms);
}

/* The per-rule table of `cordon verify`: aligned on a terminal,
 * tab-separated otherwise (for scripts). */
static void
print_check_table (const CordonVerify *verify)
{
  gboolean tty = isatty (STDOUT_FILENO);
  gsize w_rule = 4, w_target = 6;

  for (guint i = 0; i < cordon_verify_n_checks (verify); i++)
    {
      const CordonCheck *c = cordon_verify_get_check (verify, i);
      g_autofree char *where = c->rule.file != NULL ? cordon_location_to_string (&c->rule) : g_strdup ("cordon");

      w_rule = MAX (w_rule, strlen (where));
      w_target = MAX (w_target, strlen (c->target));
    }
  if (tty)
    printf ("%-4s  %-*s  %-*s  %s\n", "", (int) w_rule, "rule", (int) w_target, "target", "expectation");
  for (guint i = 0; i < cordon_verify_n_checks (verify); i++)
    {
      const CordonCheck *c = cordon_verify_get_check (verify, i);
      g_autofree char *where = c->rule.file != NULL ? cordon_location_to_string (&c->rule) : g_strdup ("cordon");
      const char *mark = !c->done ? "----" : c->ok ? "ok" : "FAIL";
      const char *detail = c->done && !c->ok ? (c->detail[0] != '\0' ? c->detail : g_strerror (c->err)) : "";

      if (tty)
        printf ("%-4s  %-*s  %-*s  %s%s%s\n", mark, (int) w_rule, where, (int) w_target, c->target,
                c->expect, detail[0] != '\0' ? ": " : "", detail);
      else
        printf ("%s\t%s\t%s\t%s\t%s\n", mark, where, c->target, c->expect, detail);
    }
}

static int
cmd_verify (int argc,
            char **argv)
{
  g_auto(RunOptions) o = { 0 };
  g_auto(GStrv) rest = NULL;
  const GOptionEntry entries[] = {
    { "workdir", 'C', 0, G_OPTION_ARG_FILENAME, &o.workdir, "The workdir (default: the current directory)", "DIR" },
    { "report", 0, 0, G_OPTION_ARG_FILENAME, &o.report, "Write a JSON report to FILE (- for standard output)", "FILE" },
    { "report-fd", 0, 0, G_OPTION_ARG_STRING, &o.report_fd, "Write the JSON report to the inherited fd N", "N" },
    { "bwrap", 0, 0, G_OPTION_ARG_FILENAME, &o.bwrap, "The bwrap to run", "PATH" },
    { "reprobe", 0, 0, G_OPTION_ARG_NONE, &o.reprobe, "Probe /proc again", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = command_context ("POLICY",
                                                   "Launch the sandbox of a policy, prove every denial, run nothing.",
                                                   entries);
  g_auto(Run) run = { 0 };
  int status;

  cordon_report_init (&run.report);
  if (!parse_options (ctx, &argc, &argv))
    return EXIT_CORDON_FAILED;
  if (rest == NULL || rest[0] == NULL || rest[1] != NULL)
    return fail ("usage: verify: name exactly one policy");
  o.policy = g_strdup (rest[0]);
  o.command = g_strdupv ((char *[]) { (char *) "true", NULL });
  o.verify_only = TRUE;
  if (!run_open_report (&run, &o))
    return EXIT_CORDON_FAILED;
  if (!run_prepare (&run, &o))
    return EXIT_CORDON_FAILED;
  /* A check that hangs (a reachable socket that never answers) must not
   * hold cordon verify for ever. */
  status = run_launch (&run, &o, 60000, 5000);
  if (run.verify != NULL)
    print_check_table (run.verify);
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
  g_autoptr(CordonHostFacts) facts = NULL;
  g_autoptr(GPtrArray) findings = NULL;
  CordonDoctorRequest req;
  guint problems = 0;

  if (!parse_options (ctx, &argc, &argv))
    return EXIT_CORDON_FAILED;
  facts = cordon_host_facts_new ("", (const char * const *) environ, NULL, &error);
  if (facts == NULL)
    return fail ("%s", error->message);
  cordon_host_identity_resolve (facts, NULL);
  req.bwrap_path = bwrap != NULL ? bwrap : facts->bwrap_path;
  req.cache_dir = facts->cache_dir;
  req.uid = facts->uid;
  req.host_uid = facts->identity.uid;
  req.host_gid = facts->identity.gid;
  req.host_user_error = facts->identity.error;
  findings = cordon_doctor_run (&req);
  for (guint i = 0; i < findings->len; i++)
    problems += !((CordonFinding *) g_ptr_array_index (findings, i))->ok;
  if (json || !isatty (STDOUT_FILENO))
    {
      g_autofree char *text = cordon_doctor_to_json (findings);

      printf ("%s\n", text);
    }
  else
    for (guint i = 0; i < findings->len; i++)
      {
        const CordonFinding *f = g_ptr_array_index (findings, i);

        printf ("%-7s %-45s %s\n", f->ok ? "ok" : "PROBLEM", f->name, f->value);
        if (f->fix != NULL)
          printf ("        fix: %s\n", f->fix);
      }
  /* 0: a sandbox can be made here; 125: something above stops it. */
  return problems == 0 ? 0 : EXIT_CORDON_FAILED;
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
  setlocale (LC_ALL, "");
  /* A helper that died before reading cordon's word must not kill cordon
   * through the go pipe: the write fails and the run fails closed. */
  signal (SIGPIPE, SIG_IGN);
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
