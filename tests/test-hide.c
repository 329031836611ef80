/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-hide: compile's [filesystem] hide= and hide-siblings= step and
 * the /sys views of a new network and cgroup namespace (src/hide.c). A
 * hidden directory is an empty tmpfs, sorted before what the policy binds
 * below it (so bwrap can still make those mount points) and made read-only
 * by one --remount-ro after every mount; what is absent, not a directory,
 * bound or hidden by the policy already, or outside the sandbox's root is
 * skipped by name; hide-siblings= hides the directory of each writable
 * bind but not a system directory nor one the host's programs live in.
 * Each case asserts the ops (kind, place, order, rule) or the skip and its
 * reason, so that a view which leaks the host, or a hide that covers what
 * the policy shows, fails here. The policy check's refusals and the names
 * a hidden directory shows (what verification looks for) are here too. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "compile.h"
#include "expect-diag.h"
#include "fixture-host.h"
#include "hide.h"
#include "plan.h"
#include "policy-check.h"
#include "policy-parse.h"
#include "render.h"

#define W FIXTURE_WORKDIR
#define RO_ROOT "[filesystem]\nroot=read-only\n"
#define NET_LO "/sys/devices/virtual/net/lo"

/* --- helpers ------------------------------------------------------------ */

/* The plan's ops, one a line ("INDEX KIND SRC -> DEST"), for messages. */
static char *
describe_ops (const CordonPlan *plan)
{
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);

      g_string_append_printf (out, "  %u %s %s -> %s\n", i, cordon_op_kind_name (op->kind),
                              op->src != NULL ? op->src : "-", op->dest != NULL ? op->dest : "-");
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* The index of the first op of `kind` at `dest` (and from `src`, unless
 * NULL), or -1. */
static int
find_op_from (const CordonPlan *plan,
              CordonOpKind kind,
              const char *src,
              const char *dest)
{
  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);

      if (op->kind == kind && g_strcmp0 (op->dest, dest) == 0
          && (src == NULL || g_strcmp0 (op->src, src) == 0))
        return (int) i;
    }
  return -1;
}

static int
find_op (const CordonPlan *plan,
         CordonOpKind kind,
         const char *dest)
{
  return find_op_from (plan, kind, NULL, dest);
}

/* The index of the op that must be there, or the test fails with the plan. */
static guint
expect_op (const CordonPlan *plan,
           CordonOpKind kind,
           const char *src,
           const char *dest)
{
  int i = find_op_from (plan, kind, src, dest);

  if (i < 0)
    {
      g_autofree char *ops = describe_ops (plan);

      fail_msg ("no %s %s -> %s in the plan:\n%s", cordon_op_kind_name (kind), src != NULL ? src : "*",
                dest, ops);
    }
  return (guint) i;
}

/* An op that must not be there. */
static void
expect_no_op (const CordonPlan *plan,
              CordonOpKind kind,
              const char *dest)
{
  int i = find_op (plan, kind, dest);

  if (i >= 0)
    {
      g_autofree char *ops = describe_ops (plan);

      fail_msg ("a %s at %s (op %d):\n%s", cordon_op_kind_name (kind), dest, i, ops);
    }
}

static guint
count_ops (const CordonPlan *plan,
           CordonOpKind kind,
           const char *dest)
{
  guint n = 0;

  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);

      n += op->kind == kind && (dest == NULL || g_strcmp0 (op->dest, dest) == 0);
    }
  return n;
}

/* The index of the --remount-ro option at `dest`, or -1. */
static int
find_seal (const CordonPlan *plan,
           const char *dest)
{
  return find_op_from (plan, CORDON_OP_OPTION, "--remount-ro", dest);
}

/* The skips, one a line: "PATH: REASON". */
static char *
describe_skips (const CordonPlan *plan)
{
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < plan->skipped->len; i++)
    {
      const CordonSkip *skip = g_ptr_array_index (plan->skipped, i);

      g_string_append_printf (out, "  %s: %s\n", skip->path, skip->reason);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* The skip of `path`, whose reason must hold `fragment`. */
static const CordonSkip *
expect_skip (const CordonPlan *plan,
             const char *path,
             const char *fragment)
{
  const CordonSkip *skip = fixture_find_skip (plan, path);
  g_autofree char *all = describe_skips (plan);

  if (skip == NULL)
    fail_msg ("no skip of %s; the skips:\n%s", path, all);
  if (strstr (skip->reason, fragment) == NULL)
    fail_msg ("the skip of %s says '%s', not '%s'", path, skip->reason, fragment);
  return skip;
}

static void
expect_no_skip (const CordonPlan *plan,
                const char *path)
{
  const CordonSkip *skip = fixture_find_skip (plan, path);

  if (skip != NULL)
    fail_msg ("%s is skipped: %s", path, skip->reason);
}

/* The index of the last op that mounts something (the helper in the
 * fresh /dev, made by the launch ops, aside). */
static int
last_mount (const CordonPlan *plan)
{
  int last = -1;

  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);

      switch (op->kind)
        {
        case CORDON_OP_RO_BIND:
        case CORDON_OP_BIND:
        case CORDON_OP_SYMLINK:
        case CORDON_OP_PROC:
        case CORDON_OP_DEV:
        case CORDON_OP_TMPFS:
        case CORDON_OP_MASK_FILE:
        case CORDON_OP_MASK_DIR:
        case CORDON_OP_HIDE_DIR:
        case CORDON_OP_CHDIR:
          last = (int) i;
          break;
        default:
          break;
        }
    }
  return last;
}

