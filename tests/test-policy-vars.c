/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-policy-vars: ${VARIABLE} references. Parse validates them (a typo
 * such as ${HOEM} must be an error at its offset, not a literal path that
 * binds nothing) and compile expands them from host facts; a variable the
 * host lacks must be named, not expanded to an empty string that would
 * turn "${XDG_RUNTIME_DIR}/bus" into "/bus". */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>
#include <glib.h>

#include "policy-vars.h"

static const CordonVars host_vars = { {
  [CORDON_VAR_HOME] = "/home/alice",
  [CORDON_VAR_UID] = "1000",
  [CORDON_VAR_XDG_RUNTIME_DIR] = "/run/user/1000",
  [CORDON_VAR_WORKDIR] = "/home/alice/work",
  [CORDON_VAR_TMPDIR] = "/tmp",
} };

/* --- names -------------------------------------------------------------- */

static void
test_var_name_spells_each_variable (void **state)
{
  assert_string_equal (cordon_var_name (CORDON_VAR_HOME), "HOME");
  assert_string_equal (cordon_var_name (CORDON_VAR_UID), "UID");
  assert_string_equal (cordon_var_name (CORDON_VAR_XDG_RUNTIME_DIR), "XDG_RUNTIME_DIR");
  assert_string_equal (cordon_var_name (CORDON_VAR_WORKDIR), "WORKDIR");
  assert_string_equal (cordon_var_name (CORDON_VAR_TMPDIR), "TMPDIR");
}

/* --- validate ----------------------------------------------------------- */

static void
test_validate_accepts_known_variables (void **state)
{
  gsize offset = 99;
  char *message = NULL;

  assert_true (cordon_vars_validate ("${HOME}/a/${UID}-${TMPDIR}", &offset, &message));
  assert_null (message);
  assert_int_equal (offset, 99);
}

static void
test_validate_accepts_double_dollar_as_literal (void **state)
{
  assert_true (cordon_vars_validate ("/a$$b/$$", NULL, NULL));
}

static void
test_validate_accepts_text_without_dollar (void **state)
{
  assert_true (cordon_vars_validate ("/usr/share/{x}", NULL, NULL));
}

static void
test_validate_reports_unknown_variable_at_its_dollar (void **state)
{
  gsize offset = 99;
  g_autofree char *message = NULL;

  assert_false (cordon_vars_validate ("/data/${HOEM}/x", &offset, &message));
  assert_int_equal (offset, 6);
  assert_non_null (strstr (message, "unknown variable '${HOEM}'"));
  assert_non_null (strstr (message, "${HOME}"));
}

static void
test_validate_reports_unknown_variable_after_a_known_one (void **state)
{
  gsize offset = 99;
  g_autofree char *message = NULL;

  assert_false (cordon_vars_validate ("${HOME}/${uid}", &offset, &message));
  assert_int_equal (offset, 8);
  assert_non_null (strstr (message, "unknown variable '${uid}'"));
}

static void
test_validate_reports_empty_variable_name (void **state)
{
  gsize offset = 99;
  g_autofree char *message = NULL;

  assert_false (cordon_vars_validate ("/x${}", &offset, &message));
  assert_int_equal (offset, 2);
  assert_non_null (strstr (message, "unknown variable '${}'"));
}

static void
test_validate_reports_unterminated_reference (void **state)
{
  gsize offset = 99;
  g_autofree char *message = NULL;

  assert_false (cordon_vars_validate ("/a/${HOME", &offset, &message));
  assert_int_equal (offset, 3);
  assert_string_equal (message, "unterminated '${'");
}

static void
test_validate_reports_lone_dollar (void **state)
{
  gsize offset = 99;
  g_autofree char *message = NULL;

  assert_false (cordon_vars_validate ("/a$b", &offset, &message));
  assert_int_equal (offset, 2);
  assert_string_equal (message, "'$' must start a ${VARIABLE}; write '$$' for a literal '$'");
}

static void
test_validate_reports_lone_dollar_at_the_end (void **state)
{
  gsize offset = 99;
  g_autofree char *message = NULL;

  assert_false (cordon_vars_validate ("/a$", &offset, &message));
  assert_int_equal (offset, 2);
  assert_non_null (strstr (message, "write '$$' for a literal '$'"));
}

static void
test_validate_reports_dollar_after_a_literal_dollar (void **state)
{
  gsize offset = 99;
  g_autofree char *message = NULL;

  assert_false (cordon_vars_validate ("$$$x", &offset, &message));
  assert_int_equal (offset, 2);
  assert_non_null (message);
}

