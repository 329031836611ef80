/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-golden: each shipped policy (the set embedded in the binary),
 * compiled against the fixture host as uid 1000, must render exactly the
 * shell form and the explain text held in tests/data/golden/<policy>.shell
 * and <policy>.explain; trial also as uid 0, in trial-root.*. Each is
 * compiled as cordon run compiles it after the probe (the helper bound,
 * --disable-userns taken), so the files hold all bwrap receives.
 * Compile and render are pure (STYLE rule 6), so any
 * change in these files is a change in what cordon does: review it.
 *
 * To rewrite the files after an intended change, run
 *   CORDON_UPDATE_GOLDEN=1 make check TESTS=tests/test-golden
 * (they are written under $CORDON_SRCDIR, the source tree, not the build
 * tree), then read the diff line by line before committing it.
 *
 * The files are found through $CORDON_SRCDIR, which the Makefile exports,
 * so the test works in a VPATH build and under distcheck. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "compile.h"
#include "fixture-host.h"
#include "plan.h"
#include "render.h"

typedef enum { FORM_SHELL, FORM_EXPLAIN } Form;

#define GOLDEN_HELPER "/usr/libexec/cordon/cordon-exec"
static const CordonCompileOptions probed = { .disable_userns = TRUE };

static char *
render (FixtureHost *host,
        const char *name,
        Form form)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = fixture_load_embedded (name, diags, &error);
  g_autoptr(CordonPlan) plan = NULL;
  g_autoptr(CordonBwrapArgv) argv = NULL;

  if (policy == NULL)
    fail_msg ("%s did not load: %s", name, error->message);
  assert_int_equal (cordon_diagnostics_count (diags, CORDON_SEVERITY_ERROR), 0);
  /* As cordon run has it after the probe: the helper beside cordon, a
   * bwrap that takes --disable-userns. */
  fixture_host_add_file (host, GOLDEN_HELPER);
  g_free (host->facts->helper_path);
  host->facts->helper_path = g_strdup (GOLDEN_HELPER);
  cordon_host_facts_scan_policy (host->facts, policy);
  plan = cordon_compile_with (policy, host->facts, &probed, &error);
  if (plan == NULL)
    fail_msg ("%s did not compile: %s", name, error->message);
  argv = cordon_render_argv (plan);
  if (form == FORM_SHELL)
    {
      g_autofree char *filter = g_strdup_printf ("cordon compile %s --format=seccomp", name);

      return cordon_render_shell (plan, argv, host->facts->bwrap_path, filter, NULL);
    }
  return cordon_render_explain (plan, argv);
}

/* Prints the first line where the two differ, which is all a reader of
 * the test log needs to find the change. */
static void
report_difference (const char *file,
                   const char *expected,
                   const char *actual)
{
  g_auto(GStrv) e = g_strsplit (expected, "\n", -1);
  g_auto(GStrv) a = g_strsplit (actual, "\n", -1);
  guint i = 0;

  while (e[i] != NULL && a[i] != NULL && g_str_equal (e[i], a[i]))
    i++;
  fail_msg ("%s differs at line %u:\n  expected: %s\n  actual:   %s\n"
            "(CORDON_UPDATE_GOLDEN=1 rewrites it; review the diff)",
            file, i + 1, e[i] != NULL ? e[i] : "<end of file>",
            a[i] != NULL ? a[i] : "<end of output>");
}

/* `file` is the golden file's name without its extension: the policy's
 * name, or another for the same policy compiled for another caller. */
static void
check_golden_as (FixtureHost *host,
                 const char *name,
                 const char *file_name,
                 Form form)
{
  g_autofree char *actual = render (host, name, form);
  g_autofree char *base = g_strconcat (file_name, form == FORM_SHELL ? ".shell" : ".explain", NULL);
  g_autofree char *relative = g_build_filename ("tests", "data", "golden", base, NULL);
  g_autofree char *file = fixture_srcdir_path (relative);
  g_autofree char *expected = NULL;
  g_autoptr(GError) error = NULL;

  /* Paths are the host's as the sandbox sees them: the fixture's
   * temporary root must never show through. */
  assert_null (strstr (actual, host->root));
  assert_null (strstr (actual, FIXTURE_SECRET_VALUE));
  if (g_strcmp0 (g_getenv ("CORDON_UPDATE_GOLDEN"), "1") == 0)
    {
      if (!g_file_set_contents (file, actual, -1, &error))
        fail_msg ("cannot write %s: %s", file, error->message);
      print_message ("# rewrote %s\n", file);
      return;
    }
  if (!g_file_get_contents (file, &expected, NULL, &error))
    fail_msg ("cannot read %s: %s (is CORDON_SRCDIR set?)", file, error->message);
  if (!g_str_equal (expected, actual))
    report_difference (file, expected, actual);
}

static void
check_golden (FixtureHost *host,
              const char *name,
              Form form)
{
  check_golden_as (host, name, name, form);
}

static void
test_golden_trial_renders_its_shell_form (void **state)
{
  check_golden (*state, "trial", FORM_SHELL);
}

static void
test_golden_trial_renders_its_explanation (void **state)
{
  check_golden (*state, "trial", FORM_EXPLAIN);
}

static void
test_golden_desktop_readonly_home_renders_its_shell_form (void **state)
{
  check_golden (*state, "desktop-readonly-home", FORM_SHELL);
}

static void
test_golden_desktop_readonly_home_renders_its_explanation (void **state)
{
  check_golden (*state, "desktop-readonly-home", FORM_EXPLAIN);
}

static void
test_golden_minimal_renders_its_shell_form (void **state)
{
  check_golden (*state, "minimal", FORM_SHELL);
}

static void
test_golden_minimal_renders_its_explanation (void **state)
{
  check_golden (*state, "minimal", FORM_EXPLAIN);
}

/* trial for a root caller: its sandbox runs as the dedicated host user,
 * the workdir idmapped (see identity.c). */
static void
test_golden_trial_for_root_renders_its_shell_form (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new (0);

  check_golden_as (host, "trial", "trial-root", FORM_SHELL);
}

static void
test_golden_trial_for_root_renders_its_explanation (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new (0);

  check_golden_as (host, "trial", "trial-root", FORM_EXPLAIN);
}

#define T(f) cmocka_unit_test_setup_teardown (f, fixture_host_setup, fixture_host_teardown)

int
main (void)
{
  const struct CMUnitTest tests[] = {
    T (test_golden_trial_renders_its_shell_form),
    T (test_golden_trial_renders_its_explanation),
    T (test_golden_desktop_readonly_home_renders_its_shell_form),
    T (test_golden_desktop_readonly_home_renders_its_explanation),
    T (test_golden_minimal_renders_its_shell_form),
    T (test_golden_minimal_renders_its_explanation),
    T (test_golden_trial_for_root_renders_its_shell_form),
    T (test_golden_trial_for_root_renders_its_explanation),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