static void
rm_host_path (FixtureHost *host,
              const char *path)
{
  g_autofree char *real = g_strconcat (host->root, path, NULL);

  fixture_rm_rf (real);
}

/* The diagnostics of policy check on `text`, parsed as mem/t.policy. */
#define CHECK_FILE "mem/t.policy"
#define ALL_NAMESPACES "[namespaces]\nunshare=user;ipc;pid;net;uts;cgroup\n"

static CordonDiagnostics *
check (const char *text)
{
  return check_policy_text (CHECK_FILE, text);
}

/* --- hide= of a directory --------------------------------------------------- */

/* The tmpfs at /home comes before the workdir's bind below it: after
 * it, it would cover the workdir (the sandbox would write into an empty
 * tmpfs, and its work would be lost). */
static void
test_hide_puts_the_tmpfs_before_the_binds_below_it (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = fixture_compile_ok (host, RO_ROOT "writable=${WORKDIR}\nhide=/home\n");
  guint hide = expect_op (plan, CORDON_OP_HIDE_DIR, NULL, "/home");
  guint bind = expect_op (plan, CORDON_OP_BIND, W, W);
  const CordonOp *op = g_ptr_array_index (plan->ops, hide);

  assert_true (hide < bind);
  assert_null (op->src);
  assert_int_equal (op->key, CORDON_KEY_FS_HIDE);
  assert_int_equal (op->rule.line, 4);
  assert_int_equal (op->rule.col, 6);
  assert_int_equal (count_ops (plan, CORDON_OP_HIDE_DIR, NULL), 1);
  expect_no_skip (plan, "/home");
}

/* Read-only once the last mount point is in: after every mount (and
 * the chdir), else the sandbox could write into the hidden directory
 * (leave files for the next run or the host's tools to find) or bwrap
 * could not make the mount points still to come. One per directory,
 * at the same rule, so explain names the hide= that made it. */
static void
test_hide_seals_each_hidden_dir_read_only_after_every_mount (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;
  guint hide_home, hide_mnt, chdir;
  int seal_home, seal_mnt;
  const CordonOp *h, *s;

  fixture_host_add_dir (host, "/mnt/disk");
  plan = fixture_compile_ok (host, RO_ROOT "writable=${WORKDIR}\nhide=/home;/mnt\n"
                                   "[secrets]\nmask=${HOME}/.ssh\n");
  hide_home = expect_op (plan, CORDON_OP_HIDE_DIR, NULL, "/home");
  hide_mnt = expect_op (plan, CORDON_OP_HIDE_DIR, NULL, "/mnt");
  chdir = expect_op (plan, CORDON_OP_CHDIR, NULL, W);
  seal_home = find_seal (plan, "/home");
  seal_mnt = find_seal (plan, "/mnt");
  if (seal_home < 0 || seal_mnt < 0)
    {
      g_autofree char *ops = describe_ops (plan);

      fail_msg ("a hidden directory is not made read-only:\n%s", ops);
    }
  assert_true (seal_home > last_mount (plan));
  assert_true (seal_mnt > last_mount (plan));
  assert_true (seal_home > (int) chdir);
  assert_int_equal (count_ops (plan, CORDON_OP_OPTION, "/home"), 1);
  assert_int_equal (count_ops (plan, CORDON_OP_OPTION, "/mnt"), 1);
  h = g_ptr_array_index (plan->ops, hide_home);
  s = g_ptr_array_index (plan->ops, seal_home);
  assert_int_equal (s->key, h->key);
  assert_int_equal (s->rule.line, h->rule.line);
  assert_int_equal (s->rule.col, h->rule.col);
  assert_string_equal (s->rule.file, "test.policy");
  h = g_ptr_array_index (plan->ops, hide_mnt);
  s = g_ptr_array_index (plan->ops, seal_mnt);
  assert_int_equal (s->rule.col, h->rule.col);
}

/* Nothing hidden, nothing sealed: a --remount-ro of a directory the
 * policy did not hide would make, say, a writable path or a scratch
 * tmpfs read-only. */
static void
test_hide_seals_nothing_without_a_hidden_dir (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = fixture_compile_ok (host, RO_ROOT "writable=${WORKDIR}\ntmpfs=/tmp\n");

  assert_int_equal (count_ops (plan, CORDON_OP_HIDE_DIR, NULL), 0);
  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);

      if (op->kind == CORDON_OP_OPTION && g_strcmp0 (op->src, "--remount-ro") == 0)
        fail_msg ("--remount-ro %s without a hidden directory", op->dest);
    }
}

/* --- what is skipped ------------------------------------------------------- */

/* A tmpfs needs a directory: over an absent path bwrap would make one
 * in the read-only root (it fails), over a file it fails too; a symlink
 * to no directory leads nowhere to hide. Each is named, none mounted. */
static void
test_hide_skips_an_absent_path_a_dangling_symlink_and_a_file (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;

  fixture_host_add_symlink (host, "/srv/link", "gone");
  plan = fixture_compile_ok (host, RO_ROOT "hide=/srv/absent;/srv/link;/etc/passwd\n");
  expect_skip (plan, "/srv/absent", "absent on this host");
  expect_skip (plan, "/srv/link", "a symbolic link");
  expect_skip (plan, "/etc/passwd", "not a directory");
  assert_int_equal (fixture_find_skip (plan, "/srv/link")->key, CORDON_KEY_FS_HIDE);
  assert_int_equal (fixture_find_skip (plan, "/etc/passwd")->rule.col, 28);
  assert_int_equal (count_ops (plan, CORDON_OP_HIDE_DIR, NULL), 0);
  assert_int_equal (count_ops (plan, CORDON_OP_OPTION, NULL), 0);
}

