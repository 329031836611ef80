/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-protect: compile's [filesystem] protect= step. What the sandbox
 * could leave in a writable bind for the host to run later (a hook in
 * .git/hooks, a core.fsmonitor line in .git/config) is bound read-only
 * onto itself, every directory on the way is pinned (bound onto itself,
 * so it cannot be moved aside), an absent .git/ directory becomes an
 * empty read-only one, any other absent entry is skipped by name and a
 * symlink is refused at the entry's rule. A worktree's .git file is
 * followed to the repository it names, but only into a writable bind:
 * a .git file is the sandbox's to write, and a bind of what it names
 * under a tmpfs would uncover what the tmpfs hides. Every case asserts
 * the exact mounts (kind, source, destination, pinned) in their order,
 * the exact skips or the exact error; the fixture's .git files are
 * written into its sysroot, where the scan reads them. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "compile.h"
#include "fixture-host.h"
#include "plan.h"
#include "policy.h"

#define W FIXTURE_WORKDIR
#define STORE FIXTURE_HOME "/store"
#define ABSENT "absent: nothing to keep read-only here"

/* --- helpers ------------------------------------------------------------ */

static gboolean
is_mount (CordonOpKind kind)
{
  return kind == CORDON_OP_BIND || kind == CORDON_OP_RO_BIND || kind == CORDON_OP_TMPFS
         || kind == CORDON_OP_MASK_DIR || kind == CORDON_OP_MASK_FILE;
}

/* The mounts of the plan from the (unpinned) writable bind of `bind`
 * on, one a line: "KIND SRC -> DEST", SRC "-" where there is none, and
 * " pinned" for a pinned one. Empty when there is no such bind. */
static char *
describe_mounts_from (const CordonPlan *plan,
                      const char *bind)
{
  g_autoptr(GString) out = g_string_new (NULL);
  gboolean started = FALSE;

  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);

      started = started || (op->kind == CORDON_OP_BIND && !op->pinned && g_str_equal (op->dest, bind));
      if (started && is_mount (op->kind))
        g_string_append_printf (out, "%s %s -> %s%s%s\n", cordon_op_kind_name (op->kind),
                                op->src != NULL ? op->src : "-", op->dest, op->pinned ? " pinned" : "",
                                op->placeholder ? " placeholder" : "");
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* The pinned ops of the plan, as describe_mounts_from spells them. */
static char *
describe_pinned (const CordonPlan *plan)
{
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);

      if (op->pinned)
        g_string_append_printf (out, "%s %s -> %s pinned%s\n", cordon_op_kind_name (op->kind),
                                op->src != NULL ? op->src : "-", op->dest, op->placeholder ? " placeholder" : "");
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* The skips of protect= entries, one a line: "PATH: REASON (LINE:COL)". */
static char *
describe_protect_skips (const CordonPlan *plan)
{
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < plan->skipped->len; i++)
    {
      const CordonSkip *skip = g_ptr_array_index (plan->skipped, i);

      if (skip->key == CORDON_KEY_FS_PROTECT)
        g_string_append_printf (out, "%s: %s (%u:%u)\n", skip->path, skip->reason,
                                skip->rule.line, skip->rule.col);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* How many ops have a destination at or below `dir`. */
static guint
count_ops_below (const CordonPlan *plan,
                 const char *dir)
{
  g_autofree char *prefix = g_strconcat (dir, "/", NULL);
  guint n = 0;

  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);

      n += op->dest != NULL && (g_str_equal (op->dest, dir) || g_str_has_prefix (op->dest, prefix));
    }
  return n;
}

/* Writes `text` at `path` (as the sandbox sees it) in the fixture's
 * sysroot: a .git file or a commondir file, as git writes them. */
static void
write_host_file (FixtureHost *host,
                 const char *path,
                 const char *text)
{
  g_autofree char *real = g_strconcat (host->root, path, NULL);
  g_autoptr(GError) error = NULL;

  fixture_host_add_file (host, path);
  if (!g_file_set_contents (real, text, -1, &error))
    fail_msg ("cannot write %s: %s", real, error->message);
}

