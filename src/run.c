/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* run: one run of a sandbox, from the policy to the report. Each stage
 * fails through cordon_run_fail with the reason its error names; the
 * report is written from the run on every exit path, once the command
 * ran with the command's status (a 125 then would tell a trial runner
 * the command never ran). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "cgroup-prime.h"
#include "policy-check.h"
#include "policy-parse.h"
#include "policy-source.h"
#include "host-identity.h"
#include "launch.h"
#include "path-util.h"
#include "render.h"
#include "resource-limits.h"
#include "json-writer.h"
#include "run.h"
#include "seccomp-cache.h"
#include "seccomp-filter.h"
#include "stage.h"

const char *
cordon_failure_name (CordonFailure failure)
{
  static const char * const names[CORDON_FAILURE_MAX] = {
    NULL, "usage", "policy", "host", "probe", "launch", "verify", "audit",
  };

  g_return_val_if_fail (failure < CORDON_FAILURE_MAX, NULL);
  return names[failure];
}

/* The reason of a failed stage: the policy's text and the command line
 * name themselves through their error codes; anything else is the
 * stage's own (`stage`). */
CordonFailure
cordon_failure_of (const GError *error,
                   CordonFailure stage)
{
  if (error == NULL || error->domain != CORDON_ERROR)
    return stage;
  if (error->code == CORDON_ERROR_POLICY)
    return CORDON_FAILURE_POLICY;
  /* A name the policy gives (an include) is the policy's mistake. */
  if (error->code == CORDON_ERROR_USAGE && stage != CORDON_FAILURE_POLICY)
    return CORDON_FAILURE_USAGE;
  return stage;
}

void
cordon_run_init (CordonRun *run)
{
  memset (run, 0, sizeof *run);
  cordon_report_init (&run->report);
  cordon_audit_init (&run->audit);
  /* main makes the run first of all: this is when cordon began. */
  run->report.started_at = g_date_time_new_now_utc ();
}

void
cordon_run_clear (CordonRun *run)
{
  cordon_report_clear (&run->report);
  g_clear_pointer (&run->argv, cordon_bwrap_argv_free);
  g_clear_pointer (&run->verify, cordon_verify_free);
  cordon_seccomp_denials_clear (&run->seccomp_denials);
  cordon_cgroup_run_clear (&run->cgroups);
  cordon_audit_clear (&run->audit);
  for (guint i = 0; run->audit_fds != NULL && i < run->audit_fds->len; i++)
    close (g_array_index (run->audit_fds, int, i));
  g_clear_pointer (&run->audit_fds, g_array_unref);
  g_clear_pointer (&run->audit_roots, g_ptr_array_unref);
  g_clear_pointer (&run->probe, cordon_probe_free);
  g_clear_pointer (&run->plan, cordon_plan_free);
  g_clear_pointer (&run->facts, cordon_host_facts_free);
  g_clear_pointer (&run->policy, cordon_policy_free);
  g_clear_pointer (&run->report_target, cordon_report_target_free);
  g_clear_pointer (&run->failure_message, g_free);
  g_clear_pointer (&run->probe_note, g_free);
  g_clear_pointer (&run->report_error, g_free);
}

static int
run_finish (CordonRun *run,
            int status)
{
  g_autoptr(GError) error = NULL;

  cordon_stopwatch_end (&run->report.times, CORDON_PHASE_TOTAL);
  g_clear_pointer (&run->report.ended_at, g_date_time_unref);
  run->report.ended_at = g_date_time_new_now_utc ();
  run->report.exit_status = status;
  run->report.plan = run->plan;
  if (run->plan != NULL)
    run->report.proc_mode = cordon_key_info (CORDON_KEY_PROC_MODE)->words[run->plan->proc_mode];
  run->report.probe = run->probe;
  run->report.verify = run->verify;
  run->report.result = run->has_result ? &run->result : NULL;
  run->report.cgroup_stats = cordon_cgroup_run_any (&run->cgroups) ? &run->cgroups.stats : NULL;
  run->report.audit = run->audited ? &run->audit : NULL;
  run->report.seccomp_denials = run->has_result && run->seccomp_denials.listened ? &run->seccomp_denials : NULL;
  /* The policy's hash only for a report that is written (0.35 M
   * instructions a run): of its sources with the command line's. */
  if (run->report_target != NULL && run->policy != NULL && run->report.policy_sha256 == NULL)
    run->report.policy_sha256 = cordon_report_policy_sha256 (run->policy);
  if (run->report_target != NULL && !cordon_report_write_target (&run->report, run->report_target, &error))
    run->report_error = g_strdup (error->message);
  return status;
}

/* Every 125 names its reason in the report (and main prints it). */
int
cordon_run_fail (CordonRun *run,
                 CordonFailure failure,
                 const char *message)
{
  run->failure = failure;
  run->failure_message = g_strdup (message);
  run->report.failure_reason = cordon_failure_name (failure);
  run->report.failure_message = g_strdup (message);
  return run_finish (run, CORDON_EXIT_FAILED);
}

static gboolean
fail_with (CordonRun *run,
           CordonFailure stage,
           const GError *error)
{
  cordon_run_fail (run, cordon_failure_of (error, stage), error->message);
  return FALSE;
}

/* The report's destination, settled before anything else of the run:
 * before the policy is loaded, and so long before a sandbox could change
 * what the path resolves to (invariant 10). A report that cannot be
 * written is a usage error now, not a surprise after the command ran.
 * FALSE after the failure is recorded (then no report is written). */
