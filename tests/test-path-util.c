/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-path-util: the pure path and glob helpers. The checker decides
 * whether a mask hides a writable path with is_ancestor and glob_match, and
 * the renderer prints what shell_quote returns, so an off-by-one here is a
 * missed warning or a command line that runs something else. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fnmatch.h>

#include <glib.h>

#include "path-util.h"

/* --- has_dotdot --------------------------------------------------------- */

static void
test_has_dotdot_finds_a_dotdot_component (void **state)
{
  assert_true (cordon_path_has_dotdot ("/a/../b"));
}

static void
test_has_dotdot_finds_a_trailing_dotdot (void **state)
{
  assert_true (cordon_path_has_dotdot ("/a/.."));
}

static void
test_has_dotdot_ignores_dots_inside_a_name (void **state)
{
  assert_false (cordon_path_has_dotdot ("/a/..b/c../..."));
}

/* --- normalize ---------------------------------------------------------- */

static void
test_normalize_collapses_slashes_and_dots (void **state)
{
  g_autofree char *n = cordon_path_normalize ("/a//b/./c/");

  assert_string_equal (n, "/a/b/c");
}

static void
test_normalize_turns_slash_runs_into_root (void **state)
{
  g_autofree char *n = cordon_path_normalize ("//.//");

  assert_string_equal (n, "/");
}

static void
test_normalize_keeps_dotdot (void **state)
{
  g_autofree char *n = cordon_path_normalize ("/a/../b");

  assert_string_equal (n, "/a/../b");
}

static void
test_normalize_keeps_variables_as_components (void **state)
{
  g_autofree char *n = cordon_path_normalize ("${HOME}//x/");

  assert_string_equal (n, "/${HOME}/x");
}

/* --- depth -------------------------------------------------------------- */

static void
test_depth_of_root_is_zero (void **state)
{
  assert_int_equal (cordon_path_depth ("/"), 0);
}

static void
test_depth_counts_components_not_slashes (void **state)
{
  assert_int_equal (cordon_path_depth ("//a///b/c/"), 3);
}

/* --- is_ancestor -------------------------------------------------------- */

static void
test_is_ancestor_compares_whole_components (void **state)
{
  assert_false (cordon_path_is_ancestor ("/a/b", "/a/bc", TRUE));
}

static void
test_is_ancestor_accepts_a_parent (void **state)
{
  assert_true (cordon_path_is_ancestor ("/a/b", "/a/b/c", FALSE));
}

static void
test_is_ancestor_accepts_a_parent_written_with_trailing_slash (void **state)
{
  assert_true (cordon_path_is_ancestor ("/a/b/", "/a/b/c", FALSE));
}

static void
test_is_ancestor_of_equal_path_follows_or_equal (void **state)
{
  assert_true (cordon_path_is_ancestor ("/a/b", "/a/b", TRUE));
  assert_false (cordon_path_is_ancestor ("/a/b", "/a/b", FALSE));
}

static void
test_is_ancestor_root_is_ancestor_of_every_path (void **state)
{
  assert_true (cordon_path_is_ancestor ("/", "/x", FALSE));
  assert_true (cordon_path_is_ancestor ("/", "/x/y/z", FALSE));
}

static void
test_is_ancestor_root_is_not_its_own_strict_ancestor (void **state)
{
  assert_false (cordon_path_is_ancestor ("/", "/", FALSE));
  assert_true (cordon_path_is_ancestor ("/", "/", TRUE));
}

static void
test_is_ancestor_rejects_a_child_as_ancestor (void **state)
{
  assert_false (cordon_path_is_ancestor ("/a/b/c", "/a/b", TRUE));
}

/* --- has_glob ----------------------------------------------------------- */

static void
test_has_glob_finds_each_glob_character (void **state)
{
  assert_true (cordon_path_has_glob ("/a/*"));
  assert_true (cordon_path_has_glob ("/a/b?"));
  assert_true (cordon_path_has_glob ("/a/[xy]"));
}

static void
test_has_glob_is_false_for_a_plain_path (void **state)
{
  assert_false (cordon_path_has_glob ("/usr/lib/x86_64-linux-gnu"));
}

static void
test_has_glob_skips_escaped_glob_characters (void **state)
{
  assert_false (cordon_path_has_glob ("/a/\\*/\\?/\\["));
}

static void
test_has_glob_sees_a_star_after_an_escaped_backslash (void **state)
{
  assert_true (cordon_path_has_glob ("/a/\\\\*"));
}

/* --- glob_is_valid ------------------------------------------------------ */

static void
test_glob_is_valid_accepts_a_closed_class (void **state)
{
  const char *reason = NULL;
  gsize offset = 0;

  assert_true (cordon_glob_is_valid ("/x/[abc]/*.key", &reason, &offset));
}

static void
test_glob_is_valid_reports_unterminated_class_at_its_bracket (void **state)
{
  const char *reason = NULL;
  gsize offset = 99;

  assert_false (cordon_glob_is_valid ("/x/[abc", &reason, &offset));
  assert_string_equal (reason, "unterminated '[' character class");
  assert_int_equal (offset, 3);
}