/* A repository in `dir`: .git/hooks/ and .git/config. */
static void
add_repository (FixtureHost *host,
                const char *dir)
{
  g_autofree char *hooks = g_strconcat (dir, "/.git/hooks", NULL);
  g_autofree char *config = g_strconcat (dir, "/.git/config", NULL);

  fixture_host_add_dir (host, hooks);
  fixture_host_add_file (host, config);
}

static char *
compile_refused (FixtureHost *host,
                 const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPlan) plan = fixture_compile_text (host, text, &error);

  if (plan != NULL)
    fail_msg ("compiled: no error");
  if (!g_error_matches (error, CORDON_ERROR, CORDON_ERROR_HOST))
    fail_msg ("error %s %d, not CORDON_ERROR_HOST: %s", g_quark_to_string (error->domain),
              error->code, error->message);
  return g_strdup (error->message);
}

#define REPO_POLICY "[filesystem]\nroot=read-only\nwritable=${WORKDIR}\nprotect=.git/hooks/;.git/config\n"

/* --- a repository in the workdir ------------------------------------------ */

/* .git is pinned once for both entries, and comes before them: a bind
 * of .git after them would hide them. */
static void
test_protect_binds_a_repository_s_hooks_and_config_read_only_below_a_pinned_git_dir (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;
  g_autofree char *mounts = NULL, *skips = NULL;

  add_repository (host, W);
  plan = fixture_compile_ok (host, REPO_POLICY);
  mounts = describe_mounts_from (plan, W);
  skips = describe_protect_skips (plan);
  assert_string_equal (mounts,
                       "bind " W " -> " W "\n"
                       "bind " W "/.git -> " W "/.git pinned\n"
                       "ro-bind " W "/.git/hooks -> " W "/.git/hooks pinned\n"
                       "ro-bind " W "/.git/config -> " W "/.git/config pinned\n");
  assert_string_equal (skips, "");
}

/* git makes hooks/ when it is missing; an empty read-only one in its
 * place keeps the sandbox from making it first. A missing file has
 * nothing to hold: skipped, at its item. */
static void
test_protect_puts_an_empty_read_only_dir_at_an_absent_git_dir_and_skips_an_absent_file (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;
  g_autofree char *mounts = NULL, *skips = NULL;

  fixture_host_add_dir (host, W "/.git/objects");
  plan = fixture_compile_ok (host, REPO_POLICY);
  mounts = describe_mounts_from (plan, W);
  skips = describe_protect_skips (plan);
  assert_string_equal (mounts,
                       "bind " W " -> " W "\n"
                       "bind " W "/.git -> " W "/.git pinned\n"
                       "mask-dir - -> " W "/.git/hooks pinned\n");
  assert_string_equal (skips, W "/.git/config: " ABSENT " (4:21)\n");
}

/* Outside a repository no .git is made; an entry not of a repository
 * (.vscode/, .envrc) takes a placeholder: an empty read-only directory
 * for the run, whose mount point the keeper makes and removes. */
static void
test_protect_places_an_absent_entry_and_names_each_git_entry_where_there_is_no_repository (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;
  g_autofree char *pinned = NULL, *skips = NULL;

  plan = fixture_compile_ok (host, "[filesystem]\nroot=read-only\nwritable=${WORKDIR}\n"
                                   "protect=.git/hooks/;.git/config;.vscode/;.envrc\n");
  pinned = describe_pinned (plan);
  skips = describe_protect_skips (plan);
  assert_string_equal (pinned,
                       "mask-dir - -> " W "/.vscode pinned placeholder\n"
                       "mask-dir - -> " W "/.envrc pinned placeholder\n");
  assert_int_equal (count_ops_below (plan, W), 4);   /* the bind, the chdir and the two */
  assert_string_equal (skips,
                       W "/.git/hooks: " ABSENT " (4:9)\n"
                       W "/.git/config: " ABSENT " (4:21)\n");
}

