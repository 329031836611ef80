/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-git-config: which keys of a git config file run a program. The
 * post-run audit reads the config files a sandbox wrote with it, so the
 * text is the sandbox's: each key git would run is named, in git's
 * lowercase spelling and with a subsection as "<...>", whatever case or
 * header form it was written in (a key on the header line, the old
 * "[section.sub]"); what git would not run (a boolean core.fsmonitor,
 * an alias without '!', a comment, the rest of a continued value, what
 * "git init" writes) is not; a key is named once; and no value, nor a
 * subsection's text, is ever returned: either may hold a secret. Every
 * case asserts the exact list of names. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <glib.h>

#include "git-config.h"

/* --- helpers ------------------------------------------------------------ */

/* The runner keys of `text`, joined by ", " ("" for none). */
static char *
runners_of (const char *text)
{
  g_autoptr(GPtrArray) keys = cordon_git_config_runners (text, strlen (text));

  assert_non_null (keys);
  g_ptr_array_add (keys, NULL);
  return g_strjoinv (", ", (char **) keys->pdata);
}

static void
assert_runners (const char *text,
                const char *expected)
{
  g_autofree char *got = runners_of (text);

  if (!g_str_equal (got, expected))
    fail_msg ("config:\n%s\nnamed '%s', expected '%s'", text, got, expected);
}

/* The same, for `len` bytes of `text` (a NUL among them). */
static void
assert_runners_len (const char *text,
                    gsize len,
                    const char *expected)
{
  g_autoptr(GPtrArray) keys = cordon_git_config_runners (text, len);
  g_autofree char *got = NULL;

  g_ptr_array_add (keys, NULL);
  got = g_strjoinv (", ", (char **) keys->pdata);
  if (!g_str_equal (got, expected))
    fail_msg ("named '%s', expected '%s'", got, expected);
}

/* --- cases -------------------------------------------------------------- */

static void
test_git_config_names_each_runner_key_in_file_order (void **state)
{
  assert_runners ("[core]\n"
                  "\trepositoryformatversion = 0\n"
                  "\tfsmonitor = /work/fsm.sh\n"
                  "\thooksPath = /work/hooks\n"
                  "\tsshCommand = ssh -o ProxyCommand=x\n"
                  "[alias]\n"
                  "\tst = !sh -c 'touch /x'\n"
                  "[filter \"lfs\"]\n"
                  "\tclean = c %f\n"
                  "\tsmudge = s %f\n"
                  "\tprocess = p\n"
                  "[diff \"pdf\"]\n"
                  "\ttextconv = t\n"
                  "[include]\n"
                  "\tpath = ../shared.gitconfig\n"
                  "[includeIf \"gitdir:/work/\"]\n"
                  "\tpath = ../other.gitconfig\n"
                  "[credential]\n"
                  "\thelper = store\n",
                  "core.fsmonitor, core.hookspath, core.sshcommand, alias.st, filter.<...>.clean, "
                  "filter.<...>.smudge, filter.<...>.process, diff.<...>.textconv, include.path, "
                  "includeif.<...>.path, credential.helper");
}