/* /home as a link to /var/home (an image-based host): the sandbox sees
 * the homes at /var/home, so that is what is hidden. */
static void
test_hide_hides_where_a_symlink_to_a_directory_leads (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;

  fixture_host_add_dir (host, "/srv/real/other");
  fixture_host_add_symlink (host, "/srv/link", "real");
  plan = fixture_compile_ok (host, RO_ROOT "hide=/srv/link\n");
  expect_op (plan, CORDON_OP_HIDE_DIR, NULL, "/srv/real");
  expect_no_op (plan, CORDON_OP_HIDE_DIR, "/srv/link");
  expect_no_skip (plan, "/srv/link");
}

/* A directory the policy binds is shown as it says (read-only=/mnt in
 * a policy that includes hide=/mnt): a tmpfs over it, sorted first,
 * would be covered anyway, but its seal would make a writable bind
 * read-only. A tmpfs there is hidden already. */
static void
test_hide_leaves_a_dir_the_policy_binds_or_makes_a_tmpfs (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;

  fixture_host_add_dir (host, "/mnt");
  fixture_host_add_dir (host, "/srv/scratch");
  plan = fixture_compile_ok (host, RO_ROOT "read-only=/mnt\ntmpfs=/srv/scratch\n"
                                   "hide=/mnt;/srv/scratch\n");
  expect_skip (plan, "/mnt", "shown: test.policy:3:11 binds it");
  expect_skip (plan, "/srv/scratch", "hidden already: the tmpfs of test.policy:4:7");
  assert_int_equal (count_ops (plan, CORDON_OP_HIDE_DIR, NULL), 0);
  expect_op (plan, CORDON_OP_RO_BIND, "/mnt", "/mnt");
  expect_op (plan, CORDON_OP_TMPFS, NULL, "/srv/scratch");
  assert_int_equal (find_seal (plan, "/mnt"), -1);
  assert_int_equal (find_seal (plan, "/srv/scratch"), -1);
}

/* hide= is a path as the policy wrote it: /mnt/ and /srv/./x are the
 * host's /mnt and /srv/x (else the facts, stat at the normal form, are
 * not found and the compile fails). */
static void
test_hide_normalizes_the_path_it_hides (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;

  fixture_host_add_dir (host, "/mnt");
  fixture_host_add_dir (host, "/srv/x");
  plan = fixture_compile_ok (host, RO_ROOT "hide=/mnt/;/srv/./x\n");
  expect_op (plan, CORDON_OP_HIDE_DIR, NULL, "/mnt");
  expect_op (plan, CORDON_OP_HIDE_DIR, NULL, "/srv/x");
  assert_true (find_seal (plan, "/mnt") >= 0);
}

/* The workdir bound writable and hidden too: the seal would make the
 * workdir read-only (--remount-ro is of the mount at the path). */
static void
test_hide_leaves_the_writable_workdir_writable (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = fixture_compile_ok (host, RO_ROOT "writable=${WORKDIR}\n"
                                                        "hide=${WORKDIR}\n");

  expect_skip (plan, W, "shown: test.policy:3:10 binds it");
  expect_no_op (plan, CORDON_OP_HIDE_DIR, W);
  assert_int_equal (find_seal (plan, W), -1);
}

/* Below a tmpfs or another hidden directory there is nothing of the
 * host to hide: a second tmpfs would only be one more mount to verify. */
static void
test_hide_skips_a_dir_under_a_tmpfs_or_a_hidden_dir (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;

  fixture_host_add_dir (host, FIXTURE_HOME "/x");
  fixture_host_add_dir (host, "/srv/a/b");
  plan = fixture_compile_ok (host, RO_ROOT "tmpfs=${HOME}\nhide=${HOME}/x;/srv;/srv/a/b\n");
  expect_skip (plan, FIXTURE_HOME "/x", "already hidden by the tmpfs at " FIXTURE_HOME);
  expect_skip (plan, "/srv/a/b", "already hidden by the empty directory at /srv");
  expect_no_op (plan, CORDON_OP_HIDE_DIR, FIXTURE_HOME "/x");
  expect_no_op (plan, CORDON_OP_HIDE_DIR, "/srv/a/b");
  expect_op (plan, CORDON_OP_HIDE_DIR, NULL, "/srv");
  assert_int_equal (count_ops (plan, CORDON_OP_HIDE_DIR, NULL), 1);
}

/* A minimal root has no /home to hide: a tmpfs there would be a new
 * directory in bwrap's root, shown as if it were the host's. */
static void
test_hide_skips_a_dir_not_in_the_minimal_root (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = fixture_compile_ok (host, "[filesystem]\nroot=minimal\n"
                                                        "writable=${WORKDIR}\nhide=/home;/usr/share\n");

  expect_skip (plan, "/home", "not in the sandbox's root");
  expect_no_op (plan, CORDON_OP_HIDE_DIR, "/home");
  /* What the minimal root binds can be hidden. */
  expect_op (plan, CORDON_OP_HIDE_DIR, NULL, "/usr/share");
  expect_no_skip (plan, "/usr/share");
}

