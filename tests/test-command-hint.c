/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-command-hint: what cordon says after a 127 or 126 about where the
 * host has the command (src/command-hint.c). Each case builds a plan by
 * hand over a real temporary tree and asserts the whole hint: the host
 * path, the mount that hides it and the rule that made it; its control
 * is the same tree with the path shown (a bind), absent or not
 * executable, which must give no hint. Nothing below a writable bind is
 * read, even under a mount that hides it. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "command-hint.h"
#include "fixture-host.h"
#include "plan.h"

typedef struct
{
  char *root;                 /* the temporary tree: ROOT/scratch, ROOT/bin, ROOT/work */
  CordonPlan *plan;
} Hint;

static int
setup (void **state)
{
  Hint *h = g_new0 (Hint, 1);
  g_autoptr(GError) error = NULL;

  h->root = g_dir_make_tmp ("cordon-hint-XXXXXX", &error);
  assert_non_null (h->root);
  h->plan = cordon_plan_new ("t");
  *state = h;
  return 0;
}

static int
teardown (void **state)
{
  Hint *h = *state;

  fixture_rm_rf (h->root);
  g_free (h->root);
  cordon_plan_free (h->plan);
  g_free (h);
  return 0;
}

/* ROOT/REL, made with its directories, of `mode`; its path returned. */
static char *
put (Hint *h,
     const char *rel,
     mode_t mode)
{
  g_autofree char *dir = NULL;
  char *path = g_build_filename (h->root, rel, NULL);

  dir = g_path_get_dirname (path);
  assert_int_equal (g_mkdir_with_parents (dir, 0755), 0);
  assert_true (g_file_set_contents (path, "#!/bin/sh\n", -1, NULL));
  assert_int_equal (chmod (path, mode), 0);
  return path;
}

static char *
at (Hint *h,
    const char *rel)
{
  return g_build_filename (h->root, rel, NULL);
}

/* An op over ROOT/REL ("" for ROOT) from rule t.policy:LINE:7 of `key`. */
static void
op (Hint *h,
    CordonOpKind kind,
    const char *rel,
    CordonKey key,
    guint line)
{
  g_autofree char *dest = rel[0] != '\0' ? at (h, rel) : g_strdup (h->root);
  CordonItem it = { .key = key, .text = (char *) "x", .loc = { g_intern_string ("t.policy"), line, 7 } };
  gboolean bind = kind == CORDON_OP_RO_BIND || kind == CORDON_OP_BIND;

  cordon_plan_add_op (h->plan, kind, bind ? dest : NULL, dest, key != CORDON_KEY_INVALID ? &it : NULL, "why");
}

static void
set_path (Hint *h,
          const char *value)
{
  g_ptr_array_add (h->plan->envp, g_strconcat ("PATH=", value, NULL));
}

static void
assert_hint (Hint *h,
             const char *command,
             const char *host_path,
             const char *expected)
{
  g_autofree char *hint = cordon_command_hint (h->plan, command, host_path);

  if (g_strcmp0 (hint, expected) != 0)
    fail_msg ("hint for %s:\n  got      %s\n  expected %s", command, hint != NULL ? hint : "(none)",
              expected != NULL ? expected : "(none)");
}

#define ADVICE "; to run it, bind it with [filesystem] read-only= or copy it into the workdir"

/* --- a command named by its path ------------------------------------------ */

static void
test_hint_names_the_scratch_tmpfs_over_a_path_and_its_rule (void **state)
{
  Hint *h = *state;
  g_autofree char *tool = put (h, "scratch/tool.sh", 0755);
  g_autofree char *scratch = at (h, "scratch");
  g_autofree char *expected = g_strdup_printf ("%s is on the host, but in the sandbox %s is a scratch tmpfs "
                                               "(t.policy:3:7 [filesystem] tmpfs)" ADVICE, tool, scratch);

  op (h, CORDON_OP_RO_BIND, "", CORDON_KEY_FS_ROOT, 1);
  op (h, CORDON_OP_TMPFS, "scratch", CORDON_KEY_FS_TMPFS, 3);
  assert_hint (h, tool, NULL, expected);
}

static void
test_hint_says_nothing_when_a_bind_shows_the_path (void **state)
{
  Hint *h = *state;
  g_autofree char *tool = put (h, "scratch/tool.sh", 0755);

  op (h, CORDON_OP_TMPFS, "", CORDON_KEY_FS_TMPFS, 3);
  op (h, CORDON_OP_RO_BIND, "scratch", CORDON_KEY_FS_READ_ONLY, 4);
  assert_hint (h, tool, NULL, NULL);
}