gboolean
cordon_run_open_report (CordonRun *run,
                        const char *path,
                        const char *fd_text)
{
  g_autoptr(GError) error = NULL;
  guint64 fd = 0;

  if (path != NULL && fd_text != NULL)
    return cordon_run_fail (run, CORDON_FAILURE_USAGE, "--report and --report-fd cannot be given together"), FALSE;
  if (fd_text != NULL && !g_ascii_string_to_unsigned (fd_text, 10, 0, G_MAXINT, &fd, NULL))
    return cordon_run_fail (run, CORDON_FAILURE_USAGE, "--report-fd takes an fd number (0 or more)"), FALSE;
  if (path != NULL)
    run->report_target = cordon_report_target_open (path, geteuid (), &error);
  else if (fd_text != NULL)
    run->report_target = cordon_report_target_open_fd ((int) fd, &error);
  if (error != NULL)
    return fail_with (run, CORDON_FAILURE_USAGE, error);
  return TRUE;
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

typedef struct
{
  GString *text;
  const char *section;        /* of the last key written */
  GPtrArray *recorded;
} Overrides;

static void
append_override (Overrides *o,
                 const char *section,
                 const char *key,
                 char **values,
                 const char *flag,
                 gboolean record_value)
{
  if (values == NULL || values[0] == NULL)
    return;
  /* One header per section (the callers keep a section's keys together):
   * a repeated header would draw a warning. */
  if (g_strcmp0 (o->section, section) != 0)
    g_string_append_printf (o->text, "[%s]\n", section);
  o->section = section;
  g_string_append_printf (o->text, "%s=", key);
  for (guint i = 0; values[i] != NULL; i++)
    {
      g_autofree char *name = g_strndup (values[i], strcspn (values[i], "="));

      if (i > 0)
        g_string_append_c (o->text, ';');
      append_escaped (o->text, values[i]);
      /* The report names a --setenv variable, never its value. */
      g_ptr_array_add (o->recorded, g_strdup_printf ("%s %s", flag, record_value ? values[i] : name));
    }
  g_string_append_c (o->text, '\n');
}

/* The command line's overrides as policy text, one more source; each
 * also in `recorded` as the report lists it (no --setenv value). */
char *
cordon_run_overrides_text (const CordonRunOptions *options,
                           GPtrArray *recorded)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GPtrArray) writable = g_ptr_array_new_with_free_func (g_free);
  Overrides o = { text, NULL, recorded };

  for (guint i = 0; options->writable != NULL && options->writable[i] != NULL; i++)
    g_ptr_array_add (writable, g_canonicalize_filename (options->writable[i], NULL));
  g_ptr_array_add (writable, NULL);
  append_override (&o, "environment", "allow", options->allow_env, "--allow-env", TRUE);
  append_override (&o, "environment", "set", options->setenv, "--setenv", FALSE);
  append_override (&o, "filesystem", "writable", (char **) writable->pdata, "--writable", TRUE);
  if (options->share_net)
    {
      g_string_append (text, "[namespaces]\nshare=net\n");
      g_ptr_array_add (recorded, g_strdup ("--share-net"));
    }
  if (options->no_cache)
    {
      g_string_append (text, "[cache]\nenable=false\n");
      g_ptr_array_add (recorded, g_strdup ("--no-cache"));
    }
  append_override (&o, "limits", "memory", options->memory != NULL ? (char *[]) { options->memory, NULL } : NULL,
                   "--memory", TRUE);
  append_override (&o, "limits", "pids", options->pids != NULL ? (char *[]) { options->pids, NULL } : NULL,
                   "--pids", TRUE);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* A warning about an override (--share-net) would point at a line of
 * generated text; run names the degradation itself, in its own words. */
static void
tell_diagnostics (const CordonRunOptions *options,
                  CordonDiagnostics *diags)
{
  g_autoptr(CordonDiagnostics) shown = cordon_diagnostics_new ();

  for (guint i = 0; i < cordon_diagnostics_len (diags); i++)
    {
      const CordonDiagnostic *d = cordon_diagnostics_get (diags, i);

      if (d->severity == CORDON_SEVERITY_WARNING && g_strcmp0 (d->loc.file, "<command line>") == 0)
        continue;
      cordon_diagnostics_add (shown, d->severity, &d->loc, "%s", d->message);
    }
  if (options->diagnostics != NULL)
    options->diagnostics (shown, options->data);
}

/* The overrides, hashed as the report lists them, by name: a --setenv
 * value must not be guessable from the policy's hash. */
static void
add_overrides (CordonRun *run,
               const CordonRunOptions *options,
               CordonDiagnostics *diags)
{
  g_autofree char *text = cordon_run_overrides_text (options, run->report.overrides);
  g_autofree char *named = NULL;

  if (text[0] == '\0')
    return;
  g_ptr_array_add (run->report.overrides, NULL);
  named = g_strjoinv ("\n", (char **) run->report.overrides->pdata);
  g_ptr_array_remove_index (run->report.overrides, run->report.overrides->len - 1);
  cordon_policy_add_source (run->policy, "<command line>", named);
  cordon_policy_parse_text (run->policy, "<command line>", text, diags);
}

/* Each --allow-env that passes nothing, said once, before the command. */
static void
tell_allow_env (CordonRun *run,
                const CordonRunOptions *options)
{
  g_autoptr(GPtrArray) notes = cordon_run_allow_env_notes (run->plan, (const char * const *) options->allow_env);

  for (guint i = 0; options->note != NULL && i < notes->len; i++)
    options->note (g_ptr_array_index (notes, i), options->data);
}

/* Loads the policy and applies the command-line overrides as one more
 * source, "<command line>", so they are validated like policy text and
 * counted in the policy's hash. */
