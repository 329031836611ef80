/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-policy-parse: policy text to CordonPolicy, and the merge of
 * include= chains. Each case asserts the diagnostic a policy author would
 * read: its severity, its text and its exact file:line:col, because a
 * complaint that points at the wrong column sends the author to fix the
 * wrong thing. Includes are resolved from an in-memory table, so no test
 * reads the host's policy directories.
 *
 * Tests marked "REGRESSION" each pin a defect the first version of src/
 * had (described above the test); they failed against commit dca9b05. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>
#include <glib.h>

#include "expect-diag.h"
#include "mem-store.h"
#include "policy-parse.h"

#define FILE_NAME "mem/test.policy"

/* --- helpers ------------------------------------------------------------ */

static CordonPolicy *
parse (const char *text,
       CordonDiagnostics *diags)
{
  CordonPolicy *policy = cordon_policy_new ("test");

  cordon_policy_parse_text (policy, FILE_NAME, text, diags);
  return policy;
}

static const CordonDiagnostic *
expect_error (const CordonDiagnostics *diags,
              const char *fragment,
              guint line,
              guint col)
{
  return expect_diag (diags, CORDON_SEVERITY_ERROR, fragment, FILE_NAME, line, col);
}

static void
expect_message_contains (const CordonDiagnostic *d,
                         const char *fragment)
{
  if (strstr (d->message, fragment) == NULL)
    fail_msg ("'%s' does not contain '%s'", d->message, fragment);
}

static void
expect_item (GPtrArray *list,
             guint i,
             const char *text,
             const char *file,
             guint line,
             guint col)
{
  const CordonItem *it;

  assert_true (i < list->len);
  it = g_ptr_array_index (list, i);
  assert_string_equal (it->text, text);
  assert_string_equal (it->loc.file, file);
  assert_int_equal (it->loc.line, line);
  assert_int_equal (it->loc.col, col);
}

static char *
repeat (const char *unit,
        guint n)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    g_string_append (s, unit);
  return g_string_free (s, FALSE);
}

/* A valid policy of exactly `n` bytes: one value, then comment lines. */
static char *
policy_of_size (gsize n)
{
  GString *s = g_string_new ("[filesystem]\nread-only=/big\n");

  while (s->len < n)
    {
      gsize left = n - s->len;
      gsize chunk = MIN (left, 1000);

      if (chunk == 1)
        {
          g_string_append_c (s, '\n');
          continue;
        }
      g_string_append_c (s, '#');
      for (gsize i = 0; i < chunk - 2; i++)
        g_string_append_c (s, 'x');
      g_string_append_c (s, '\n');
    }
  g_assert (s->len == n);
  return g_string_free (s, FALSE);
}

static CordonPolicy *
load (MemStore *store,
      const char *ref,
      CordonDiagnostics *diags,
      GError **error)
{
  CordonPolicyResolver resolver = { mem_resolve, store };

  return cordon_policy_load (ref, &resolver, diags, error);
}

static CordonPolicy *
load_ok (MemStore *store,
         const char *ref,
         CordonDiagnostics *diags)
{
  g_autoptr(GError) error = NULL;
  CordonPolicy *policy = load (store, ref, diags, &error);

  if (policy == NULL)
    fail_msg ("loading '%s' failed: %s", ref, error->message);
  return policy;
}

/* --- syntax ------------------------------------------------------------- */

static void
test_parse_accepts_a_complete_policy_without_diagnostics (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse (
    "# a comment\n"
    "[policy]\n"
    "description=Build a project\n"
    "\n"
    "[environment]\n"
    "allow=TERM;LANG;LC_*\n"
    "set=EDITOR=vi\n"
    "[filesystem]\n"
    "root=minimal\n"
    "writable=${WORKDIR}\n"
    "read-only=/usr\n"
    "tmpfs=/tmp\n"
    "[sockets]\n"
    "mask=@docker;/run/x-*\n"
    "mask-listening=true\n"
    "[secrets]\n"
    "mask=${HOME}/.ssh;${HOME}/.aws\n"
    "[namespaces]\n"
    "unshare=user;ipc;pid;net;uts;cgroup\n"
    "new-session=true\n"
    "die-with-parent=true\n"
    "[proc]\n"
    "mode=private\n"
    "fallback=refuse\n"
    "[limits]\n"
    "timeout=60\n", diags);

  expect_n_diags (diags, 0);
  assert_string_equal (cordon_policy_get (policy, CORDON_KEY_POLICY_DESCRIPTION)->text,
                       "Build a project");
  assert_int_equal (cordon_policy_get_num (policy, CORDON_KEY_FS_ROOT), CORDON_ROOT_MINIMAL);
  assert_int_equal (cordon_policy_get_num (policy, CORDON_KEY_LIMITS_TIMEOUT), 60);
  assert_int_equal (cordon_policy_get_namespaces (policy),
                    CORDON_NS_USER | CORDON_NS_IPC | CORDON_NS_PID | CORDON_NS_NET
                    | CORDON_NS_UTS | CORDON_NS_CGROUP);
  assert_int_equal (cordon_policy_get_list (policy, CORDON_KEY_SECRETS_MASK)->len, 2);
}

static void
test_parse_reports_line_without_equals_sign (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[policy]\n  oops\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "expected 'key=value', '[section]' or a '#' comment", 2, 3);
}

static void
test_parse_reports_section_header_without_closing_bracket (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[policy]\ndescription=x\n[filesystem\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "section header lacks its closing ']'", 3, 1);
}

static void
test_parse_reports_text_after_section_header (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[policy] extra\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "unexpected text after section header", 1, 10);
}

static void
test_parse_skips_keys_after_a_broken_section_header (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[policy]\ndescription=x\n[filesystem\nwritable=/a\n", diags);

  /* Only the header is reported: 'writable' is not blamed on [policy]. */
  expect_n_diags (diags, 1);
  expect_error (diags, "section header lacks its closing ']'", 3, 1);
  assert_int_equal (cordon_policy_get_list (policy, CORDON_KEY_FS_WRITABLE)->len, 0);
}

static void
test_parse_accepts_whitespace_after_section_header (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[policy] \t\ndescription=x\n", diags);

  expect_n_diags (diags, 0);
  assert_string_equal (cordon_policy_get (policy, CORDON_KEY_POLICY_DESCRIPTION)->text, "x");
}

static void
test_parse_reports_key_before_any_section (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("\n# comment\ndescription=x\n[policy]\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "key 'description' appears before any [section]", 3, 1);
}

static void
test_parse_reports_missing_key_before_equals (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[policy]\n = x\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "missing key before '='", 2, 2);
}

static void
test_parse_reports_unknown_escape_sequence (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[policy]\ndescription=a\\qb\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "unknown escape sequence '\\q'", 2, 14);
  assert_null (cordon_policy_get (policy, CORDON_KEY_POLICY_DESCRIPTION));
}

static void
test_parse_reports_lone_trailing_backslash (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[policy]\ndescription=ab\\\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "value ends with a lone backslash", 2, 15);
}

static void
test_parse_unescapes_gkeyfile_escapes (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[policy]\ndescription=a\\tb\\nc\\\\d\\se\\rf\\;g\n",
                                          diags);

  expect_n_diags (diags, 0);
  assert_string_equal (cordon_policy_get (policy, CORDON_KEY_POLICY_DESCRIPTION)->text,
                       "a\tb\nc\\d e\rf;g");
}

static void
test_parse_reports_invalid_utf8_at_the_bad_byte (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[policy]\ndescription=ab" "\xff" "cd\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "policy is not valid UTF-8", 2, 15);
  assert_null (cordon_policy_get (policy, CORDON_KEY_POLICY_DESCRIPTION));
}

static void
test_parse_counts_utf8_columns_in_bytes (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[policy]\ndescription=caf\xc3\xa9" "\xc3" "\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "policy is not valid UTF-8", 2, 18);
}

static void
test_parse_reports_line_longer_than_the_limit (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autofree char *value = repeat ("x", CORDON_POLICY_MAX_LINE + 1 - strlen ("description="));
  g_autofree char *text = g_strconcat ("[policy]\ndescription=", value, "\n", NULL);
  g_autoptr(CordonPolicy) policy = parse (text, diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "line is longer than 4096 bytes", 2, CORDON_POLICY_MAX_LINE + 1);
  assert_null (cordon_policy_get (policy, CORDON_KEY_POLICY_DESCRIPTION));
}