/* ${VAR} unset on this host: named, not guessed. */
static void
test_hide_skips_an_entry_whose_variable_is_unset (void **state)
{
  static const char * const unset[] = { "XDG_RUNTIME_DIR", NULL };
  g_autoptr(FixtureHost) host = fixture_host_new_full (1000, unset, NULL);
  g_autoptr(CordonPlan) plan = fixture_compile_ok (host, RO_ROOT "hide=${XDG_RUNTIME_DIR}/x\n");

  (void) state;
  expect_skip (plan, "${XDG_RUNTIME_DIR}/x", "${XDG_RUNTIME_DIR} is not set on this host");
  assert_int_equal (count_ops (plan, CORDON_OP_HIDE_DIR, NULL), 0);
}

/* --- hide-siblings= ------------------------------------------------------ */

/* The workdir's directory is hidden: the jobs beside it (and, for the
 * fixture's ~/work, the rest of the home with its secrets) not in view. */
static void
test_hide_siblings_hides_the_directory_of_the_workdir (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = fixture_compile_ok (host, RO_ROOT "writable=${WORKDIR}\n"
                                                        "hide-siblings=true\n");
  guint hide = expect_op (plan, CORDON_OP_HIDE_DIR, NULL, FIXTURE_HOME);
  const CordonOp *op = g_ptr_array_index (plan->ops, hide);

  assert_true (hide < expect_op (plan, CORDON_OP_BIND, W, W));
  assert_int_equal (op->key, CORDON_KEY_FS_HIDE_SIBLINGS);
  assert_true (find_seal (plan, FIXTURE_HOME) > last_mount (plan));
  assert_int_equal (count_ops (plan, CORDON_OP_HIDE_DIR, NULL), 1);
  expect_no_skip (plan, FIXTURE_HOME);
}

static void
test_hide_siblings_hides_the_jobs_beside_another_workdir (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new_full (1000, NULL, "/srv/jobs/a");
  g_autoptr(CordonPlan) plan = NULL;
  g_autofree char *shown = NULL;

  (void) state;
  fixture_host_add_dir (host, "/srv/jobs/a");
  plan = fixture_compile_ok (host, RO_ROOT "writable=${WORKDIR}\nhide-siblings=true\n");
  expect_op (plan, CORDON_OP_HIDE_DIR, NULL, "/srv/jobs");
  expect_op (plan, CORDON_OP_BIND, "/srv/jobs/a", "/srv/jobs/a");
  expect_no_op (plan, CORDON_OP_HIDE_DIR, "/srv");
  shown = cordon_hide_shown (plan, "/srv/jobs");
  assert_string_equal (shown, "/a");
}

/* A system directory (/var) or one of the host's programs (/opt): a
 * tmpfs over /var or /opt takes away what the sandbox's tools run
 * from. Skipped, named. */
static void
test_hide_siblings_skips_a_system_or_program_directory (void **state)
{
  static const char * const workdirs[] = { "/var/x", "/opt/x", "/usr/local/x", "/var/lib/x" };

  (void) state;
  for (guint i = 0; i < G_N_ELEMENTS (workdirs); i++)
    {
      g_autoptr(FixtureHost) host = fixture_host_new_full (1000, NULL, workdirs[i]);
      g_autoptr(CordonPlan) plan = NULL;
      g_autofree char *parent = g_path_get_dirname (workdirs[i]);

      fixture_host_add_dir (host, workdirs[i]);
      plan = fixture_compile_ok (host, RO_ROOT "writable=${WORKDIR}\nhide-siblings=true\n");
      expect_skip (plan, parent, "a system directory, or one the host's programs live in");
      assert_int_equal (fixture_find_skip (plan, parent)->key, CORDON_KEY_FS_HIDE_SIBLINGS);
      if (count_ops (plan, CORDON_OP_HIDE_DIR, NULL) != 0)
        {
          g_autofree char *ops = describe_ops (plan);

          fail_msg ("workdir %s: a hidden directory:\n%s", workdirs[i], ops);
        }
    }
}

/* Two writable binds in one directory: one tmpfs there, and not a
 * second one skipped as "hidden already" (nor two seals). */
static void
test_hide_siblings_hides_a_shared_directory_once (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;
  g_autofree char *shown = NULL;

  fixture_host_add_dir (host, FIXTURE_HOME "/store");
  plan = fixture_compile_ok (host, RO_ROOT "writable=${WORKDIR};${HOME}/store\nhide-siblings=true\n");
  assert_int_equal (count_ops (plan, CORDON_OP_HIDE_DIR, FIXTURE_HOME), 1);
  assert_int_equal (count_ops (plan, CORDON_OP_HIDE_DIR, NULL), 1);
  assert_int_equal (count_ops (plan, CORDON_OP_OPTION, FIXTURE_HOME), 1);
  expect_no_skip (plan, FIXTURE_HOME);
  shown = cordon_hide_shown (plan, FIXTURE_HOME);
  assert_string_equal (shown, "/store/work");
}

/* Only a writable bind's directory: a read-only bind's (/home/bob's
 * directory, /home) stays as it is. */
static void
test_hide_siblings_ignores_read_only_binds (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = fixture_compile_ok (host, RO_ROOT "writable=${WORKDIR}\n"
                                                        "read-only=/home/bob\nhide-siblings=true\n");

  expect_op (plan, CORDON_OP_HIDE_DIR, NULL, FIXTURE_HOME);
  expect_no_op (plan, CORDON_OP_HIDE_DIR, "/home");
  expect_no_skip (plan, "/home");
}