static gboolean
load_policy (CordonRun *run,
             const CordonRunOptions *options)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(GError) error = NULL;

  run->report.policy_name = options->policy;
  cordon_stopwatch_begin (&run->report.times, CORDON_PHASE_POLICY);
  run->policy = cordon_policy_source_load (options->policy, options->environ, diags, &error);
  if (run->policy == NULL)
    return cordon_run_fail (run, CORDON_FAILURE_POLICY, error->message), FALSE;
  add_overrides (run, options, diags);
  cordon_policy_check (run->policy, diags);
  cordon_stopwatch_end (&run->report.times, CORDON_PHASE_POLICY);
  tell_diagnostics (options, diags);
  run->diagnosed = cordon_diagnostics_count (diags, CORDON_SEVERITY_ERROR) > 0;
  if (run->diagnosed)
    return cordon_run_fail (run, CORDON_FAILURE_POLICY,
                            "the policy has errors (above); nothing was launched"), FALSE;
  return TRUE;
}

/* The host facts, with bwrap, cordon's helpers and its own directories.
 * compile and explain show a plan without the helper where it is
 * missing: that is run's error, not theirs. */
static gboolean
gather_facts (CordonRun *run,
              const CordonRunOptions *options)
{
  g_autoptr(GError) error = NULL;
  gboolean found;

  run->facts = cordon_host_facts_new ("", options->environ, options->workdir, &error);
  if (run->facts == NULL)
    return fail_with (run, CORDON_FAILURE_HOST, error);
  /* The directory the sandbox binds: the real path. */
  g_free (run->report.workdir);
  run->report.workdir = g_strdup (run->facts->workdir);
  found = cordon_host_facts_find_programs (run->facts, options->bwrap,
                                           options->purpose != CORDON_RUN_SHOW, &error);
  if (options->purpose == CORDON_RUN_SHOW)
    return TRUE;
  if (run->facts->proc_mismatch != NULL)
    return cordon_run_fail (run, CORDON_FAILURE_HOST, run->facts->proc_mismatch), FALSE;
  if (!found)
    return fail_with (run, CORDON_FAILURE_HOST, error);
  return TRUE;
}

/* A setuid bwrap gives no capability to a caller other than root
 * (--cap-add: "can be used only by root"), and makes the user namespace
 * as root: for such a caller the user namespace is left out (compile
 * says why), and keep= is refused by name. */
static gboolean
adapt_to_setuid_bwrap (CordonRun *run)
{
  GPtrArray *keep = cordon_policy_get_list (run->policy, CORDON_KEY_CAPS_KEEP);
  const CordonItem *item;
  g_autofree char *where = NULL;
  g_autofree char *msg = NULL;

  if (run->facts->uid == 0 || !run->facts->bwrap_setuid)
    return TRUE;
  run->compile_options.share_user = TRUE;
  if (keep->len == 0)
    return TRUE;
  item = g_ptr_array_index (keep, 0);
  where = cordon_location_to_string (&item->loc);
  msg = g_strdup_printf ("%s: [capabilities] keep= cannot be met: a setuid bwrap keeps no "
                         "capability for a caller other than root; drop keep=, or use a bwrap "
                         "without the setuid bit", where);
  return cordon_run_fail (run, CORDON_FAILURE_HOST, msg), FALSE;
}

static gboolean
compile_plan (CordonRun *run)
{
  g_autoptr(GError) error = NULL;

  cordon_stopwatch_begin (&run->report.times, CORDON_PHASE_COMPILE);
  g_clear_pointer (&run->plan, cordon_plan_free);
  g_clear_pointer (&run->argv, cordon_bwrap_argv_free);
  run->plan = cordon_compile_with (run->policy, run->facts, &run->compile_options, &error);
  if (run->plan == NULL)
    return fail_with (run, CORDON_FAILURE_HOST, error);
  run->argv = cordon_render_argv (run->plan);
  cordon_stopwatch_end (&run->report.times, CORDON_PHASE_COMPILE);
  return TRUE;
}

static CordonProbeRequest
probe_request (const CordonRun *run,
               const CordonRunOptions *options)
{
  CordonProbeRequest req = {
    .bwrap_path = run->facts->bwrap_path, .namespaces = run->plan->namespaces, .uid = run->facts->uid,
    .cache_dir = run->facts->cache_dir, .refresh = options != NULL && options->reprobe,
    .switch_identity = run->plan->switch_identity, .host_uid = run->plan->host_uid,
    .host_gid = run->plan->host_gid, .uid_map = run->facts->uid_map,
  };

  /* compile and explain make no directory: they use a cache that is
   * there, or none. */
  if (options == NULL || (options->purpose == CORDON_RUN_SHOW
                          && (run->facts->cache_dir == NULL
                              || !g_file_test (run->facts->cache_dir, G_FILE_TEST_IS_DIR))))
    req.cache_dir = NULL;
  return req;
}

/* --disable-userns, learnt of this bwrap by the probe: the one op it
 * adds, and the argv rendered again (no second compile). */
static void
add_disable_userns (CordonRun *run)
{
  cordon_stopwatch_begin (&run->report.times, CORDON_PHASE_COMPILE);
  cordon_compile_add_disable_userns (run->plan, run->policy);
  g_clear_pointer (&run->argv, cordon_bwrap_argv_free);
  run->argv = cordon_render_argv (run->plan);
  cordon_stopwatch_end (&run->report.times, CORDON_PHASE_COMPILE);
}

