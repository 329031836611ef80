/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-env-filter: environment names, allow= patterns and the never-pass
 * set. A never-pass variable that slips through (LD_PRELOAD, BASH_ENV,
 * GIT_SSH_COMMAND) runs code of the caller's choosing inside the sandbox,
 * so membership and the overlap test are checked name by name. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <glib.h>

#include "env-filter.h"

/* --- names -------------------------------------------------------------- */

static void
test_env_name_accepts_letters_digits_and_underscore (void **state)
{
  assert_true (cordon_env_name_is_valid ("HOME"));
  assert_true (cordon_env_name_is_valid ("_x1"));
  assert_true (cordon_env_name_is_valid ("XDG_RUNTIME_DIR"));
}

static void
test_env_name_rejects_a_leading_digit (void **state)
{
  assert_false (cordon_env_name_is_valid ("1X"));
}

static void
test_env_name_rejects_the_empty_name (void **state)
{
  assert_false (cordon_env_name_is_valid (""));
}

static void
test_env_name_rejects_punctuation (void **state)
{
  assert_false (cordon_env_name_is_valid ("A-B"));
  assert_false (cordon_env_name_is_valid ("A=B"));
  assert_false (cordon_env_name_is_valid ("A B"));
}

static void
test_env_name_rejects_glob_characters (void **state)
{
  assert_false (cordon_env_name_is_valid ("LC_*"));
}

static void
test_env_name_rejects_non_ascii (void **state)
{
  assert_false (cordon_env_name_is_valid ("CAF\xc3\xa9"));
}

/* --- patterns ----------------------------------------------------------- */

static void
test_env_pattern_accepts_names_and_globs (void **state)
{
  assert_true (cordon_env_pattern_is_valid ("TERM"));
  assert_true (cordon_env_pattern_is_valid ("LC_*"));
  assert_true (cordon_env_pattern_is_valid ("A?B"));
  assert_true (cordon_env_pattern_is_valid ("*"));
}

static void
test_env_pattern_rejects_the_empty_pattern (void **state)
{
  assert_false (cordon_env_pattern_is_valid (""));
}

static void
test_env_pattern_rejects_classes_and_punctuation (void **state)
{
  assert_false (cordon_env_pattern_is_valid ("A[BC]"));
  assert_false (cordon_env_pattern_is_valid ("FOO-*"));
  assert_false (cordon_env_pattern_is_valid ("A=B"));
}

/* --- never-pass membership ---------------------------------------------- */

static void
test_never_pass_holds_ld_preload (void **state)
{
  assert_true (cordon_env_is_never_pass ("LD_PRELOAD"));
  assert_true (cordon_env_is_never_pass ("LD_LIBRARY_PATH"));
  assert_true (cordon_env_is_never_pass ("LD_AUDIT"));
}

static void
test_never_pass_holds_bash_env (void **state)
{
  assert_true (cordon_env_is_never_pass ("BASH_ENV"));
}

static void
test_never_pass_holds_exported_bash_functions (void **state)
{
  assert_true (cordon_env_is_never_pass ("BASH_FUNC_ls%%"));
}

static void
test_never_pass_holds_git_ssh_command (void **state)
{
  assert_true (cordon_env_is_never_pass ("GIT_SSH_COMMAND"));
}

static void
test_never_pass_holds_git_config_count (void **state)
{
  assert_true (cordon_env_is_never_pass ("GIT_CONFIG_COUNT"));
  assert_true (cordon_env_is_never_pass ("GIT_CONFIG_KEY_0"));
}

static void
test_never_pass_holds_git_config_file_and_command_hooks (void **state)
{
  assert_true (cordon_env_is_never_pass ("GIT_CONFIG"));
  assert_true (cordon_env_is_never_pass ("GIT_PROXY_COMMAND"));
  assert_true (cordon_env_is_never_pass ("GIT_EXTERNAL_DIFF"));
  assert_false (cordon_env_is_never_pass ("GIT_AUTHOR_NAME"));
}

static void
test_never_pass_holds_glibc_tunables (void **state)
{
  assert_true (cordon_env_is_never_pass ("GLIBC_TUNABLES"));
}

static void
test_never_pass_leaves_ordinary_variables (void **state)
{
  assert_false (cordon_env_is_never_pass ("HOME"));
  assert_false (cordon_env_is_never_pass ("PATH"));
  assert_false (cordon_env_is_never_pass ("LANG"));
  assert_false (cordon_env_is_never_pass ("LC_ALL"));
  assert_false (cordon_env_is_never_pass ("TERM"));
}