static void
test_glob_is_valid_reports_the_second_unterminated_class (void **state)
{
  const char *reason = NULL;
  gsize offset = 99;

  assert_false (cordon_glob_is_valid ("/x/[ab]/y[c", &reason, &offset));
  assert_string_equal (reason, "unterminated '[' character class");
  assert_int_equal (offset, 9);
}

static void
test_glob_is_valid_rejects_a_class_across_a_slash (void **state)
{
  const char *reason = NULL;
  gsize offset = 99;

  assert_false (cordon_glob_is_valid ("/x/[a/b]", &reason, &offset));
  assert_string_equal (reason, "unterminated '[' character class");
  assert_int_equal (offset, 3);
}

static void
test_glob_is_valid_accepts_a_bracket_first_in_a_class (void **state)
{
  assert_true (cordon_glob_is_valid ("/x/[]a]", NULL, NULL));
  assert_true (cordon_glob_is_valid ("/x/[!]a]", NULL, NULL));
}

static void
test_glob_is_valid_accepts_an_escaped_bracket (void **state)
{
  assert_true (cordon_glob_is_valid ("/x/\\[abc", NULL, NULL));
}

static void
test_glob_is_valid_reports_a_trailing_backslash (void **state)
{
  const char *reason = NULL;
  gsize offset = 99;

  assert_false (cordon_glob_is_valid ("/ab\\", &reason, &offset));
  assert_string_equal (reason, "trailing backslash");
  assert_int_equal (offset, 3);
}

/* --- glob_match --------------------------------------------------------- */

static void
test_glob_match_keeps_star_within_one_component (void **state)
{
  assert_true (cordon_glob_match ("/tmp/ssh-*/agent.*", "/tmp/ssh-XYZ/agent.42"));
  assert_false (cordon_glob_match ("/a/*", "/a/b/c"));
}