/* A mount cannot hold a symlink: bwrap would follow it, and the
 * sandbox can point it anywhere between runs. */
static void
test_protect_refuses_a_symlink_at_an_entry_and_names_its_unprotect (void **state)
{
  FixtureHost *host = *state;
  g_autofree char *message = NULL;

  fixture_host_add_dir (host, W "/elsewhere");
  fixture_host_add_symlink (host, W "/.vscode", "elsewhere");
  message = compile_refused (host, "[filesystem]\nroot=read-only\nwritable=${WORKDIR}\n"
                                   "protect=.git/config;.vscode/\n");
  assert_string_equal (message,
                       "test.policy:4:21: '" W "/.vscode' is a symbolic link: [filesystem] protect= can keep "
                       "only a file or a directory read-only (replace it, or take the entry out with "
                       "unprotect=.vscode)");
}

static void
test_protect_refuses_a_symlink_on_the_way_to_an_entry (void **state)
{
  FixtureHost *host = *state;
  g_autofree char *message = NULL;

  add_repository (host, FIXTURE_HOME "/repo");
  fixture_host_add_symlink (host, W "/.git", "../repo/.git");
  message = compile_refused (host, REPO_POLICY);
  assert_string_equal (message,
                       "test.policy:4:9: '" W "/.git' is a symbolic link on the way: [filesystem] protect= "
                       "can keep only a file or a directory read-only (replace it, or take the entry out "
                       "with unprotect=.git/hooks)");
}

/* A hook hard-linked to a file of the workdir is written there: a
 * read-only bind of hooks/ would not hold it. Nor .git/config. */
static void
test_protect_refuses_a_hard_linked_hook_or_config (void **state)
{
  FixtureHost *host = *state;
  g_autofree char *hook = g_build_filename (host->root, W "/.git/hooks/pre-commit", NULL);
  g_autofree char *config = g_build_filename (host->root, W "/.git/config", NULL);
  g_autofree char *x = g_build_filename (host->root, W "/x", NULL);
  g_autofree char *y = g_build_filename (host->root, W "/y", NULL);
  g_autofree char *message = NULL;

  add_repository (host, W);
  fixture_host_add_file (host, W "/.git/hooks/pre-commit");
  assert_int_equal (link (hook, x), 0);
  assert_int_equal (link (config, y), 0);
  message = compile_refused (host, REPO_POLICY);
  assert_non_null (strstr (message, "'" W "/.git/hooks/pre-commit' has another hard link"));
  g_free (message);
  message = compile_refused (host, "[filesystem]\nroot=read-only\nwritable=${WORKDIR}\nprotect=.git/config\n");
  assert_non_null (strstr (message, "'" W "/.git/config' has another hard link"));
}

/* A symlink in hooks/ to a file of the workdir: the hook is what the
 * sandbox writes there. */
static void
test_protect_refuses_a_symlink_inside_an_entry_to_the_workdir (void **state)
{
  FixtureHost *host = *state;
  g_autofree char *message = NULL;

  add_repository (host, W);
  fixture_host_add_file (host, W "/x");
  fixture_host_add_symlink (host, W "/.git/hooks/post-merge", "../../x");
  message = compile_refused (host, REPO_POLICY);
  assert_non_null (strstr (message, "'" W "/.git/hooks/post-merge' is a symbolic link to what the sandbox may write"));
}

/* The control: one to what the sandbox cannot write holds. */
static void
test_protect_keeps_a_symlink_inside_an_entry_to_the_read_only_root (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;

  add_repository (host, W);
  fixture_host_add_symlink (host, W "/.git/hooks/post-merge", "../../../../../usr/bin/sh");
  plan = fixture_compile_ok (host, REPO_POLICY);
  assert_non_null (plan);
}

/* The directory core.hooksPath names (husky's .husky/_, a .githooks of
 * the project's) is where git runs hooks from: read-only as hooks/ is. */