static void
test_parse_accepts_a_line_of_exactly_the_limit (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autofree char *value = repeat ("x", CORDON_POLICY_MAX_LINE - strlen ("description="));
  g_autofree char *text = g_strconcat ("[policy]\ndescription=", value, "\r\n", NULL);
  g_autoptr(CordonPolicy) policy = parse (text, diags);

  expect_n_diags (diags, 0);
  assert_string_equal (cordon_policy_get (policy, CORDON_KEY_POLICY_DESCRIPTION)->text, value);
}

static void
test_parse_strips_carriage_return_at_line_end (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[proc]\r\nmode=none\r\n", diags);

  expect_n_diags (diags, 0);
  assert_int_equal (cordon_policy_get_num (policy, CORDON_KEY_PROC_MODE), CORDON_PROC_NONE);
}

/* --- sections and keys -------------------------------------------------- */

static void
test_parse_reports_unknown_section_with_suggestion (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[namespace]\n", diags);
  const CordonDiagnostic *d;

  expect_n_diags (diags, 1);
  d = expect_error (diags, "unknown section [namespace]", 1, 2);
  expect_message_contains (d, "did you mean 'namespaces'?");
}

static void
test_parse_reports_nothing_more_for_keys_under_an_unknown_section (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[namespace]\nunshare=user\nbogus=1\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "unknown section [namespace]", 1, 2);
  assert_int_equal (cordon_policy_get_list (policy, CORDON_KEY_NS_UNSHARE)->len, 0);
}

static void
test_parse_reports_unknown_key_with_suggestion (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[namespaces]\nunshar=user", diags);
  const CordonDiagnostic *d;

  expect_n_diags (diags, 1);
  d = expect_error (diags, "unknown key 'unshar' in [namespaces]", 2, 1);
  expect_message_contains (d, "did you mean 'unshare'?");
}

static void
test_parse_reports_unknown_key_without_suggestion_when_nothing_is_close (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[proc]\nzzzzzzzz=1\n", diags);
  const CordonDiagnostic *d;

  expect_n_diags (diags, 1);
  d = expect_error (diags, "unknown key 'zzzzzzzz' in [proc]", 2, 1);
  assert_string_equal (d->message, "unknown key 'zzzzzzzz' in [proc]");
}

static void
test_parse_reports_key_placed_in_the_wrong_section (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[namespaces]\nwritable=/srv\n", diags);
  const CordonDiagnostic *d;

  expect_n_diags (diags, 1);
  d = expect_error (diags, "unknown key 'writable' in [namespaces]", 2, 1);
  expect_message_contains (d, "'writable' belongs in [filesystem]");
}

static void
test_parse_rejects_a_localized_key (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[policy]\ndescription[de]=x\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "localized key 'description[de]' is not supported in a policy", 2, 1);
}

static void
test_parse_reports_duplicate_key_at_the_second_occurrence (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[policy]\ndescription=a\n\ndescription=b\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "duplicate key 'description' in [policy] (first set at line 2)", 4, 1);
}

static void
test_parse_reports_duplicate_key_across_a_repeated_section (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[filesystem]\nwritable=/a\n[filesystem]\nwritable=/b\n",
                                          diags);

  expect_error (diags, "duplicate key 'writable' in [filesystem] (first set at line 2)", 4, 1);
}

static void
test_parse_warns_about_a_repeated_section (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[filesystem]\nwritable=/a\n[policy]\n[filesystem]\ntmpfs=/t\n",
                                          diags);

  expect_n_diags (diags, 1);
  expect_diag (diags, CORDON_SEVERITY_WARNING,
               "section [filesystem] appears again (first at line 1); its keys are merged",
               FILE_NAME, 4, 1);
  expect_item (cordon_policy_get_list (policy, CORDON_KEY_FS_TMPFS), 0, "/t", FILE_NAME, 5, 7);
}

static void
test_parse_reports_empty_scalar_value (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[namespaces]\nnew-session=\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "[namespaces] new-session needs a value", 2, 13);
}

/* --- values ------------------------------------------------------------- */

static void
test_parse_rejects_a_relative_path (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[filesystem]\nwritable=work/dir\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "path 'work/dir' in [filesystem] writable is not absolute", 2, 10);
  assert_int_equal (cordon_policy_get_list (policy, CORDON_KEY_FS_WRITABLE)->len, 0);
}

static void
test_parse_rejects_a_path_starting_with_uid (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[filesystem]\ntmpfs=${UID}/x\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "path '${UID}/x' in [filesystem] tmpfs is not absolute", 2, 7);
}

static void
test_parse_rejects_dotdot_component_at_its_column (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[filesystem]\nwritable=/srv/../etc\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "path '/srv/../etc' contains a '..' component", 2, 15);
}

/* REGRESSION (policy-parse.c, check_path): the column of a '..' component
 * came from strstr (text, ".."), the first ".." anywhere, even inside a
 * name such as "a..b": column 12 instead of the component at 16. */
static void
test_parse_points_at_the_dotdot_component_not_a_dotdot_inside_a_name (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[filesystem]\nwritable=/a..b/../c\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "contains a '..' component", 2, 16);
}

static void
test_parse_rejects_a_glob_in_a_non_glob_key (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[filesystem]\nread-only=/usr/lib/*.so\n", diags);
  const CordonDiagnostic *d;

  expect_n_diags (diags, 1);
  d = expect_error (diags, "are not allowed in [filesystem] read-only", 2, 11);
  expect_message_contains (d, "glob characters");
  assert_int_equal (cordon_policy_get_list (policy, CORDON_KEY_FS_READ_ONLY)->len, 0);
}

static void
test_parse_accepts_a_glob_in_secrets_mask (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[secrets]\nmask=${HOME}/.ssh/id_*\n", diags);

  expect_n_diags (diags, 0);
  expect_item (cordon_policy_get_list (policy, CORDON_KEY_SECRETS_MASK), 0,
               "${HOME}/.ssh/id_*", FILE_NAME, 2, 6);
}

static void
test_parse_reports_malformed_glob_at_its_bracket (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[secrets]\nmask=/x/[abc\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "malformed glob '/x/[abc': unterminated '[' character class", 2, 9);
}

/* [filesystem] protect= and unprotect= name a path below each writable
 * bind: relative, each component a plain name, so that it names one
 * path in each and none outside. */
static void
test_parse_rejects_an_absolute_protect_path (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[filesystem]\nprotect=/abs\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "[filesystem] protect names a path below each writable bind: write it relative, "
                "such as .git/hooks", 2, 9);
  assert_int_equal (cordon_policy_get_list (policy, CORDON_KEY_FS_PROTECT)->len, 0);
}

static void
test_parse_rejects_a_dotdot_component_in_protect_at_its_column (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[filesystem]\nprotect=a/../b\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "'a/../b' in [filesystem] protect has a '.' or '..' component; name the path itself",
                2, 11);
  assert_int_equal (cordon_policy_get_list (policy, CORDON_KEY_FS_PROTECT)->len, 0);
}

/* A variable would name a path of its own, not one below each bind. */
static void
test_parse_rejects_a_variable_in_protect (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[filesystem]\nprotect=${HOME}/x\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "'${HOME}/x' in [filesystem] protect has a variable (it is relative to each "
                "writable bind)", 2, 9);
  assert_int_equal (cordon_policy_get_list (policy, CORDON_KEY_FS_PROTECT)->len, 0);
}

static void
test_parse_rejects_a_glob_in_protect (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[filesystem]\nprotect=a*\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "'a*' in [filesystem] protect has glob characters; name the path itself", 2, 9);
  assert_int_equal (cordon_policy_get_list (policy, CORDON_KEY_FS_PROTECT)->len, 0);
}

static void
test_parse_rejects_an_empty_component_in_protect_at_its_column (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[filesystem]\nprotect=a//b\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "'a//b' in [filesystem] protect has an empty component; name the path itself", 2, 11);
  assert_int_equal (cordon_policy_get_list (policy, CORDON_KEY_FS_PROTECT)->len, 0);
}