static void
test_glob_match_agrees_with_fnmatch_on_classes_escapes_and_backtracking (void **state)
{
  /* Each pair was checked against fnmatch (FNM_PATHNAME | FNM_PERIOD). */
  static const struct { const char *p, *s; gboolean m; } cases[] = {
    { "LC_*", "LC_ALL", TRUE }, { "LC_*", "LANG", FALSE }, { "*", "", TRUE },
    { "a*b*c", "aXbYbZc", TRUE }, { "a*b*c", "aXbYbZ", FALSE }, { "*a", "aaa", TRUE },
    { "X[0-9]", "X7", TRUE }, { "X[0-9]", "Xa", FALSE }, { "X[!0-9]", "Xa", TRUE },
    { "X[^0-9]", "X5", FALSE }, { "[]a]", "]", TRUE }, { "[a-]", "-", TRUE },
    { "a\\*", "a*", TRUE }, { "a\\*", "ab", FALSE }, { "[abc", "[abc", TRUE },
    { "?", "/", FALSE }, { "/a/?", "/a/.", FALSE }, { "/a/[.]x", "/a/.x", FALSE },
    { "*.policy", "x.policy", TRUE }, { "S.*", "S.gpg-agent", TRUE },
    { "/run/user/*/bus", "/run/user/1000/bus", TRUE }, { "/x/*/y", "/x/a/b/y", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gboolean m = cordon_glob_match (cases[i].p, cases[i].s);
      gboolean ref = fnmatch (cases[i].p, cases[i].s, FNM_PATHNAME | FNM_PERIOD) == 0;

      if (m != cases[i].m || ref != cases[i].m)
        fail_msg ("'%s' ~ '%s': got %d, fnmatch %d, expected %d",
                  cases[i].p, cases[i].s, m, ref, cases[i].m);
    }
}

static void
test_glob_match_needs_an_explicit_leading_dot (void **state)
{
  assert_false (cordon_glob_match ("/home/u/*", "/home/u/.ssh"));
  assert_true (cordon_glob_match ("/home/u/.*", "/home/u/.ssh"));
}

/* --- compare_by_depth --------------------------------------------------- */

static void
test_compare_by_depth_puts_shallower_paths_first (void **state)
{
  assert_true (cordon_path_compare_by_depth ("/z", "/a/b") < 0);
  assert_true (cordon_path_compare_by_depth ("/a/b", "/z") > 0);
}

static void
test_compare_by_depth_breaks_ties_by_name (void **state)
{
  assert_true (cordon_path_compare_by_depth ("/a/y", "/b/x") < 0);
  assert_int_equal (cordon_path_compare_by_depth ("/a/b", "/a/b"), 0);
}

static gint
compare_ptr_by_depth (gconstpointer a,
                      gconstpointer b)
{
  return cordon_path_compare_by_depth (*(const char * const *) a, *(const char * const *) b);
}

static void
test_compare_by_depth_sorts_parents_before_children (void **state)
{
  const char *paths[] = { "/a/b/c", "/b", "/a/b", "/a" };
  const char *want[] = { "/a", "/b", "/a/b", "/a/b/c" };

  qsort (paths, G_N_ELEMENTS (paths), sizeof (paths[0]), compare_ptr_by_depth);
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    assert_string_equal (paths[i], want[i]);
}

/* --- shell_quote -------------------------------------------------------- */

static void
test_shell_quote_leaves_a_plain_path_bare (void **state)
{
  g_autofree char *q = cordon_shell_quote ("/usr/lib/x86_64-linux-gnu/ld.so,v1:+@%=");

  assert_string_equal (q, "/usr/lib/x86_64-linux-gnu/ld.so,v1:+@%=");
}

static void
test_shell_quote_quotes_a_space (void **state)
{
  g_autofree char *q = cordon_shell_quote ("my file");

  assert_string_equal (q, "'my file'");
}

static void
test_shell_quote_quotes_the_empty_string (void **state)
{
  g_autofree char *q = cordon_shell_quote ("");

  assert_string_equal (q, "''");
}

static void
test_shell_quote_escapes_a_single_quote (void **state)
{
  g_autofree char *q = cordon_shell_quote ("it's");

  assert_string_equal (q, "'it'\\''s'");
}

static void
test_shell_quote_quotes_shell_metacharacters (void **state)
{
  g_autofree char *dollar = cordon_shell_quote ("$HOME");
  g_autofree char *tilde = cordon_shell_quote ("~/x");
  g_autofree char *glob = cordon_shell_quote ("/a/*");
  g_autofree char *semi = cordon_shell_quote ("a;rm");

  assert_string_equal (dollar, "'$HOME'");
  assert_string_equal (tilde, "'~/x'");
  assert_string_equal (glob, "'/a/*'");
  assert_string_equal (semi, "'a;rm'");
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_has_dotdot_finds_a_dotdot_component),
    cmocka_unit_test (test_has_dotdot_finds_a_trailing_dotdot),
    cmocka_unit_test (test_has_dotdot_ignores_dots_inside_a_name),
    cmocka_unit_test (test_normalize_collapses_slashes_and_dots),
    cmocka_unit_test (test_normalize_turns_slash_runs_into_root),
    cmocka_unit_test (test_normalize_keeps_dotdot),
    cmocka_unit_test (test_normalize_keeps_variables_as_components),
    cmocka_unit_test (test_depth_of_root_is_zero),
    cmocka_unit_test (test_depth_counts_components_not_slashes),
    cmocka_unit_test (test_is_ancestor_compares_whole_components),
    cmocka_unit_test (test_is_ancestor_accepts_a_parent),
    cmocka_unit_test (test_is_ancestor_accepts_a_parent_written_with_trailing_slash),
    cmocka_unit_test (test_is_ancestor_of_equal_path_follows_or_equal),
    cmocka_unit_test (test_is_ancestor_root_is_ancestor_of_every_path),
    cmocka_unit_test (test_is_ancestor_root_is_not_its_own_strict_ancestor),
    cmocka_unit_test (test_is_ancestor_rejects_a_child_as_ancestor),
    cmocka_unit_test (test_has_glob_finds_each_glob_character),
    cmocka_unit_test (test_has_glob_is_false_for_a_plain_path),
    cmocka_unit_test (test_has_glob_skips_escaped_glob_characters),
    cmocka_unit_test (test_has_glob_sees_a_star_after_an_escaped_backslash),
    cmocka_unit_test (test_glob_is_valid_accepts_a_closed_class),
    cmocka_unit_test (test_glob_is_valid_reports_unterminated_class_at_its_bracket),
    cmocka_unit_test (test_glob_is_valid_reports_the_second_unterminated_class),
    cmocka_unit_test (test_glob_is_valid_rejects_a_class_across_a_slash),
    cmocka_unit_test (test_glob_is_valid_accepts_a_bracket_first_in_a_class),
    cmocka_unit_test (test_glob_is_valid_accepts_an_escaped_bracket),
    cmocka_unit_test (test_glob_is_valid_reports_a_trailing_backslash),
    cmocka_unit_test (test_glob_match_keeps_star_within_one_component),
    cmocka_unit_test (test_glob_match_needs_an_explicit_leading_dot),
    cmocka_unit_test (test_glob_match_agrees_with_fnmatch_on_classes_escapes_and_backtracking),
    cmocka_unit_test (test_compare_by_depth_puts_shallower_paths_first),
    cmocka_unit_test (test_compare_by_depth_breaks_ties_by_name),
    cmocka_unit_test (test_compare_by_depth_sorts_parents_before_children),
    cmocka_unit_test (test_shell_quote_leaves_a_plain_path_bare),
    cmocka_unit_test (test_shell_quote_quotes_a_space),
    cmocka_unit_test (test_shell_quote_quotes_the_empty_string),
    cmocka_unit_test (test_shell_quote_escapes_a_single_quote),
    cmocka_unit_test (test_shell_quote_quotes_shell_metacharacters),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