/* Without hide-siblings= (or with it false), the directory stays. */
static void
test_hide_siblings_hides_nothing_unless_asked (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) none = fixture_compile_ok (host, RO_ROOT "writable=${WORKDIR}\n");
  g_autoptr(CordonPlan) off = fixture_compile_ok (host, RO_ROOT "writable=${WORKDIR}\n"
                                                       "hide-siblings=false\n");

  expect_no_op (none, CORDON_OP_HIDE_DIR, FIXTURE_HOME);
  expect_no_op (off, CORDON_OP_HIDE_DIR, FIXTURE_HOME);
  assert_int_equal (count_ops (none, CORDON_OP_HIDE_DIR, NULL), 0);
  assert_int_equal (count_ops (off, CORDON_OP_HIDE_DIR, NULL), 0);
  expect_no_skip (off, FIXTURE_HOME);
}

/* --- the /sys views --------------------------------------------------------- */

#define NET_POLICY RO_ROOT "[namespaces]\nunshare=net\n"
#define CGROUP_POLICY RO_ROOT "[namespaces]\nunshare=cgroup\n"
#define BOTH_POLICY RO_ROOT "[namespaces]\nunshare=net;cgroup\n"

/* A new network namespace has lo alone: the host's /sys/class/net would
 * name its interfaces (and /sys/devices/virtual/net its bridges and
 * veths) to the sandbox. lo is the one entry, an empty directory: the
 * host's lo would show the host's local traffic (its counters). */
static void
test_hide_shows_lo_alone_in_sys_under_a_new_net_namespace (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = fixture_compile_ok (host, NET_POLICY);
  guint class_net = expect_op (plan, CORDON_OP_HIDE_DIR, NULL, "/sys/class/net");
  guint lo = expect_op (plan, CORDON_OP_HIDE_DIR, NULL, "/sys/class/net/lo");
  const CordonOp *op = g_ptr_array_index (plan->ops, class_net);
  g_autofree char *shown = cordon_hide_shown (plan, "/sys/class/net");
  g_autofree char *shown_virtual = NULL;
  g_autofree char *shown_lo = cordon_hide_shown (plan, "/sys/class/net/lo");

  expect_op (plan, CORDON_OP_HIDE_DIR, NULL, "/sys/devices/virtual/net");
  shown_virtual = cordon_hide_shown (plan, "/sys/devices/virtual/net");
  /* lo's empty directory is a mount point in the hidden tmpfs. */
  assert_true (class_net < lo);
  assert_int_equal (op->key, CORDON_KEY_NS_UNSHARE);
  assert_true (find_seal (plan, "/sys/class/net") > last_mount (plan));
  assert_true (find_seal (plan, "/sys/class/net/lo") > last_mount (plan));
  assert_true (find_seal (plan, "/sys/devices/virtual/net") > last_mount (plan));
  assert_string_equal (shown, "/lo");
  assert_string_equal (shown_lo, "/");
  assert_string_equal (shown_virtual, "/");
  assert_int_equal (count_ops (plan, CORDON_OP_SYMLINK, NULL), 0);
  expect_no_op (plan, CORDON_OP_RO_BIND, NET_LO);
  expect_no_op (plan, CORDON_OP_HIDE_DIR, "/sys/fs/cgroup");
}

/* A new cgroup namespace: nothing of the host's cgroup tree. */
static void
test_hide_shows_no_cgroup_tree_under_a_new_cgroup_namespace (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = fixture_compile_ok (host, CGROUP_POLICY);
  const CordonOp *op = g_ptr_array_index (plan->ops, expect_op (plan, CORDON_OP_HIDE_DIR, NULL,
                                                                "/sys/fs/cgroup"));
  g_autofree char *shown = cordon_hide_shown (plan, "/sys/fs/cgroup");

  assert_int_equal (op->key, CORDON_KEY_NS_UNSHARE);
  assert_string_equal (shown, "/");
  expect_no_op (plan, CORDON_OP_HIDE_DIR, "/sys/class/net");
  expect_no_op (plan, CORDON_OP_RO_BIND, NET_LO);
}

/* The host's network and cgroups are the sandbox's own where it shares
 * them: a view would hide what it uses. */
static void
test_hide_leaves_sys_alone_without_new_namespaces (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = fixture_compile_ok (host, RO_ROOT "[namespaces]\nunshare=pid\n");

  expect_no_op (plan, CORDON_OP_HIDE_DIR, "/sys/class/net");
  expect_no_op (plan, CORDON_OP_HIDE_DIR, "/sys/devices/virtual/net");
  expect_no_op (plan, CORDON_OP_HIDE_DIR, "/sys/fs/cgroup");
  expect_no_op (plan, CORDON_OP_SYMLINK, "/sys/class/net/lo");
  expect_no_op (plan, CORDON_OP_RO_BIND, NET_LO);
  assert_int_equal (count_ops (plan, CORDON_OP_HIDE_DIR, NULL), 0);
}

/* A minimal root has no /sys: nothing to hide, and nothing to say
 * (a skip for each would be noise in every explain). */
