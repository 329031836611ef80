/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-verify: the spec cordon hands cordon-exec, and how results are
 * recorded. A check the helper never reports, or one it reports that
 * cordon did not ask for, fails the run. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>

#include "compile.h"
#include "fixture-host.h"
#include "protocol.h"
#include "sha256.h"
#include "spec-codec.h"
#include "verify.h"

static CordonPlan *
plan_of (FixtureHost *host,
         const char *text)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = fixture_load_text (text, diags, NULL);

  assert_non_null (policy);
  return fixture_compile (host, policy, NULL);
}

static char *
spec_text (const CordonVerify *v)
{
  g_autoptr(GBytes) spec = cordon_verify_get_spec (v);

  return g_strndup (g_bytes_get_data (spec, NULL), g_bytes_get_size (spec));
}

static void
test_verify_asks_for_every_mask_and_read_only_place (void **state)
{
  g_autoptr(CordonPlan) plan = plan_of (*state, "[filesystem]\nroot=read-only\n"
                                                "[secrets]\nmask=${HOME}/.netrc;${HOME}/.ssh\n"
                                                "[sockets]\nmask=@docker\n");
  g_autoptr(CordonVerify) v = cordon_verify_new (plan, ((FixtureHost *) *state)->facts, NULL);
  g_autofree char *spec = spec_text (v);

  assert_non_null (strstr (spec, "secret-file\t"));
  assert_non_null (strstr (spec, "\t/home/alice/.netrc\n"));
  assert_non_null (strstr (spec, "secret-dir\t"));
  assert_non_null (strstr (spec, "\t/home/alice/.ssh\n"));
  assert_non_null (strstr (spec, "socket\t"));
  assert_non_null (strstr (spec, "\t/run/docker.sock\n"));
  assert_non_null (strstr (spec, "read-only\t"));
}

static void
test_verify_lists_allowed_names_and_digests_never_values (void **state)
{
  g_autoptr(CordonPlan) plan = plan_of (*state, "[environment]\nallow=PATH\n");
  g_autoptr(CordonVerify) v = cordon_verify_new (plan, ((FixtureHost *) *state)->facts, NULL);
  g_autofree char *spec = spec_text (v);
  g_autofree char *digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, "/evil.so", -1);

  assert_non_null (strstr (spec, "env-allow\tPATH\n"));
  assert_null (strstr (spec, FIXTURE_SECRET_VALUE));
  assert_null (strstr (spec, "/evil.so"));
  /* LD_PRELOAD=/evil.so is dropped and long enough to be searched for. */
  assert_non_null (strstr (spec, digest));
}

static void
test_verify_does_not_search_for_short_or_passed_values (void **state)
{
  g_autoptr(CordonPlan) plan = plan_of (*state, "[environment]\nallow=PATH\n");
  g_autoptr(CordonVerify) v = cordon_verify_new (plan, ((FixtureHost *) *state)->facts, NULL);
  g_autofree char *spec = spec_text (v);
  g_autofree char *hunter2 = g_compute_checksum_for_string (G_CHECKSUM_SHA256, FIXTURE_SECRET_VALUE, -1);

  /* "hunter2" has 7 bytes: not searched (it would match ordinary text). */
  assert_null (strstr (spec, hunter2));
}

static void
test_verify_passes_only_when_every_check_reported_ok (void **state)
{
  g_autoptr(CordonPlan) plan = plan_of (*state, "[secrets]\nmask=${HOME}/.netrc\n");
  g_autoptr(CordonVerify) v = cordon_verify_new (plan, ((FixtureHost *) *state)->facts, NULL);

  for (guint i = 0; i + 1 < cordon_verify_n_checks (v); i++)
    {
      g_autofree char *line = g_strdup_printf ("V\t%s\tok\t0\t", cordon_verify_get_check (v, i)->id);

      assert_true (cordon_verify_record (v, line));
    }
  /* One check never reported: silence proves nothing. */
  assert_false (cordon_verify_passed (v));
  {
    guint last = cordon_verify_n_checks (v) - 1;
    g_autofree char *line = g_strdup_printf ("V\t%s\tok\t0\t", cordon_verify_get_check (v, last)->id);

    assert_true (cordon_verify_record (v, line));
  }
  assert_true (cordon_verify_passed (v));
}