static void
test_hint_says_nothing_of_a_hidden_path_the_host_lacks_or_cannot_execute (void **state)
{
  Hint *h = *state;
  g_autofree char *plain = put (h, "scratch/data.txt", 0644);
  g_autofree char *absent = at (h, "scratch/absent.sh");
  g_autofree char *dir = at (h, "scratch");

  op (h, CORDON_OP_TMPFS, "scratch", CORDON_KEY_FS_TMPFS, 3);
  assert_hint (h, plain, NULL, NULL);
  assert_hint (h, absent, NULL, NULL);
  assert_hint (h, dir, NULL, NULL);
}

static void
test_hint_names_a_path_no_rule_binds (void **state)
{
  Hint *h = *state;
  g_autofree char *tool = put (h, "opt/tool", 0700);
  g_autofree char *expected = g_strdup_printf ("%s is on the host, but no rule of the policy binds it into "
                                               "the sandbox" ADVICE, tool);

  assert_hint (h, tool, NULL, expected);
}

static void
test_hint_names_a_mask_and_gives_no_advice (void **state)
{
  Hint *h = *state;
  g_autofree char *tool = put (h, "bin/secret-tool", 0755);
  g_autofree char *expected = g_strdup_printf ("%s is on the host, but in the sandbox %s is masked "
                                               "(t.policy:9:7 [secrets] mask)", tool, tool);

  op (h, CORDON_OP_RO_BIND, "", CORDON_KEY_FS_ROOT, 1);
  op (h, CORDON_OP_MASK_FILE, "bin/secret-tool", CORDON_KEY_SECRETS_MASK, 9);
  assert_hint (h, tool, NULL, expected);
}

static void
test_hint_names_a_built_in_mount (void **state)
{
  Hint *h = *state;
  g_autofree char *tool = put (h, "dev/tool", 0755);
  g_autofree char *dev = at (h, "dev");
  g_autofree char *expected = g_strdup_printf ("%s is on the host, but in the sandbox %s is dev (built in)"
                                               ADVICE, tool, dev);

  op (h, CORDON_OP_RO_BIND, "", CORDON_KEY_FS_ROOT, 1);
  op (h, CORDON_OP_DEV, "dev", CORDON_KEY_INVALID, 0);
  assert_hint (h, tool, NULL, expected);
}

/* A relative command is found from the sandbox's working directory; a
 * path with ".." is left to the file system. */
static void
test_hint_resolves_a_relative_command_from_the_sandbox_cwd (void **state)
{
  Hint *h = *state;
  g_autofree char *tool = put (h, "scratch/sub/tool.sh", 0755);
  g_autofree char *scratch = at (h, "scratch");
  g_autofree char *expected = g_strdup_printf ("%s is on the host, but in the sandbox %s is a scratch tmpfs "
                                               "(t.policy:3:7 [filesystem] tmpfs)" ADVICE, tool, scratch);

  op (h, CORDON_OP_RO_BIND, "", CORDON_KEY_FS_ROOT, 1);
  op (h, CORDON_OP_TMPFS, "scratch", CORDON_KEY_FS_TMPFS, 3);
  cordon_plan_add_op (h->plan, CORDON_OP_CHDIR, NULL, scratch, NULL, "cwd");
  assert_hint (h, "./sub/tool.sh", NULL, expected);
  assert_hint (h, "sub/../sub/tool.sh", NULL, NULL);
}

/* --- a bare name, on the sandbox's PATH or the caller's ------------------- */

static void
test_hint_finds_a_bare_name_on_the_sandbox_path_in_a_hidden_directory (void **state)
{
  Hint *h = *state;
  g_autofree char *tool = put (h, "home/u/.cargo/bin/cargo", 0755);
  g_autofree char *bin = at (h, "home/u/.cargo/bin");
  g_autofree char *shown = at (h, "bin");
  g_autofree char *home = at (h, "home");
  g_autofree char *path = g_strdup_printf ("%s:%s", shown, bin);
  g_autofree char *expected = g_strdup_printf ("%s is on the host, but in the sandbox %s is hidden "
                                               "(t.policy:5:7 [filesystem] hide)" ADVICE, tool, home);

  op (h, CORDON_OP_RO_BIND, "", CORDON_KEY_FS_ROOT, 1);
  op (h, CORDON_OP_HIDE_DIR, "home", CORDON_KEY_FS_HIDE, 5);
  set_path (h, path);
  assert_hint (h, "cargo", NULL, expected);
  /* Control: a name the host has nowhere on that PATH. */
  assert_hint (h, "rustc", NULL, NULL);
}