static void
test_hide_makes_no_sys_view_and_no_skip_under_a_minimal_root (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = fixture_compile_ok (host, "[filesystem]\nroot=minimal\n"
                                                        "[namespaces]\nunshare=net;cgroup\n");

  assert_int_equal (count_ops (plan, CORDON_OP_HIDE_DIR, NULL), 0);
  expect_no_op (plan, CORDON_OP_SYMLINK, "/sys/class/net/lo");
  expect_no_op (plan, CORDON_OP_RO_BIND, NET_LO);
  for (guint i = 0; i < plan->skipped->len; i++)
    {
      const CordonSkip *skip = g_ptr_array_index (plan->skipped, i);

      if (g_str_has_prefix (skip->path, "/sys"))
        fail_msg ("skip of %s: %s", skip->path, skip->reason);
    }
}

/* What the policy binds of /sys is shown as it says: a view under it
 * would undo read-only=/sys/fs/cgroup. */
static void
test_hide_leaves_a_sys_dir_the_policy_binds (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = fixture_compile_ok (host, BOTH_POLICY "[filesystem]\n"
                                                        "read-only=/sys/fs/cgroup;/sys/class/net\n");

  expect_no_op (plan, CORDON_OP_HIDE_DIR, "/sys/fs/cgroup");
  expect_no_op (plan, CORDON_OP_HIDE_DIR, "/sys/class/net");
  expect_no_op (plan, CORDON_OP_SYMLINK, "/sys/class/net/lo");
  expect_op (plan, CORDON_OP_RO_BIND, "/sys/fs/cgroup", "/sys/fs/cgroup");
  /* The views are cordon's own: nothing to say where they do not apply. */
  expect_no_skip (plan, "/sys/fs/cgroup");
  expect_no_skip (plan, "/sys/class/net");
}

/* hide=/sys/devices hides the virtual interfaces with the rest:
 * /sys/devices/virtual/net gets no tmpfs of its own, /sys/class/net its
 * view still. */
static void
test_hide_leaves_virtual_net_to_a_policy_s_hide_of_sys_devices (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = fixture_compile_ok (host, NET_POLICY "[filesystem]\nhide=/sys/devices\n");
  g_autofree char *shown = NULL;

  expect_op (plan, CORDON_OP_HIDE_DIR, NULL, "/sys/devices");
  shown = cordon_hide_shown (plan, "/sys/devices");
  assert_string_equal (shown, "/");
  expect_op (plan, CORDON_OP_HIDE_DIR, NULL, "/sys/class/net");
  expect_op (plan, CORDON_OP_HIDE_DIR, NULL, "/sys/class/net/lo");
  expect_no_op (plan, CORDON_OP_HIDE_DIR, "/sys/devices/virtual/net");
  expect_no_skip (plan, "/sys/devices/virtual/net");
}

/* A host whose sysfs has no lo directory: the views must not stop
 * there (an early return once dropped them): of the host's virtual
 * interfaces nothing shows still, and the cgroup view, of another
 * namespace, is made. */
static void
test_hide_makes_the_other_views_where_the_host_has_no_lo (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;

  rm_host_path (host, NET_LO);
  fixture_host_add_dir (host, "/sys/devices/virtual/net/docker0");
  plan = fixture_compile_ok (host, BOTH_POLICY);
  expect_op (plan, CORDON_OP_HIDE_DIR, NULL, "/sys/class/net");
  expect_no_op (plan, CORDON_OP_SYMLINK, "/sys/class/net/lo");
  expect_no_op (plan, CORDON_OP_RO_BIND, NET_LO);
  expect_op (plan, CORDON_OP_HIDE_DIR, NULL, "/sys/fs/cgroup");
  expect_op (plan, CORDON_OP_HIDE_DIR, NULL, "/sys/devices/virtual/net");
}

/* A policy's own hide= of /sys/class/net, or of /sys/class, must not
 * take the other view out with it: /sys/devices/virtual/net would name
 * the host's bridges and veths, and a hide= must never show more than
 * no hide= at all. */
static void
test_hide_hides_virtual_net_under_a_policy_s_hide_of_sys_class (void **state)
{
  FixtureHost *host = *state;
  static const char * const texts[] = {
    NET_POLICY "[filesystem]\nhide=/sys/class/net\n",
    NET_POLICY "[filesystem]\nhide=/sys/class\n",
  };

  fixture_host_add_dir (host, "/sys/devices/virtual/net/docker0");
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(CordonPlan) plan = fixture_compile_ok (host, texts[i]);
      g_autofree char *shown = NULL;

      expect_op (plan, CORDON_OP_HIDE_DIR, NULL, "/sys/devices/virtual/net");
      shown = cordon_hide_shown (plan, "/sys/devices/virtual/net");
      assert_string_equal (shown, "/");
    }
}

/* --- the policy check ---------------------------------------------------- */

/* hide=/ leaves nothing; /proc and /dev are the sandbox's own (cordon's
 * helper is bound in /dev): refused where they are written. */
static void
test_hide_check_refuses_root_proc_and_dev (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (ALL_NAMESPACES "[filesystem]\nhide=/;/proc;/dev/\n");
  const CordonDiagnostic *root, *proc, *dev;
  g_autofree char *line = NULL;

  (void) state;
  root = expect_diag (diags, CORDON_SEVERITY_ERROR, "'/' cannot be hidden", CHECK_FILE, 4, 6);
  proc = expect_diag (diags, CORDON_SEVERITY_ERROR, "'/proc' cannot be hidden", CHECK_FILE, 4, 8);
  dev = expect_diag (diags, CORDON_SEVERITY_ERROR, "'/dev/' cannot be hidden", CHECK_FILE, 4, 14);
  assert_non_null (strstr (root->message, "root=minimal"));
  assert_non_null (strstr (proc->message, "the sandbox's own"));
  assert_non_null (strstr (dev->message, "the sandbox's own"));
  line = cordon_diagnostic_format (proc);
  assert_string_equal (line, CHECK_FILE ":4:8: error: '/proc' cannot be hidden: the sandbox's own, "
                             "not the host's");
  expect_n_diags (diags, 3);
}