static void
test_verify_keeps_a_failure_even_if_reported_ok_later (void **state)
{
  g_autoptr(CordonPlan) plan = plan_of (*state, "[secrets]\nmask=${HOME}/.netrc\n");
  g_autoptr(CordonVerify) v = cordon_verify_new (plan, ((FixtureHost *) *state)->facts, NULL);
  const CordonCheck *c = cordon_verify_get_check (v, 0);
  g_autofree char *fail = g_strdup_printf ("V\t%s\tfail\t0\treadable", c->id);
  g_autofree char *ok = g_strdup_printf ("V\t%s\tok\t0\t", c->id);

  assert_true (cordon_verify_record (v, fail));
  assert_true (cordon_verify_record (v, ok));
  assert_false (c->ok);
  assert_string_equal (c->detail, "readable");
}

static void
test_verify_refuses_a_result_for_a_check_it_did_not_ask_for (void **state)
{
  g_autoptr(CordonPlan) plan = plan_of (*state, "[secrets]\nmask=${HOME}/.netrc\n");
  g_autoptr(CordonVerify) v = cordon_verify_new (plan, ((FixtureHost *) *state)->facts, NULL);

  assert_false (cordon_verify_record (v, "V\tno-such-check\tok\t0\t"));
  assert_false (cordon_verify_record (v, "garbage"));
}

/* A result line is read field by field, exactly: its word is "V" alone,
 * it has an errno, "ok" is the whole of its third field, and its detail
 * is the rest of the line, tabs and all. */
static void
test_verify_reads_a_result_line_exactly (void **state)
{
  g_autoptr(CordonPlan) plan = plan_of (*state, "[secrets]\nmask=${HOME}/.netrc\n");
  g_autoptr(CordonVerify) v = cordon_verify_new (plan, ((FixtureHost *) *state)->facts, NULL);
  const CordonCheck *c = cordon_verify_get_check (v, 0);
  g_autofree char *no_errno = g_strdup_printf ("V\t%s\tok", c->id);
  g_autofree char *long_word = g_strdup_printf ("VV\t%s\tok\t0\t", c->id);
  g_autofree char *longer = g_strdup_printf ("V\t%sx\tok\t0\t", c->id);
  g_autofree char *okay = g_strdup_printf ("V\t%s\tokay\t13\tsaid\twith a tab", c->id);
  g_autofree char *ok = g_strdup_printf ("V\t%s\tok\t0", c->id);

  assert_false (cordon_verify_record (v, no_errno));
  assert_false (cordon_verify_record (v, long_word));
  assert_false (cordon_verify_record (v, longer));
  assert_false (c->done);
  assert_true (cordon_verify_record (v, okay));
  assert_true (c->done);
  assert_false (c->ok);
  assert_int_equal (c->err, 13);
  assert_string_equal (c->detail, "said\twith a tab");
  g_clear_pointer (&v, cordon_verify_free);
  v = cordon_verify_new (plan, ((FixtureHost *) *state)->facts, NULL);
  c = cordon_verify_get_check (v, 0);
  assert_true (cordon_verify_record (v, ok));
  assert_true (c->ok);
  assert_string_equal (c->detail, "");
}

static void
test_verify_ties_each_mask_check_to_its_rule (void **state)
{
  g_autoptr(CordonPlan) plan = plan_of (*state, "[secrets]\nmask=${HOME}/.netrc\n");
  g_autoptr(CordonVerify) v = cordon_verify_new (plan, ((FixtureHost *) *state)->facts, NULL);

  for (guint i = 0; i < cordon_verify_n_checks (v); i++)
    {
      const CordonCheck *c = cordon_verify_get_check (v, i);

      if (g_str_equal (c->target, "/home/alice/.netrc"))
        {
          assert_int_equal (c->key, CORDON_KEY_SECRETS_MASK);
          assert_int_equal (c->rule.line, 2);
          return;
        }
    }
  fail_msg ("no check for the masked .netrc");
}

static void
test_verify_drops_only_the_probe_of_an_allowed_call (void **state)
{
  g_autoptr(CordonPlan) plan = plan_of (*state, "[seccomp]\nallow=socket\n");
  g_autoptr(CordonVerify) v = cordon_verify_new (plan, ((FixtureHost *) *state)->facts, NULL);
  g_autofree char *spec = spec_text (v);

  assert_non_null (strstr (spec, "seccomp\tseccomp-keyring,"));
  assert_non_null (strstr (spec, "seccomp-io-uring"));
  assert_non_null (strstr (spec, "seccomp-setuid"));
  assert_null (strstr (spec, "seccomp-socket-family"));
}