static void
test_protect_binds_the_hooks_path_of_a_protected_config_read_only (void **state)
{
  FixtureHost *host = *state;
  g_autofree char *config = g_build_filename (host->root, W "/.git/config", NULL);
  g_autoptr(CordonPlan) plan = NULL;
  g_autofree char *pinned = NULL;

  add_repository (host, W);
  fixture_host_add_dir (host, W "/tools/hooks");
  assert_true (g_file_set_contents (config, "[core]\n\thooksPath = tools/hooks\n", -1, NULL));
  plan = fixture_compile_ok (host, REPO_POLICY);
  pinned = describe_pinned (plan);
  assert_non_null (strstr (pinned, "ro-bind " W "/tools/hooks -> " W "/tools/hooks pinned\n"));
  assert_non_null (strstr (pinned, "bind " W "/tools -> " W "/tools pinned\n"));
}

/* A value cordon cannot read as git does is refused, not guessed. */
static void
test_protect_refuses_a_hooks_path_it_cannot_read (void **state)
{
  FixtureHost *host = *state;
  g_autofree char *config = g_build_filename (host->root, W "/.git/config", NULL);
  g_autofree char *message = NULL;

  add_repository (host, W);
  assert_true (g_file_set_contents (config, "[core]\n\thooksPath = \"tools/hooks\"\n", -1, NULL));
  message = compile_refused (host, REPO_POLICY);
  assert_non_null (strstr (message, "'" W "/.git/config' sets core.hooksPath as cordon cannot read it"));
}

/* --- which entries -------------------------------------------------------- */

/* unprotect= matches with or without the trailing '/': the entry is
 * gone from the list and from the plan. */
static void
test_protect_takes_out_an_entry_unprotect_names_with_or_without_its_slash (void **state)
{
  FixtureHost *host = *state;
  static const char * const texts[] = {
    REPO_POLICY "unprotect=.git/hooks\n",
    REPO_POLICY "unprotect=.git/hooks/\n",
  };

  add_repository (host, W);
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(CordonPolicy) policy = fixture_load_text (texts[i], NULL, &error);
      g_autoptr(GPtrArray) kept = NULL;
      g_autoptr(CordonPlan) plan = NULL;
      g_autofree char *mounts = NULL;

      assert_non_null (policy);
      kept = cordon_policy_get_protected (policy);
      assert_int_equal (kept->len, 1);
      assert_string_equal (((const CordonItem *) g_ptr_array_index (kept, 0))->text, ".git/config");
      plan = fixture_compile_ok (host, texts[i]);
      mounts = describe_mounts_from (plan, W);
      assert_string_equal (mounts,
                           "bind " W " -> " W "\n"
                           "bind " W "/.git -> " W "/.git pinned\n"
                           "ro-bind " W "/.git/config -> " W "/.git/config pinned\n");
    }
}

/* The first of the same path (with or without '/') is kept, once. */
static void
test_protect_keeps_a_repeated_entry_once (void **state)
{
  FixtureHost *host = *state;
  const char *text = "[filesystem]\nroot=read-only\nwritable=${WORKDIR}\n"
                     "protect=.git/config;.git/hooks/;.git/config;.git/hooks\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPolicy) policy = fixture_load_text (text, NULL, &error);
  g_autoptr(GPtrArray) kept = NULL;
  g_autoptr(CordonPlan) plan = NULL;
  g_autofree char *pinned = NULL;
  const CordonItem *hooks;

  assert_non_null (policy);
  kept = cordon_policy_get_protected (policy);
  assert_int_equal (kept->len, 2);
  assert_string_equal (((const CordonItem *) g_ptr_array_index (kept, 0))->text, ".git/config");
  hooks = g_ptr_array_index (kept, 1);
  assert_string_equal (hooks->text, ".git/hooks/");
  assert_int_equal (hooks->loc.col, 21);
  add_repository (host, W);
  plan = fixture_compile_ok (host, text);
  pinned = describe_pinned (plan);
  assert_string_equal (pinned,
                       "bind " W "/.git -> " W "/.git pinned\n"
                       "ro-bind " W "/.git/config -> " W "/.git/config pinned\n"
                       "ro-bind " W "/.git/hooks -> " W "/.git/hooks pinned\n");
}