static void
test_git_config_names_the_other_keys_that_run_a_program (void **state)
{
  static const struct
  {
    const char *text;
    const char *expected;
  } cases[] = {
    { "[core]\n\tpager = less\n", "core.pager" },
    { "[core]\n\teditor = vi\n", "core.editor" },
    { "[core]\n\taskPass = /x\n", "core.askpass" },
    { "[core]\n\tgitProxy = /x\n", "core.gitproxy" },
    { "[core]\n\tworktree = /x\n", "core.worktree" },
    { "[sequence]\n\teditor = /x\n", "sequence.editor" },
    { "[diff]\n\texternal = /x\n", "diff.external" },
    { "[diff \"x\"]\n\tcommand = /x\n", "diff.<...>.command" },
    { "[merge \"x\"]\n\tdriver = /x %O %A %B\n", "merge.<...>.driver" },
    { "[credential \"https://example.org\"]\n\thelper = /x\n", "credential.<...>.helper" },
    { "[gpg]\n\tprogram = /x\n", "gpg.program" },
    { "[gpg \"ssh\"]\n\tprogram = /x\n", "gpg.<...>.program" },
    { "[uploadpack]\n\tpackObjectsHook = /x\n", "uploadpack.packobjectshook" },
    { "[remote \"origin\"]\n\tuploadpack = /x\n", "remote.<...>.uploadpack" },
    { "[remote \"origin\"]\n\treceivepack = /x\n", "remote.<...>.receivepack" },
    { "[submodule \"m\"]\n\tupdate = !/x\n", "submodule.<...>.update" },
    { "[extensions]\n\tworktreeConfig = true\n", "extensions.worktreeconfig" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    assert_runners (cases[i].text, cases[i].expected);
}

static void
test_git_config_names_every_submodule_update (void **state)
{
  /* A sandbox's config has no business setting one: named, whatever it is. */
  assert_runners ("[submodule \"m\"]\n\tupdate = rebase\n", "submodule.<...>.update");
  assert_runners ("[submodule \"m\"]\n\tupdate = !/x\n", "submodule.<...>.update");
  assert_runners ("[submodule \"m\"]\n\turl = https://example.org/m.git\n", "");
}

static void
test_git_config_matches_sections_and_keys_in_any_case (void **state)
{
  assert_runners ("[CORE]\n"
                  "\tFsMonitor = /x\n"
                  "[Filter \"X\"]\n"
                  "\tCLEAN = /y\n"
                  "[ALIAS]\n"
                  "\tDoIt = !/z\n",
                  "core.fsmonitor, filter.<...>.clean, alias.doit");
}

static void
test_git_config_reads_a_key_on_the_header_line (void **state)
{
  assert_runners ("[core] fsmonitor = /x\n", "core.fsmonitor");
  assert_runners ("[core]hookspath=/x\n", "core.hookspath");
  /* The control: the header alone names nothing. */
  assert_runners ("[core]\n", "");
}

static void
test_git_config_takes_the_legacy_dotted_subsection (void **state)
{
  assert_runners ("[filter.lfs]\n\tsmudge = /x\n", "filter.<...>.smudge");
  assert_runners ("[diff.pdf]\n\ttextconv = /x\n", "diff.<...>.textconv");
  /* The same key without a subsection is no filter's. */
  assert_runners ("[filter]\n\tsmudge = /x\n", "");
}

static void
test_git_config_calls_what_git_may_read_otherwise_unreadable (void **state)
{
  /* A continued line: git's continuation rules (comments, escaped
   * backslashes) are not followed here, so the whole file is named. */
  assert_runners ("[core]\n\tx = one \\\nfsmonitor = /x\n", "<unreadable>");
  assert_runners ("[user]\n# note \\\n[core]\nfsmonitor = /x\n", "<unreadable>, core.fsmonitor");
  /* A NUL (git reads on past it), two headers on a line, a ']' in a
   * quoted subsection. */
  assert_runners_len ("[user]\n\tname = a\0b\n", 17, "<unreadable>");
  assert_runners ("[user] [core] fsmonitor = /x\n", "<unreadable>");
  assert_runners ("[diff \"a]b\"]\n\ttextconv = /x\n", "<unreadable>, diff.<...>.textconv");
  /* The control: the same keys, plainly written, are read as such. */
  assert_runners ("[core]\n\tx = one\nfsmonitor = /x\n", "core.fsmonitor");
  /* A byte order mark is skipped, as git skips it. */
  assert_runners ("\xef\xbb\xbf[core]\n\tfsmonitor = /x\n", "core.fsmonitor");
}

static void
test_git_config_leaves_out_a_boolean_fsmonitor (void **state)
{
  static const char * const booleans[] = { "true", "false", "yes", "no", "on", "off", "1", "0", NULL };

  for (guint i = 0; booleans[i] != NULL; i++)
    {
      g_autofree char *text = g_strdup_printf ("[core]\n\tfsmonitor = %s\n", booleans[i]);

      assert_runners (text, "");
    }
  /* A bare key is true. */
  assert_runners ("[core]\n\tfsmonitor\n", "");
  /* The control: a program. */
  assert_runners ("[core]\n\tfsmonitor = /x/fsmonitor-watchman\n", "core.fsmonitor");
}

static void
test_git_config_names_every_alias (void **state)
{
  /* One without '!' runs a program too ("-c core.pager=..."). */
  assert_runners ("[alias]\n"
                  "\tst = status\n"
                  "\tco = !sh -c 'touch /x'\n"
                  "\tlg = \"!git log --oneline\"\n",
                  "alias.st, alias.co, alias.lg");
  assert_runners ("[user]\n\tname = n\n", "");
}

static void
test_git_config_names_nothing_of_what_git_init_and_clone_write (void **state)
{
  assert_runners ("[core]\n"
                  "\trepositoryformatversion = 0\n"
                  "\tfilemode = true\n"
                  "\tbare = false\n"
                  "\tlogallrefupdates = true\n"
                  "[remote \"origin\"]\n"
                  "\turl = https://example.org/project.git\n"
                  "\tfetch = +refs/heads/*:refs/remotes/origin/*\n"
                  "[branch \"main\"]\n"
                  "\tremote = origin\n"
                  "\tmerge = refs/heads/main\n"
                  "[user]\n"
                  "\tname = Someone\n"
                  "\temail = someone@example.org\n",
                  "");
}

static void
test_git_config_ignores_comments_and_keys_outside_a_section (void **state)
{
  assert_runners ("fsmonitor = /x\n"
                  "[core]\n"
                  "# fsmonitor = /x\n"
                  "\t; hookspath = /x\n"
                  "[alias]\n"
                  "#x = !not-a-key\n"
                  "\t;y = !nor-this\n",
                  "");
  /* The control: the same alias, not commented out. */
  assert_runners ("[alias]\n\tx = !a-key\n", "alias.x");
}

static void
test_git_config_names_a_repeated_key_once (void **state)
{
  assert_runners ("[core]\n"
                  "\tfsmonitor = /a\n"
                  "[alias]\n"
                  "\tx = !a\n"
                  "[CORE]\n"
                  "\tFSMONITOR = /b\n"
                  "[alias]\n"
                  "\tX = !b\n"
                  "[filter \"one\"]\n"
                  "\tclean = a\n"
                  "[filter \"two\"]\n"
                  "\tclean = b\n",
                  "core.fsmonitor, alias.x, filter.<...>.clean");
}

static void
test_git_config_shows_a_key_git_would_not_take_as_a_name_as_a_placeholder (void **state)
{
  /* An alias's name is the file's own text: shown only when it is a name
   * git takes (letters, digits, '-'). */
  assert_runners ("[alias]\n\tok-1 = !x\n\tx/$(touch y) = !z\n", "alias.ok-1, alias.<...>");
}

static void
test_git_config_reads_no_further_than_its_length (void **state)
{
  static const char text[] = "[core]\n\tbare = false\n\tfsmonitor = /x\n";
  g_autoptr(GPtrArray) head = cordon_git_config_runners (text, strlen ("[core]\n\tbare = false\n"));
  g_autoptr(GPtrArray) all = cordon_git_config_runners (text, strlen (text));

  assert_int_equal (head->len, 0);
  assert_int_equal (all->len, 1);
  assert_string_equal (g_ptr_array_index (all, 0), "core.fsmonitor");
}

static void
test_git_config_returns_no_value_and_no_subsection (void **state)
{
  static const char text[] =
    "[core]\n"
    "\tfsmonitor = /home/SECRET-ghp_0123456789abcdef/fsm\n"
    "\tsshCommand = ssh -i SECRET-key\n"
    "[alias]\n"
    "\tpush-it = !curl -H 'Authorization: SECRET-token' https://example.org\n"
    "[credential \"https://user:SECRET-password@example.org\"]\n"
    "\thelper = store --file SECRET-file\n"
    "[includeIf \"gitdir:/SECRET-dir/\"]\n"
    "\tpath = SECRET-path\n"
    "[filter.SECRET-filter]\n"
    "\tclean = SECRET-clean\n";
  g_autoptr(GPtrArray) keys = cordon_git_config_runners (text, strlen (text));

  /* So that the loop below has something to look at. */
  assert_int_equal (keys->len, 6);
  for (guint i = 0; i < keys->len; i++)
    {
      const char *key = g_ptr_array_index (keys, i);

      if (strstr (key, "SECRET") != NULL || strstr (key, "secret") != NULL)
        fail_msg ("a returned key holds text of a value or subsection: '%s'", key);
    }
  assert_string_equal (g_ptr_array_index (keys, 2), "alias.push-it");
  assert_string_equal (g_ptr_array_index (keys, 3), "credential.<...>.helper");
}

/* --- core.hooksPath -------------------------------------------------------- */

/* The value, "(none)" for NULL, "(odd)" when the reader must not guess. */
static char *
hooks_path_of (const char *text)
{
  gboolean odd = TRUE;
  g_autofree char *value = cordon_git_config_hooks_path (text, strlen (text), &odd);

  if (odd)
    {
      assert_null (value);
      return g_strdup ("(odd)");
    }
  return value != NULL ? g_steal_pointer (&value) : g_strdup ("(none)");
}

static void
assert_hooks_path (const char *text,
                   const char *expected)
{
  g_autofree char *got = hooks_path_of (text);

  if (!g_str_equal (got, expected))
    fail_msg ("config:\n%s\nhooksPath '%s', expected '%s'", text, got, expected);
}

/* The directory git runs hooks from: the last value of [core], as git
 * takes it, whatever the case of the key and the section. */
static void
test_git_config_reads_the_last_hooks_path_of_core (void **state)
{
  assert_hooks_path ("[core]\n\tbare = false\n", "(none)");
  assert_hooks_path ("[core]\n\thooksPath = .husky/_\n", ".husky/_");
  assert_hooks_path ("[Core]\n\tHOOKSPATH=.githooks\n", ".githooks");
  assert_hooks_path ("[core]\nhooksPath = a\n[user]\nname = x\n[core]\nhookspath = /abs/b\n", "/abs/b");
  assert_hooks_path ("[core] hooksPath = inline\n", "inline");
  /* Another section's key of the name is no hooksPath. */
  assert_hooks_path ("[user]\nhooksPath = x\n", "(none)");
}

/* What git would read otherwise than this reader: not guessed. */
static void
test_git_config_calls_a_hooks_path_it_cannot_read_as_git_odd (void **state)
{
  assert_hooks_path ("[core]\nhooksPath = \"quoted dir\"\n", "(odd)");
  assert_hooks_path ("[core]\nhooksPath = a # comment\n", "(odd)");
  assert_hooks_path ("[core]\nhooksPath = a;b\n", "(odd)");
  assert_hooks_path ("[core]\nhooksPath = ~/hooks\n", "(odd)");
  assert_hooks_path ("[core]\nhooksPath = a\\\nb\n", "(odd)");
  assert_hooks_path ("[core]\nhooksPath =\n", "(odd)");
}

/* --- a plain value (user.name for git-identity) ------------------------ */

static void
assert_value (const char *text,
              const char *expected)
{
  g_autofree char *value = cordon_git_config_plain_value (text, strlen (text), "user", "name");

  if (g_strcmp0 (value, expected) != 0)
    fail_msg ("user.name of\n%s\n  got %s, expected %s", text, value != NULL ? value : "(none)",
              expected != NULL ? expected : "(none)");
}

static void
test_git_config_plain_value_is_the_last_one_set (void **state)
{
  assert_value ("[user]\n\tname = Jane Doe\n\temail = j@example.org\n", "Jane Doe");
  assert_value ("[User]\nNAME=Jane\n[core]\nname = not this\n[user]\nname = Last One\n", "Last One");
  assert_value ("[user] name = After The Header\n", "After The Header");
  assert_value ("[user]\nname = \"Quoted Whole\"\n", "Quoted Whole");
  /* Controls: none set, or set elsewhere than [user] itself. */
  assert_value ("[user]\nemail = j@example.org\n", NULL);
  assert_value ("[user \"x\"]\nname = Sub\n[user.y]\nname = Dot\n", NULL);
  assert_value ("# [user]\n; name = Comment\n", NULL);
}

/* What git reads otherwise than this reader is never taken, and a last
 * setting not taken hides those before it (git would take that one). */
static void
test_git_config_plain_value_refuses_what_git_reads_otherwise (void **state)
{
  assert_value ("[user]\nname = Jane # a comment\n", NULL);
  assert_value ("[user]\nname = Jane ; a comment\n", NULL);
  assert_value ("[user]\nname = Ja\\tne\n", NULL);
  assert_value ("[user]\nname = \"Ja\"ne\"\n", NULL);
  assert_value ("[user]\nname = First\nname = Odd # x\n", NULL);
  assert_value ("[user]\nname = Continued \\\n  line\n", NULL);
  assert_value ("[user]\nname = \x01Control\n", NULL);
  assert_value ("[user]\nname = Odd # x\nname = Plain Last\n", "Plain Last");
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_git_config_names_each_runner_key_in_file_order),
    cmocka_unit_test (test_git_config_plain_value_is_the_last_one_set),
    cmocka_unit_test (test_git_config_plain_value_refuses_what_git_reads_otherwise),
    cmocka_unit_test (test_git_config_names_the_other_keys_that_run_a_program),
    cmocka_unit_test (test_git_config_names_every_submodule_update),
    cmocka_unit_test (test_git_config_matches_sections_and_keys_in_any_case),
    cmocka_unit_test (test_git_config_reads_a_key_on_the_header_line),
    cmocka_unit_test (test_git_config_takes_the_legacy_dotted_subsection),
    cmocka_unit_test (test_git_config_calls_what_git_may_read_otherwise_unreadable),
    cmocka_unit_test (test_git_config_leaves_out_a_boolean_fsmonitor),
    cmocka_unit_test (test_git_config_names_every_alias),
    cmocka_unit_test (test_git_config_names_nothing_of_what_git_init_and_clone_write),
    cmocka_unit_test (test_git_config_ignores_comments_and_keys_outside_a_section),
    cmocka_unit_test (test_git_config_names_a_repeated_key_once),
    cmocka_unit_test (test_git_config_shows_a_key_git_would_not_take_as_a_name_as_a_placeholder),
    cmocka_unit_test (test_git_config_reads_no_further_than_its_length),
    cmocka_unit_test (test_git_config_returns_no_value_and_no_subsection),
    cmocka_unit_test (test_git_config_reads_the_last_hooks_path_of_core),
    cmocka_unit_test (test_git_config_calls_a_hooks_path_it_cannot_read_as_git_odd),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