static void
test_verify_drops_the_setuid_probe_when_fchmod_is_allowed (void **state)
{
  g_autoptr(CordonPlan) plan = plan_of (*state, "[seccomp]\nallow=fchmod\n");
  g_autoptr(CordonVerify) v = cordon_verify_new (plan, ((FixtureHost *) *state)->facts, NULL);
  g_autofree char *spec = spec_text (v);

  assert_non_null (strstr (spec, "seccomp-io-uring"));
  assert_null (strstr (spec, "seccomp-setuid"));
}

static const CordonCheck *
check_of (const CordonVerify *v,
          const char *id)
{
  for (guint i = 0; i < cordon_verify_n_checks (v); i++)
    if (g_str_equal (cordon_verify_get_check (v, i)->id, id))
      return cordon_verify_get_check (v, i);
  return NULL;
}

static void
test_verify_asks_for_a_read_only_proc_sys_inside_and_outside (void **state)
{
  g_autoptr(CordonPlan) plan = plan_of (*state, "[filesystem]\nroot=read-only\n");
  g_autoptr(CordonVerify) v = cordon_verify_new (plan, ((FixtureHost *) *state)->facts, NULL);
  g_autofree char *spec = spec_text (v);

  assert_non_null (strstr (spec, "proc-sys\n"));
  assert_non_null (check_of (v, "proc-sys"));
  assert_non_null (check_of (v, "outside-proc-sys"));
  /* Both name the rule that made /proc private. */
  assert_int_equal (check_of (v, "proc-sys")->key, CORDON_KEY_PROC_MODE);
  assert_int_equal (check_of (v, "outside-proc-sys")->key, CORDON_KEY_PROC_MODE);
}

/* After the probe's fallback to the host /proc, the rule that made it
 * read-only is [proc] fallback=. */
static void
test_verify_names_the_fallback_beside_proc_sys_after_it (void **state)
{
  static const CordonCompileOptions masked = { .proc_fallback = TRUE };
  FixtureHost *host = *state;
  g_autoptr(CordonPolicy) policy = fixture_load_text ("[proc]\nfallback=host-ro\n", NULL, NULL);
  g_autoptr(CordonPlan) plan = NULL;
  g_autoptr(CordonVerify) v = NULL;

  cordon_host_facts_scan_policy (host->facts, policy);
  plan = cordon_compile_with (policy, host->facts, &masked, NULL);
  assert_non_null (plan);
  v = cordon_verify_new (plan, host->facts, NULL);
  assert_int_equal (check_of (v, "proc-sys")->key, CORDON_KEY_PROC_FALLBACK);
  assert_int_equal (check_of (v, "proc-sys")->rule.line, 2);
  assert_int_equal (check_of (v, "outside-proc-sys")->key, CORDON_KEY_PROC_FALLBACK);
}

static void
test_verify_proves_the_scratch_sizes_from_outside (void **state)
{
  g_autoptr(CordonPlan) plan = plan_of (*state, "[filesystem]\nroot=read-only\ntmpfs=/tmp\n"
                                                "[limits]\nscratch=8M\n");
  g_autoptr(CordonPlan) none = plan_of (*state, "[filesystem]\nroot=read-only\ntmpfs=/tmp\n");
  g_autoptr(CordonVerify) v = cordon_verify_new (plan, ((FixtureHost *) *state)->facts, NULL);
  g_autoptr(CordonVerify) w = cordon_verify_new (none, ((FixtureHost *) *state)->facts, NULL);

  assert_non_null (check_of (v, "outside-scratch"));
  assert_int_equal (check_of (v, "outside-scratch")->key, CORDON_KEY_LIMITS_SCRATCH);
  assert_int_equal (check_of (v, "outside-scratch")->rule.line, 5);
  assert_null (check_of (w, "outside-scratch"));
}

static void
test_verify_asks_nothing_of_proc_sys_without_a_proc (void **state)
{
  g_autoptr(CordonPlan) plan = plan_of (*state, "[filesystem]\nroot=read-only\n[proc]\nmode=none\n");
  g_autoptr(CordonVerify) v = cordon_verify_new (plan, ((FixtureHost *) *state)->facts, NULL);
  g_autofree char *spec = spec_text (v);

  assert_null (strstr (spec, "proc-sys"));
  assert_null (check_of (v, "outside-proc-sys"));
}