/* The column is the component's in the line, not in the element. */
static void
test_parse_points_at_the_bad_component_of_a_later_protect_element (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[filesystem]\nunprotect=.git/config;x/./y\n", diags);
  GPtrArray *list = cordon_policy_get_list (policy, CORDON_KEY_FS_UNPROTECT);

  expect_n_diags (diags, 1);
  expect_error (diags, "'x/./y' in [filesystem] unprotect has a '.' or '..' component", 2, 25);
  assert_int_equal (list->len, 1);
  expect_item (list, 0, ".git/config", FILE_NAME, 2, 11);
}

/* A trailing '/' marks a directory: kept in the item. */
static void
test_parse_accepts_a_protect_directory_with_its_trailing_slash (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[filesystem]\nprotect=.git/hooks/;.git/config\n", diags);
  GPtrArray *list = cordon_policy_get_list (policy, CORDON_KEY_FS_PROTECT);

  expect_n_diags (diags, 0);
  assert_int_equal (list->len, 2);
  expect_item (list, 0, ".git/hooks/", FILE_NAME, 2, 9);
  expect_item (list, 1, ".git/config", FILE_NAME, 2, 21);
}

static void
test_parse_reports_unknown_namespace_with_suggestion (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[namespaces]\nunshare=user;nett\n", diags);
  const CordonDiagnostic *d;

  expect_n_diags (diags, 1);
  d = expect_error (diags, "unknown namespace 'nett' for [namespaces] unshare", 2, 14);
  expect_message_contains (d, "(one of: user, ipc, pid, net, uts, cgroup)");
  expect_message_contains (d, "did you mean 'net'?");
  assert_int_equal (cordon_policy_get_namespaces (policy), CORDON_NS_USER);
}

static void
test_parse_reports_bad_bool (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[namespaces]\nnew-session=yes\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "[namespaces] new-session takes true or false, not 'yes'", 2, 13);
  assert_null (cordon_policy_get (policy, CORDON_KEY_NS_NEW_SESSION));
}

static void
test_parse_reads_false_as_zero (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[namespaces]\ndie-with-parent=false\n", diags);

  expect_n_diags (diags, 0);
  assert_int_equal (cordon_policy_get_num (policy, CORDON_KEY_NS_DIE_WITH_PARENT), 0);
}

static void
test_parse_reports_bad_enum_with_suggestion (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[proc]\nmode=privat\n", diags);
  const CordonDiagnostic *d;

  expect_n_diags (diags, 1);
  d = expect_error (diags, "unknown value 'privat' for [proc] mode", 2, 6);
  assert_string_equal (d->message, "unknown value 'privat' for [proc] mode "
                                   "(one of: private, host-ro, none); did you mean 'private'?");
}

static void
test_parse_reads_enum_as_its_index (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[proc]\nfallback=host-ro\n", diags);

  expect_n_diags (diags, 0);
  assert_int_equal (cordon_policy_get_num (policy, CORDON_KEY_PROC_FALLBACK),
                    CORDON_FALLBACK_HOST_RO);
}

static void
test_parse_reports_non_numeric_timeout_at_the_bad_character (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[limits]\ntimeout=10s\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "[limits] timeout takes a whole number of seconds, not '10s'", 2, 11);
}

static void
test_parse_reports_negative_timeout (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[limits]\ntimeout=-1\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "takes a whole number of seconds, not '-1'", 2, 9);
}

static void
test_parse_reports_too_large_timeout (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[limits]\ntimeout=604801\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "[limits] timeout is at most 604800", 2, 9);
  assert_null (cordon_policy_get (policy, CORDON_KEY_LIMITS_TIMEOUT));
}

static void
test_parse_reports_huge_timeout_without_wrapping (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[limits]\ntimeout=18446744073709551617\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "[limits] timeout is at most 604800", 2, 9);
}