/* --- starts_with_var ---------------------------------------------------- */

static void
test_starts_with_var_accepts_path_variables (void **state)
{
  assert_true (cordon_vars_starts_with_var ("${HOME}/x"));
  assert_true (cordon_vars_starts_with_var ("${XDG_RUNTIME_DIR}"));
  assert_true (cordon_vars_starts_with_var ("${WORKDIR}"));
  assert_true (cordon_vars_starts_with_var ("${TMPDIR}/y"));
}

/* ${UID} is a number: "${UID}/x" is a relative path. */
static void
test_starts_with_var_rejects_uid (void **state)
{
  assert_false (cordon_vars_starts_with_var ("${UID}/x"));
}

static void
test_starts_with_var_rejects_text_not_starting_with_a_variable (void **state)
{
  assert_false (cordon_vars_starts_with_var ("/x/${HOME}"));
  assert_false (cordon_vars_starts_with_var ("$$/x"));
  assert_false (cordon_vars_starts_with_var ("${HOEM}/x"));
  assert_false (cordon_vars_starts_with_var ("${HOME"));
}

/* --- expand ------------------------------------------------------------- */

static void
test_expand_replaces_each_variable (void **state)
{
  g_autofree char *out = cordon_vars_expand ("${HOME}/.cache/${UID}", &host_vars, NULL);

  assert_string_equal (out, "/home/alice/.cache/1000");
}

static void
test_expand_turns_double_dollar_into_one (void **state)
{
  g_autofree char *out = cordon_vars_expand ("/a$$b$$${UID}", &host_vars, NULL);

  assert_string_equal (out, "/a$b$1000");
}

static void
test_expand_does_not_expand_values_again (void **state)
{
  CordonVars vars = host_vars;
  g_autofree char *out = NULL;

  vars.values[CORDON_VAR_HOME] = "/home/${UID}";
  out = cordon_vars_expand ("${HOME}/x", &vars, NULL);
  assert_string_equal (out, "/home/${UID}/x");
}

static void
test_expand_names_the_missing_variable (void **state)
{
  CordonVars vars = host_vars;
  const char *missing = NULL;
  g_autofree char *out = NULL;

  vars.values[CORDON_VAR_XDG_RUNTIME_DIR] = NULL;
  out = cordon_vars_expand ("${HOME}/a:${XDG_RUNTIME_DIR}/bus", &vars, &missing);
  assert_null (out);
  assert_string_equal (missing, "XDG_RUNTIME_DIR");
}

static void
test_expand_leaves_missing_unset_on_success (void **state)
{
  const char *missing = "untouched";
  g_autofree char *out = cordon_vars_expand ("${WORKDIR}", &host_vars, &missing);

  assert_string_equal (out, "/home/alice/work");
  assert_string_equal (missing, "untouched");
}

static void
test_expand_refuses_an_unknown_variable (void **state)
{
  const char *missing = NULL;
  g_autofree char *out = cordon_vars_expand ("/x/${HOEM}", &host_vars, &missing);

  assert_null (out);
  assert_string_equal (missing, "?");
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_var_name_spells_each_variable),
    cmocka_unit_test (test_validate_accepts_known_variables),
    cmocka_unit_test (test_validate_accepts_double_dollar_as_literal),
    cmocka_unit_test (test_validate_accepts_text_without_dollar),
    cmocka_unit_test (test_validate_reports_unknown_variable_at_its_dollar),
    cmocka_unit_test (test_validate_reports_unknown_variable_after_a_known_one),
    cmocka_unit_test (test_validate_reports_empty_variable_name),
    cmocka_unit_test (test_validate_reports_unterminated_reference),
    cmocka_unit_test (test_validate_reports_lone_dollar),
    cmocka_unit_test (test_validate_reports_lone_dollar_at_the_end),
    cmocka_unit_test (test_validate_reports_dollar_after_a_literal_dollar),
    cmocka_unit_test (test_starts_with_var_accepts_path_variables),
    cmocka_unit_test (test_starts_with_var_rejects_uid),
    cmocka_unit_test (test_starts_with_var_rejects_text_not_starting_with_a_variable),
    cmocka_unit_test (test_expand_replaces_each_variable),
    cmocka_unit_test (test_expand_turns_double_dollar_into_one),
    cmocka_unit_test (test_expand_does_not_expand_values_again),
    cmocka_unit_test (test_expand_names_the_missing_variable),
    cmocka_unit_test (test_expand_leaves_missing_unset_on_success),
    cmocka_unit_test (test_expand_refuses_an_unknown_variable),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