static void
test_verify_expects_a_root_callers_sandbox_as_its_host_user (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new (0);
  g_autoptr(CordonPlan) plan = NULL;
  g_autoptr(CordonVerify) v = NULL;
  g_autofree char *spec = NULL;
  const CordonCheck *c;
  g_autofree char *real = g_strconcat (host->root, "/srv/closed", NULL);

  fixture_host_add_file (host, "/srv/closed/secret");
  assert_int_equal (chmod (real, 0700), 0);
  plan = plan_of (host, "[filesystem]\nroot=read-only\n[secrets]\nmask=/srv/closed/secret\n");
  v = cordon_verify_new (plan, host->facts, NULL);
  spec = spec_text (v);
  c = check_of (v, "outside-identity");
  assert_non_null (c);
  assert_string_equal (c->expect, "seen from outside: bwrap and the sandbox run as host uid 99999, "
                                  "with no supplementary group; bwrap in a user namespace of root's, "
                                  "the sandbox in its own below it");
  /* The mask left out (out of reach) is proved out of reach instead. */
  assert_non_null (strstr (spec, "unreachable\t"));
  assert_non_null (strstr (spec, "\t/srv/closed/secret\n"));
}

/* The ids of the checks of a fixed id, in the order verify lists them. */
static char *
fixed_ids (const CordonVerify *v)
{
  g_autoptr(GString) ids = g_string_new (NULL);

  for (guint i = 0; i < cordon_verify_n_checks (v); i++)
    {
      const char *id = cordon_verify_get_check (v, i)->id;

      if (!g_ascii_isdigit (id[0]))
        g_string_append_printf (ids, "%s%s", ids->len > 0 ? " " : "", id);
    }
  return g_string_free (g_steal_pointer (&ids), FALSE);
}

static void
test_verify_lists_the_fixed_checks_in_cordon1_order (void **state)
{
  g_autoptr(CordonPlan) plan = plan_of (*state, "[filesystem]\nroot=read-only\n[namespaces]\nunshare=pid\n");
  g_autoptr(CordonVerify) v = cordon_verify_new (plan, ((FixtureHost *) *state)->facts, NULL);
  g_autoptr(CordonPlan) host_ro = plan_of (*state, "[filesystem]\nroot=read-only\n[namespaces]\nunshare=pid\n"
                                                   "[proc]\nmode=host-ro\n");
  g_autoptr(CordonVerify) w = cordon_verify_new (host_ro, ((FixtureHost *) *state)->facts, NULL);
  g_autofree char *ids = fixed_ids (v);
  g_autofree char *host_ids = fixed_ids (w);

  assert_string_equal (ids, "proc-sys seccomp-keyring seccomp-tiocsti seccomp-mount-api seccomp-by-number "
                            "seccomp-clone3 seccomp-userns seccomp-socket-family seccomp-io-uring "
                            "seccomp-setuid environ mount tiocsti keyring dropped-values fds capabilities "
                            "no-new-privs filtered processes outside-environ outside-status outside-namespaces "
                            "outside-fds outside-masks outside-proc-sys outside-identity outside-rlimits");
  /* Under the host's /proc: cordon's own entries, and the processes
   * outside, each checked in its place. */
  assert_non_null (strstr (host_ids, " dropped-values cordon-unreadable fds "));
  assert_non_null (strstr (host_ids, " processes processes-closed outside-environ "));
}

/* Every line of the spec is of a verb cordon-exec knows, with the
 * fields that verb has: one it does not would fail the run. */