/* The probe, and what its answer changes: a fallback of the policy's
 * where a private /proc cannot be mounted (the plan is made again),
 * --disable-userns where this bwrap takes it. */
static gboolean
probe (CordonRun *run,
       const CordonRunOptions *options)
{
  g_autoptr(GError) error = NULL;
  CordonProbeRequest req = probe_request (run, options);
  CordonCompileOptions *co = &run->compile_options;

  if (run->plan->proc_mode != CORDON_PROC_PRIVATE)
    return TRUE;
  cordon_stopwatch_begin (&run->report.times, CORDON_PHASE_PROBE);
  run->probe = cordon_probe_run (&req, &error);
  cordon_stopwatch_end (&run->report.times, CORDON_PHASE_PROBE);
  if (run->probe == NULL)
    return fail_with (run, CORDON_FAILURE_PROBE, error);
  if (run->probe->result == CORDON_PROBE_PROC_MASKED && run->plan->proc_fallback != CORDON_FALLBACK_REFUSE)
    co->proc_fallback = TRUE;
  else if (run->probe->result != CORDON_PROBE_OK)
    return cordon_run_fail (run, CORDON_FAILURE_PROBE, run->probe->detail), FALSE;
  co->disable_userns = run->probe->result == CORDON_PROBE_OK && run->probe->disable_userns;
  if (co->proc_fallback)
    return compile_plan (run);
  if (co->disable_userns)
    add_disable_userns (run);
  return TRUE;
}

/* Now that the writable paths are known, the report's path must not go
 * through anything a sandbox could have left in one (report-target.c). A
 * refused report is not written, like any usage error. */
static gboolean
check_report (CordonRun *run)
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
  return cordon_run_fail (run, error->code == CORDON_ERROR_HOST ? CORDON_FAILURE_HOST : CORDON_FAILURE_USAGE,
                          error->message), FALSE;
}

static gboolean
check_own_dirs (CordonRun *run)
{
  g_autofree char *msg = NULL;

  if (run->plan->unprotected_dir == NULL)
    return TRUE;
  msg = g_strdup_printf ("%s (cordon's own directory) cannot be held read-only under a writable "
                         "bind: it does not exist and could not be made, or it (or a directory "
                         "above it) is a symlink; the sandbox could leave a policy for the next "
                         "run there; keep it out of the writable paths", run->plan->unprotected_dir);
  return cordon_run_fail (run, CORDON_FAILURE_HOST, msg), FALSE;
}

static gboolean
check_launchable (CordonRun *run)
{
  g_autoptr(GError) error = NULL;

  if (!check_own_dirs (run))
    return FALSE;
  if (!cordon_launch_check_bwrap (run->facts->bwrap_path, &error))
    return fail_with (run, CORDON_FAILURE_HOST, error);
  return TRUE;
}

/* compile and explain make cordon's own directories only where the plan
 * must hold them read-only (below a writable bind), as run makes them
 * before it looks at the host: what they print then protects them as
 * run's options do. The host is looked at again, with them there. */
static gboolean
show_own_dirs (CordonRun *run,
               const CordonRunOptions *options)
{
  if (run->plan->unprotected_dir == NULL)
    return TRUE;
  cordon_host_facts_make_own_dirs (run->facts);
  g_clear_pointer (&run->facts, cordon_host_facts_free);
  if (!gather_facts (run, options))
    return FALSE;
  cordon_host_facts_scan_policy (run->facts, run->policy);
  return compile_plan (run) && check_own_dirs (run);
}

/* compile and explain: the probe's answer where it can be had; where it
 * cannot, the plan as the policy has it, and a note of why. */
static gboolean
probe_to_show (CordonRun *run,
               const CordonRunOptions *options)
{
  g_autoptr(GError) error = NULL;

  if (!cordon_launch_check_bwrap (run->facts->bwrap_path, &error))
    run->probe_note = g_strdup (error->message);
  else if (!probe (run, options))
    {
      /* The plan made again with the probe's answer failed: no plan. */
      if (run->plan == NULL)
        return FALSE;
      run->probe_note = g_steal_pointer (&run->failure_message);
      run->failure = CORDON_FAILURE_NONE;
      run->report.failure_reason = NULL;
    }
  return TRUE;
}

/* A memory limit above the host's RAM binds nothing before the host
 * itself runs out: a warning at its rule, told as a diagnostic. */
static void
warn_limits (const CordonRun *run,
             const CordonRunOptions *options)
{
  const CordonLimit *memory = &run->plan->limits[CORDON_LIMIT_MEMORY];
  guint64 ram = run->facts->cgroup.mem_total;
  g_autoptr(CordonDiagnostics) diags = NULL;
  g_autofree char *value = NULL, *total = NULL;

  if (!memory->set || ram == 0 || memory->value <= ram || options->diagnostics == NULL)
    return;
  diags = cordon_diagnostics_new ();
  value = cordon_resource_limits_format_size (memory->value);
  total = g_format_size_full (ram, G_FORMAT_SIZE_IEC_UNITS);
  cordon_diagnostics_add (diags, CORDON_SEVERITY_WARNING, &memory->rule, "[limits] memory=%s is above this "
                          "host's RAM (%s): it binds nothing before the host runs out", value, total);
  options->diagnostics (diags, options->data);
}

/* Policy, host facts, plan, bwrap, helpers and probe: everything before
 * the launch, the degradations named. FALSE after cordon_run_fail. */