/* Each writable bind (writable= and writable-try=) is a place the
 * sandbox writes: each has its own. */
static void
test_protect_holds_the_entries_in_each_writable_bind (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;
  g_autofree char *pinned = NULL;

  fixture_host_add_file (host, W "/.git/config");
  fixture_host_add_file (host, STORE "/.git/config");
  plan = fixture_compile_ok (host, "[filesystem]\nroot=read-only\nwritable=${WORKDIR}\n"
                                   "writable-try=${HOME}/store\nprotect=.git/config\n");
  pinned = describe_pinned (plan);
  assert_string_equal (pinned,
                       "bind " STORE "/.git -> " STORE "/.git pinned\n"
                       "ro-bind " STORE "/.git/config -> " STORE "/.git/config pinned\n"
                       "bind " W "/.git -> " W "/.git pinned\n"
                       "ro-bind " W "/.git/config -> " W "/.git/config pinned\n");
}

/* --- where a bind would uncover ------------------------------------------- */

/* A pinned directory hides what was mounted below it before: that is
 * made again after it (a read-only objects/ stays read-only). */
static void
test_protect_makes_a_mount_below_a_pinned_dir_again_after_it (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;
  g_autofree char *mounts = NULL;

  add_repository (host, W);
  fixture_host_add_dir (host, W "/.git/objects");
  plan = fixture_compile_ok (host, "[filesystem]\nroot=read-only\nwritable=${WORKDIR}\n"
                                   "read-only=${WORKDIR}/.git/objects\nprotect=.git/hooks/\n");
  mounts = describe_mounts_from (plan, W);
  assert_string_equal (mounts,
                       "bind " W " -> " W "\n"
                       "ro-bind " W "/.git/objects -> " W "/.git/objects\n"
                       "bind " W "/.git -> " W "/.git pinned\n"
                       "ro-bind " W "/.git/objects -> " W "/.git/objects\n"
                       "ro-bind " W "/.git/hooks -> " W "/.git/hooks pinned\n");
}

/* Without a writable bind the sandbox writes nothing the host runs:
 * nothing to protect. Below a read-only bind inside a writable one,
 * the entry is read-only already: nothing is bound there either. */
static void
test_protect_binds_nothing_where_the_sandbox_cannot_write (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) none = NULL, nested = NULL;
  g_autofree char *pinned = NULL, *nested_pinned = NULL, *skips = NULL;

  add_repository (host, W);
  none = fixture_compile_ok (host, "[filesystem]\nroot=read-only\nprotect=.git/hooks/;.git/config\n");
  pinned = describe_pinned (none);
  assert_string_equal (pinned, "");
  assert_int_equal (count_ops_below (none, W), 1);   /* the chdir */
  nested = fixture_compile_ok (host, "[filesystem]\nroot=read-only\nwritable=${WORKDIR}\n"
                                     "read-only=${WORKDIR}/.git\nprotect=.git/hooks/;.git/config\n");
  nested_pinned = describe_pinned (nested);
  skips = describe_protect_skips (nested);
  assert_string_equal (nested_pinned, "");
  assert_int_equal (count_ops_below (nested, W "/.git"), 1);   /* the read-only bind */
  assert_string_equal (skips, "");
}

/* --- a .git file --------------------------------------------------------- */

/* A linked worktree: its .git file names its gitdir in the repository's
 * .git/worktrees/, whose commondir names the repository's .git, which
 * holds the hooks and config git runs. The .git file is read-only (else
 * the sandbox points it at a repository of its own); the hooks and
 * config are those of the repository, held in the other writable bind. */