static void
test_verify_writes_only_lines_the_helper_reads (void **state)
{
  g_autoptr(CordonPlan) plan = plan_of (*state, "[filesystem]\nroot=read-only\nwritable=${WORKDIR}\n"
                                                "protect=README\nhide=/home/alice/.config\n"
                                                "[proc]\nmode=host-ro\n"
                                                "[secrets]\nmask=${HOME}/.netrc;${HOME}/.ssh\n"
                                                "[sockets]\nmask=@docker\n[environment]\nallow=PATH\n");
  g_autoptr(CordonVerify) v = cordon_verify_new (plan, ((FixtureHost *) *state)->facts, NULL);
  g_autofree char *spec = spec_text (v);
  g_auto(GStrv) lines = g_strsplit (spec, "\n", -1);
  guint seen[CORDON_SPEC_MAX] = { 0 };

  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i], "\t", -1);
      CordonSpecVerb verb = cordon_spec_verb_find (f[0], g_strv_length (f));

      if (verb == CORDON_SPEC_MAX)
        fail_msg ("cordon-exec does not read \"%s\"", lines[i]);
      seen[verb]++;
    }
  /* This plan asks for every verb but the namespaces' (a fixture host
   * has no namespace inode to compare), unreachable paths (not root),
   * pid-namespace (host-ro) and cgroup (a run's: test_verify_checks_
   * each_cgroup_of_the_run). */
  for (guint i = 0; i < CORDON_SPEC_MAX; i++)
    if (i != CORDON_SPEC_NAMESPACE && i != CORDON_SPEC_UNREACHABLE && i != CORDON_SPEC_PID_NAMESPACE
        && i != CORDON_SPEC_CGROUP)
      assert_true (seen[i] > 0);
}

/* A root caller's v1 host (cordon_cgroup_host_find's view): each
 * controller given a parent is writable there. */
static void
host_has_v1 (FixtureHost *host,
             const char * const parents[CORDON_CONTROLLER_MAX])
{
  fixture_host_set_cgroup_v1 (host, parents, TRUE);
}

/* A run's cgroups as cordon_cgroup_run_open makes them, but each
 * parent fd an O_PATH of a directory of the fixture's (the host's
 * cgroups are not the test's to open). */
static void
cgroup_run_of (FixtureHost *host,
               const CordonPlan *plan,
               CordonCgroupRun *run)
{
  run->name = g_strdup ("cordon-42-0123456789abcdef");
  run->dirs = plan->cgroup_dirs;
  run->parent_fds = g_array_new (FALSE, FALSE, sizeof (int));
  cordon_cgroup_stats_init (&run->stats);
  for (guint i = 0; i < plan->cgroup_dirs->len; i++)
    {
      g_autofree char *dir = g_strdup_printf ("/cgroup-parent-%u", i);
      g_autofree char *real = g_strconcat (host->root, dir, NULL);
      int fd;

      fixture_host_add_dir (host, dir);
      fd = open (real, O_PATH | O_DIRECTORY | O_CLOEXEC);
      assert_true (fd >= 0);
      g_array_append_val (run->parent_fds, fd);
    }
}

/* One cgroup line per cgroup of the run, each one cordon-exec reads
 * (5 fields: a parent with a tab in its name is encoded), naming the
 * leaf, its parent and the first limit file; a check each, tied to
 * that limit's rule; and outside-cgroup, tied to the first limit's. */
static void
test_verify_checks_each_cgroup_of_the_run (void **state)
{
  static const char * const parents[CORDON_CONTROLLER_MAX] = {
    "/sys/fs/cgroup/memory/my\tjob", "/sys/fs/cgroup/pids/job", "/sys/fs/cgroup/cpu/job", NULL,
  };
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;
  g_autoptr(CordonVerify) v = NULL;
  CordonCgroupRun run = { 0 };
  g_autofree char *spec = NULL;
  g_auto(GStrv) lines = NULL;
  static const struct { CordonKey key; guint line; const char *file; } want[] = {
    { CORDON_KEY_LIMITS_MEMORY, 6, "memory.limit_in_bytes" },
    { CORDON_KEY_LIMITS_PIDS, 8, "pids.max" },
    { CORDON_KEY_LIMITS_CPU, 7, "cpu.cfs_period_us" },
  };
  guint n = 0;
  const CordonCheck *outside;

  host_has_v1 (host, parents);
  plan = plan_of (host, "[filesystem]\nroot=read-only\n[namespaces]\nunshare=user;pid\n"
                        "[limits]\nmemory=256M\ncpu=50%\npids=100\n");
  assert_non_null (plan);
  assert_int_equal (plan->cgroup_dirs->len, G_N_ELEMENTS (want));
  cgroup_run_of (host, plan, &run);
  v = cordon_verify_new (plan, host->facts, NULL);
  cordon_verify_add_cgroups (v, &run);
  spec = spec_text (v);
  lines = g_strsplit (spec, "\n", -1);
  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i], "\t", -1);
      CordonSpecVerb verb = cordon_spec_verb_find (f[0], g_strv_length (f));
      g_autofree char *leaf = NULL;
      const CordonCheck *c;

      if (verb == CORDON_SPEC_MAX)
        fail_msg ("cordon-exec does not read \"%s\"", lines[i]);
      if (verb != CORDON_SPEC_CGROUP)
        continue;
      assert_true (n < G_N_ELEMENTS (want));
      for (guint k = 2; f[k] != NULL; k++)
        cordon_spec_decode (f[k]);
      leaf = g_build_filename (parents[n], run.name, NULL);
      assert_string_equal (f[2], leaf);
      assert_string_equal (f[3], parents[n]);
      assert_string_equal (f[4], want[n].file);
      c = check_of (v, f[1]);
      assert_non_null (c);
      assert_string_equal (c->target, leaf);
      assert_int_equal (c->key, want[n].key);
      assert_int_equal (c->rule.line, want[n].line);
      n++;
    }
  assert_int_equal (n, G_N_ELEMENTS (want));
  outside = check_of (v, "outside-cgroup");
  assert_non_null (outside);
  assert_int_equal (outside->key, CORDON_KEY_LIMITS_MEMORY);
  assert_int_equal (outside->rule.line, 6);
  cordon_cgroup_run_clear (&run);
}