/* [limits] scratch= is a size: bytes, or K, M, G, T of 1024. */
static void
test_parse_reads_a_size_in_bytes_or_units (void **state)
{
  const struct { const char *text; gint64 bytes; } sizes[] = {
    { "4096", 4096 }, { "512K", 512 << 10 }, { "64m", 64 << 20 }, { "2G", G_GINT64_CONSTANT (2) << 30 },
    { "1T", G_GINT64_CONSTANT (1) << 40 }, { "3", 3 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
      g_autofree char *text = g_strdup_printf ("[limits]\nscratch=%s\n", sizes[i].text);
      g_autoptr(CordonPolicy) policy = parse (text, diags);

      expect_n_diags (diags, 0);
      assert_int_equal (cordon_policy_get_num (policy, CORDON_KEY_LIMITS_SCRATCH), sizes[i].bytes);
    }
}

static void
test_parse_reports_what_is_no_size_at_the_bad_character (void **state)
{
  const struct { const char *text; guint col; } bad[] = {
    { "64MB", 11 }, { "64X", 11 }, { "M", 9 }, { "-1", 9 }, { "1.5G", 10 }, { "1 G", 10 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
      g_autofree char *text = g_strdup_printf ("[limits]\nscratch=%s\n", bad[i].text);
      g_autofree char *msg = g_strdup_printf ("[limits] scratch takes a size: a whole number of bytes, "
                                              "or of K, M, G or T (such as 512M), not '%s'", bad[i].text);
      g_autoptr(CordonPolicy) policy = parse (text, diags);

      expect_n_diags (diags, 1);
      expect_error (diags, msg, 2, bad[i].col);
      assert_null (cordon_policy_get (policy, CORDON_KEY_LIMITS_SCRATCH));
    }
}

/* A tmpfs of size 0 is one of no limit: scratch=0 is no scratch. */
static void
test_parse_refuses_scratch_0 (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[limits]\nscratch=0\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "[limits] scratch=0 would be no limit (a tmpfs of size 0 has none): give a size "
                       "such as 512M, or leave the key out", 2, 9);
}

static void
test_parse_reports_a_size_past_the_key_s_most (void **state)
{
  const char *big[] = { "1025G", "2T", "1099511627777", "999999999999999999999", NULL };

  for (guint i = 0; big[i] != NULL; i++)
    {
      g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
      g_autofree char *text = g_strdup_printf ("[limits]\nscratch=%s\n", big[i]);
      g_autoptr(CordonPolicy) policy = parse (text, diags);

      expect_n_diags (diags, 1);
      expect_error (diags, big[i][0] == '9' ? "takes a size" : "[limits] scratch is at most 1024G", 2, 9);
    }
}

/* [limits] cpu= is a share of one CPU: a whole number and '%'. */
static void
test_parse_reads_a_cpu_share_in_percent (void **state)
{
  const struct { const char *text; gint64 percent; } shares[] = {
    { "50%", 50 }, { "200%", 200 }, { "1%", 1 }, { "409600%", 409600 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (shares); i++)
    {
      g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
      g_autofree char *text = g_strdup_printf ("[limits]\ncpu=%s\n", shares[i].text);
      g_autoptr(CordonPolicy) policy = parse (text, diags);

      expect_n_diags (diags, 0);
      assert_int_equal (cordon_policy_get_num (policy, CORDON_KEY_LIMITS_CPU), shares[i].percent);
    }
}

/* What is no share is pointed at where it stops being one; a share out
 * of bounds at its start. */
static void
test_parse_reports_what_is_no_cpu_share_at_its_column (void **state)
{
  const struct { const char *text; guint col; gboolean range; } bad[] = {
    { "50", 7, FALSE }, { "%", 5, FALSE }, { "5O%", 6, FALSE }, { "50%%", 7, FALSE },
    { "1000000000%", 5, FALSE }, { "0%", 5, TRUE }, { "409601%", 5, TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
      g_autofree char *text = g_strdup_printf ("[limits]\ncpu=%s\n", bad[i].text);
      g_autofree char *msg = bad[i].range
        ? g_strdup_printf ("[limits] cpu is between 1%% and 409600%%, not '%s'", bad[i].text)
        : g_strdup_printf ("[limits] cpu takes a share of one CPU: a whole number and '%%' "
                           "(such as 50%% or 200%%), not '%s'", bad[i].text);
      g_autoptr(CordonPolicy) policy = parse (text, diags);

      expect_n_diags (diags, 1);
      expect_error (diags, msg, 2, bad[i].col);
      assert_null (cordon_policy_get (policy, CORDON_KEY_LIMITS_CPU));
    }
}

/* bwrap and cordon's helper are in the sandbox's memory cgroup too:
 * memory= below 16M would kill them before the command starts. */
static void
test_parse_refuses_memory_below_16m (void **state)
{
  static const char * const small[] = { "8M", "16777215", "0", "16383K", NULL };

  for (guint i = 0; small[i] != NULL; i++)
    {
      g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
      g_autofree char *text = g_strdup_printf ("[limits]\nmemory=%s\n", small[i]);
      g_autofree char *msg = g_strdup_printf ("[limits] memory is at least 16M (bwrap and cordon's helper "
                                              "are held by it too), not '%s'", small[i]);
      g_autoptr(CordonPolicy) policy = parse (text, diags);

      expect_n_diags (diags, 1);
      expect_error (diags, msg, 2, 8);
      assert_null (cordon_policy_get (policy, CORDON_KEY_LIMITS_MEMORY));
    }
}

static void
test_parse_accepts_memory_of_16m_and_swap_of_0 (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[limits]\nmemory=16M\nswap=0\n", diags);
  g_autoptr(CordonDiagnostics) bytes_diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) bytes = parse ("[limits]\nmemory=16777216\n", bytes_diags);

  expect_n_diags (diags, 0);
  assert_int_equal (cordon_policy_get_num (policy, CORDON_KEY_LIMITS_MEMORY), 16 << 20);
  assert_non_null (cordon_policy_get (policy, CORDON_KEY_LIMITS_SWAP));
  assert_int_equal (cordon_policy_get_num (policy, CORDON_KEY_LIMITS_SWAP), 0);
  expect_n_diags (bytes_diags, 0);
  assert_int_equal (cordon_policy_get_num (bytes, CORDON_KEY_LIMITS_MEMORY), 16 << 20);
}

/* memory=none and pids=none lift an included policy's limit; 0 stays
 * refused (a budget computed as 0 must not mean none). */
static void
test_parse_takes_none_for_memory_and_pids (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[limits]\nmemory=none\npids=none\n", diags);
  g_autoptr(CordonDiagnostics) cpu_diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) cpu = parse ("[limits]\ncpu=none\n", cpu_diags);

  expect_n_diags (diags, 0);
  assert_string_equal (cordon_policy_get (policy, CORDON_KEY_LIMITS_MEMORY)->text, "none");
  assert_int_equal (cordon_policy_get_num (policy, CORDON_KEY_LIMITS_MEMORY), 0);
  assert_string_equal (cordon_policy_get (policy, CORDON_KEY_LIMITS_PIDS)->text, "none");
  expect_n_diags (cpu_diags, 1);
  assert_null (cordon_policy_get (cpu, CORDON_KEY_LIMITS_CPU));
}

/* memory=N%: a share of the host's RAM, kept as -N for compile; 1% to
 * 100%, and only for memory= (scratch=50% is no size). */
static void
test_parse_reads_memory_as_a_share_of_ram (void **state)
{
  static const struct { const char *text; guint col; } bad[] = {
    { "0%", 8 }, { "101%", 8 }, { "1000%", 8 }, { "%", 8 }, { "50%%", 10 },
  };
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) half = parse ("[limits]\nmemory=50%\n", diags);
  g_autoptr(CordonPolicy) all = parse ("[limits]\nmemory=100%\n", diags);
  g_autoptr(CordonDiagnostics) scratch_diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) scratch = parse ("[limits]\nscratch=50%\n", scratch_diags);

  expect_n_diags (diags, 0);
  assert_int_equal (cordon_policy_get_num (half, CORDON_KEY_LIMITS_MEMORY), -50);
  assert_int_equal (cordon_policy_get_num (all, CORDON_KEY_LIMITS_MEMORY), -100);
  expect_n_diags (scratch_diags, 1);
  assert_null (cordon_policy_get (scratch, CORDON_KEY_LIMITS_SCRATCH));
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(CordonDiagnostics) d = cordon_diagnostics_new ();
      g_autofree char *text = g_strdup_printf ("[limits]\nmemory=%s\n", bad[i].text);
      g_autoptr(CordonPolicy) policy = parse (text, d);
      const char *want = bad[i].col == 8 && bad[i].text[0] != '%'
                         ? "[limits] memory as a share of the host's RAM is between 1%% and 100%%, not '%s'"
                         : "[limits] memory takes a size: a whole number of bytes, or of K, M, G or T (such as "
                           "512M), a share of the host's RAM (such as 50%%), or none, not '%s'";
      g_autofree char *msg = g_strdup_printf (want, bad[i].text);

      expect_n_diags (d, 1);
      expect_error (d, msg, 2, bad[i].col);
      assert_null (cordon_policy_get (policy, CORDON_KEY_LIMITS_MEMORY));
    }
}

static void
test_parse_reads_each_enforce_word (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) required = parse ("[limits]\nenforce=required\n", diags);
  g_autoptr(CordonPolicy) best = parse ("[limits]\nenforce=best-effort\n", diags);
  g_autoptr(CordonPolicy) unset = parse ("[limits]\ntimeout=5\n", diags);

  expect_n_diags (diags, 0);
  assert_int_equal (cordon_policy_get_num (required, CORDON_KEY_LIMITS_ENFORCE), CORDON_ENFORCE_REQUIRED);
  assert_int_equal (cordon_policy_get_num (best, CORDON_KEY_LIMITS_ENFORCE), CORDON_ENFORCE_BEST_EFFORT);
  /* The default is the strict one. */
  assert_int_equal (cordon_policy_get_num (unset, CORDON_KEY_LIMITS_ENFORCE), CORDON_ENFORCE_REQUIRED);
}

static void
test_parse_reports_an_unknown_enforce_word_with_suggestion (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[limits]\nenforce=best_effort\n", diags);
  const CordonDiagnostic *d;

  expect_n_diags (diags, 1);
  d = expect_error (diags, "unknown value 'best_effort' for [limits] enforce", 2, 9);
  assert_string_equal (d->message, "unknown value 'best_effort' for [limits] enforce "
                                   "(one of: required, best-effort); did you mean 'best-effort'?");
  assert_null (cordon_policy_get (policy, CORDON_KEY_LIMITS_ENFORCE));
}

static void
test_parse_accepts_the_largest_timeout (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[limits]\ntimeout=604800\n", diags);

  expect_n_diags (diags, 0);
  assert_int_equal (cordon_policy_get_num (policy, CORDON_KEY_LIMITS_TIMEOUT), 604800);
}

static void
test_parse_reports_unknown_variable_at_its_dollar (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[filesystem]\nwritable=/data/${HOEM}/x\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "unknown variable '${HOEM}'", 2, 16);
}

static void
test_parse_reports_unknown_variable_in_env_set_value (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[environment]\nset=A=${HOEM}\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "unknown variable '${HOEM}'", 2, 7);
}

static void
test_parse_reports_unterminated_variable (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[filesystem]\nwritable=/a;${HOME/x\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "unterminated '${'", 2, 13);
}

static void
test_parse_reports_lone_dollar (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[filesystem]\nwritable=/a$b\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "'$' must start a ${VARIABLE}; write '$$' for a literal '$'", 2, 12);
}

static void
test_parse_accepts_double_dollar_as_a_literal (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[filesystem]\nwritable=/a$$b\n", diags);

  expect_n_diags (diags, 0);
  expect_item (cordon_policy_get_list (policy, CORDON_KEY_FS_WRITABLE), 0,
               "/a$$b", FILE_NAME, 2, 10);
}

static void
test_parse_reports_unknown_socket_with_suggestion (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[sockets]\nmask=@dbus;@dockr\n", diags);
  const CordonDiagnostic *d;

  expect_n_diags (diags, 1);
  d = expect_error (diags, "unknown socket catalog entry '@dockr'", 2, 12);
  expect_message_contains (d, "did you mean 'docker'?");
}