/* A false refusal would push an author to drop a hide they need. */
static void
test_hide_check_allows_other_dirs (void **state)
{
  g_autoptr(CordonDiagnostics) diags = check (ALL_NAMESPACES "[filesystem]\n"
                                              "hide=/home;/procfs;/devices;/srv/dev\n");

  (void) state;
  expect_n_diags (diags, 0);
}

/* --- what a hidden directory shows ----------------------------------------- */

/* What verification expects to find in the hidden directory: the first
 * name of each mount below it, sorted, once. Not a chdir's nor an
 * option's path (they mount nothing), not a neighbour that shares the
 * prefix (/homer), not the directory itself. */
static void
test_hide_shown_names_what_is_mounted_below_sorted_once (void **state)
{
  g_autoptr(CordonPlan) plan = cordon_plan_new ("t");
  g_autofree char *shown = NULL, *empty = NULL, *root = NULL;

  (void) state;
  cordon_plan_add_op (plan, CORDON_OP_HIDE_DIR, NULL, "/home", NULL, "why");
  cordon_plan_add_op (plan, CORDON_OP_BIND, "/home/carol/x", "/home/carol/x", NULL, "why");
  cordon_plan_add_op (plan, CORDON_OP_RO_BIND, "/home/alice/a", "/home/alice/a", NULL, "why");
  cordon_plan_add_op (plan, CORDON_OP_BIND, "/home/alice/b", "/home/alice/b", NULL, "why");
  cordon_plan_add_op (plan, CORDON_OP_SYMLINK, "x", "/home/bob", NULL, "why");
  cordon_plan_add_op (plan, CORDON_OP_BIND, "/homer/x", "/homer/x", NULL, "why");
  cordon_plan_add_op (plan, CORDON_OP_CHDIR, NULL, "/home/dave/work", NULL, "why");
  cordon_plan_add_op (plan, CORDON_OP_OPTION, "--remount-ro", "/home/erin", NULL, "why");
  cordon_plan_add_op (plan, CORDON_OP_UNSHARE, NULL, NULL, NULL, "why");
  cordon_plan_add_op (plan, CORDON_OP_HIDE_DIR, NULL, "/var/empty", NULL, "why");
  shown = cordon_hide_shown (plan, "/home");
  empty = cordon_hide_shown (plan, "/var/empty");
  root = cordon_hide_shown (plan, "/");
  assert_string_equal (shown, "/alice/bob/carol");
  assert_string_equal (empty, "/");
  assert_string_equal (root, "/home/homer/var");
}

/* The same, from a compiled plan: /home shows alice, and nothing of
 * bob; the workdir's chdir and /home's own seal add nothing. */
static void
test_hide_shown_of_a_compiled_plan (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = fixture_compile_ok (host, RO_ROOT "writable=${WORKDIR}\n"
                                                        "read-only=${HOME}/.bashrc\nhide=/home;/srv\n");
  g_autofree char *home = cordon_hide_shown (plan, "/home");
  g_autofree char *srv = cordon_hide_shown (plan, "/srv");

  assert_string_equal (home, "/alice");
  assert_string_equal (srv, "/");
}

/* --- the argv -------------------------------------------------------------- */

/* The index of the pair `a b` in the argv, or -1. */
static int
find_args (const CordonBwrapArgv *argv,
           const char *a,
           const char *b)
{
  for (guint i = 0; i + 1 < cordon_bwrap_argv_len (argv); i++)
    if (g_str_equal (cordon_bwrap_argv_get (argv, i), a)
        && g_str_equal (cordon_bwrap_argv_get (argv, i + 1), b))
      return (int) i;
  return -1;
}

/* What bwrap is given: the tmpfs, then the workdir's bind (its mount
 * point made in the tmpfs), then the read-only remount, and no bare
 * --remount-ro that would take the workdir's argument. */
static void
test_hide_renders_tmpfs_then_bind_then_remount_ro (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = fixture_compile_ok (host, RO_ROOT "writable=${WORKDIR}\nhide=/home\n");
  g_autoptr(CordonBwrapArgv) argv = cordon_render_argv (plan);
  g_autofree char *explain = cordon_render_explain (plan, argv);
  int tmpfs = find_args (argv, "--tmpfs", "/home");
  int bind = find_args (argv, "--bind", W);
  int remount = find_args (argv, "--remount-ro", "/home");

  assert_true (tmpfs >= 0);
  assert_true (bind >= 0);
  assert_true (remount >= 0);
  assert_string_equal (cordon_bwrap_argv_get (argv, (guint) bind + 2), W);
  assert_true (tmpfs < bind);
  assert_true (bind < remount);
  assert_int_equal (find_args (argv, "--remount-ro", W), -1);
  assert_non_null (strstr (explain, "--remount-ro /home"));
  assert_non_null (strstr (explain, "--tmpfs /home"));
}

#define T(f) cmocka_unit_test_setup_teardown (f, fixture_host_setup, fixture_host_teardown)