/* A run without cgroups asks nothing of them. */
static void
test_verify_asks_nothing_of_cgroups_a_run_has_none_of (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = plan_of (host, "[filesystem]\nroot=read-only\n");
  g_autoptr(CordonVerify) v = NULL;
  CordonCgroupRun run = { 0 };
  g_autofree char *spec = NULL;

  assert_non_null (plan);
  cgroup_run_of (host, plan, &run);
  v = cordon_verify_new (plan, host->facts, NULL);
  cordon_verify_add_cgroups (v, &run);
  spec = spec_text (v);
  assert_false (g_str_has_prefix (spec, "cgroup\t"));
  assert_null (strstr (spec, "\ncgroup\t"));
  assert_null (check_of (v, "outside-cgroup"));
  cordon_cgroup_run_clear (&run);
}

static void
test_sha256_of_the_helper_matches_glib (void **state)
{
  static const char * const inputs[] = {
    "", "abc", "a value of fifty-six bytes, to cross one padding edge!!",
    "0123456789012345678901234567890123456789012345678901234567890123456789", NULL
  };

  for (guint i = 0; inputs[i] != NULL; i++)
    {
      char mine[65];
      g_autofree char *theirs = g_compute_checksum_for_string (G_CHECKSUM_SHA256, inputs[i], -1);

      cordon_sha256_hex (inputs[i], strlen (inputs[i]), mine);
      assert_string_equal (mine, theirs);
    }
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown (f, fixture_host_setup, fixture_host_teardown)
    T (test_verify_asks_for_every_mask_and_read_only_place),
    T (test_verify_lists_the_fixed_checks_in_cordon1_order),
    T (test_verify_writes_only_lines_the_helper_reads),
    T (test_verify_lists_allowed_names_and_digests_never_values),
    T (test_verify_does_not_search_for_short_or_passed_values),
    T (test_verify_passes_only_when_every_check_reported_ok),
    T (test_verify_keeps_a_failure_even_if_reported_ok_later),
    T (test_verify_reads_a_result_line_exactly),
    T (test_verify_refuses_a_result_for_a_check_it_did_not_ask_for),
    T (test_verify_ties_each_mask_check_to_its_rule),
    T (test_verify_drops_only_the_probe_of_an_allowed_call),
    T (test_verify_drops_the_setuid_probe_when_fchmod_is_allowed),
    T (test_verify_asks_for_a_read_only_proc_sys_inside_and_outside),
    T (test_verify_names_the_fallback_beside_proc_sys_after_it),
    T (test_verify_proves_the_scratch_sizes_from_outside),
    T (test_verify_asks_nothing_of_proc_sys_without_a_proc),
    T (test_verify_expects_a_root_callers_sandbox_as_its_host_user),
    T (test_verify_checks_each_cgroup_of_the_run),
    T (test_verify_asks_nothing_of_cgroups_a_run_has_none_of),
    cmocka_unit_test (test_sha256_of_the_helper_matches_glib),
#undef T
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