static void
test_parse_accepts_socket_path_glob (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[sockets]\nallow=${XDG_RUNTIME_DIR}/app-*.sock\n", diags);

  expect_n_diags (diags, 0);
  expect_item (cordon_policy_get_list (policy, CORDON_KEY_SOCKETS_ALLOW), 0,
               "${XDG_RUNTIME_DIR}/app-*.sock", FILE_NAME, 2, 7);
}

static void
test_parse_reports_invalid_name_in_env_allow (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[environment]\nallow=PATH;FOO-BAR\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "'FOO-BAR' is not a variable name or a glob of names", 2, 12);
  expect_item (cordon_policy_get_list (policy, CORDON_KEY_ENV_ALLOW), 0, "PATH", FILE_NAME, 2, 7);
}

static void
test_parse_reports_an_unknown_capability (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[capabilities]\nkeep=net_raw;cap_bogus\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "'cap_bogus' is not a capability libcap knows", 2, 14);
}

static void
test_parse_reads_each_form_of_host_user (void **state)
{
  static const struct { const char *text; gint64 num; } forms[] = {
    { "auto", CORDON_HOST_USER_AUTO }, { "root", CORDON_HOST_USER_ROOT }, { "0", CORDON_HOST_USER_ROOT },
    { "4242", 4242 }, { "trial-runner", CORDON_HOST_USER_NAMED }, { "_svc.1", CORDON_HOST_USER_NAMED },
  };

  for (guint i = 0; i < G_N_ELEMENTS (forms); i++)
    {
      g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
      g_autofree char *text = g_strdup_printf ("[identity]\nhost-user=%s\n", forms[i].text);
      g_autoptr(CordonPolicy) policy = parse (text, diags);

      expect_n_diags (diags, 0);
      assert_int_equal (cordon_policy_get_num (policy, CORDON_KEY_IDENTITY_HOST_USER), forms[i].num);
    }
}

static void
test_parse_defaults_host_user_to_auto (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[identity]\n", diags);

  assert_int_equal (cordon_policy_get_num (policy, CORDON_KEY_IDENTITY_HOST_USER), CORDON_HOST_USER_AUTO);
}

static void
test_parse_reports_a_host_user_that_is_no_name (void **state)
{
  static const char * const bad[] = { "-x", "Root", "a b", "4294967295", "9999999999" };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
      g_autofree char *text = g_strdup_printf ("[identity]\nhost-user=%s\n", bad[i]);
      g_autoptr(CordonPolicy) policy = parse (text, diags);

      expect_n_diags (diags, 1);
      expect_error (diags, "[identity] host-user takes auto, root, a user name or a uid", 2, 11);
    }
}

static void
test_parse_reports_an_unknown_system_call (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[seccomp]\nprofile=strict\ndeny=chmod;no_such_call\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "'no_such_call' is not a system call libseccomp knows", 3, 12);
}

static void
test_parse_reports_env_set_without_equals (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[environment]\nset=EDITOR\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "a set= value must be NAME=VALUE", 2, 5);
}

static void
test_parse_does_not_repeat_a_set_value_without_equals (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[environment]\nset=sk-live-SECRETVALUE\n", diags);

  /* A --setenv "$TOKEN" typo must not print the token. */
  expect_n_diags (diags, 1);
  assert_null (strstr (cordon_diagnostics_get (diags, 0)->message, "SECRETVALUE"));
}

static void
test_parse_reports_invalid_name_in_env_set (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[environment]\nset=1X=y\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "'1X' is not a valid variable name", 2, 5);
}

/* --- lists -------------------------------------------------------------- */

static void
test_parse_records_the_column_of_each_list_element (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[filesystem]\nwritable=/a;/bb;/ccc\n", diags);
  GPtrArray *list = cordon_policy_get_list (policy, CORDON_KEY_FS_WRITABLE);

  expect_n_diags (diags, 0);
  assert_int_equal (list->len, 3);
  expect_item (list, 0, "/a", FILE_NAME, 2, 10);
  expect_item (list, 1, "/bb", FILE_NAME, 2, 13);
  expect_item (list, 2, "/ccc", FILE_NAME, 2, 17);
}

static void
test_parse_reports_an_error_in_the_third_element_at_its_column (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[filesystem]\nwritable=/a;/bb;ccc\n", diags);

  expect_n_diags (diags, 1);
  expect_error (diags, "path 'ccc' in [filesystem] writable is not absolute", 2, 17);
  assert_int_equal (cordon_policy_get_list (policy, CORDON_KEY_FS_WRITABLE)->len, 2);
}

static void
test_parse_trims_whitespace_around_list_elements (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[filesystem]\nwritable = /a  ;\t /b  \n", diags);
  GPtrArray *list = cordon_policy_get_list (policy, CORDON_KEY_FS_WRITABLE);

  expect_n_diags (diags, 0);
  assert_int_equal (list->len, 2);
  assert_string_equal (((CordonItem *) g_ptr_array_index (list, 0))->text, "/a");
  assert_string_equal (((CordonItem *) g_ptr_array_index (list, 1))->text, "/b");
}

/* REGRESSION (policy-parse.c, add_values): the item's location was taken
 * before the trim, so an element written after white space ("; /b") was
 * recorded at the white space (17, the tab) instead of its first
 * character (19): the location check, compile and explain report. */
static void
test_parse_records_the_column_of_a_list_element_after_its_whitespace (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[filesystem]\nwritable = /a  ;\t /b  \n", diags);
  GPtrArray *list = cordon_policy_get_list (policy, CORDON_KEY_FS_WRITABLE);

  expect_n_diags (diags, 0);
  assert_int_equal (list->len, 2);
  expect_item (list, 0, "/a", FILE_NAME, 2, 12);
  expect_item (list, 1, "/b", FILE_NAME, 2, 19);
}

static void
test_parse_keeps_escaped_semicolon_in_a_list_element (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[environment]\nset=A=x\\;y;B=2\n", diags);
  GPtrArray *list = cordon_policy_get_list (policy, CORDON_KEY_ENV_SET);

  expect_n_diags (diags, 0);
  assert_int_equal (list->len, 2);
  expect_item (list, 0, "A=x;y", FILE_NAME, 2, 5);
  expect_item (list, 1, "B=2", FILE_NAME, 2, 12);
}

/* REGRESSION (policy-parse.c, split_value): "write \s to keep it" was
 * documented, but the trim ran after unescaping and dropped the space \s
 * made too: set=SUFFIX=x\s gave "SUFFIX=x". */
static void
test_parse_keeps_escaped_space_at_the_end_of_a_list_element (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[environment]\nset=SUFFIX=x\\s\n", diags);

  expect_n_diags (diags, 0);
  expect_item (cordon_policy_get_list (policy, CORDON_KEY_ENV_SET), 0,
               "SUFFIX=x ", FILE_NAME, 2, 5);
}

static void
test_parse_keeps_escaped_space_at_the_start_of_a_value (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[policy]\ndescription= \\s indented\n", diags);

  expect_n_diags (diags, 0);
  assert_string_equal (cordon_policy_get (policy, CORDON_KEY_POLICY_DESCRIPTION)->text,
                       "  indented");
}

static void
test_parse_trims_trailing_whitespace_of_a_scalar (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[proc]\nmode=none \t\n", diags);

  expect_n_diags (diags, 0);
  assert_string_equal (cordon_policy_get (policy, CORDON_KEY_PROC_MODE)->text, "none");
  assert_int_equal (cordon_policy_get_num (policy, CORDON_KEY_PROC_MODE), CORDON_PROC_NONE);
}

static void
test_parse_warns_about_an_empty_middle_list_element (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[filesystem]\nwritable=/a;;/b\n", diags);
  const CordonDiagnostic *d = NULL;

  expect_n_diags (diags, 1);
  d = cordon_diagnostics_get (diags, 0);
  assert_int_equal (d->severity, CORDON_SEVERITY_WARNING);
  assert_string_equal (d->message, "empty list element ignored");
  assert_string_equal (d->loc.file, FILE_NAME);
  assert_int_equal (d->loc.line, 2);
  assert_int_equal (cordon_policy_get_list (policy, CORDON_KEY_FS_WRITABLE)->len, 2);
}