static void
test_protect_follows_a_worktree_s_git_file_into_its_repository (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPlan) plan = NULL;
  g_autofree char *pinned = NULL;

  add_repository (host, STORE "/main");
  write_host_file (host, W "/.git", "gitdir: ../store/main/.git/worktrees/wt\n");
  write_host_file (host, STORE "/main/.git/worktrees/wt/commondir", "../..\n");
  plan = fixture_compile_text (host, "[filesystem]\nroot=read-only\nwritable=${WORKDIR};${HOME}/store\n"
                                     "protect=.git/hooks/;.git/config;.git/commondir\n", &error);
  if (plan == NULL)
    fail_msg ("refused: %s", error->message);
  pinned = describe_pinned (plan);
  /* The gitdir's own hooks/ is none git reads (its commondir's are):
   * no empty one is made there. */
  assert_string_equal (pinned,
                       "ro-bind " W "/.git -> " W "/.git pinned\n"
                       "bind " STORE "/main -> " STORE "/main pinned\n"
                       "bind " STORE "/main/.git -> " STORE "/main/.git pinned\n"
                       "bind " STORE "/main/.git/worktrees -> " STORE "/main/.git/worktrees pinned\n"
                       "bind " STORE "/main/.git/worktrees/wt -> " STORE "/main/.git/worktrees/wt pinned\n"
                       "ro-bind " STORE "/main/.git/worktrees/wt/commondir -> " STORE
                       "/main/.git/worktrees/wt/commondir pinned\n"
                       "ro-bind " STORE "/main/.git/hooks -> " STORE "/main/.git/hooks pinned\n"
                       "ro-bind " STORE "/main/.git/config -> " STORE "/main/.git/config pinned\n");
}

/* The attack: the sandbox writes a .git file naming ~/.ssh, which the
 * policy hides under a tmpfs. A bind of ~/.ssh/config (or of ~/.ssh, on
 * the way to hooks/) from the host would show the keys in the next run:
 * nothing is bound there. The control, on a second host: the same .git
 * file naming a repository in the workdir is followed. */
static void
test_protect_binds_nothing_a_planted_git_file_names_under_a_tmpfs (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(FixtureHost) control = fixture_host_new (1000);
  const char *text = "[filesystem]\nroot=read-only\ntmpfs=${HOME}\nwritable=${WORKDIR}\n"
                     "protect=.git/config;.git/hooks/\n";
  g_autoptr(CordonPlan) plan = NULL, followed = NULL;
  g_autofree char *pinned = NULL, *control_pinned = NULL;

  fixture_host_add_file (host, FIXTURE_HOME "/.ssh/config");
  fixture_host_add_dir (host, FIXTURE_HOME "/.ssh/hooks");
  write_host_file (host, W "/.git", "gitdir: " FIXTURE_HOME "/.ssh\n");
  plan = fixture_compile_ok (host, text);
  pinned = describe_pinned (plan);
  assert_int_equal (count_ops_below (plan, FIXTURE_HOME "/.ssh"), 0);
  assert_string_equal (pinned, "ro-bind " W "/.git -> " W "/.git pinned\n");

  add_repository (control, W "/planted");
  write_host_file (control, W "/.git", "gitdir: " W "/planted/.git\n");
  followed = fixture_compile_ok (control, text);
  control_pinned = describe_pinned (followed);
  assert_string_equal (control_pinned,
                       "ro-bind " W "/.git -> " W "/.git pinned\n"
                       "bind " W "/planted -> " W "/planted pinned\n"
                       "bind " W "/planted/.git -> " W "/planted/.git pinned\n"
                       "ro-bind " W "/planted/.git/config -> " W "/planted/.git/config pinned\n"
                       "ro-bind " W "/planted/.git/hooks -> " W "/planted/.git/hooks pinned\n");
}

/* The same .git file where ~ is writable and ~/.ssh a masked secret:
 * the mask is all there is at ~/.ssh. Binds there, made before the
 * mask hides them, would still pin ~/.ssh, make an empty hooks/ in it
 * on the host (the mount point of a placeholder) and have verification
 * look for what the mask leaves nowhere to find. */