gboolean
cordon_run_prepare (CordonRun *run,
                    const CordonRunOptions *options)
{
  /* A root caller's identity is looked up in the user database: its
   * modules are loaded meanwhile, on the other CPU, while the policy is
   * read (host-identity.h). */
  GThread *warming = cordon_host_identity_warm_up ();
  gboolean ok = load_policy (run, options);

  cordon_stopwatch_begin (&run->report.times, CORDON_PHASE_FACTS);
  ok = ok && gather_facts (run, options);
  if (ok)
    cordon_host_facts_scan_policy (run->facts, run->policy);
  cordon_stopwatch_end (&run->report.times, CORDON_PHASE_FACTS);
  if (warming != NULL)
    g_thread_join (warming);
  if (!ok || !adapt_to_setuid_bwrap (run) || !compile_plan (run))
    return FALSE;
  warn_limits (run, options);
  if (options->purpose == CORDON_RUN_SHOW)
    {
      return show_own_dirs (run, options) && probe_to_show (run, options);
    }
  /* The keeper's move will be cheap if one is made now (cgroup-prime.h). */
  cordon_cgroup_prime (run->plan);
  if (!check_report (run) || !check_launchable (run) || !probe (run, options))
    return FALSE;
  {
    g_autoptr(GPtrArray) named = cordon_run_degradations (run->plan, &run->compile_options,
                                                          options->no_verify, options->no_audit,
                                                          options->environ);

    for (guint i = 0; i < named->len; i++)
      {
        if (options->degraded != NULL)
          options->degraded (g_ptr_array_index (named, i), options->data);
        g_ptr_array_add (run->report.degradations, g_strdup (g_ptr_array_index (named, i)));
      }
  }
  tell_allow_env (run, options);
  return TRUE;
}

/* What became of each --allow-env the sandbox does not get: each
 * variable it names that is dropped, and why (the plan's reason: a
 * never-pass name, one that locates a masked socket); or that cordon's
 * environment holds none. Names only, never values. */
GPtrArray *
cordon_run_allow_env_notes (const CordonPlan *plan,
                            const char * const *allow_env)
{
  GPtrArray *notes = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; allow_env != NULL && allow_env[i] != NULL; i++)
    {
      gboolean any = FALSE;

      for (guint j = 0; j < plan->env_decisions->len; j++)
        {
          const CordonEnvDecision *d = g_ptr_array_index (plan->env_decisions, j);

          if (!cordon_glob_match (allow_env[i], d->name))
            continue;
          any = TRUE;
          if (d->set_by_policy)
            g_ptr_array_add (notes, g_strdup_printf ("--allow-env %s: %s is %s, not passed from the caller",
                                                     allow_env[i], d->name, d->reason));
          else if (!d->passed && strcmp (allow_env[i], d->name) == 0)
            g_ptr_array_add (notes, g_strdup_printf ("--allow-env %s: %s", d->name, d->reason));
          else if (!d->passed)
            g_ptr_array_add (notes, g_strdup_printf ("--allow-env %s: %s %s", allow_env[i], d->name, d->reason));
        }
      if (!any)
        g_ptr_array_add (notes, g_strdup_printf ("--allow-env %s: %s", allow_env[i],
                                                 cordon_path_has_glob (allow_env[i])
                                                 ? "no variable of cordon's environment matches it: nothing passed"
                                                 : "not set in cordon's environment: nothing passed"));
    }
  return notes;
}

/* Invariant 8: what weakens the sandbox is named on stderr and in the
 * report, however it was asked for (the policy, an override, a fallback
 * or the host's bwrap), in this order. */