/* REGRESSION (policy-parse.c, add_values): an empty element has no bytes,
 * and its column fell back to that of the key: the warning for
 * "writable=/a;;/b" said column 1 instead of 13, just after the first
 * ';', where the empty element sits. */
static void
test_parse_points_the_empty_element_warning_at_the_element (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[filesystem]\nwritable=/a;;/b\n", diags);

  expect_n_diags (diags, 1);
  expect_diag (diags, CORDON_SEVERITY_WARNING, "empty list element ignored", FILE_NAME, 2, 13);
}

static void
test_parse_accepts_a_trailing_semicolon_silently (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[filesystem]\nwritable=/a;/b;\n", diags);

  expect_n_diags (diags, 0);
  assert_int_equal (cordon_policy_get_list (policy, CORDON_KEY_FS_WRITABLE)->len, 2);
}

static void
test_parse_reads_an_empty_list_value_as_zero_items (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[filesystem]\nwritable=\n", diags);

  expect_n_diags (diags, 0);
  assert_int_equal (cordon_policy_get_list (policy, CORDON_KEY_FS_WRITABLE)->len, 0);
}

static void
test_parse_warns_about_a_trailing_comment (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[filesystem]\nwritable=/a # my home\n", diags);

  expect_n_diags (diags, 1);
  expect_diag (diags, CORDON_SEVERITY_WARNING,
               "'#' here is part of the value: comments must be on a line of their own",
               FILE_NAME, 2, 13);
}

static void
test_parse_does_not_warn_about_a_hash_inside_a_word (void **state)
{
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = parse ("[filesystem]\nwritable=/srv/c#\n", diags);

  expect_n_diags (diags, 0);
}

/* --- includes ----------------------------------------------------------- */

static void
test_load_lets_the_including_file_override_an_included_scalar (void **state)
{
  g_autoptr(MemStore) store = store_new ();
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = NULL;
  const CordonItem *mode;

  store_add (store, "base", "[proc]\nmode=none\n");
  store_add (store, "top", "[policy]\ninclude=base\n[proc]\nmode=host-ro\n");
  policy = load_ok (store, "top", diags);
  expect_n_diags (diags, 0);
  mode = cordon_policy_get (policy, CORDON_KEY_PROC_MODE);
  assert_string_equal (mode->text, "host-ro");
  assert_int_equal (mode->num, CORDON_PROC_HOST_RO);
  assert_string_equal (mode->loc.file, "mem/top.policy");
  assert_int_equal (mode->loc.line, 4);
  assert_int_equal (mode->loc.col, 6);
}

static void
test_load_keeps_an_included_scalar_the_includer_does_not_set (void **state)
{
  g_autoptr(MemStore) store = store_new ();
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = NULL;
  const CordonItem *mode;

  store_add (store, "base", "[proc]\nmode=none\n");
  store_add (store, "top", "[policy]\ninclude=base\n");
  policy = load_ok (store, "top", diags);
  expect_n_diags (diags, 0);
  mode = cordon_policy_get (policy, CORDON_KEY_PROC_MODE);
  assert_int_equal (mode->num, CORDON_PROC_NONE);
  assert_string_equal (mode->loc.file, "mem/base.policy");
  assert_int_equal (mode->loc.line, 2);
}

static void
test_load_accumulates_lists_with_included_values_first (void **state)
{
  g_autoptr(MemStore) store = store_new ();
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = NULL;
  GPtrArray *list;

  store_add (store, "base", "[filesystem]\nwritable=/base\n");
  store_add (store, "top", "[filesystem]\nwritable=/top\n[policy]\ninclude=base\n");
  policy = load_ok (store, "top", diags);
  expect_n_diags (diags, 0);
  list = cordon_policy_get_list (policy, CORDON_KEY_FS_WRITABLE);
  assert_int_equal (list->len, 2);
  expect_item (list, 0, "/base", "mem/base.policy", 2, 10);
  expect_item (list, 1, "/top", "mem/top.policy", 2, 10);
}

static void
test_load_records_every_source_in_load_order (void **state)
{
  g_autoptr(MemStore) store = store_new ();
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = NULL;

  store_add (store, "base", "[proc]\nmode=none\n");
  store_add (store, "top", "[policy]\ninclude=base\n");
  policy = load_ok (store, "top", diags);
  assert_int_equal (cordon_policy_n_sources (policy), 2);
  assert_string_equal (cordon_policy_source_file (policy, 0), "mem/top.policy");
  assert_string_equal (cordon_policy_source_text (policy, 0), "[policy]\ninclude=base\n");
  assert_string_equal (cordon_policy_source_file (policy, 1), "mem/base.policy");
  assert_string_equal (cordon_policy_source_text (policy, 1), "[proc]\nmode=none\n");
}

static void
test_load_tells_the_resolver_which_file_includes (void **state)
{
  g_autoptr(MemStore) store = store_new ();
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = NULL;

  store_add (store, "base", "[proc]\nmode=none\n");
  store_add (store, "top", "[policy]\ninclude=base\n");
  policy = load_ok (store, "top", diags);
  assert_int_equal (store->calls->len, 2);
  assert_string_equal (g_ptr_array_index (store->calls, 0), "top<(top)");
  assert_string_equal (g_ptr_array_index (store->calls, 1), "base<mem/top.policy");
}

static void
test_load_reports_errors_in_an_included_file_under_its_name (void **state)
{
  g_autoptr(MemStore) store = store_new ();
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = NULL;

  store_add (store, "base", "[filesystem]\nwritable=relative\n");
  store_add (store, "top", "[policy]\ninclude=base\n");
  policy = load_ok (store, "top", diags);
  expect_n_diags (diags, 1);
  expect_diag (diags, CORDON_SEVERITY_ERROR, "path 'relative' in [filesystem] writable",
               "mem/base.policy", 2, 10);
}

static void
test_load_reports_a_missing_include_at_its_item (void **state)
{
  g_autoptr(MemStore) store = store_new ();
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = NULL;

  store_add (store, "base", "[proc]\nmode=none\n");
  store_add (store, "top", "[policy]\ninclude=base;nothere\n");
  policy = load_ok (store, "top", diags);
  expect_n_diags (diags, 1);
  expect_diag (diags, CORDON_SEVERITY_ERROR,
               "cannot include 'nothere': no policy named 'nothere'",
               "mem/top.policy", 2, 14);
}

static void
test_load_reports_an_include_cycle (void **state)
{
  g_autoptr(MemStore) store = store_new ();
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = NULL;

  store_add (store, "a", "[policy]\ninclude=b\n");
  store_add (store, "b", "[policy]\ninclude=a\n");
  policy = load_ok (store, "a", diags);
  expect_n_diags (diags, 1);
  expect_diag (diags, CORDON_SEVERITY_ERROR,
               "include cycle: mem/a.policy -> mem/b.policy -> mem/a.policy",
               "mem/b.policy", 2, 9);
}

static void
test_load_reports_a_file_that_includes_itself (void **state)
{
  g_autoptr(MemStore) store = store_new ();
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = NULL;

  store_add (store, "a", "[proc]\nmode=none\n[policy]\ninclude=a\n");
  policy = load_ok (store, "a", diags);
  expect_n_diags (diags, 1);
  expect_diag (diags, CORDON_SEVERITY_ERROR, "include cycle: mem/a.policy -> mem/a.policy",
               "mem/a.policy", 4, 9);
}

/* p0 includes p1 ... includes p(n-1); each adds writable=/pK. */
static void
add_chain (MemStore *store,
           guint n)
{
  for (guint k = 0; k < n; k++)
    {
      g_autofree char *name = g_strdup_printf ("p%u", k);
      g_autofree char *text = NULL;

      if (k + 1 < n)
        text = g_strdup_printf ("[policy]\ninclude=p%u\n[filesystem]\nwritable=/p%u\n", k + 1, k);
      else
        text = g_strdup_printf ("[policy]\ndescription=last\n[filesystem]\nwritable=/p%u\n", k);
      store_add (store, name, text);
    }
}