static void
test_protect_binds_nothing_a_planted_git_file_names_under_a_mask (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;
  g_autofree char *ssh = NULL;

  fixture_host_add_file (host, FIXTURE_HOME "/.ssh/config");
  write_host_file (host, FIXTURE_HOME "/.git", "gitdir: .ssh\n");
  plan = fixture_compile_ok (host, "[filesystem]\nroot=read-only\nwritable=${HOME}\n"
                                   "protect=.git/config;.git/hooks/\n[secrets]\nmask=${HOME}/.ssh\n");
  ssh = describe_mounts_from (plan, FIXTURE_HOME);
  assert_string_equal (ssh,
                       "bind " FIXTURE_HOME " -> " FIXTURE_HOME "\n"
                       "ro-bind " FIXTURE_HOME "/.git -> " FIXTURE_HOME "/.git pinned\n"
                       "mask-dir - -> " FIXTURE_HOME "/.ssh\n");
}

/* --- an entry below another ----------------------------------------------- */

/* A directory entry and an entry below it, in that order: the pin of
 * the directory on the way to the second (a writable bind of it onto
 * itself) must not come after, and so undo, the first's read-only
 * bind. Whatever the order, what covers .vscode last is read-only. */
static void
test_protect_keeps_a_protected_dir_read_only_when_an_entry_below_it_follows (void **state)
{
  FixtureHost *host = *state;
  static const char * const policies[] = {
    "[filesystem]\nroot=read-only\nwritable=${WORKDIR}\nprotect=.vscode/settings.json;.vscode/\n",
    "[filesystem]\nroot=read-only\nwritable=${WORKDIR}\nprotect=.vscode/;.vscode/settings.json\n",
  };

  fixture_host_add_file (host, W "/.vscode/settings.json");
  for (guint i = 0; i < G_N_ELEMENTS (policies); i++)
    {
      g_autoptr(CordonPlan) plan = fixture_compile_ok (host, policies[i]);
      const CordonOp *cover = cordon_plan_cover (plan, W "/.vscode/tasks.json", NULL);

      assert_non_null (cover);
      if (cover->kind != CORDON_OP_RO_BIND)
        fail_msg ("policy %u: %s is covered by a %s at %s", i, W "/.vscode/tasks.json",
                  cordon_op_kind_name (cover->kind), cover->dest);
      assert_string_equal (cover->dest, W "/.vscode");
    }
}

#define T(f) cmocka_unit_test_setup_teardown (f, fixture_host_setup, fixture_host_teardown)

int
main (void)
{
  const struct CMUnitTest tests[] = {
    T (test_protect_binds_a_repository_s_hooks_and_config_read_only_below_a_pinned_git_dir),
    T (test_protect_puts_an_empty_read_only_dir_at_an_absent_git_dir_and_skips_an_absent_file),
    T (test_protect_places_an_absent_entry_and_names_each_git_entry_where_there_is_no_repository),
    T (test_protect_refuses_a_symlink_at_an_entry_and_names_its_unprotect),
    T (test_protect_refuses_a_symlink_on_the_way_to_an_entry),
    T (test_protect_refuses_a_hard_linked_hook_or_config),
    T (test_protect_binds_the_hooks_path_of_a_protected_config_read_only),
    T (test_protect_refuses_a_hooks_path_it_cannot_read),
    T (test_protect_refuses_a_symlink_inside_an_entry_to_the_workdir),
    T (test_protect_keeps_a_symlink_inside_an_entry_to_the_read_only_root),
    T (test_protect_takes_out_an_entry_unprotect_names_with_or_without_its_slash),
    T (test_protect_keeps_a_repeated_entry_once),
    T (test_protect_holds_the_entries_in_each_writable_bind),
    T (test_protect_makes_a_mount_below_a_pinned_dir_again_after_it),
    T (test_protect_binds_nothing_where_the_sandbox_cannot_write),
    T (test_protect_follows_a_worktree_s_git_file_into_its_repository),
    T (test_protect_binds_nothing_a_planted_git_file_names_under_a_tmpfs),
    T (test_protect_binds_nothing_a_planted_git_file_names_under_a_mask),
    T (test_protect_keeps_a_protected_dir_read_only_when_an_entry_below_it_follows),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