static void
test_never_pass_matches_whole_names_only (void **state)
{
  assert_false (cordon_env_is_never_pass ("LD"));
  assert_false (cordon_env_is_never_pass ("BASH_ENVX"));
  assert_false (cordon_env_is_never_pass ("MY_LD_PRELOAD"));
}

static void
test_never_pass_list_entries_are_valid_patterns (void **state)
{
  const char * const *list = cordon_env_never_pass_list ();
  guint n = 0;

  for (; list[n] != NULL; n++)
    if (!cordon_env_pattern_is_valid (list[n]))
      fail_msg ("never-pass entry '%s' is not a valid pattern", list[n]);
  assert_true (n >= 30);
}

/* --- overlap with an allow= pattern ------------------------------------- */

static void
test_overlap_names_the_entry_a_literal_matches (void **state)
{
  assert_string_equal (cordon_env_never_pass_overlap ("LD_PRELOAD"), "LD_*");
  assert_string_equal (cordon_env_never_pass_overlap ("BASH_ENV"), "BASH_ENV");
}

static void
test_overlap_finds_a_glob_that_contains_a_never_pass_glob (void **state)
{
  assert_string_equal (cordon_env_never_pass_overlap ("L*"), "LD_*");
}

static void
test_overlap_finds_a_glob_that_matches_a_literal_entry (void **state)
{
  assert_string_equal (cordon_env_never_pass_overlap ("PYTHON*"), "PYTHONSTARTUP");
  assert_string_equal (cordon_env_never_pass_overlap ("GIT_SSH?COMMAND"), "GIT_SSH_COMMAND");
}

static void
test_overlap_finds_the_catch_all_glob (void **state)
{
  /* The first never-pass pattern each overlaps. */
  assert_string_equal (cordon_env_never_pass_overlap ("*"), "LD_*");
  assert_string_equal (cordon_env_never_pass_overlap ("?D_PRELOAD"), "LD_*");
}

static void
test_overlap_leaves_lc_glob_alone (void **state)
{
  assert_null (cordon_env_never_pass_overlap ("LC_*"));
}

static void
test_overlap_leaves_ordinary_names_alone (void **state)
{
  assert_null (cordon_env_never_pass_overlap ("HOME"));
  assert_null (cordon_env_never_pass_overlap ("TERM"));
  assert_null (cordon_env_never_pass_overlap ("XDG_*"));
}

static void
test_overlap_covers_every_never_pass_entry (void **state)
{
  const char * const *list = cordon_env_never_pass_list ();

  for (guint i = 0; list[i] != NULL; i++)
    if (cordon_env_never_pass_overlap (list[i]) == NULL)
      fail_msg ("allowing '%s' is not reported", list[i]);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_env_name_accepts_letters_digits_and_underscore),
    cmocka_unit_test (test_env_name_rejects_a_leading_digit),
    cmocka_unit_test (test_env_name_rejects_the_empty_name),
    cmocka_unit_test (test_env_name_rejects_punctuation),
    cmocka_unit_test (test_env_name_rejects_glob_characters),
    cmocka_unit_test (test_env_name_rejects_non_ascii),
    cmocka_unit_test (test_env_pattern_accepts_names_and_globs),
    cmocka_unit_test (test_env_pattern_rejects_the_empty_pattern),
    cmocka_unit_test (test_env_pattern_rejects_classes_and_punctuation),
    cmocka_unit_test (test_never_pass_holds_ld_preload),
    cmocka_unit_test (test_never_pass_holds_bash_env),
    cmocka_unit_test (test_never_pass_holds_exported_bash_functions),
    cmocka_unit_test (test_never_pass_holds_git_ssh_command),
    cmocka_unit_test (test_never_pass_holds_git_config_count),
    cmocka_unit_test (test_never_pass_holds_git_config_file_and_command_hooks),
    cmocka_unit_test (test_never_pass_holds_glibc_tunables),
    cmocka_unit_test (test_never_pass_leaves_ordinary_variables),
    cmocka_unit_test (test_never_pass_matches_whole_names_only),
    cmocka_unit_test (test_never_pass_list_entries_are_valid_patterns),
    cmocka_unit_test (test_overlap_names_the_entry_a_literal_matches),
    cmocka_unit_test (test_overlap_finds_a_glob_that_contains_a_never_pass_glob),
    cmocka_unit_test (test_overlap_finds_a_glob_that_matches_a_literal_entry),
    cmocka_unit_test (test_overlap_finds_the_catch_all_glob),
    cmocka_unit_test (test_overlap_leaves_lc_glob_alone),
    cmocka_unit_test (test_overlap_leaves_ordinary_names_alone),
    cmocka_unit_test (test_overlap_covers_every_never_pass_entry),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