static void
test_load_accepts_an_include_chain_at_the_depth_limit (void **state)
{
  g_autoptr(MemStore) store = store_new ();
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = NULL;
  GPtrArray *list;

  add_chain (store, CORDON_POLICY_MAX_DEPTH);
  policy = load_ok (store, "p0", diags);
  expect_n_diags (diags, 0);
  list = cordon_policy_get_list (policy, CORDON_KEY_FS_WRITABLE);
  assert_int_equal (list->len, CORDON_POLICY_MAX_DEPTH);
  expect_item (list, 0, "/p7", "mem/p7.policy", 4, 10);
}

static void
test_load_reports_an_include_chain_deeper_than_the_limit (void **state)
{
  g_autoptr(MemStore) store = store_new ();
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = NULL;

  add_chain (store, CORDON_POLICY_MAX_DEPTH + 1);
  policy = load_ok (store, "p0", diags);
  expect_n_diags (diags, 1);
  expect_diag (diags, CORDON_SEVERITY_ERROR, "includes nest deeper than 8 levels",
               "mem/p7.policy", 2, 9);
  assert_int_equal (cordon_policy_get_list (policy, CORDON_KEY_FS_WRITABLE)->len,
                    CORDON_POLICY_MAX_DEPTH);
}

static void
test_load_merges_a_diamond_include_once (void **state)
{
  g_autoptr(MemStore) store = store_new ();
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = NULL;
  GPtrArray *list;

  store_add (store, "base", "[filesystem]\nwritable=/base\n");
  store_add (store, "left", "[policy]\ninclude=base\n[filesystem]\nwritable=/left\n");
  store_add (store, "right", "[policy]\ninclude=base\n[filesystem]\nwritable=/right\n");
  store_add (store, "top", "[policy]\ninclude=left;right\n[filesystem]\nwritable=/top\n");
  policy = load_ok (store, "top", diags);
  expect_n_diags (diags, 0);
  list = cordon_policy_get_list (policy, CORDON_KEY_FS_WRITABLE);
  assert_int_equal (list->len, 4);
  expect_item (list, 0, "/base", "mem/base.policy", 2, 10);
  expect_item (list, 1, "/left", "mem/left.policy", 4, 10);
  expect_item (list, 2, "/right", "mem/right.policy", 4, 10);
  expect_item (list, 3, "/top", "mem/top.policy", 4, 10);
  assert_int_equal (cordon_policy_n_sources (policy), 4);
}

static void
test_load_reports_a_too_large_included_file (void **state)
{
  g_autoptr(MemStore) store = store_new ();
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = NULL;
  g_autofree char *big = policy_of_size (CORDON_POLICY_MAX_BYTES + 1);

  store_add (store, "big", big);
  store_add (store, "top", "[policy]\ninclude=big\n");
  policy = load_ok (store, "top", diags);
  expect_n_diags (diags, 1);
  expect_diag (diags, CORDON_SEVERITY_ERROR,
               "included policy 'mem/big.policy' is larger than 65536 bytes",
               "mem/top.policy", 2, 9);
  assert_int_equal (cordon_policy_get_list (policy, CORDON_KEY_FS_READ_ONLY)->len, 0);
}

static void
test_load_accepts_an_included_file_of_exactly_the_byte_limit (void **state)
{
  g_autoptr(MemStore) store = store_new ();
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = NULL;
  g_autofree char *big = policy_of_size (CORDON_POLICY_MAX_BYTES);

  store_add (store, "big", big);
  store_add (store, "top", "[policy]\ninclude=big\n");
  policy = load_ok (store, "top", diags);
  expect_n_diags (diags, 0);
  expect_item (cordon_policy_get_list (policy, CORDON_KEY_FS_READ_ONLY), 0,
               "/big", "mem/big.policy", 2, 11);
}

static void
test_load_fails_with_limit_error_on_a_too_large_top_file (void **state)
{
  g_autoptr(MemStore) store = store_new ();
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPolicy) policy = NULL;
  g_autofree char *big = policy_of_size (CORDON_POLICY_MAX_BYTES + 1);

  store_add (store, "top", big);
  policy = load (store, "top", diags, &error);
  assert_null (policy);
  assert_true (g_error_matches (error, CORDON_ERROR, CORDON_ERROR_LIMIT));
  assert_true (g_str_has_prefix (error->message, "mem/top.policy: "));
  assert_non_null (strstr (error->message, "is larger than 65536 bytes"));
}

static void
test_load_fails_with_gerror_when_the_top_policy_is_missing (void **state)
{
  g_autoptr(MemStore) store = store_new ();
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPolicy) policy = load (store, "nothere", diags, &error);

  assert_null (policy);
  assert_true (g_error_matches (error, CORDON_ERROR, CORDON_ERROR_NOT_FOUND));
  assert_string_equal (error->message, "no policy named 'nothere'");
  expect_n_diags (diags, 0);
}

static void
test_load_reports_more_values_than_the_limit (void **state)
{
  g_autoptr(MemStore) store = store_new ();
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = NULL;
  g_autofree char *items = repeat ("A;", CORDON_POLICY_MAX_ITEMS);
  g_autofree char *text = g_strconcat ("[environment]\nallow=", items, "B\n", NULL);

  store_add (store, "top", text);
  policy = load_ok (store, "top", diags);
  expect_n_diags (diags, 1);
  /* "allow=" is 6 columns, then 1024 "A;" pairs: "B" is at 7 + 2048. */
  expect_diag (diags, CORDON_SEVERITY_ERROR, "policy has more than 1024 values",
               "mem/top.policy", 2, 2055);
  assert_int_equal (cordon_policy_get_list (policy, CORDON_KEY_ENV_ALLOW)->len,
                    CORDON_POLICY_MAX_ITEMS);
}

static void
test_load_accepts_exactly_the_value_limit (void **state)
{
  g_autoptr(MemStore) store = store_new ();
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = NULL;
  g_autofree char *items = repeat ("A;", CORDON_POLICY_MAX_ITEMS - 1);
  g_autofree char *text = g_strconcat ("[environment]\nallow=", items, "B\n", NULL);

  store_add (store, "top", text);
  policy = load_ok (store, "top", diags);
  expect_n_diags (diags, 0);
  assert_int_equal (cordon_policy_get_list (policy, CORDON_KEY_ENV_ALLOW)->len,
                    CORDON_POLICY_MAX_ITEMS);
}