static void
test_hint_names_the_caller_path_directory_the_sandbox_path_leaves_out (void **state)
{
  Hint *h = *state;
  g_autofree char *tool = put (h, "opt/bin/tool", 0755);
  g_autofree char *bin = at (h, "opt/bin");
  g_autofree char *other = at (h, "usr/bin");
  g_autofree char *caller = g_strdup_printf ("relative:%s:%s", other, bin);
  g_autofree char *expected = g_strdup_printf ("%s is on the host and in the sandbox, but the sandbox's PATH "
                                               "leaves %s out; run it by its path", tool, bin);

  op (h, CORDON_OP_RO_BIND, "", CORDON_KEY_FS_ROOT, 1);
  set_path (h, other);
  assert_hint (h, "tool", caller, expected);
  /* Control: the sandbox's PATH holds it (then execvp's miss is not PATH's). */
  g_ptr_array_set_size (h->plan->envp, 0);
  set_path (h, bin);
  assert_hint (h, "tool", caller, NULL);
}

static void
test_hint_names_a_caller_path_directory_left_out_and_hidden (void **state)
{
  Hint *h = *state;
  g_autofree char *tool = put (h, "home/u/bin/tool", 0755);
  g_autofree char *bin = at (h, "home/u/bin");
  g_autofree char *home = at (h, "home");
  g_autofree char *expected = g_strdup_printf ("%s is on the host, but in the sandbox %s is hidden "
                                               "(t.policy:5:7 [filesystem] hide)" ADVICE
                                               " (and the sandbox's PATH leaves %s out)", tool, home, bin);

  op (h, CORDON_OP_RO_BIND, "", CORDON_KEY_FS_ROOT, 1);
  op (h, CORDON_OP_HIDE_DIR, "home", CORDON_KEY_FS_HIDE, 5);
  set_path (h, "/nonexistent-dir");
  assert_hint (h, "tool", bin, expected);
}

/* --- never below a writable bind ------------------------------------------ */

/* What is below a writable bind the sandbox could have made: even a
 * mount that hides it there does not make cordon read the host's. */
static void
test_hint_reads_nothing_below_a_writable_bind (void **state)
{
  Hint *h = *state;
  g_autofree char *tool = put (h, "work/.vscode/tool", 0755);
  g_autofree char *planted = put (h, "work/bin/tool2", 0755);
  g_autofree char *bin = at (h, "work/bin");

  op (h, CORDON_OP_RO_BIND, "", CORDON_KEY_FS_ROOT, 1);
  op (h, CORDON_OP_BIND, "work", CORDON_KEY_FS_WRITABLE, 2);
  op (h, CORDON_OP_MASK_DIR, "work/.vscode", CORDON_KEY_FS_PROTECT, 3);
  assert_hint (h, tool, NULL, NULL);
  set_path (h, "/nonexistent-dir");
  assert_hint (h, "tool2", bin, NULL);
}

/* Control of the case above: the same tree without the writable bind. */
static void
test_hint_reads_the_same_tree_with_no_writable_bind (void **state)
{
  Hint *h = *state;
  g_autofree char *tool = put (h, "work/.vscode/tool", 0755);
  g_autofree char *dir = at (h, "work/.vscode");
  g_autofree char *expected = g_strdup_printf ("%s is on the host, but in the sandbox %s is masked "
                                               "(t.policy:3:7 [filesystem] protect)", tool, dir);

  op (h, CORDON_OP_RO_BIND, "", CORDON_KEY_FS_ROOT, 1);
  op (h, CORDON_OP_MASK_DIR, "work/.vscode", CORDON_KEY_FS_PROTECT, 3);
  assert_hint (h, tool, NULL, expected);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown (test_hint_names_the_scratch_tmpfs_over_a_path_and_its_rule, setup, teardown),
    cmocka_unit_test_setup_teardown (test_hint_says_nothing_when_a_bind_shows_the_path, setup, teardown),
    cmocka_unit_test_setup_teardown (test_hint_says_nothing_of_a_hidden_path_the_host_lacks_or_cannot_execute,
                                     setup, teardown),
    cmocka_unit_test_setup_teardown (test_hint_names_a_path_no_rule_binds, setup, teardown),
    cmocka_unit_test_setup_teardown (test_hint_names_a_mask_and_gives_no_advice, setup, teardown),
    cmocka_unit_test_setup_teardown (test_hint_names_a_built_in_mount, setup, teardown),
    cmocka_unit_test_setup_teardown (test_hint_resolves_a_relative_command_from_the_sandbox_cwd, setup, teardown),
    cmocka_unit_test_setup_teardown (test_hint_finds_a_bare_name_on_the_sandbox_path_in_a_hidden_directory,
                                     setup, teardown),
    cmocka_unit_test_setup_teardown (test_hint_names_the_caller_path_directory_the_sandbox_path_leaves_out,
                                     setup, teardown),
    cmocka_unit_test_setup_teardown (test_hint_names_a_caller_path_directory_left_out_and_hidden, setup, teardown),
    cmocka_unit_test_setup_teardown (test_hint_reads_nothing_below_a_writable_bind, setup, teardown),
    cmocka_unit_test_setup_teardown (test_hint_reads_the_same_tree_with_no_writable_bind, setup, teardown),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