GPtrArray *
cordon_run_degradations (const CordonPlan *plan,
                         const CordonCompileOptions *compile_options,
                         gboolean no_verify,
                         gboolean no_audit,
                         const char * const *environ)
{
  GPtrArray *named = g_ptr_array_new_with_free_func (g_free);
  const struct { gboolean when; const char *what; } rules[] = {
    { plan->proc_mode == CORDON_PROC_HOST_RO, "host /proc" },
    { plan->proc_mode == CORDON_PROC_NONE, "no /proc" },
    { !(plan->namespaces & CORDON_NS_NET), "shared network" },
    { !(plan->namespaces & CORDON_NS_PID), "shared pid namespace" },
    { compile_options->share_user, "no user namespace (setuid bwrap)" },
    { !cordon_plan_has_op (plan, CORDON_OP_DIE_WITH_PARENT), "the sandbox may outlive cordon (die-with-parent=false)" },
    { g_environ_getenv ((char **) environ, "CORDON_EXEC_HELPER") != NULL, "exec helper taken from CORDON_EXEC_HELPER" },
    { g_environ_getenv ((char **) environ, "CORDON_KEEPER_HELPER") != NULL, "keeper taken from CORDON_KEEPER_HELPER" },
    /* Invariant 5: a root caller's sandbox is not host root unless the
     * policy says so. */
    { plan->host_root, "the sandbox runs as host root (host-user=root)" },
    { no_verify, "not verified (--no-verify)" },
    { no_audit && plan->audit, "what the sandbox leaves is not audited after the run (--no-audit)" },
    { plan->seccomp == CORDON_SECCOMP_NONE, "no seccomp filter (profile=none)" },
    { plan->seccomp != CORDON_SECCOMP_NONE && plan->seccomp_allow->len > 0, "seccomp profile with exceptions (allow=)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (rules); i++)
    if (rules[i].when)
      g_ptr_array_add (named, g_strdup (rules[i].what));
  /* enforce=best-effort: each limit the host cannot hold. */
  for (guint i = 0; i < CORDON_LIMIT_MAX; i++)
    if (plan->limits[i].unheld != NULL)
      g_ptr_array_add (named, g_strdup_printf ("no %s limit (%s)", cordon_key_info (plan->limits[i].key)->name,
                                               plan->limits[i].unheld));
  return named;
}

/* "1.5" -> 1500. A timeout shorter than a millisecond is still a
 * timeout, not "none". FALSE for anything but a number of seconds
 * between 0 and a week. */
gboolean
cordon_seconds_to_ms (const char *text,
                      guint64 fallback,
                      guint64 *out_ms)
{
  char *end = NULL;
  double s;

  if (text == NULL)
    {
      *out_ms = fallback;
      return TRUE;
    }
  s = g_ascii_strtod (text, &end);
  if (end == text || *end != '\0' || !(s >= 0) || s > 7 * 24 * 3600)
    return FALSE;
  *out_ms = s > 0 && s * 1000.0 < 1.0 ? 1 : (guint64) (s * 1000.0 + 0.5);
  return TRUE;
}

/* bwrap failed before the command: its own hint often names the wrong
 * cause, so cordon's checks of the host, as the probe makes them, say
 * which it is. */
static int
fail_launch (CordonRun *run)
{
  CordonProbeRequest req = probe_request (run, NULL);
  CordonProbeResult cause;
  g_autofree char *detail = NULL;
  g_autofree char *msg = NULL;

  if (run->result.keyring_errno != 0)
    {
      msg = g_strdup_printf ("the sandbox could not join a fresh session keyring, set "
                             "no_new_privs, its rlimits or its listened seccomp filter: %s",
                             g_strerror (run->result.keyring_errno));
      return cordon_run_fail (run, CORDON_FAILURE_LAUNCH, msg);
    }
  if (run->result.fork_errno != 0)
    {
      msg = g_strdup_printf ("cordon-exec, the sandbox's pid 1, could not fork the command: %s",
                             g_strerror (run->result.fork_errno));
      return cordon_run_fail (run, CORDON_FAILURE_LAUNCH, msg);
    }
  cause = cordon_probe_classify (&req, TRUE);
  if (cause == CORDON_PROBE_NAMESPACES_FAILED)
    return cordon_run_fail (run, CORDON_FAILURE_LAUNCH,
                            "bwrap failed before the command started (its message is above)");
  detail = cordon_probe_describe (cause);
  msg = g_strdup_printf ("bwrap failed before the command started: %s", detail);
  return cordon_run_fail (run, CORDON_FAILURE_HOST, msg);
}

static int
run_result (CordonRun *run)
{
  if (run->result.outcome == CORDON_OUTCOME_VERIFY_FAILED)
    return cordon_run_fail (run, CORDON_FAILURE_VERIFY, "a denial of the policy does not hold in "
                                                        "this sandbox; the command did not run");
  if (run->result.outcome == CORDON_OUTCOME_LAUNCH_FAILED)
    return fail_launch (run);
  return run_finish (run, run->result.exit_status);
}

/* The audit's roots, opened before anything of the sandbox runs: each
 * writable bind of the plan that no other one holds (cordon's own
 * pinned binds are inside those). */
static gboolean
audit_open (CordonRun *run,
            const CordonRunOptions *options)
{
  g_autoptr(GPtrArray) writable = cordon_plan_get_writable (run->plan);

  run->audit_fds = g_array_new (FALSE, FALSE, sizeof (int));
  run->audit_roots = g_ptr_array_new_with_free_func (g_free);
  if (!run->plan->audit || options->no_audit || options->purpose != CORDON_RUN_COMMAND)
    return TRUE;
  for (guint i = 0; g_ptr_array_index (writable, i) != NULL; i++)
    {
      const char *path = g_ptr_array_index (writable, i);
      gboolean inside = FALSE;
      int fd;

      for (guint j = 0; g_ptr_array_index (writable, j) != NULL && !inside; j++)
        inside = j != i && cordon_path_is_ancestor (g_ptr_array_index (writable, j), path, FALSE);
      /* A cache is read by later sandboxes, never run from by the host. */
      if (inside || cordon_plan_is_cache (run->plan, path)
          || g_ptr_array_find_with_equal_func (run->audit_roots, path, g_str_equal, NULL))
        continue;
      if ((fd = open (path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
        {
          g_autofree char *msg = g_strdup_printf ("cannot open the writable path %s for the audit after "
                                                  "the run: %s", path, g_strerror (errno));

          return cordon_run_fail (run, CORDON_FAILURE_HOST, msg), FALSE;
        }
      g_array_append_val (run->audit_fds, fd);
      g_ptr_array_add (run->audit_roots, g_strdup (path));
    }
  clock_gettime (CLOCK_REALTIME_COARSE, &run->audit_since);
  return TRUE;
}

/* Once every process of the sandbox is gone: the walk, each finding
 * told, and under on-finding=fail the run's failure. */
static int
audit_after (CordonRun *run,
             const CordonRunOptions *options)
{
  CordonAuditMode mode = run->plan->audit_mode;

  /* Every run whose command may have started: one that ended on its
   * own, was killed at the timeout or by the memory limit, or was not
   * found (its sandbox ran all the same). */
  if (run->audit_fds->len == 0 || !run->has_result || run->result.outcome == CORDON_OUTCOME_LAUNCH_FAILED
      || run->result.outcome == CORDON_OUTCOME_VERIFY_FAILED || run->result.outcome == CORDON_OUTCOME_VERIFIED)
    return 0;
  run->audited = TRUE;
  cordon_stopwatch_begin (&run->report.times, CORDON_PHASE_AUDIT);
  for (guint i = 0; i < run->audit_fds->len; i++)
    cordon_audit_walk (&run->audit, g_array_index (run->audit_fds, int, i), g_ptr_array_index (run->audit_roots, i),
                       (const char * const *) run->plan->protect_entries, &run->audit_since, run->plan->audit_max,
                       mode == CORDON_AUDIT_QUARANTINE);
  cordon_stopwatch_end (&run->report.times, CORDON_PHASE_AUDIT);
  for (guint i = 0; options->finding != NULL && i < run->audit.findings->len; i++)
    options->finding (g_ptr_array_index (run->audit.findings, i), options->data);
  if (mode == CORDON_AUDIT_FAIL && run->audit.findings->len > 0)
    {
      g_autofree char *msg = g_strdup_printf ("the sandbox left %u finding%s in its writable paths "
                                              "([audit] on-finding=fail)", run->audit.findings->len,
                                              run->audit.findings->len == 1 ? "" : "s");

      return cordon_run_fail (run, CORDON_FAILURE_AUDIT, msg);
    }
  /* Quarantine holds only what it moved: one it could not, or what was
   * not looked at, is the run's failure. */
  if (mode == CORDON_AUDIT_QUARANTINE && run->audit.unheld > 0)
    {
      g_autofree char *msg = g_strdup_printf ("%u finding%s of the audit could not be moved aside, or "
                                              "were not looked at ([audit] on-finding=quarantine)",
                                              run->audit.unheld, run->audit.unheld == 1 ? "" : "s");

      return cordon_run_fail (run, CORDON_FAILURE_AUDIT, msg);
    }
  return 0;
}

/* Launch and supervise a prepared run; its status. */
/* The profile's refusals named (seccomp-notify.h) where the kernel can
 * tell cordon of them; else they are refused as well, unnamed. Not under
 * a deny=seccomp (cordon-exec could load no filter of its own), nor an
 * allow=seccomp (the listened filter refuses the sandbox a listener,
 * which the policy asks for: the plain one does not). */
static gboolean
refusals_named (const CordonPlan *plan)
{
  return plan->seccomp != CORDON_SECCOMP_NONE
         && !g_ptr_array_find_with_equal_func (plan->seccomp_deny, "seccomp", g_str_equal, NULL)
         && !g_ptr_array_find_with_equal_func (plan->seccomp_allow, "seccomp", g_str_equal, NULL)
         && cordon_seccomp_notify_available ();
}

/* The filters' BPF (seccomp-cache.h: made once per profile, kept in
 * cordon's cache directory): bwrap's, and with a listener cordon-exec's
 * two; none without a profile. */
static gboolean
make_filters (CordonRun *run,
              CordonLaunchRequest *req,
              GError **error)
{
  const char *dir = run->facts->cache_dir;
  uid_t uid = run->facts->uid;
  gboolean ok;

  if (run->plan->seccomp == CORDON_SECCOMP_NONE)
    return TRUE;
  cordon_stopwatch_begin (&run->report.times, CORDON_PHASE_SECCOMP);
  req->filter = cordon_seccomp_cache_get (run->plan, req->seccomp_notify ? CORDON_SECCOMP_FILTER_NOTIFY
                                                                         : CORDON_SECCOMP_FILTER_ERRNO,
                                          dir, uid, NULL, error);
  ok = req->filter != NULL;
  if (ok && req->seccomp_notify)
    ok = (req->listened = cordon_seccomp_cache_get (run->plan, CORDON_SECCOMP_FILTER_LISTENED, dir, uid,
                                                    NULL, error)) != NULL
         && (req->plain = cordon_seccomp_cache_get (run->plan, CORDON_SECCOMP_FILTER_ERRNO, dir, uid,
                                                    NULL, error)) != NULL;
  cordon_stopwatch_end (&run->report.times, CORDON_PHASE_SECCOMP);
  return ok;
}

/* What the request holds of its own: the filters and the checks' spec. */
static void
clear_request (CordonLaunchRequest *req)
{
  g_clear_pointer (&req->verify_spec, g_bytes_unref);
  g_clear_pointer (&req->filter, g_bytes_unref);
  g_clear_pointer (&req->listened, g_bytes_unref);
  g_clear_pointer (&req->plain, g_bytes_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CordonLaunchRequest, clear_request)

/* How the run is supervised: its timeout (a check that hangs, such as a
 * reachable socket that never answers, must not hold cordon verify for
 * ever), the pid namespace, the listener, the report's json-glib. */
static CordonSuperviseOptions
supervise_options (CordonRun *run,
                   const CordonRunOptions *options)
{
  gboolean verify_only = options->purpose == CORDON_RUN_VERIFY_ONLY;
  CordonSuperviseOptions sup = {
    .timeout_ms = verify_only ? 60000 : options->timeout_given ? options->timeout_ms : run->plan->timeout * 1000,
    .kill_after_ms = verify_only ? 5000 : options->kill_after_ms,
    .pid_namespace = (run->plan->namespaces & CORDON_NS_PID) != 0,
    .verify_only = verify_only,
    .seccomp_notify = refusals_named (run->plan),
    .denials = &run->seccomp_denials,
    .times = &run->report.times,
    .load_json = run->report_target != NULL,
  };

  return sup;
}

/* What is named and opened before anything of the sandbox runs
 * (invariant 10): the cgroups and their parents (the keeper makes them),
 * the checks to make, and a root caller's trees (the keeper attaches
 * them; a path that cannot be cut is the host's refusal). */
static gboolean
open_before_launch (CordonRun *run,
                    const CordonRunOptions *options,
                    CordonLaunchRequest *req,
                    CordonSuperviseOptions *sup,
                    CordonStageSet *stage,
                    GError **error)
{
  if (!cordon_cgroup_run_open (&run->cgroups, run->plan, &run->facts->cgroup, error))
    return FALSE;
  req->cgroups = &run->cgroups;
  sup->counters = &run->cgroups.stats;
  if (!options->no_verify)
    {
      run->verify = cordon_verify_new (run->plan, run->facts, options->command);
      cordon_verify_add_cgroups (run->verify, &run->cgroups);
      req->verify_spec = cordon_verify_get_spec (run->verify);
      sup->verify = run->verify;
    }
  /* Without verification nothing holds the command back once bwrap is
   * done: a report's json-glib is loaded now (json-writer.h). */
  else if (sup->load_json)
    cordon_json_load (NULL);
  if (run->plan->switch_identity && !cordon_stage_open (run->plan, stage, error))
    return FALSE;
  req->stage = run->plan->switch_identity ? stage : NULL;
  return TRUE;
}

/* The supervised run's outcome: the memory limit's OOM kills named (the
 * kernel picks the largest process: the command, or one of its
 * children), the audit, the status. */
static int
finish_run (CordonRun *run,
            const CordonRunOptions *options)
{
  run->has_result = TRUE;
  if (run->result.outcome == CORDON_OUTCOME_EXITED && run->result.term_signal == SIGKILL
      && run->cgroups.stats.oom_kills > 0)
    run->result.outcome = CORDON_OUTCOME_OOM_KILLED;
  if (audit_after (run, options) != 0)
    return CORDON_EXIT_FAILED;
  return run_result (run);
}

static int
launch (CordonRun *run,
        const CordonRunOptions *options)
{
  g_autoptr(GError) error = NULL;
  g_auto(CordonLaunchRequest) req = { run->facts->bwrap_path, run->facts->keeper_path, run->plan, run->argv,
                                       options->command, NULL, NULL, NULL, FALSE, NULL, NULL, NULL };
  g_auto(CordonStageSet) stage = { NULL, NULL };
  CordonSuperviseOptions sup = supervise_options (run, options);
  CordonLaunch l = { .pid = -1, .keeper_pid = -1, .life_fd = -1, .status_fd = -1, .ready_fd = -1, .go_fd = -1 };

  run->timeout_ms = sup.timeout_ms;
  req.seccomp_notify = sup.seccomp_notify;
  if (!make_filters (run, &req, &error))
    return fail_with (run, CORDON_FAILURE_HOST, error), CORDON_EXIT_FAILED;
  cordon_stopwatch_begin (sup.times, CORDON_PHASE_SPAWN);
  if (!open_before_launch (run, options, &req, &sup, &stage, &error))
    return fail_with (run, CORDON_FAILURE_HOST, error), CORDON_EXIT_FAILED;
  /* Invariant 3: cordon's own /proc entries (environ, fds, memory) stay
   * unreadable to anything running as the same user, the sandbox too. */
  if (prctl (PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
    return cordon_run_fail (run, CORDON_FAILURE_LAUNCH, "cannot make cordon non-dumpable");
  if (!audit_open (run, options))
    return CORDON_EXIT_FAILED;
  if (!cordon_supervisor_prepare (&error) || !cordon_launch_start (&req, &l, &error))
    return fail_with (run, CORDON_FAILURE_LAUNCH, error), CORDON_EXIT_FAILED;
  cordon_stopwatch_hand_over (sup.times, CORDON_PHASE_SPAWN, CORDON_PHASE_BWRAP_SETUP);
  /* The keeper holds the trees now (or has attached them): none stays
   * open here for the whole run. */
  cordon_stage_set_clear (&stage);
  if (!cordon_supervise (&l, &sup, &run->result, &error))
    {
      cordon_cgroup_run_remove (&run->cgroups);
      return fail_with (run, CORDON_FAILURE_LAUNCH, error), CORDON_EXIT_FAILED;
    }
  cordon_cgroup_run_remove (&run->cgroups);
  cordon_stopwatch_end (sup.times, CORDON_PHASE_TEARDOWN);
  return finish_run (run, options);
}

/* What the report names of the invocation before anything else is
 * known: the workdir as given, made absolute (the host facts replace it
 * with its real path), and the command, none for cordon verify. */
static void
record_invocation (CordonRun *run,
                   const CordonRunOptions *options)
{
  static const char * const none[] = { NULL };
  g_autofree char *cwd = g_get_current_dir ();

  g_free (run->report.workdir);
  run->report.workdir = g_canonicalize_filename (options->workdir != NULL ? options->workdir : cwd, cwd);
  g_clear_pointer (&run->report.argv, g_strfreev);
  if (options->purpose == CORDON_RUN_COMMAND)
    run->report.argv = g_strdupv ((char **) (options->command != NULL ? options->command : none));
}

/* The whole run: prepare, launch, supervise, report. Its exit status. */
int
cordon_run_execute (CordonRun *run,
                    const CordonRunOptions *options)
{
  CordonStopwatch *sw = &run->report.times;

  /* From main()'s first line. */
  if (options->began_us > 0)
    {
      cordon_stopwatch_begin_at (sw, CORDON_PHASE_TOTAL, options->began_us);
      cordon_stopwatch_begin_at (sw, CORDON_PHASE_START, options->began_us);
      cordon_stopwatch_end (sw, CORDON_PHASE_START);
    }
  record_invocation (run, options);
  if (options->command == NULL || options->command[0] == NULL)
    return cordon_run_fail (run, CORDON_FAILURE_USAGE, "run: name a command after '--'");
  if (!cordon_run_prepare (run, options))
    return CORDON_EXIT_FAILED;
  return launch (run, options);
}