static void
test_load_reports_more_files_than_the_limit (void **state)
{
  g_autoptr(MemStore) store = store_new ();
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = NULL;
  g_autoptr(GString) top = g_string_new ("[policy]\ninclude=");

  /* The top file and f01..f32 are 33 files; "fNN;" is 4 columns. */
  for (guint k = 1; k <= CORDON_POLICY_MAX_FILES; k++)
    {
      g_autofree char *name = g_strdup_printf ("f%02u", k);

      store_add (store, name, "[proc]\nmode=none\n");
      g_string_append_printf (top, "%s;", name);
    }
  store_add (store, "top", top->str);
  policy = load_ok (store, "top", diags);
  expect_n_diags (diags, 1);
  expect_diag (diags, CORDON_SEVERITY_ERROR, "policy merges more than 32 files",
               "mem/top.policy", 2, 9 + 4 * (CORDON_POLICY_MAX_FILES - 1));
  assert_int_equal (cordon_policy_n_sources (policy), CORDON_POLICY_MAX_FILES);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_parse_accepts_a_complete_policy_without_diagnostics),
    cmocka_unit_test (test_parse_reports_line_without_equals_sign),
    cmocka_unit_test (test_parse_reports_section_header_without_closing_bracket),
    cmocka_unit_test (test_parse_reports_text_after_section_header),
    cmocka_unit_test (test_parse_skips_keys_after_a_broken_section_header),
    cmocka_unit_test (test_parse_accepts_whitespace_after_section_header),
    cmocka_unit_test (test_parse_reports_key_before_any_section),
    cmocka_unit_test (test_parse_reports_missing_key_before_equals),
    cmocka_unit_test (test_parse_reports_unknown_escape_sequence),
    cmocka_unit_test (test_parse_reports_lone_trailing_backslash),
    cmocka_unit_test (test_parse_unescapes_gkeyfile_escapes),
    cmocka_unit_test (test_parse_reports_invalid_utf8_at_the_bad_byte),
    cmocka_unit_test (test_parse_counts_utf8_columns_in_bytes),
    cmocka_unit_test (test_parse_reports_line_longer_than_the_limit),
    cmocka_unit_test (test_parse_accepts_a_line_of_exactly_the_limit),
    cmocka_unit_test (test_parse_strips_carriage_return_at_line_end),
    cmocka_unit_test (test_parse_reports_unknown_section_with_suggestion),
    cmocka_unit_test (test_parse_reports_nothing_more_for_keys_under_an_unknown_section),
    cmocka_unit_test (test_parse_reports_unknown_key_with_suggestion),
    cmocka_unit_test (test_parse_reports_unknown_key_without_suggestion_when_nothing_is_close),
    cmocka_unit_test (test_parse_reports_key_placed_in_the_wrong_section),
    cmocka_unit_test (test_parse_rejects_a_localized_key),
    cmocka_unit_test (test_parse_reports_duplicate_key_at_the_second_occurrence),
    cmocka_unit_test (test_parse_reports_duplicate_key_across_a_repeated_section),
    cmocka_unit_test (test_parse_warns_about_a_repeated_section),
    cmocka_unit_test (test_parse_reports_empty_scalar_value),
    cmocka_unit_test (test_parse_rejects_a_relative_path),
    cmocka_unit_test (test_parse_rejects_a_path_starting_with_uid),
    cmocka_unit_test (test_parse_rejects_dotdot_component_at_its_column),
    cmocka_unit_test (test_parse_points_at_the_dotdot_component_not_a_dotdot_inside_a_name),
    cmocka_unit_test (test_parse_rejects_a_glob_in_a_non_glob_key),
    cmocka_unit_test (test_parse_accepts_a_glob_in_secrets_mask),
    cmocka_unit_test (test_parse_reports_malformed_glob_at_its_bracket),
    cmocka_unit_test (test_parse_rejects_an_absolute_protect_path),
    cmocka_unit_test (test_parse_rejects_a_dotdot_component_in_protect_at_its_column),
    cmocka_unit_test (test_parse_rejects_a_variable_in_protect),
    cmocka_unit_test (test_parse_rejects_a_glob_in_protect),
    cmocka_unit_test (test_parse_rejects_an_empty_component_in_protect_at_its_column),
    cmocka_unit_test (test_parse_points_at_the_bad_component_of_a_later_protect_element),
    cmocka_unit_test (test_parse_accepts_a_protect_directory_with_its_trailing_slash),
    cmocka_unit_test (test_parse_reports_unknown_namespace_with_suggestion),
    cmocka_unit_test (test_parse_reports_bad_bool),
    cmocka_unit_test (test_parse_reads_false_as_zero),
    cmocka_unit_test (test_parse_reports_bad_enum_with_suggestion),
    cmocka_unit_test (test_parse_reads_enum_as_its_index),
    cmocka_unit_test (test_parse_reports_non_numeric_timeout_at_the_bad_character),
    cmocka_unit_test (test_parse_reports_negative_timeout),
    cmocka_unit_test (test_parse_reports_too_large_timeout),
    cmocka_unit_test (test_parse_reports_huge_timeout_without_wrapping),
    cmocka_unit_test (test_parse_reads_a_size_in_bytes_or_units),
    cmocka_unit_test (test_parse_reports_what_is_no_size_at_the_bad_character),
    cmocka_unit_test (test_parse_reports_a_size_past_the_key_s_most),
    cmocka_unit_test (test_parse_refuses_scratch_0),
    cmocka_unit_test (test_parse_reads_a_cpu_share_in_percent),
    cmocka_unit_test (test_parse_reports_what_is_no_cpu_share_at_its_column),
    cmocka_unit_test (test_parse_refuses_memory_below_16m),
    cmocka_unit_test (test_parse_accepts_memory_of_16m_and_swap_of_0),
    cmocka_unit_test (test_parse_reads_memory_as_a_share_of_ram),
    cmocka_unit_test (test_parse_takes_none_for_memory_and_pids),
    cmocka_unit_test (test_parse_reads_each_enforce_word),
    cmocka_unit_test (test_parse_reports_an_unknown_enforce_word_with_suggestion),
    cmocka_unit_test (test_parse_accepts_the_largest_timeout),
    cmocka_unit_test (test_parse_reports_unknown_variable_at_its_dollar),
    cmocka_unit_test (test_parse_reports_unknown_variable_in_env_set_value),
    cmocka_unit_test (test_parse_reports_unterminated_variable),
    cmocka_unit_test (test_parse_reports_lone_dollar),
    cmocka_unit_test (test_parse_accepts_double_dollar_as_a_literal),
    cmocka_unit_test (test_parse_reports_unknown_socket_with_suggestion),
    cmocka_unit_test (test_parse_accepts_socket_path_glob),
    cmocka_unit_test (test_parse_reports_invalid_name_in_env_allow),
    cmocka_unit_test (test_parse_reports_env_set_without_equals),
    cmocka_unit_test (test_parse_reports_an_unknown_capability),
    cmocka_unit_test (test_parse_reads_each_form_of_host_user),
    cmocka_unit_test (test_parse_defaults_host_user_to_auto),
    cmocka_unit_test (test_parse_reports_a_host_user_that_is_no_name),
    cmocka_unit_test (test_parse_reports_an_unknown_system_call),
    cmocka_unit_test (test_parse_does_not_repeat_a_set_value_without_equals),
    cmocka_unit_test (test_parse_reports_invalid_name_in_env_set),
    cmocka_unit_test (test_parse_records_the_column_of_each_list_element),
    cmocka_unit_test (test_parse_reports_an_error_in_the_third_element_at_its_column),
    cmocka_unit_test (test_parse_trims_whitespace_around_list_elements),
    cmocka_unit_test (test_parse_records_the_column_of_a_list_element_after_its_whitespace),
    cmocka_unit_test (test_parse_keeps_escaped_semicolon_in_a_list_element),
    cmocka_unit_test (test_parse_keeps_escaped_space_at_the_end_of_a_list_element),
    cmocka_unit_test (test_parse_keeps_escaped_space_at_the_start_of_a_value),
    cmocka_unit_test (test_parse_trims_trailing_whitespace_of_a_scalar),
    cmocka_unit_test (test_parse_warns_about_an_empty_middle_list_element),
    cmocka_unit_test (test_parse_points_the_empty_element_warning_at_the_element),
    cmocka_unit_test (test_parse_accepts_a_trailing_semicolon_silently),
    cmocka_unit_test (test_parse_reads_an_empty_list_value_as_zero_items),
    cmocka_unit_test (test_parse_warns_about_a_trailing_comment),
    cmocka_unit_test (test_parse_does_not_warn_about_a_hash_inside_a_word),
    cmocka_unit_test (test_load_lets_the_including_file_override_an_included_scalar),
    cmocka_unit_test (test_load_keeps_an_included_scalar_the_includer_does_not_set),
    cmocka_unit_test (test_load_accumulates_lists_with_included_values_first),
    cmocka_unit_test (test_load_records_every_source_in_load_order),
    cmocka_unit_test (test_load_tells_the_resolver_which_file_includes),
    cmocka_unit_test (test_load_reports_errors_in_an_included_file_under_its_name),
    cmocka_unit_test (test_load_reports_a_missing_include_at_its_item),
    cmocka_unit_test (test_load_reports_an_include_cycle),
    cmocka_unit_test (test_load_reports_a_file_that_includes_itself),
    cmocka_unit_test (test_load_accepts_an_include_chain_at_the_depth_limit),
    cmocka_unit_test (test_load_reports_an_include_chain_deeper_than_the_limit),
    cmocka_unit_test (test_load_merges_a_diamond_include_once),
    cmocka_unit_test (test_load_reports_a_too_large_included_file),
    cmocka_unit_test (test_load_accepts_an_included_file_of_exactly_the_byte_limit),
    cmocka_unit_test (test_load_fails_with_limit_error_on_a_too_large_top_file),
    cmocka_unit_test (test_load_fails_with_gerror_when_the_top_policy_is_missing),
    cmocka_unit_test (test_load_reports_more_values_than_the_limit),
    cmocka_unit_test (test_load_accepts_exactly_the_value_limit),
    cmocka_unit_test (test_load_reports_more_files_than_the_limit),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