/* The host's mount table as the fixture's /proc/self/mountinfo. */
static void
write_mountinfo (FixtureHost *host,
                 const char *text)
{
  g_autofree char *dir = g_build_filename (host->root, "proc", "self", NULL);
  g_autofree char *file = g_build_filename (dir, "mountinfo", NULL);

  assert_int_equal (g_mkdir_with_parents (dir, 0755), 0);
  assert_true (g_file_set_contents (file, text, -1, NULL));
}

/* A hidden directory the host mounts elsewhere too (a bind of /srv/jobs
 * at /opt/jobs, of a part of it at /opt/b): hidden there as well, or
 * the other jobs would be in view at the other path. A mount of another
 * file system, or of what lies beside it, is left alone. */
static void
test_hide_hides_a_hidden_directory_where_the_host_mounts_it_again (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;

  fixture_host_add_dir (host, "/srv/jobs/b");
  fixture_host_add_dir (host, "/opt/jobs");
  fixture_host_add_dir (host, "/opt/b");
  fixture_host_add_dir (host, "/opt/other");
  fixture_host_add_dir (host, "/opt/etc");
  write_mountinfo (host, "21 1 254:0 / / rw - ext4 /dev/vda rw\n"
                         "22 21 254:0 /srv/jobs /opt/jobs rw - ext4 /dev/vda rw\n"
                         "23 21 254:0 /srv/jobs/b /opt/b rw - ext4 /dev/vda rw\n"
                         "24 21 0:30 /srv /opt/other rw - tmpfs tmpfs rw\n"
                         "25 21 254:0 /etc /opt/etc rw - ext4 /dev/vda rw\n");
  plan = fixture_compile_ok (host, RO_ROOT "hide=/srv\n");
  expect_op (plan, CORDON_OP_HIDE_DIR, NULL, "/srv");
  expect_op (plan, CORDON_OP_HIDE_DIR, NULL, "/opt/jobs");
  expect_op (plan, CORDON_OP_HIDE_DIR, NULL, "/opt/b");
  expect_no_op (plan, CORDON_OP_HIDE_DIR, "/opt/other");
  expect_no_op (plan, CORDON_OP_HIDE_DIR, "/opt/etc");
  assert_true (find_seal (plan, "/opt/jobs") > last_mount (plan));
}

/* The control: without the second mounts, /srv alone is hidden. */
static void
test_hide_hides_nothing_else_where_the_host_mounts_it_once (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;

  fixture_host_add_dir (host, "/srv/jobs/b");
  fixture_host_add_dir (host, "/opt/jobs");
  write_mountinfo (host, "21 1 254:0 / / rw - ext4 /dev/vda rw\n");
  plan = fixture_compile_ok (host, RO_ROOT "hide=/srv\n");
  expect_op (plan, CORDON_OP_HIDE_DIR, NULL, "/srv");
  assert_int_equal (count_ops (plan, CORDON_OP_HIDE_DIR, NULL), 1);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    T (test_hide_puts_the_tmpfs_before_the_binds_below_it),
    T (test_hide_hides_a_hidden_directory_where_the_host_mounts_it_again),
    T (test_hide_hides_nothing_else_where_the_host_mounts_it_once),
    T (test_hide_seals_each_hidden_dir_read_only_after_every_mount),
    T (test_hide_seals_nothing_without_a_hidden_dir),
    T (test_hide_skips_an_absent_path_a_dangling_symlink_and_a_file),
    T (test_hide_hides_where_a_symlink_to_a_directory_leads),
    T (test_hide_leaves_a_dir_the_policy_binds_or_makes_a_tmpfs),
    T (test_hide_normalizes_the_path_it_hides),
    T (test_hide_leaves_the_writable_workdir_writable),
    T (test_hide_skips_a_dir_under_a_tmpfs_or_a_hidden_dir),
    T (test_hide_skips_a_dir_not_in_the_minimal_root),
    cmocka_unit_test (test_hide_skips_an_entry_whose_variable_is_unset),
    T (test_hide_siblings_hides_the_directory_of_the_workdir),
    cmocka_unit_test (test_hide_siblings_hides_the_jobs_beside_another_workdir),
    cmocka_unit_test (test_hide_siblings_skips_a_system_or_program_directory),
    T (test_hide_siblings_hides_a_shared_directory_once),
    T (test_hide_siblings_ignores_read_only_binds),
    T (test_hide_siblings_hides_nothing_unless_asked),
    T (test_hide_shows_lo_alone_in_sys_under_a_new_net_namespace),
    T (test_hide_shows_no_cgroup_tree_under_a_new_cgroup_namespace),
    T (test_hide_leaves_sys_alone_without_new_namespaces),
    T (test_hide_makes_no_sys_view_and_no_skip_under_a_minimal_root),
    T (test_hide_leaves_a_sys_dir_the_policy_binds),
    T (test_hide_leaves_virtual_net_to_a_policy_s_hide_of_sys_devices),
    T (test_hide_makes_the_other_views_where_the_host_has_no_lo),
    T (test_hide_hides_virtual_net_under_a_policy_s_hide_of_sys_class),
    cmocka_unit_test (test_hide_check_refuses_root_proc_and_dev),
    cmocka_unit_test (test_hide_check_allows_other_dirs),
    cmocka_unit_test (test_hide_shown_names_what_is_mounted_below_sorted_once),
    T (test_hide_shown_of_a_compiled_plan),
    T (test_hide_renders_tmpfs_then_bind_then_remount_ro),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
