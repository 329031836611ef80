/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-compile: (policy, fixture host) -> plan. The order of the mounts
 * (invariant 6 of the design), what is masked and what is skipped, the
 * environment handed to bwrap (invariant 1), the capability drop for root
 * (invariant 5), the refusals that keep cordon fail-closed, and that the
 * same inputs give the same plan. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "compile.h"
#include "fixture-host.h"
#include "path-util.h"
#include "plan.h"
#include "policy-source.h"
#include "render.h"

#include <glib/gstdio.h>

/* --- helpers ------------------------------------------------------------ */

static CordonPlan *
compile_shipped (FixtureHost *host,
                 const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPolicy) policy = fixture_load_embedded (name, NULL, &error);
  CordonPlan *plan;

  if (policy == NULL)
    fail_msg ("%s did not load: %s", name, error->message);
  plan = fixture_compile (host, policy, &error);
  if (plan == NULL)
    fail_msg ("%s did not compile: %s", name, error->message);
  return plan;
}

/* The index of the first op of `kind` at `dest` (any dest when NULL), or -1. */
static gint
find_op (const CordonPlan *plan,
         CordonOpKind kind,
         const char *dest)
{
  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);

      if (op->kind == kind && (dest == NULL || g_strcmp0 (op->dest, dest) == 0))
        return (gint) i;
    }
  return -1;
}

static const CordonOp *
op_at (const CordonPlan *plan,
       gint i)
{
  assert_true (i >= 0 && (guint) i < plan->ops->len);
  return g_ptr_array_index (plan->ops, i);
}

/* How many ops, of any kind, have `dest`. */
static guint
count_ops_at (const CordonPlan *plan,
              const char *dest)
{
  guint n = 0;

  for (guint i = 0; i < plan->ops->len; i++)
    n += g_strcmp0 (((const CordonOp *) g_ptr_array_index (plan->ops, i))->dest, dest) == 0;
  return n;
}

static const CordonEnvDecision *
find_decision (const CordonPlan *plan,
               const char *name)
{
  for (guint i = 0; i < plan->env_decisions->len; i++)
    {
      const CordonEnvDecision *d = g_ptr_array_index (plan->env_decisions, i);

      if (g_str_equal (d->name, name))
        return d;
    }
  return NULL;
}

static gboolean
envp_has (const CordonPlan *plan,
          const char *entry)
{
  for (guint i = 0; i < plan->envp->len; i++)
    if (g_str_equal (g_ptr_array_index (plan->envp, i), entry))
      return TRUE;
  return FALSE;
}

static gboolean
envp_has_name (const CordonPlan *plan,
               const char *name)
{
  gsize n = strlen (name);

  for (guint i = 0; i < plan->envp->len; i++)
    {
      const char *kv = g_ptr_array_index (plan->envp, i);

      if (strncmp (kv, name, n) == 0 && kv[n] == '=')
        return TRUE;
    }
  return FALSE;
}

static gboolean
is_mask (CordonOpKind kind)
{
  return kind == CORDON_OP_MASK_FILE || kind == CORDON_OP_MASK_DIR;
}

static gboolean
is_middle_mount (const CordonOp *op)
{
  /* A hidden directory's tmpfs, and lo's symlink in /sys/class/net,
   * are sorted with the binds (hide.h); a protected path's empty
   * directory comes with the writable bind it is in (protect.h). */
  return (op->kind == CORDON_OP_TMPFS || op->kind == CORDON_OP_BIND
          || op->kind == CORDON_OP_RO_BIND || op->kind == CORDON_OP_HIDE_DIR
          || op->kind == CORDON_OP_SYMLINK || (op->kind == CORDON_OP_MASK_DIR && op->pinned))
         && op->key != CORDON_KEY_FS_ROOT && op->key != CORDON_KEY_PROC_MODE;
}

/* Invariant 6, as a property of any plan: root, then /proc, then /dev,
 * then tmpfs and binds with depth never decreasing, then masks with
 * depth never decreasing. Ops that mount nothing may sit anywhere. */
static void
assert_mount_order (const CordonPlan *plan)
{
  int stage = 0;
  guint depth = 0;

  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);
      int s;

      if (op->kind == CORDON_OP_UNSHARE || op->kind == CORDON_OP_NEW_SESSION
          || op->kind == CORDON_OP_DIE_WITH_PARENT || op->kind == CORDON_OP_CAP_DROP_ALL
          || op->kind == CORDON_OP_CHDIR || op->kind == CORDON_OP_STATUS_FD
          || op->kind == CORDON_OP_DISABLE_USERNS || op->kind == CORDON_OP_SECCOMP
          || op->kind == CORDON_OP_OPTION)
        continue;
      /* The one mount after the masks: in the fresh /dev, where no mask
       * of a host path can lie. */
      if (op->kind == CORDON_OP_HELPER_BIND)
        {
          assert_true (g_str_has_prefix (op->dest, "/dev/"));
          continue;
        }
      if (op->key == CORDON_KEY_FS_ROOT)
        s = 0;
      else if (op->kind == CORDON_OP_PROC || op->key == CORDON_KEY_PROC_MODE)
        s = 1;
      else if (op->kind == CORDON_OP_DEV)
        s = 2;
      else if (is_middle_mount (op))
        s = 3;
      else
        {
          assert_true (is_mask (op->kind));
          s = 4;
        }
      if (s < stage)
        fail_msg ("op %u (%s %s) comes after a later stage", i,
                  cordon_op_kind_name (op->kind), op->dest);
      if (s != stage)
        depth = 0;
      stage = s;
      if (s >= 3)
        {
          if (cordon_path_depth (op->dest) < depth)
            fail_msg ("op %u (%s %s) is shallower than the one before it", i,
                      cordon_op_kind_name (op->kind), op->dest);
          depth = cordon_path_depth (op->dest);
        }
    }
}

static gint
last_index_where (const CordonPlan *plan,
                  gboolean (*pred) (const CordonOp *))
{
  gint last = -1;

  for (guint i = 0; i < plan->ops->len; i++)
    if (pred (g_ptr_array_index (plan->ops, i)))
      last = (gint) i;
  return last;
}

static gint
first_index_where (const CordonPlan *plan,
                   gboolean (*pred) (const CordonOp *))
{
  for (guint i = 0; i < plan->ops->len; i++)
    if (pred (g_ptr_array_index (plan->ops, i)))
      return (gint) i;
  return -1;
}

static gboolean
op_is_mask (const CordonOp *op)
{
  return is_mask (op->kind);
}

static gboolean
op_is_bind_or_tmpfs (const CordonOp *op)
{
  return op->kind == CORDON_OP_BIND || op->kind == CORDON_OP_RO_BIND
         || op->kind == CORDON_OP_TMPFS || op->kind == CORDON_OP_SYMLINK
         || op->kind == CORDON_OP_PROC || op->kind == CORDON_OP_DEV;
}

/* --- mount order (invariant 6) ------------------------------------------ */

static void
test_compile_puts_the_read_only_root_first_then_proc_then_dev (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[filesystem]\nroot=read-only\n");
  gint root = find_op (plan, CORDON_OP_RO_BIND, "/");
  gint proc = find_op (plan, CORDON_OP_PROC, "/proc");
  gint dev = find_op (plan, CORDON_OP_DEV, "/dev");

  assert_true (root >= 0);
  assert_string_equal (op_at (plan, root)->src, "/");
  assert_true (root < proc);
  assert_true (proc < dev);
  assert_int_equal (first_index_where (plan, op_is_bind_or_tmpfs), root);
}

static void
test_compile_orders_tmpfs_and_binds_by_depth_not_by_key (void **state)
{
  /* The tmpfs is deeper than the bind: it must come after it, or the
   * bind would cover it; the key order (tmpfs before binds) must not win. */
  g_autoptr(CordonPlan) plan = NULL;
  gint bind, tmpfs;

  fixture_host_add_dir (*state, "/home/alice/work/cache");
  plan = fixture_compile_ok (*state, "[filesystem]\n"
                             "tmpfs=/home/alice/work/cache\n"
                             "writable=/home/alice/work\n");
  bind = find_op (plan, CORDON_OP_BIND, "/home/alice/work");
  tmpfs = find_op (plan, CORDON_OP_TMPFS, "/home/alice/work/cache");
  assert_true (bind >= 0);
  assert_true (tmpfs >= 0);
  assert_true (bind < tmpfs);
  assert_mount_order (plan);
}

static void
test_compile_binds_a_workdir_under_a_tmpfs_tmp_after_the_tmpfs (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new_full (1000, NULL, "/tmp/job");
  g_autoptr(CordonPlan) plan = NULL;
  gint tmpfs, bind;

  fixture_host_add_dir (host, "/tmp/job");
  plan = fixture_compile_ok (host, "[filesystem]\nwritable=${WORKDIR}\ntmpfs=/tmp\n");
  tmpfs = find_op (plan, CORDON_OP_TMPFS, "/tmp");
  bind = find_op (plan, CORDON_OP_BIND, "/tmp/job");
  assert_true (tmpfs >= 0);
  assert_true (bind > tmpfs);
  assert_true (find_op (plan, CORDON_OP_CHDIR, "/tmp/job") > bind);
}

static void
test_compile_puts_masks_after_every_bind (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state,
                                           "[filesystem]\n"
                                           "writable=${WORKDIR}\n"
                                           "read-only=/usr/share\n"
                                           "tmpfs=/var/tmp\n"
                                           "[secrets]\n"
                                           "mask=${HOME}/.netrc;${HOME}/.ssh;${WORKDIR}/README\n");

  assert_true (first_index_where (plan, op_is_mask) >= 0);
  assert_true (first_index_where (plan, op_is_mask) > last_index_where (plan, op_is_bind_or_tmpfs));
  assert_mount_order (plan);
}

static void
test_compile_orders_masks_by_depth (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state,
                                           "[secrets]\n"
                                           "mask=${HOME}/.config/git/credentials;${HOME}/.netrc\n");

  assert_true (find_op (plan, CORDON_OP_MASK_FILE, "/home/alice/.netrc")
               < find_op (plan, CORDON_OP_MASK_FILE, "/home/alice/.config/git/credentials"));
}

static void
test_compile_orders_every_shipped_policy_per_invariant_6 (void **state)
{
  static const char * const names[] = { "trial", "desktop-readonly-home", "minimal" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(CordonPlan) plan = compile_shipped (*state, names[i]);

      assert_mount_order (plan);
    }
}

/* The covers of the paths on the way to each mount point, asked in one
 * pass (identity.c), are those asked one path at a time: the deepest,
 * the last of equals, none outside the mounts. */
static void
test_compile_plan_cover_way_is_the_cover_of_each_prefix (void **state)
{
  static const char * const names[] = { "trial", "desktop-readonly-home", "minimal" };
  static const char * const odd[] = { "/", "//home///alice/", "/nowhere/at/all", "relative/x", "/tmp/./x", "" };

  for (guint n = 0; n < G_N_ELEMENTS (names); n++)
    {
      g_autoptr(CordonPlan) plan = compile_shipped (*state, names[n]);

      for (guint i = 0; i < plan->ops->len + G_N_ELEMENTS (odd); i++)
        {
          const CordonOp *op = i < plan->ops->len ? g_ptr_array_index (plan->ops, i) : NULL;
          const char *dest = op != NULL ? op->dest : odd[i - plan->ops->len];
          g_autoptr(GPtrArray) covers = NULL;
          g_autoptr(GString) at = g_string_new (NULL);

          if (dest == NULL)
            continue;
          covers = cordon_plan_cover_way (plan, dest, op);
          assert_ptr_equal (g_ptr_array_index (covers, 0), cordon_plan_cover (plan, "/", op));
          for (guint d = 1; d < covers->len; d++)
            {
              const char *slash;
              const char *rest = dest;

              /* The d-th path on the way: d components, empty ones skipped. */
              g_string_truncate (at, 0);
              for (guint c = 0; c < d; c++)
                {
                  while (*rest == '/')
                    rest++;
                  slash = strchr (rest, '/');
                  g_string_append_c (at, '/');
                  g_string_append_len (at, rest, slash != NULL ? slash - rest : (gssize) strlen (rest));
                  rest = slash != NULL ? slash : rest + strlen (rest);
                }
              assert_ptr_equal (g_ptr_array_index (covers, d), cordon_plan_cover (plan, at->str, op));
            }
        }
    }
}

static void
test_compile_keeps_one_op_for_a_path_named_twice (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state,
                                           "[filesystem]\n"
                                           "writable=${WORKDIR};/home/alice/work\n"
                                           "[secrets]\n"
                                           "mask=${HOME}/.netrc;${HOME}/.bashrc;${HOME}/.netrc\n");

  assert_int_equal (count_ops_at (plan, "/home/alice/.netrc"), 1);
  /* bind + chdir */
  assert_int_equal (count_ops_at (plan, FIXTURE_WORKDIR), 2);
}

/* --- required and optional paths ---------------------------------------- */

static void
test_compile_refuses_an_absent_required_writable_path_naming_path_and_location (void **state)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPlan) plan = fixture_compile_text (*state,
                                             "[filesystem]\n"
                                             "# the cache\n"
                                             "writable=${HOME}/.cache/build\n",
                                             &error);

  assert_null (plan);
  assert_non_null (error);
  assert_true (g_error_matches (error, CORDON_ERROR, CORDON_ERROR_HOST));
  assert_true (g_str_has_prefix (error->message, "test.policy:3:"));
  assert_non_null (strstr (error->message, "/home/alice/.cache/build"));
}

static void
test_compile_refuses_an_absent_required_read_only_path (void **state)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPlan) plan = fixture_compile_text (*state, "[filesystem]\nread-only=/opt/tools\n", &error);

  assert_null (plan);
  assert_true (g_error_matches (error, CORDON_ERROR, CORDON_ERROR_HOST));
  assert_non_null (strstr (error->message, "/opt/tools"));
}

static void
test_compile_skips_an_absent_writable_try_path_and_records_it (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state,
                                           "[filesystem]\n"
                                           "writable-try=${HOME}/.cache/build\n");
  const CordonSkip *skip = fixture_find_skip (plan, "/home/alice/.cache/build");

  assert_int_equal (count_ops_at (plan, "/home/alice/.cache/build"), 0);
  assert_non_null (skip);
  assert_int_equal (skip->key, CORDON_KEY_FS_WRITABLE_TRY);
  assert_string_equal (skip->rule.file, "test.policy");
  assert_int_equal (skip->rule.line, 2);
  assert_non_null (strstr (skip->reason, "absent"));
}

static void
test_compile_binds_a_present_read_only_try_path (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[filesystem]\nread-only-try=/usr/share\n");
  gint i = find_op (plan, CORDON_OP_RO_BIND, "/usr/share");

  assert_true (i >= 0);
  assert_string_equal (op_at (plan, i)->src, "/usr/share");
  assert_null (fixture_find_skip (plan, "/usr/share"));
}

static void
test_compile_skips_an_absent_tmpfs_under_a_read_only_root (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[filesystem]\ntmpfs=/srv/scratch\n");

  assert_int_equal (find_op (plan, CORDON_OP_TMPFS, "/srv/scratch"), -1);
  assert_non_null (fixture_find_skip (plan, "/srv/scratch"));
}

static void
test_compile_refuses_a_required_path_whose_variable_is_unset (void **state)
{
  const char * const extra[] = { "XDG_RUNTIME_DIR", NULL };
  g_autoptr(FixtureHost) host = fixture_host_new_full (1000, extra, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPlan) plan = fixture_compile_text (host, "[filesystem]\nwritable=${XDG_RUNTIME_DIR}/app\n", &error);

  assert_null (plan);
  assert_true (g_error_matches (error, CORDON_ERROR, CORDON_ERROR_HOST));
  assert_non_null (strstr (error->message, "XDG_RUNTIME_DIR"));
}

/* --- masks ---------------------------------------------------------------- */

static void
test_compile_never_masks_an_absent_secret (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[secrets]\nmask=${HOME}/.kube\n");
  const CordonSkip *skip = fixture_find_skip (plan, "/home/alice/.kube");

  assert_int_equal (count_ops_at (plan, "/home/alice/.kube"), 0);
  assert_non_null (skip);
  assert_int_equal (skip->key, CORDON_KEY_SECRETS_MASK);
  assert_non_null (strstr (skip->reason, "absent"));
}

static void
test_compile_skips_a_secret_hidden_by_a_tmpfs (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state,
                                           "[filesystem]\ntmpfs=${HOME}\n"
                                           "[secrets]\nmask=${HOME}/.netrc\n");
  const CordonSkip *skip = fixture_find_skip (plan, "/home/alice/.netrc");

  assert_int_equal (count_ops_at (plan, "/home/alice/.netrc"), 0);
  assert_non_null (skip);
  assert_non_null (strstr (skip->reason, "hidden by the tmpfs at /home/alice"));
}

static void
test_compile_masks_a_secret_in_a_workdir_bound_under_a_tmpfs (void **state)
{
  /* The tmpfs hides the home, but the workdir bind brings part of it
   * back: a secret there is visible again and must be masked. */
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state,
                                           "[filesystem]\ntmpfs=${HOME}\nwritable=${WORKDIR}\n"
                                           "[secrets]\nmask=${WORKDIR}/README\n");

  assert_true (find_op (plan, CORDON_OP_MASK_FILE, "/home/alice/work/README") >= 0);
}

static void
test_compile_masks_a_secret_directory_with_an_empty_read_only_tmpfs (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[secrets]\nmask=${HOME}/.ssh\n");
  gint i = find_op (plan, CORDON_OP_MASK_DIR, "/home/alice/.ssh");

  assert_true (i >= 0);
  assert_null (op_at (plan, i)->src);
  assert_int_equal (find_op (plan, CORDON_OP_MASK_FILE, "/home/alice/.ssh"), -1);
}

static void
test_compile_masks_a_secret_file_with_dev_null (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[secrets]\nmask=${HOME}/.netrc\n");
  gint i = find_op (plan, CORDON_OP_MASK_FILE, "/home/alice/.netrc");

  assert_true (i >= 0);
  assert_string_equal (op_at (plan, i)->src, "/dev/null");
  assert_int_equal (op_at (plan, i)->key, CORDON_KEY_SECRETS_MASK);
  assert_int_equal (op_at (plan, i)->rule.line, 2);
}

static void
test_compile_masks_a_symlinked_secret_at_its_target (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[secrets]\nmask=${HOME}/.git-credentials\n");

  assert_true (find_op (plan, CORDON_OP_MASK_FILE, "/home/alice/.config/git/credentials") >= 0);
  assert_int_equal (count_ops_at (plan, "/home/alice/.git-credentials"), 0);
}

static void
test_compile_skips_a_symlinked_secret_whose_target_is_absent (void **state)
{
  g_autoptr(CordonPlan) plan = NULL;

  fixture_host_add_symlink (*state, "/home/alice/.pypirc", ".config/pypi/rc");
  plan = fixture_compile_ok (*state, "[secrets]\nmask=${HOME}/.pypirc\n");
  assert_int_equal (count_ops_at (plan, "/home/alice/.pypirc"), 0);
  assert_int_equal (count_ops_at (plan, "/home/alice/.config/pypi/rc"), 0);
  assert_non_null (fixture_find_skip (plan, "/home/alice/.config/pypi/rc"));
}

static void
test_compile_expands_a_secret_glob_into_a_mask_per_match (void **state)
{
  g_autoptr(CordonPlan) plan = NULL;

  fixture_host_add_file (*state, "/home/alice/.aws/config");
  plan = fixture_compile_ok (*state, "[secrets]\nmask=${HOME}/.aws/*\n");
  assert_true (find_op (plan, CORDON_OP_MASK_FILE, "/home/alice/.aws/config") >= 0);
  assert_true (find_op (plan, CORDON_OP_MASK_FILE, "/home/alice/.aws/credentials")
               > find_op (plan, CORDON_OP_MASK_FILE, "/home/alice/.aws/config"));
}

static void
test_compile_skips_a_secret_glob_that_matches_nothing (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[secrets]\nmask=${HOME}/.kube/*.yaml\n");
  const CordonSkip *skip = fixture_find_skip (plan, "/home/alice/.kube/*.yaml");

  assert_non_null (skip);
  assert_non_null (strstr (skip->reason, "matches nothing"));
  assert_int_equal (first_index_where (plan, op_is_mask), -1);
}

static void
test_compile_masks_a_catalog_socket_with_dev_null (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[sockets]\nmask=@docker\n");
  gint i = find_op (plan, CORDON_OP_MASK_FILE, "/run/docker.sock");

  assert_true (i >= 0);
  assert_string_equal (op_at (plan, i)->src, "/dev/null");
  assert_int_equal (op_at (plan, i)->key, CORDON_KEY_SOCKETS_MASK);
  /* ${XDG_RUNTIME_DIR}/docker.sock is absent on the fixture */
  assert_non_null (fixture_find_skip (plan, "/run/user/1000/docker.sock"));
}

static void
test_compile_masks_a_socket_matched_by_a_catalog_glob (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[sockets]\nmask=@x11\n");

  assert_true (find_op (plan, CORDON_OP_MASK_FILE, "/tmp/.X11-unix/X0") >= 0);
}

static void
test_compile_does_not_mask_a_socket_named_by_allow (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state,
                                           "[sockets]\nmask=@dbus;@docker\nallow=@dbus-session\n");
  const CordonSkip *skip = fixture_find_skip (plan, "/run/user/1000/bus");

  assert_int_equal (count_ops_at (plan, "/run/user/1000/bus"), 0);
  assert_non_null (skip);
  assert_non_null (strstr (skip->reason, "allow"));
  /* the allow is no wider than what it names */
  assert_true (find_op (plan, CORDON_OP_MASK_FILE, "/run/docker.sock") >= 0);
}

static void
test_compile_does_not_mask_a_socket_path_named_by_allow (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[sockets]\nmask=@docker\nallow=/run/docker.sock\n");

  assert_int_equal (count_ops_at (plan, "/run/docker.sock"), 0);
  assert_non_null (fixture_find_skip (plan, "/run/docker.sock"));
}

static void
test_compile_does_not_mask_sockets_matched_by_an_allow_glob (void **state)
{
  /* REGRESSION (src/compile.c collect_allowed_sockets): an allow=
   * written as a glob was kept unexpanded and never matched. */
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[sockets]\nmask=@x11\nallow=/tmp/.X11-unix/X*\n");

  assert_int_equal (count_ops_at (plan, "/tmp/.X11-unix/X0"), 0);
  assert_non_null (fixture_find_skip (plan, "/tmp/.X11-unix/X0"));
}

/* An allowed socket a scratch tmpfs hides (ssh-agent's in the host's
 * /tmp) is bound again at its place, after the tmpfs, by its allow=
 * rule; with no allow= (the control), or with nothing hiding it, there is
 * no such bind. */
/* The fixture's X socket and its directory, owned by `uid`, the
 * directory of `mode`. */
static void
own_x11_socket (FixtureHost *host,
                uid_t uid,
                mode_t mode)
{
  g_autofree char *dir = g_build_filename (host->root, "tmp/.X11-unix", NULL);
  g_autofree char *sock = g_build_filename (dir, "X0", NULL);

  assert_int_equal (lchown (dir, uid, uid), 0);
  assert_int_equal (chmod (dir, mode), 0);
  assert_int_equal (lchown (sock, uid, uid), 0);
}

static void
test_compile_binds_an_allowed_socket_that_a_scratch_tmpfs_hides (void **state)
{
  g_autoptr(CordonPlan) plan = NULL;

  own_x11_socket (*state, 1000, 0700);
  plan = fixture_compile_ok (*state, "[filesystem]\ntmpfs=/tmp\n"
                             "[sockets]\nmask=@x11\nallow=/tmp/.X11-unix/X*\n");
  int tmpfs = find_op (plan, CORDON_OP_TMPFS, "/tmp");
  int bind = find_op (plan, CORDON_OP_RO_BIND, "/tmp/.X11-unix/X0");
  const CordonOp *op;

  assert_true (tmpfs >= 0);
  assert_true (bind > tmpfs);
  op = g_ptr_array_index (plan->ops, bind);
  assert_string_equal (op->src, "/tmp/.X11-unix/X0");
  assert_int_equal (op->key, CORDON_KEY_SOCKETS_ALLOW);
  assert_int_equal (op->rule.line, 5);
  assert_int_equal (count_ops_at (plan, "/tmp/.X11-unix/X0"), 1);
}

/* The glob of a catalog entry matches other users' sockets too (every
 * /tmp/ssh-*): one that is not the caller's, or in a directory another
 * user may write (and so swap for a symlink before bwrap binds it), is
 * not bound. */
static void
test_compile_binds_no_allowed_socket_another_user_could_hold (void **state)
{
  static const char policy[] = "[filesystem]\ntmpfs=/tmp\n[sockets]\nmask=@x11\nallow=/tmp/.X11-unix/X*\n";
  FixtureHost *host = *state;

  own_x11_socket (host, 1001, 0700);
  {
    g_autoptr(CordonPlan) theirs = fixture_compile_ok (host, policy);

    assert_int_equal (count_ops_at (theirs, "/tmp/.X11-unix/X0"), 0);
  }
  own_x11_socket (host, 1000, 0770);
  {
    g_autoptr(CordonPlan) group = fixture_compile_ok (host, policy);

    assert_int_equal (count_ops_at (group, "/tmp/.X11-unix/X0"), 0);
  }
}

static void
test_compile_binds_no_socket_that_is_not_allowed_or_not_hidden (void **state)
{
  g_autoptr(CordonPlan) masked = fixture_compile_ok (*state, "[filesystem]\ntmpfs=/tmp\n[sockets]\nmask=@x11\n");
  g_autoptr(CordonPlan) shown = fixture_compile_ok (*state, "[sockets]\nmask=@x11\nallow=/tmp/.X11-unix/X*\n");

  assert_int_equal (count_ops_at (masked, "/tmp/.X11-unix/X0"), 0);
  assert_int_equal (count_ops_at (shown, "/tmp/.X11-unix/X0"), 0);
}

/* --- [environment] git-identity ------------------------------------------ */

static void
write_home_file (FixtureHost *host,
                 const char *rel,
                 const char *text)
{
  g_autofree char *path = g_build_filename (host->root, FIXTURE_HOME, rel, NULL);
  g_autofree char *dir = g_path_get_dirname (path);

  assert_int_equal (g_mkdir_with_parents (dir, 0755), 0);
  assert_true (g_file_set_contents (path, text, -1, NULL));
}

static const char *
envp_value (const CordonPlan *plan,
            const char *name)
{
  for (guint i = 0; i < plan->envp->len; i++)
    {
      const char *kv = g_ptr_array_index (plan->envp, i);

      if (g_str_has_prefix (kv, name) && kv[strlen (name)] == '=')
        return kv + strlen (name) + 1;
    }
  return NULL;
}

static const CordonEnvDecision *
decision (const CordonPlan *plan,
          const char *name)
{
  for (guint i = 0; i < plan->env_decisions->len; i++)
    if (g_str_equal (((const CordonEnvDecision *) g_ptr_array_index (plan->env_decisions, i))->name, name))
      return g_ptr_array_index (plan->env_decisions, i);
  return NULL;
}

/* user.name and user.email of the caller's config as git's four
 * variables, ~/.gitconfig winning over ~/.config/git/config, each from
 * its file and the rule; nothing else of the file (a credential helper,
 * a URL rewrite with a token) becomes a variable. */
static void
test_compile_sets_the_caller_s_git_identity (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) plan = NULL;
  const CordonEnvDecision *d;

  write_home_file (host, ".config/git/config", "[user]\n\tname = From Xdg\n\temail = xdg@example.org\n");
  write_home_file (host, ".gitconfig", "[user]\n\tname = Alice Liddell\n[credential]\n\thelper = store\n"
                   "[url \"https://tok3n@example.org/\"]\n\tinsteadOf = https://example.org/\n");
  plan = fixture_compile_ok (host, "[environment]\ngit-identity=true\n");
  assert_string_equal (envp_value (plan, "GIT_AUTHOR_NAME"), "Alice Liddell");
  assert_string_equal (envp_value (plan, "GIT_COMMITTER_NAME"), "Alice Liddell");
  assert_string_equal (envp_value (plan, "GIT_AUTHOR_EMAIL"), "xdg@example.org");
  assert_string_equal (envp_value (plan, "GIT_COMMITTER_EMAIL"), "xdg@example.org");
  d = decision (plan, "GIT_AUTHOR_NAME");
  assert_non_null (d);
  assert_true (d->passed);
  assert_string_equal (d->reason, "set from user.name of ~/.gitconfig (git-identity)");
  assert_int_equal (d->rule.line, 2);
  assert_string_equal (decision (plan, "GIT_AUTHOR_EMAIL")->reason,
                       "set from user.email of ~/.config/git/config (git-identity)");
  for (guint i = 0; i < plan->envp->len; i++)
    assert_null (strstr (g_ptr_array_index (plan->envp, i), "tok3n"));
}

/* What a sandbox could put at the name, through a link into a path it
 * writes: a FIFO is not read (nor waited on), and a value with a C1
 * control (U+009B, a terminal's CSI) is left out; the control is the
 * same file with a plain value. */
static void
test_compile_takes_no_git_identity_from_a_fifo_or_with_a_control (void **state)
{
  FixtureHost *host = *state;
  g_autofree char *path = g_build_filename (host->root, FIXTURE_HOME, ".gitconfig", NULL);
  g_autoptr(CordonPlan) fifo = NULL;
  g_autoptr(CordonPlan) csi = NULL;
  g_autoptr(CordonPlan) plain = NULL;

  assert_int_equal (mkfifo (path, 0644), 0);
  alarm (20);   /* a reader that waits on the FIFO fails here, not forever */
  fifo = fixture_compile_ok (host, "[environment]\ngit-identity=true\n");
  alarm (0);
  assert_null (envp_value (fifo, "GIT_AUTHOR_NAME"));
  assert_int_equal (unlink (path), 0);
  write_home_file (host, ".gitconfig", "[user]\n\tname = Alice \xc2\x9b""31m Liddell\n");
  csi = fixture_compile_ok (host, "[environment]\ngit-identity=true\n");
  assert_null (envp_value (csi, "GIT_AUTHOR_NAME"));
  write_home_file (host, ".gitconfig", "[user]\n\tname = Alice Liddell\n");
  plain = fixture_compile_ok (host, "[environment]\ngit-identity=true\n");
  assert_string_equal (envp_value (plain, "GIT_AUTHOR_NAME"), "Alice Liddell");
}

/* The controls: the key off (its default), a policy's set= and an
 * allowed variable of the caller's win, and a config that sets no name
 * sets none and says so. */
static void
test_compile_sets_no_git_identity_the_policy_or_caller_gives_otherwise (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) off = NULL;
  g_autoptr(CordonPlan) set = NULL;
  const CordonSkip *skip;

  write_home_file (host, ".gitconfig", "[user]\n\temail = a@example.org\n");
  off = fixture_compile_ok (host, "[environment]\nallow=PATH\n");
  assert_null (envp_value (off, "GIT_AUTHOR_EMAIL"));
  set = fixture_compile_ok (host, "[environment]\ngit-identity=true\nset=GIT_AUTHOR_EMAIL=policy@example.org\n");
  assert_string_equal (envp_value (set, "GIT_AUTHOR_EMAIL"), "policy@example.org");
  assert_string_equal (envp_value (set, "GIT_COMMITTER_EMAIL"), "a@example.org");
  assert_null (envp_value (set, "GIT_AUTHOR_NAME"));
  skip = fixture_find_skip (set, "user.name");
  assert_non_null (skip);
  assert_non_null (strstr (skip->reason, "sets none that cordon takes"));
}

static void
test_compile_does_not_mask_the_ssh_auth_sock_socket_when_ssh_agent_is_allowed (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[sockets]\nmask=@ssh-agent\nallow=@ssh-agent\n");

  assert_int_equal (count_ops_at (plan, "/run/user/1000/ssh-agent.sock"), 0);
  assert_non_null (fixture_find_skip (plan, "/run/user/1000/ssh-agent.sock"));
}

static void
test_compile_skips_a_mask_under_the_empty_proc_of_mode_none (void **state)
{
  g_autoptr(CordonPlan) plan = NULL;
  const CordonSkip *skip;

  fixture_host_add_file (*state, "/proc/version");
  plan = fixture_compile_ok (*state, "[proc]\nmode=none\n[secrets]\nmask=/proc/version\n");
  assert_true (find_op (plan, CORDON_OP_MASK_DIR, "/proc") >= 0);
  assert_int_equal (count_ops_at (plan, "/proc/version"), 0);
  skip = fixture_find_skip (plan, "/proc/version");
  assert_non_null (skip);
  assert_non_null (strstr (skip->reason, "hidden by the empty /proc at /proc"));
}

static void
test_compile_keeps_no_description_when_it_is_empty (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[policy]\ndescription=\n");

  assert_null (plan->description);
}

static void
test_compile_keeps_one_mask_for_a_secret_named_directly_and_through_a_link (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state,
                                           "[secrets]\n"
                                           "mask=${HOME}/.git-credentials;${HOME}/.config/git/credentials\n");

  assert_int_equal (count_ops_at (plan, "/home/alice/.config/git/credentials"), 1);
}

static void
test_compile_masks_the_socket_named_by_ssh_auth_sock (void **state)
{
  /* REGRESSION (src/sockets.c, src/compile.c add_env_socket_mask): an
   * agent socket named only by SSH_AUTH_SOCK stayed reachable. */
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[sockets]\nmask=@ssh-agent\n");

  assert_true (find_op (plan, CORDON_OP_MASK_FILE, "/run/user/1000/ssh-agent.sock") >= 0);
}

static void
test_compile_skips_a_mask_under_a_masked_directory (void **state)
{
  /* REGRESSION (src/compile.c flush_masks): a mask beneath a masked
   * directory was emitted, and bwrap failed to make its mount point in the
   * read-only tmpfs ("Can't create file ...: Read-only file system"). */
  g_autoptr(CordonPlan) plan = NULL;

  fixture_host_add_socket (*state, "/home/alice/.gnupg/S.gpg-agent");
  plan = fixture_compile_ok (*state, "[sockets]\nmask=@gpg-agent\n[secrets]\nmask=${HOME}/.gnupg\n");
  assert_true (find_op (plan, CORDON_OP_MASK_DIR, "/home/alice/.gnupg") >= 0);
  assert_int_equal (find_op (plan, CORDON_OP_MASK_FILE, "/home/alice/.gnupg/S.gpg-agent"), -1);
  assert_non_null (fixture_find_skip (plan, "/home/alice/.gnupg/S.gpg-agent"));
}

static void
test_compile_skips_a_mask_whose_variable_is_unset_with_the_reason (void **state)
{
  const char * const extra[] = { "XDG_RUNTIME_DIR", NULL };
  g_autoptr(FixtureHost) host = fixture_host_new_full (1000, extra, NULL);
  g_autoptr(CordonPlan) plan = fixture_compile_ok (host, "[secrets]\nmask=${XDG_RUNTIME_DIR}/keyring\n");
  const CordonSkip *skip = fixture_find_skip (plan, "${XDG_RUNTIME_DIR}/keyring");

  assert_non_null (skip);
  assert_non_null (strstr (skip->reason, "${XDG_RUNTIME_DIR} is not set"));
  assert_int_equal (first_index_where (plan, op_is_mask), -1);
}

/* A /proc/net/unix of the fixture host, as the kernel prints it. */
static void
write_proc_net_unix (FixtureHost *host,
                     const char *const *paths)
{
  g_autoptr(GString) text = g_string_new ("Num       RefCount Protocol Flags    Type St Inode Path\n");
  g_autofree char *dir = g_build_filename (host->root, "proc", "net", NULL);
  g_autofree char *file = g_build_filename (dir, "unix", NULL);

  for (guint i = 0; paths[i] != NULL; i++)
    g_string_append_printf (text, "0000000000000000: 00000002 00000000 00010000 0001 01 %u %s\n",
                            1000 + i, paths[i]);
  assert_int_equal (g_mkdir_with_parents (dir, 0755), 0);
  assert_true (g_file_set_contents (file, text->str, -1, NULL));
}

static void
test_compile_masks_listening_sockets_the_sandbox_can_see (void **state)
{
  const char *listening[] = { "/home/alice/work/app.sock", "/run/docker.sock", "@abstract-one", NULL };
  g_autoptr(CordonPlan) plan = NULL;
  const CordonSkip *hidden;

  fixture_host_add_socket (*state, "/home/alice/work/app.sock");
  write_proc_net_unix (*state, listening);
  plan = fixture_compile_ok (*state, "[sockets]\nmask-listening=true\n[filesystem]\ntmpfs=/run\n");
  assert_true (find_op (plan, CORDON_OP_MASK_FILE, "/home/alice/work/app.sock") >= 0);
  hidden = fixture_find_skip (plan, "/run/docker.sock");
  assert_non_null (hidden);
  assert_non_null (strstr (hidden->reason, "hidden by the tmpfs at /run"));
}

static void
test_compile_masks_a_listening_socket_whose_path_has_a_space (void **state)
{
  const char *listening[] = { "/home/alice/work/sp ace.sock", NULL };
  g_autoptr(CordonPlan) plan = NULL;

  fixture_host_add_socket (*state, "/home/alice/work/sp ace.sock");
  write_proc_net_unix (*state, listening);
  plan = fixture_compile_ok (*state, "[sockets]\nmask-listening=true\n");
  assert_true (find_op (plan, CORDON_OP_MASK_FILE, "/home/alice/work/sp ace.sock") >= 0);
}

static void
test_compile_leaves_a_listed_path_that_is_not_a_socket (void **state)
{
  /* Another process bound a socket at the workdir's path in its own mount
   * namespace: /proc/net/unix lists it, but here it is a directory. */
  const char *listening[] = { "/home/alice/work", NULL };
  g_autoptr(CordonPlan) plan = NULL;

  write_proc_net_unix (*state, listening);
  plan = fixture_compile_ok (*state, "[sockets]\nmask-listening=true\n[filesystem]\nwritable=${WORKDIR}\n");
  assert_int_equal (find_op (plan, CORDON_OP_MASK_DIR, "/home/alice/work"), -1);
  assert_non_null (fixture_find_skip (plan, "/home/alice/work"));
}

static void
test_compile_refuses_mask_listening_when_the_socket_table_is_unreadable (void **state)
{
  FixtureHost *host = *state;
  g_autofree char *table = g_build_filename (host->root, "proc", "net", "unix", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPlan) plan = NULL;

  assert_int_equal (g_unlink (table), 0);
  plan = fixture_compile_text (host, "[sockets]\nmask-listening=true\n", &error);
  assert_null (plan);
  assert_non_null (error);
  assert_non_null (strstr (error->message, "/proc/net/unix"));
}

static void
test_compile_exempts_an_allowed_socket_however_its_path_is_spelled (void **state)
{
  const char *extra[] = { "DOCKER_HOST=unix:///home/alice/lnk/d.sock", NULL };
  const char *listening[] = { "/home/alice/work/d.sock", NULL };
  g_autoptr(FixtureHost) host = fixture_host_new_full (1000, extra, NULL);
  g_autoptr(CordonPlan) plan = NULL;

  /* The variable reaches the socket through a symlink; /proc/net/unix
   * lists its real path. allow=@docker covers both. */
  fixture_host_add_socket (host, "/home/alice/work/d.sock");
  fixture_host_add_symlink (host, "/home/alice/lnk", "work");
  write_proc_net_unix (host, listening);
  plan = fixture_compile_ok (host, "[environment]\nallow=DOCKER_HOST\n"
                           "[sockets]\nmask=@docker\nallow=@docker\nmask-listening=true\n");
  assert_int_equal (count_ops_at (plan, "/home/alice/work/d.sock"), 0);
  assert_true (envp_has_name (plan, "DOCKER_HOST"));
}

static void
test_compile_lists_abstract_sockets_only_when_the_network_is_shared (void **state)
{
  const char *sockets[] = { "@/tmp/.X11-unix/X0", "@dbus-abc", NULL };
  g_autoptr(CordonPlan) shared = NULL;
  g_autoptr(CordonPlan) unshared = NULL;

  write_proc_net_unix (*state, sockets);
  shared = fixture_compile_ok (*state, "[namespaces]\nunshare=user;pid\n");
  assert_int_equal (shared->abstract_sockets->len, 2);
  assert_string_equal (g_ptr_array_index (shared->abstract_sockets, 0), "@/tmp/.X11-unix/X0");
  unshared = fixture_compile_ok (*state, "[namespaces]\nunshare=user;pid;net\n");
  assert_int_equal (unshared->abstract_sockets->len, 0);
}

static void
test_compile_leaves_a_socket_the_caller_cannot_connect_to (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonDiagnostics) diags = cordon_diagnostics_new ();
  g_autoptr(CordonPolicy) policy = NULL;
  g_autoptr(CordonPlan) plan = NULL;
  CordonPathInfo *info;
  const CordonSkip *skip;

  fixture_host_add_socket (host, "/home/alice/work/root-only.sock");
  policy = fixture_load_text ("[sockets]\nmask=${WORKDIR}/root-only.sock\n", diags, NULL);
  assert_non_null (policy);
  cordon_host_facts_scan_policy (host->facts, policy);
  /* What access (W_OK) says of a root-owned 0600 socket to an ordinary
   * caller; the unit tests may run as root, so it is set here. */
  info = (CordonPathInfo *) cordon_host_facts_lookup (host->facts, "/home/alice/work/root-only.sock");
  assert_non_null (info);
  info->connectable = FALSE;
  plan = cordon_compile (policy, host->facts, NULL);
  assert_non_null (plan);
  assert_int_equal (count_ops_at (plan, "/home/alice/work/root-only.sock"), 0);
  skip = fixture_find_skip (plan, "/home/alice/work/root-only.sock");
  assert_non_null (skip);
  assert_non_null (strstr (skip->reason, "cannot connect"));
}

static void
test_compile_masks_a_socket_at_its_bind_mount_alias_too (void **state)
{
  FixtureHost *host = *state;
  g_autofree char *mountinfo_dir = g_build_filename (host->root, "proc", "self", NULL);
  g_autofree char *mountinfo = g_build_filename (mountinfo_dir, "mountinfo", NULL);
  g_autofree char *orig = g_build_filename (host->root, "run", "docker.sock", NULL);
  g_autofree char *alias_dir = g_build_filename (host->root, "srv", "run-alias", NULL);
  g_autofree char *alias = g_build_filename (alias_dir, "docker.sock", NULL);
  g_autoptr(CordonPlan) plan = NULL;

  /* /run shown again at /srv/run-alias, as a bind mount would: the same
   * inode at a second path (a hard link stands in for the mount). */
  assert_int_equal (g_mkdir_with_parents (alias_dir, 0755), 0);
  assert_int_equal (link (orig, alias), 0);
  assert_int_equal (g_mkdir_with_parents (mountinfo_dir, 0755), 0);
  assert_true (g_file_set_contents (mountinfo,
                                    "21 1 254:0 / / rw - ext4 /dev/vda rw\n"
                                    "22 21 0:25 / /run rw - tmpfs tmpfs rw\n"
                                    "23 21 0:25 / /srv/run-alias rw - tmpfs tmpfs rw\n", -1, NULL));
  plan = fixture_compile_ok (host, "[sockets]\nmask=@docker\n");
  assert_true (find_op (plan, CORDON_OP_MASK_FILE, "/run/docker.sock") >= 0);
  assert_true (find_op (plan, CORDON_OP_MASK_FILE, "/srv/run-alias/docker.sock") >= 0);
}

static void
test_compile_drops_the_variable_that_located_a_masked_socket (void **state)
{
  const char *extra[] = { "DOCKER_HOST=unix:///home/alice/work/d.sock", NULL };
  g_autoptr(FixtureHost) host = fixture_host_new_full (1000, extra, NULL);
  g_autoptr(CordonPlan) plan = NULL;
  const CordonEnvDecision *d;

  fixture_host_add_socket (host, "/home/alice/work/d.sock");
  plan = fixture_compile_ok (host, "[environment]\nallow=DOCKER_HOST\n[sockets]\nmask=@docker\n");
  assert_true (find_op (plan, CORDON_OP_MASK_FILE, "/home/alice/work/d.sock") >= 0);
  d = find_decision (plan, "DOCKER_HOST");
  assert_non_null (d);
  assert_false (d->passed);
  assert_non_null (strstr (d->reason, "locates a masked socket @docker"));
  assert_false (envp_has_name (plan, "DOCKER_HOST"));
}

/* D-Bus clients try every address of the list: each socket is masked,
 * and the variable goes with them. */
static void
test_compile_masks_every_socket_a_variable_names (void **state)
{
  const char *extra[] = {
    "DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus;unix:path=/home/alice/work/fallback", NULL
  };
  g_autoptr(FixtureHost) host = fixture_host_new_full (1000, extra, NULL);
  g_autoptr(CordonPlan) plan = NULL;

  fixture_host_add_socket (host, "/home/alice/work/fallback");
  plan = fixture_compile_ok (host, "[environment]\nallow=DBUS_SESSION_BUS_ADDRESS\n"
                             "[sockets]\nmask=@dbus-session\n");
  assert_true (find_op (plan, CORDON_OP_MASK_FILE, "/run/user/1000/bus") >= 0);
  assert_true (find_op (plan, CORDON_OP_MASK_FILE, "/home/alice/work/fallback") >= 0);
  assert_false (envp_has_name (plan, "DBUS_SESSION_BUS_ADDRESS"));
}

static void
test_compile_keeps_cordons_own_config_read_only_under_a_writable_home (void **state)
{
  g_autoptr(CordonPlan) plan = NULL;
  gint bind, ro;

  fixture_host_add_dir (*state, "/home/alice/.config/cordon");
  plan = fixture_compile_ok (*state, "[filesystem]\nwritable=${HOME}\n");
  bind = find_op (plan, CORDON_OP_BIND, "/home/alice");
  ro = find_op (plan, CORDON_OP_RO_BIND, "/home/alice/.config/cordon");
  assert_true (bind >= 0);
  assert_true (ro > bind);
}

static void
test_compile_adds_nothing_for_cordons_config_when_it_is_not_writable (void **state)
{
  g_autoptr(CordonPlan) plan = NULL;

  fixture_host_add_dir (*state, "/home/alice/.config/cordon");
  plan = fixture_compile_ok (*state, "[filesystem]\nread-only=${HOME}\n");
  assert_int_equal (find_op (plan, CORDON_OP_RO_BIND, "/home/alice/.config/cordon"), -1);
}

static void
test_compile_keeps_each_named_capability_after_dropping_all (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new (0);
  g_autoptr(CordonPlan) plan = fixture_compile_ok (host, "[capabilities]\nkeep=net_raw;CAP_NET_RAW;cap_chown\n");
  gint drop = find_op (plan, CORDON_OP_CAP_DROP_ALL, NULL);
  gint add = find_op (plan, CORDON_OP_CAP_ADD, NULL);

  assert_true (drop >= 0);
  assert_true (add > drop);
  assert_string_equal (((CordonOp *) g_ptr_array_index (plan->ops, add))->src, "CAP_NET_RAW");
  /* CAP_NET_RAW is bit 13, CAP_CHOWN bit 0; named twice, kept once. */
  assert_int_equal (plan->keep_caps, (G_GUINT64_CONSTANT (1) << 13) | 1);
}

static void
test_compile_records_the_seccomp_profile_and_its_exceptions (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[seccomp]\nprofile=strict\nallow=ptrace\ndeny=chmod\n");

  assert_int_equal (plan->seccomp, CORDON_SECCOMP_STRICT);
  assert_int_equal (plan->seccomp_allow->len, 1);
  assert_string_equal (g_ptr_array_index (plan->seccomp_deny, 0), "chmod");
}

static void
test_compile_passes_the_variable_of_an_allowed_socket (void **state)
{
  const char *extra[] = { "DOCKER_HOST=unix:///home/alice/work/d.sock", NULL };
  g_autoptr(FixtureHost) host = fixture_host_new_full (1000, extra, NULL);
  g_autoptr(CordonPlan) plan = NULL;

  fixture_host_add_socket (host, "/home/alice/work/d.sock");
  plan = fixture_compile_ok (host, "[environment]\nallow=DOCKER_HOST\n[sockets]\nmask=@docker\nallow=@docker\n");
  assert_int_equal (count_ops_at (plan, "/home/alice/work/d.sock"), 0);
  assert_true (envp_has_name (plan, "DOCKER_HOST"));
}

static void
test_compile_accepts_mask_listening_false (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[sockets]\nmask-listening=false\n");

  assert_non_null (plan);
  assert_true (find_op (plan, CORDON_OP_RO_BIND, "/") >= 0);
}

/* --- environment (invariant 1) ------------------------------------------ */

static void
test_compile_drops_a_never_pass_variable_even_when_star_allows_it (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[environment]\nallow=*\n");
  const CordonEnvDecision *d = find_decision (plan, "LD_PRELOAD");

  assert_false (envp_has_name (plan, "LD_PRELOAD"));
  assert_non_null (d);
  assert_false (d->passed);
  assert_non_null (strstr (d->reason, "never-pass"));
  /* and the star still passes the rest */
  assert_true (envp_has (plan, "TERM=xterm"));
}

static void
test_compile_passes_an_allowed_variable_with_the_callers_value (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[environment]\nallow=PATH\n");
  const CordonEnvDecision *d = find_decision (plan, "PATH");

  assert_true (envp_has (plan, "PATH=" FIXTURE_PATH));
  assert_true (d->passed);
  assert_false (d->set_by_policy);
  assert_int_equal (d->rule.line, 2);
}

static void
test_compile_drops_a_variable_that_is_not_allowed (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[environment]\nallow=PATH\n");
  const CordonEnvDecision *d = find_decision (plan, "SECRET_TOKEN");

  assert_false (envp_has_name (plan, "SECRET_TOKEN"));
  assert_non_null (d);
  assert_false (d->passed);
}

static void
test_compile_lets_set_override_the_callers_value (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state,
                                           "[environment]\nallow=HOME\nset=HOME=/home/trial\n");
  const CordonEnvDecision *d = find_decision (plan, "HOME");
  guint n = 0;

  assert_true (envp_has (plan, "HOME=/home/trial"));
  for (guint i = 0; i < plan->envp->len; i++)
    n += g_str_has_prefix (g_ptr_array_index (plan->envp, i), "HOME=");
  assert_int_equal (n, 1);
  assert_true (d->set_by_policy);
}

static void
test_compile_expands_variables_in_a_set_value (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[environment]\nset=XDG_CACHE_HOME=${WORKDIR}/.cache\n");

  assert_true (envp_has (plan, "XDG_CACHE_HOME=/home/alice/work/.cache"));
}

static void
test_compile_refuses_to_set_a_never_pass_variable (void **state)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPlan) plan = fixture_compile_text (*state, "[environment]\nset=LD_PRELOAD=/x.so\n", &error);

  assert_null (plan);
  assert_true (g_error_matches (error, CORDON_ERROR, CORDON_ERROR_POLICY));
  assert_non_null (strstr (error->message, "LD_PRELOAD"));
}

static void
test_compile_sorts_the_envp_and_holds_only_allowed_names (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[environment]\nallow=TERM;PATH;LANG;NOT_SET\n");

  assert_int_equal (plan->envp->len, 3);
  assert_string_equal (g_ptr_array_index (plan->envp, 0), "LANG=C.UTF-8");
  assert_string_equal (g_ptr_array_index (plan->envp, 1), "PATH=" FIXTURE_PATH);
  assert_string_equal (g_ptr_array_index (plan->envp, 2), "TERM=xterm");
}

static void
test_compile_sorts_the_env_decisions_by_name (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[environment]\nallow=PATH\nset=AAA=1;ZZZ=2\n");

  assert_true (plan->env_decisions->len >= 2);
  for (guint i = 1; i < plan->env_decisions->len; i++)
    assert_true (strcmp (((CordonEnvDecision *) g_ptr_array_index (plan->env_decisions, i - 1))->name,
                         ((CordonEnvDecision *) g_ptr_array_index (plan->env_decisions, i))->name) < 0);
}

static void
test_compile_passes_nothing_when_nothing_is_allowed (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[filesystem]\nroot=read-only\n");

  assert_int_equal (plan->envp->len, 0);
}

/* --- capabilities (invariant 5) ----------------------------------------- */

static void
test_compile_drops_every_capability_for_a_root_caller (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new (0);
  g_autoptr(CordonPlan) plan = compile_shipped (host, "trial");

  assert_true (find_op (plan, CORDON_OP_CAP_DROP_ALL, NULL) >= 0);
}

static void
test_compile_adds_no_cap_drop_for_an_unprivileged_caller (void **state)
{
  g_autoptr(CordonPlan) plan = compile_shipped (*state, "trial");

  assert_int_equal (find_op (plan, CORDON_OP_CAP_DROP_ALL, NULL), -1);
}

/* --- namespaces and session --------------------------------------------- */

static void
test_compile_unshares_each_named_namespace_in_a_fixed_order (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[namespaces]\nunshare=net;user;pid\n");
  gint user = -1, pid = -1, net = -1;

  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);

      if (op->kind != CORDON_OP_UNSHARE)
        continue;
      if (op->ns == CORDON_NS_USER)
        user = (gint) i;
      else if (op->ns == CORDON_NS_PID)
        pid = (gint) i;
      else if (op->ns == CORDON_NS_NET)
        net = (gint) i;
      else
        fail_msg ("unexpected namespace %u", op->ns);
    }
  assert_true (user >= 0 && user < pid && pid < net);
  assert_int_equal (plan->namespaces, CORDON_NS_USER | CORDON_NS_PID | CORDON_NS_NET);
}

static void
test_compile_adds_new_session_and_die_with_parent_by_default (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[filesystem]\nroot=read-only\n");

  assert_true (find_op (plan, CORDON_OP_NEW_SESSION, NULL) >= 0);
  assert_true (find_op (plan, CORDON_OP_DIE_WITH_PARENT, NULL) >= 0);
}

static void
test_compile_leaves_out_new_session_when_the_policy_says_false (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[namespaces]\nnew-session=false\n");

  assert_int_equal (find_op (plan, CORDON_OP_NEW_SESSION, NULL), -1);
}

/* --- root=minimal and /proc ---------------------------------------------- */

static void
test_compile_minimal_root_binds_host_directories_read_only (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[filesystem]\nroot=minimal\n");
  gint usr = find_op (plan, CORDON_OP_RO_BIND, "/usr");
  gint etc = find_op (plan, CORDON_OP_RO_BIND, "/etc");

  assert_true (usr >= 0);
  assert_true (etc >= 0);
  assert_string_equal (op_at (plan, usr)->src, "/usr");
  assert_int_equal (find_op (plan, CORDON_OP_RO_BIND, "/"), -1);
}

static void
test_compile_minimal_root_keeps_symlinked_entries_as_symlinks (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[filesystem]\nroot=minimal\n");
  static const char * const links[][2] = {
    { "/bin", "usr/bin" }, { "/sbin", "usr/sbin" }, { "/lib", "usr/lib" }, { "/lib64", "usr/lib64" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (links); i++)
    {
      gint k = find_op (plan, CORDON_OP_SYMLINK, links[i][0]);

      assert_true (k >= 0);
      assert_string_equal (op_at (plan, k)->src, links[i][1]);
      assert_int_equal (find_op (plan, CORDON_OP_RO_BIND, links[i][0]), -1);
    }
}

static void
test_compile_minimal_root_skips_entries_absent_on_the_host (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[filesystem]\nroot=minimal\n");

  assert_int_equal (count_ops_at (plan, "/lib32"), 0);
  assert_non_null (fixture_find_skip (plan, "/lib32"));
  assert_non_null (fixture_find_skip (plan, "/libx32"));
}

static void
test_compile_minimal_root_makes_a_tmpfs_for_a_path_absent_on_the_host (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[filesystem]\nroot=minimal\ntmpfs=/scratch\n");

  assert_true (find_op (plan, CORDON_OP_TMPFS, "/scratch") >= 0);
}

static void
test_compile_minimal_root_skips_a_secret_outside_its_binds (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[filesystem]\nroot=minimal\n[secrets]\nmask=${HOME}/.netrc\n");
  const CordonSkip *skip = fixture_find_skip (plan, "/home/alice/.netrc");

  assert_int_equal (count_ops_at (plan, "/home/alice/.netrc"), 0);
  assert_non_null (skip);
  assert_non_null (strstr (skip->reason, "not visible"));
}

static void
test_compile_binds_the_host_proc_read_only_in_host_ro_mode (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[proc]\nmode=host-ro\n");
  gint i = find_op (plan, CORDON_OP_RO_BIND, "/proc");

  assert_true (i >= 0);
  assert_string_equal (op_at (plan, i)->src, "/proc");
  assert_int_equal (find_op (plan, CORDON_OP_PROC, NULL), -1);
  assert_int_equal (plan->proc_mode, CORDON_PROC_HOST_RO);
}

/* --- workdir --------------------------------------------------------------- */

static void
test_compile_refuses_the_root_directory_as_workdir (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new_full (1000, NULL, "/");
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPlan) plan = fixture_compile_text (host, "[filesystem]\nwritable=${WORKDIR}\n", &error);

  assert_null (plan);
  assert_true (g_error_matches (error, CORDON_ERROR, CORDON_ERROR_USAGE));
}

static void
test_compile_refuses_a_workdir_that_is_not_a_directory (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new_full (1000, NULL, "/home/alice/.netrc");
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPlan) plan = fixture_compile_text (host, "[filesystem]\nroot=read-only\n", &error);

  assert_null (plan);
  assert_true (g_error_matches (error, CORDON_ERROR, CORDON_ERROR_HOST));
}

static void
test_compile_starts_the_command_in_the_workdir (void **state)
{
  g_autoptr(CordonPlan) plan = compile_shipped (*state, "trial");
  gint i = find_op (plan, CORDON_OP_CHDIR, FIXTURE_WORKDIR);

  guint hidden = 0;

  /* After every mount of the policy: only the read-only remounts of the
   * hidden directories, then what launch gives bwrap. */
  assert_true (i >= 0);
  for (guint j = (guint) i + 1; j < plan->ops->len; j++)
    assert_true (((CordonOp *) g_ptr_array_index (plan->ops, j))->kind >= CORDON_OP_HELPER_BIND);
  for (guint j = (guint) i + 1; ((CordonOp *) g_ptr_array_index (plan->ops, j))->kind == CORDON_OP_OPTION; j++)
    {
      assert_string_equal (((CordonOp *) g_ptr_array_index (plan->ops, j))->src, "--remount-ro");
      hidden++;
    }
  assert_true (hidden > 0);
  assert_int_equal (((CordonOp *) g_ptr_array_index (plan->ops, i + 1 + hidden))->kind, CORDON_OP_STATUS_FD);
  assert_string_equal (plan->workdir, FIXTURE_WORKDIR);
}

static void
test_compile_records_a_workdir_hidden_by_a_tmpfs (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[filesystem]\ntmpfs=${HOME}\n");

  assert_int_equal (find_op (plan, CORDON_OP_CHDIR, NULL), -1);
  assert_non_null (fixture_find_skip (plan, FIXTURE_WORKDIR));
}

/* --- determinism ---------------------------------------------------------- */

static char *
render_all (FixtureHost *host,
            const char *name)
{
  g_autoptr(CordonPlan) plan = compile_shipped (host, name);
  g_autoptr(CordonBwrapArgv) argv = cordon_render_argv (plan);
  g_autofree char *args = NULL;
  g_autofree char *envp = NULL;

  g_ptr_array_add (argv->args, NULL);
  args = g_strjoinv ("\n", (char **) argv->args->pdata);
  g_ptr_array_remove_index (argv->args, argv->args->len - 1);
  g_ptr_array_add (plan->envp, NULL);
  envp = g_strjoinv ("\n", (char **) plan->envp->pdata);
  g_ptr_array_remove_index (plan->envp, plan->envp->len - 1);
  return g_strconcat (args, "\n--\n", envp, NULL);
}

static void
test_compile_gives_the_same_argv_twice (void **state)
{
  static const char * const names[] = { "trial", "desktop-readonly-home", "minimal" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      /* Two hosts, two temporary roots: nothing of the sysroot leaks in. */
      g_autoptr(FixtureHost) other = fixture_host_new (1000);
      g_autofree char *a = render_all (*state, names[i]);
      g_autofree char *b = render_all (*state, names[i]);
      g_autofree char *c = render_all (other, names[i]);

      assert_string_equal (a, b);
      assert_string_equal (a, c);
    }
}


/* --- compile options: what the host decided, each tagged ----------------- */

static CordonPlan *
compile_with (FixtureHost *host,
              const char *text,
              const CordonCompileOptions *options)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPolicy) policy = fixture_load_text (text, NULL, &error);
  CordonPlan *plan;

  assert_non_null (policy);
  cordon_host_facts_scan_policy (host->facts, policy);
  plan = cordon_compile_with (policy, host->facts, options, &error);
  if (plan == NULL)
    fail_msg ("compile: %s", error->message);
  return plan;
}

static gint
find_unshare (const CordonPlan *plan,
              CordonNamespaces ns)
{
  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);

      if (op->kind == CORDON_OP_UNSHARE && op->ns == (guint) ns)
        return (gint) i;
    }
  return -1;
}

static void
test_compile_leaves_out_the_user_namespace_for_a_setuid_bwrap_and_says_why (void **state)
{
  const CordonCompileOptions setuid = { .share_user = TRUE };
  g_autoptr(CordonPlan) plan = compile_with (*state, "[namespaces]\nunshare=user;pid;net\n", &setuid);
  const CordonSkip *skip = plan->adapted->len == 1 ? g_ptr_array_index (plan->adapted, 0) : NULL;

  assert_int_equal (find_unshare (plan, CORDON_NS_USER), -1);
  assert_true (find_unshare (plan, CORDON_NS_PID) >= 0);
  assert_true (find_unshare (plan, CORDON_NS_NET) >= 0);
  assert_int_equal (plan->namespaces, CORDON_NS_PID | CORDON_NS_NET);
  /* What was adapted points at the policy's unshare= item of "user"
   * (not a skipped path: the report's "skipped" holds only paths). */
  assert_null (fixture_find_skip (plan, "user namespace"));
  assert_non_null (skip);
  assert_string_equal (skip->path, "user namespace");
  assert_int_equal (skip->key, CORDON_KEY_NS_UNSHARE);
  assert_int_equal (skip->rule.line, 2);
  assert_int_equal (skip->rule.col, 9);
  assert_non_null (strstr (skip->reason, "setuid bwrap"));
}

static void
test_compile_applies_the_proc_fallback_the_probe_calls_for (void **state)
{
  const CordonCompileOptions masked = { .proc_fallback = TRUE };
  g_autoptr(CordonPlan) ro = compile_with (*state, "[proc]\nmode=private\nfallback=host-ro\n", &masked);
  g_autoptr(CordonPlan) none = compile_with (*state, "[proc]\nfallback=none\n", &masked);
  gint i = find_op (ro, CORDON_OP_RO_BIND, "/proc");
  const CordonOp *op;

  assert_int_equal (ro->proc_mode, CORDON_PROC_HOST_RO);
  assert_true (i >= 0);
  op = g_ptr_array_index (ro->ops, i);
  /* Tagged with the rule that applies: fallback=, at its line. */
  assert_int_equal (op->key, CORDON_KEY_PROC_FALLBACK);
  assert_int_equal (op->rule.line, 3);
  assert_non_null (strstr (op->why, "the probe"));
  assert_int_equal (find_op (ro, CORDON_OP_PROC, NULL), -1);
  assert_int_equal (find_op (ro, CORDON_OP_RO_BIND, "/proc/sys"), -1);
  assert_int_equal (ro->adapted->len, 1);
  assert_string_equal (((CordonSkip *) g_ptr_array_index (ro->adapted, 0))->path, "/proc");
  assert_int_equal (((CordonSkip *) g_ptr_array_index (ro->adapted, 0))->key, CORDON_KEY_PROC_FALLBACK);
  assert_int_equal (none->proc_mode, CORDON_PROC_NONE);
  assert_true (find_op (none, CORDON_OP_MASK_DIR, "/proc") >= 0);
}

static void
test_compile_keeps_a_private_proc_where_the_fallback_is_refuse (void **state)
{
  const CordonCompileOptions masked = { .proc_fallback = TRUE };
  g_autoptr(CordonPlan) plan = compile_with (*state, "[proc]\nfallback=refuse\n", &masked);

  /* run refuses such a plan (the probe's detail); compile never weakens it. */
  assert_int_equal (plan->proc_mode, CORDON_PROC_PRIVATE);
  assert_int_equal (plan->adapted->len, 0);
  assert_true (find_op (plan, CORDON_OP_PROC, "/proc") >= 0);
}

static void
test_compile_asks_bwrap_to_disable_user_namespaces_where_it_can (void **state)
{
  const CordonCompileOptions takes = { .disable_userns = TRUE };
  const CordonCompileOptions cannot = { .disable_userns = FALSE };
  g_autoptr(CordonPlan) yes = compile_with (*state, "[namespaces]\nunshare=user;pid\n", &takes);
  g_autoptr(CordonPlan) old = compile_with (*state, "[namespaces]\nunshare=user;pid\n", &cannot);
  g_autoptr(CordonPlan) no_user = compile_with (*state, "[namespaces]\nunshare=pid\n", &takes);
  g_autoptr(CordonPlan) nested = compile_with (*state, "[namespaces]\nunshare=user\n"
                                                       "[seccomp]\nallow=unshare\n", &takes);
  g_autoptr(CordonPlan) cloned = compile_with (*state, "[namespaces]\nunshare=user\n"
                                                       "[seccomp]\nallow=clone\n", &takes);

  assert_true (find_op (yes, CORDON_OP_DISABLE_USERNS, NULL) >= 0);
  assert_int_equal (find_op (old, CORDON_OP_DISABLE_USERNS, NULL), -1);
  /* bwrap takes --disable-userns only with --unshare-user. */
  assert_int_equal (find_op (no_user, CORDON_OP_DISABLE_USERNS, NULL), -1);
  /* A policy that asks for namespaces inside (a nested sandbox). */
  assert_int_equal (find_op (nested, CORDON_OP_DISABLE_USERNS, NULL), -1);
  assert_int_equal (find_op (cloned, CORDON_OP_DISABLE_USERNS, NULL), -1);
}

/* The probe's answer (a bwrap that takes --disable-userns) amends the
 * plan compiled without it into the very plan compiled with it: the same
 * options to bwrap, each beside the same rule. */
static void
assert_amended_as_compiled (FixtureHost *host,
                            CordonPolicy *policy)
{
  const CordonCompileOptions takes = { .disable_userns = TRUE };
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPlan) compiled = NULL;
  g_autoptr(CordonPlan) amended = NULL;
  g_autoptr(CordonBwrapArgv) want = NULL;
  g_autoptr(CordonBwrapArgv) got = NULL;
  g_autoptr(GBytes) want_text = NULL;
  g_autoptr(GBytes) got_text = NULL;

  cordon_host_facts_scan_policy (host->facts, policy);
  compiled = cordon_compile_with (policy, host->facts, &takes, &error);
  amended = cordon_compile_with (policy, host->facts, NULL, &error);
  assert_non_null (compiled);
  assert_non_null (amended);
  cordon_compile_add_disable_userns (amended, policy);
  want = cordon_render_argv (compiled);
  got = cordon_render_argv (amended);
  want_text = cordon_render_as ("explain", compiled, want, "/usr/bin/bwrap", "filter", NULL);
  got_text = cordon_render_as ("explain", amended, got, "/usr/bin/bwrap", "filter", NULL);
  assert_true (g_bytes_equal (want_text, got_text));
  g_clear_pointer (&want_text, g_bytes_unref);
  g_clear_pointer (&got_text, g_bytes_unref);
  want_text = cordon_bwrap_argv_to_nul (want);
  got_text = cordon_bwrap_argv_to_nul (got);
  assert_true (g_bytes_equal (want_text, got_text));
}

static void
test_compile_adds_disable_userns_as_a_compile_with_it_would (void **state)
{
  FixtureHost *host = *state;
  static const char * const texts[] = {
    "[namespaces]\nunshare=user;pid\n", "[namespaces]\nunshare=pid\n",
    "[namespaces]\nunshare=user\n[seccomp]\nallow=unshare\n", "[namespaces]\nunshare=user\n[seccomp]\nprofile=none\n",
  };
  g_auto(GStrv) names = cordon_policy_source_list_embedded ();

  fixture_host_add_file (host, "/opt/cordon/cordon-exec");
  host->facts->helper_path = g_strdup ("/opt/cordon/cordon-exec");
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(CordonPolicy) policy = fixture_load_text (texts[i], NULL, &error);

      assert_non_null (policy);
      assert_amended_as_compiled (host, policy);
    }
  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(CordonPolicy) policy = fixture_load_embedded (names[i], NULL, &error);

      if (g_str_equal (names[i], "base"))
        continue;
      assert_non_null (policy);
      assert_amended_as_compiled (host, policy);
    }
}

static void
test_compile_names_the_fds_bwrap_reads_and_the_helper (void **state)
{
  FixtureHost *host = *state;
  g_autoptr(CordonPlan) without = compile_with (host, "[seccomp]\nprofile=none\n", NULL);
  g_autoptr(CordonPlan) with = NULL;
  gint status = find_op (without, CORDON_OP_STATUS_FD, NULL);
  gint seccomp, helper;

  assert_true (status >= 0);
  assert_int_equal (((CordonOp *) g_ptr_array_index (without->ops, status))->fd, CORDON_BWRAP_FD_STATUS);
  assert_int_equal (find_op (without, CORDON_OP_SECCOMP, NULL), -1);
  /* No helper known: no bind (compile on a broken installation). */
  assert_int_equal (find_op (without, CORDON_OP_HELPER_BIND, NULL), -1);
  fixture_host_add_file (host, "/opt/cordon/cordon-exec");
  host->facts->helper_path = g_strdup ("/opt/cordon/cordon-exec");
  with = compile_with (host, "[seccomp]\nprofile=strict\n", NULL);
  seccomp = find_op (with, CORDON_OP_SECCOMP, NULL);
  helper = find_op (with, CORDON_OP_HELPER_BIND, CORDON_EXEC_SANDBOX_PATH);
  assert_true (seccomp >= 0);
  assert_int_equal (((CordonOp *) g_ptr_array_index (with->ops, seccomp))->fd, CORDON_BWRAP_FD_SECCOMP);
  assert_int_equal (((CordonOp *) g_ptr_array_index (with->ops, seccomp))->key, CORDON_KEY_SECCOMP_PROFILE);
  assert_true (helper >= 0);
  assert_string_equal (((CordonOp *) g_ptr_array_index (with->ops, helper))->src, "/opt/cordon/cordon-exec");
}

/* [namespaces] hostname=: one op, bwrap's --hostname, beside its rule. */
static void
test_compile_gives_the_sandbox_its_hostname (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[namespaces]\nunshare=user;uts\n"
                                                           "hostname=sandbox-1.example\n");
  g_autoptr(CordonBwrapArgv) argv = cordon_render_argv (plan);
  gint i = find_op (plan, CORDON_OP_OPTION, "sandbox-1.example");
  const CordonOp *op;
  gboolean seen = FALSE;

  assert_true (i >= 0);
  op = g_ptr_array_index (plan->ops, i);
  assert_string_equal (op->src, "--hostname");
  assert_int_equal (op->key, CORDON_KEY_NS_HOSTNAME);
  assert_int_equal (op->rule.line, 3);
  for (guint j = 0; j + 1 < cordon_bwrap_argv_len (argv); j++)
    seen = seen || (g_str_equal (cordon_bwrap_argv_get (argv, j), "--hostname")
                    && g_str_equal (cordon_bwrap_argv_get (argv, j + 1), "sandbox-1.example"));
  assert_true (seen);
}

static void
test_compile_refuses_a_hostname_it_cannot_give (void **state)
{
  const char *bad[] = { "", "-x", ".x", "a b", "a/b", "a;b",
                        "x2345678901234567890123456789012345678901234567890123456789012345", NULL };

  for (guint i = 0; bad[i] != NULL; i++)
    {
      g_autofree char *text = g_strdup_printf ("[namespaces]\nunshare=uts\nhostname=%s\n", bad[i]);
      g_autoptr(GError) error = NULL;
      g_autoptr(CordonPlan) plan = fixture_compile_text (*state, text, &error);

      if (plan != NULL)
        fail_msg ("hostname '%s' was taken", bad[i]);
      assert_true (g_error_matches (error, CORDON_ERROR, CORDON_ERROR_POLICY));
      assert_non_null (strstr (error->message, ":3:10: "));
    }
}

static void
test_compile_refuses_a_hostname_without_a_uts_namespace (void **state)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPlan) plan = fixture_compile_text (*state, "[namespaces]\nunshare=user;uts\n"
                                                             "share=uts\nhostname=box\n", &error);

  assert_null (plan);
  assert_true (g_error_matches (error, CORDON_ERROR, CORDON_ERROR_POLICY));
  assert_non_null (strstr (error->message, "add uts to [namespaces] unshare="));
}

/* [limits] scratch=: every tmpfs of the policy sized, /dev/shm a sized
 * tmpfs of its own, /dev read-only after its last mount point. */
static void
test_compile_sizes_every_scratch_tmpfs_and_dev_shm (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[filesystem]\ntmpfs=/tmp;/run\n"
                                                           "[limits]\nscratch=64M\n");
  gint shm = find_op (plan, CORDON_OP_TMPFS, "/dev/shm");
  gint ro = -1;

  assert_int_equal (plan->scratch, 64 << 20);
  assert_int_equal (((CordonOp *) g_ptr_array_index (plan->ops, find_op (plan, CORDON_OP_TMPFS, "/tmp")))->size, 64 << 20);
  assert_int_equal (((CordonOp *) g_ptr_array_index (plan->ops, find_op (plan, CORDON_OP_TMPFS, "/run")))->size, 64 << 20);
  assert_true (shm > find_op (plan, CORDON_OP_DEV, "/dev"));
  assert_int_equal (((CordonOp *) g_ptr_array_index (plan->ops, shm))->size, 64 << 20);
  assert_int_equal (((CordonOp *) g_ptr_array_index (plan->ops, shm))->key, CORDON_KEY_LIMITS_SCRATCH);
  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);

      if (op->kind == CORDON_OP_OPTION && g_str_equal (op->src, "--remount-ro"))
        ro = (gint) i;
      /* Nothing is mounted in /dev after it is read-only. */
      if (ro >= 0 && op->dest != NULL && g_str_has_prefix (op->dest, "/dev/"))
        fail_msg ("%s mounted after /dev is read-only", op->dest);
    }
  assert_true (ro >= 0);
  assert_string_equal (((CordonOp *) g_ptr_array_index (plan->ops, ro))->dest, "/dev");
  assert_true (ro > find_op (plan, CORDON_OP_CHDIR, NULL));
}

static void
test_compile_sizes_nothing_without_scratch (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[filesystem]\ntmpfs=/tmp\n");

  assert_int_equal (plan->scratch, 0);
  assert_int_equal (((CordonOp *) g_ptr_array_index (plan->ops, find_op (plan, CORDON_OP_TMPFS, "/tmp")))->size, 0);
  assert_int_equal (find_op (plan, CORDON_OP_TMPFS, "/dev/shm"), -1);
  assert_int_equal (find_op (plan, CORDON_OP_OPTION, "/dev"), -1);
}

static void
test_compile_refuses_scratch_0_which_tmpfs_takes_for_no_limit (void **state)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPolicy) policy = fixture_load_text ("[limits]\nscratch=1\n", NULL, NULL);
  CordonLocation at = { g_intern_string ("p.policy"), 2, 9 };
  g_autoptr(CordonPlan) plan = NULL;

  /* The parser refuses scratch=0; compile does too, should one come. */
  cordon_policy_set (policy, cordon_item_new (CORDON_KEY_LIMITS_SCRATCH, "0", 0, &at));
  plan = fixture_compile (*state, policy, &error);

  assert_null (plan);
  assert_true (g_error_matches (error, CORDON_ERROR, CORDON_ERROR_POLICY));
  assert_non_null (strstr (error->message, ":2:9: [limits] scratch=0 would be no limit"));
}

static void
test_compile_keeps_one_dev_shm_the_policy_names (void **state)
{
  g_autoptr(CordonPlan) plan = NULL;
  guint n = 0;

  fixture_host_add_dir (*state, "/dev/shm");
  plan = fixture_compile_ok (*state, "[filesystem]\ntmpfs=/dev/shm\n[limits]\nscratch=1M\n");
  for (guint i = 0; i < plan->ops->len; i++)
    n += g_strcmp0 (((CordonOp *) g_ptr_array_index (plan->ops, i))->dest, "/dev/shm") == 0;
  assert_int_equal (n, 1);
  assert_int_equal (((CordonOp *) g_ptr_array_index (plan->ops, find_op (plan, CORDON_OP_TMPFS, "/dev/shm")))->key,
                    CORDON_KEY_FS_TMPFS);
}

/* [limits] file-size, open-files, core: set where named, core 0 always. */
static void
test_compile_sets_the_rlimits_the_policy_names_and_core_0 (void **state)
{
  g_autoptr(CordonPlan) set = fixture_compile_ok (*state, "[limits]\nfile-size=1M\nopen-files=64\ncore=2M\n");
  g_autoptr(CordonPlan) none = fixture_compile_ok (*state, "[limits]\ntimeout=5\n");

  assert_true (set->rlimits[CORDON_RLIMIT_FSIZE].set);
  assert_int_equal (set->rlimits[CORDON_RLIMIT_FSIZE].value, 1 << 20);
  assert_int_equal (set->rlimits[CORDON_RLIMIT_FSIZE].rule.line, 2);
  assert_int_equal (set->rlimits[CORDON_RLIMIT_NOFILE].value, 64);
  assert_int_equal (set->rlimits[CORDON_RLIMIT_CORE].value, 2 << 20);
  assert_false (none->rlimits[CORDON_RLIMIT_FSIZE].set);
  assert_false (none->rlimits[CORDON_RLIMIT_NOFILE].set);
  assert_true (none->rlimits[CORDON_RLIMIT_CORE].set);
  assert_int_equal (none->rlimits[CORDON_RLIMIT_CORE].value, 0);
  assert_null (none->rlimits[CORDON_RLIMIT_CORE].rule.file);
}

static void
test_compile_refuses_fewer_open_files_than_the_helper_needs (void **state)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPlan) plan = fixture_compile_text (*state, "[limits]\nopen-files=15\n", &error);
  g_autoptr(CordonPlan) least = fixture_compile_ok (*state, "[limits]\nopen-files=16\n");

  assert_null (plan);
  assert_non_null (strstr (error->message, ":2:12: [limits] open-files is at least 16"));
  assert_int_equal (least->rlimits[CORDON_RLIMIT_NOFILE].value, 16);
}

/* bwrap: "The --size option is not permitted in setuid mode". */
static void
test_compile_refuses_scratch_for_a_setuid_bwrap (void **state)
{
  const CordonCompileOptions setuid = { .share_user = TRUE };
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPolicy) policy = fixture_load_text ("[limits]\nscratch=1M\n", NULL, NULL);
  g_autoptr(CordonPlan) plan = NULL;

  cordon_host_facts_scan_policy (((FixtureHost *) *state)->facts, policy);
  plan = cordon_compile_with (policy, ((FixtureHost *) *state)->facts, &setuid, &error);
  assert_null (plan);
  assert_true (g_error_matches (error, CORDON_ERROR, CORDON_ERROR_HOST));
  assert_non_null (strstr (error->message, ":2:9: [limits] scratch= cannot be met: a setuid bwrap refuses --size"));
}

static void
test_compile_refuses_scratch_over_the_host_s_dev_shm (void **state)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPlan) plan = NULL;

  fixture_host_add_dir (*state, "/dev/shm");
  plan = fixture_compile_text (*state, "[filesystem]\nwritable=/dev/shm\n[limits]\nscratch=1M\n", &error);
  assert_null (plan);
  assert_true (g_error_matches (error, CORDON_ERROR, CORDON_ERROR_POLICY));
  assert_non_null (strstr (error->message, ":4:9: [limits] scratch= sizes /dev/shm, which "));
  assert_non_null (strstr (error->message, ":2:10 binds from the host"));
}

static void
test_compile_makes_a_minimal_root_read_only_under_scratch (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[filesystem]\nroot=minimal\n[limits]\nscratch=1M\n");
  g_autoptr(CordonPlan) ro = fixture_compile_ok (*state, "[limits]\nscratch=1M\n");

  assert_true (find_op (plan, CORDON_OP_OPTION, "/") > find_op (plan, CORDON_OP_OPTION, "/dev"));
  /* A read-only root bind needs none. */
  assert_int_equal (find_op (ro, CORDON_OP_OPTION, "/"), -1);
}

/* [limits] pids= is RLIMIT_NPROC: only where it binds the sandbox. */
static void
test_compile_bounds_pids_in_the_sandbox_s_own_user_namespace (void **state)
{
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, "[namespaces]\nunshare=user;pid\n[limits]\npids=100\n");
  g_autoptr(GError) few = NULL, shared = NULL;
  g_autoptr(CordonPlan) a = fixture_compile_text (*state, "[namespaces]\nunshare=user\n[limits]\npids=7\n", &few);
  g_autoptr(CordonPlan) b = fixture_compile_text (*state, "[namespaces]\nunshare=pid\n[limits]\npids=100\n", &shared);

  assert_true (plan->rlimits[CORDON_RLIMIT_NPROC].set);
  assert_int_equal (plan->rlimits[CORDON_RLIMIT_NPROC].value, 100);
  assert_null (a);
  assert_true (g_error_matches (few, CORDON_ERROR, CORDON_ERROR_POLICY));
  assert_non_null (strstr (few->message, ":4:6: [limits] pids is at least 8"));
  assert_null (b);
  assert_true (g_error_matches (shared, CORDON_ERROR, CORDON_ERROR_HOST));
  assert_non_null (strstr (shared->message, "without a user namespace of the sandbox's own"));
}

static void
test_compile_refuses_pids_for_a_sandbox_of_host_root (void **state)
{
  FixtureHost *root = fixture_host_new (0);
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPlan) plan = fixture_compile_text (root, "[namespaces]\nunshare=user;pid\n[limits]\npids=100\n"
                                                           "[identity]\nhost-user=root\n", &error);

  assert_null (plan);
  assert_true (g_error_matches (error, CORDON_ERROR, CORDON_ERROR_HOST));
  assert_non_null (strstr (error->message, "runs as host root"));
  fixture_host_free (root);
}

#define T(f) cmocka_unit_test_setup_teardown (f, fixture_host_setup, fixture_host_teardown)

int
main (void)
{
  const struct CMUnitTest tests[] = {
    T (test_compile_puts_the_read_only_root_first_then_proc_then_dev),
    T (test_compile_orders_tmpfs_and_binds_by_depth_not_by_key),
    T (test_compile_binds_a_workdir_under_a_tmpfs_tmp_after_the_tmpfs),
    T (test_compile_puts_masks_after_every_bind),
    T (test_compile_orders_masks_by_depth),
    T (test_compile_orders_every_shipped_policy_per_invariant_6),
    T (test_compile_plan_cover_way_is_the_cover_of_each_prefix),
    T (test_compile_keeps_one_op_for_a_path_named_twice),
    T (test_compile_refuses_an_absent_required_writable_path_naming_path_and_location),
    T (test_compile_refuses_an_absent_required_read_only_path),
    T (test_compile_skips_an_absent_writable_try_path_and_records_it),
    T (test_compile_binds_a_present_read_only_try_path),
    T (test_compile_skips_an_absent_tmpfs_under_a_read_only_root),
    T (test_compile_refuses_a_required_path_whose_variable_is_unset),
    T (test_compile_never_masks_an_absent_secret),
    T (test_compile_skips_a_secret_hidden_by_a_tmpfs),
    T (test_compile_masks_a_secret_in_a_workdir_bound_under_a_tmpfs),
    T (test_compile_masks_a_secret_directory_with_an_empty_read_only_tmpfs),
    T (test_compile_masks_a_secret_file_with_dev_null),
    T (test_compile_masks_a_symlinked_secret_at_its_target),
    T (test_compile_skips_a_symlinked_secret_whose_target_is_absent),
    T (test_compile_expands_a_secret_glob_into_a_mask_per_match),
    T (test_compile_skips_a_secret_glob_that_matches_nothing),
    T (test_compile_masks_a_catalog_socket_with_dev_null),
    T (test_compile_masks_a_socket_matched_by_a_catalog_glob),
    T (test_compile_does_not_mask_a_socket_named_by_allow),
    T (test_compile_does_not_mask_a_socket_path_named_by_allow),
    T (test_compile_does_not_mask_sockets_matched_by_an_allow_glob),
    T (test_compile_binds_an_allowed_socket_that_a_scratch_tmpfs_hides),
    T (test_compile_binds_no_allowed_socket_another_user_could_hold),
    T (test_compile_binds_no_socket_that_is_not_allowed_or_not_hidden),
    T (test_compile_sets_the_caller_s_git_identity),
    T (test_compile_takes_no_git_identity_from_a_fifo_or_with_a_control),
    T (test_compile_sets_no_git_identity_the_policy_or_caller_gives_otherwise),
    T (test_compile_keeps_one_mask_for_a_secret_named_directly_and_through_a_link),
    T (test_compile_masks_the_socket_named_by_ssh_auth_sock),
    T (test_compile_does_not_mask_the_ssh_auth_sock_socket_when_ssh_agent_is_allowed),
    T (test_compile_skips_a_mask_under_the_empty_proc_of_mode_none),
    T (test_compile_keeps_no_description_when_it_is_empty),
    T (test_compile_skips_a_mask_under_a_masked_directory),
    T (test_compile_skips_a_mask_whose_variable_is_unset_with_the_reason),
    T (test_compile_masks_listening_sockets_the_sandbox_can_see),
    T (test_compile_lists_abstract_sockets_only_when_the_network_is_shared),
    T (test_compile_exempts_an_allowed_socket_however_its_path_is_spelled),
    T (test_compile_masks_a_listening_socket_whose_path_has_a_space),
    T (test_compile_leaves_a_listed_path_that_is_not_a_socket),
    T (test_compile_refuses_mask_listening_when_the_socket_table_is_unreadable),
    T (test_compile_leaves_a_socket_the_caller_cannot_connect_to),
    T (test_compile_masks_a_socket_at_its_bind_mount_alias_too),
    T (test_compile_drops_the_variable_that_located_a_masked_socket),
    cmocka_unit_test (test_compile_masks_every_socket_a_variable_names),
    T (test_compile_passes_the_variable_of_an_allowed_socket),
    T (test_compile_keeps_each_named_capability_after_dropping_all),
    T (test_compile_records_the_seccomp_profile_and_its_exceptions),
    T (test_compile_keeps_cordons_own_config_read_only_under_a_writable_home),
    T (test_compile_adds_nothing_for_cordons_config_when_it_is_not_writable),
    T (test_compile_accepts_mask_listening_false),
    T (test_compile_drops_a_never_pass_variable_even_when_star_allows_it),
    T (test_compile_passes_an_allowed_variable_with_the_callers_value),
    T (test_compile_drops_a_variable_that_is_not_allowed),
    T (test_compile_lets_set_override_the_callers_value),
    T (test_compile_expands_variables_in_a_set_value),
    T (test_compile_refuses_to_set_a_never_pass_variable),
    T (test_compile_sorts_the_envp_and_holds_only_allowed_names),
    T (test_compile_sorts_the_env_decisions_by_name),
    T (test_compile_passes_nothing_when_nothing_is_allowed),
    T (test_compile_drops_every_capability_for_a_root_caller),
    T (test_compile_adds_no_cap_drop_for_an_unprivileged_caller),
    T (test_compile_unshares_each_named_namespace_in_a_fixed_order),
    T (test_compile_adds_new_session_and_die_with_parent_by_default),
    T (test_compile_leaves_out_new_session_when_the_policy_says_false),
    T (test_compile_minimal_root_binds_host_directories_read_only),
    T (test_compile_minimal_root_keeps_symlinked_entries_as_symlinks),
    T (test_compile_minimal_root_skips_entries_absent_on_the_host),
    T (test_compile_minimal_root_makes_a_tmpfs_for_a_path_absent_on_the_host),
    T (test_compile_minimal_root_skips_a_secret_outside_its_binds),
    T (test_compile_binds_the_host_proc_read_only_in_host_ro_mode),
    T (test_compile_refuses_the_root_directory_as_workdir),
    T (test_compile_refuses_a_workdir_that_is_not_a_directory),
    T (test_compile_starts_the_command_in_the_workdir),
    T (test_compile_records_a_workdir_hidden_by_a_tmpfs),
    T (test_compile_gives_the_same_argv_twice),
    T (test_compile_leaves_out_the_user_namespace_for_a_setuid_bwrap_and_says_why),
    T (test_compile_applies_the_proc_fallback_the_probe_calls_for),
    T (test_compile_keeps_a_private_proc_where_the_fallback_is_refuse),
    T (test_compile_asks_bwrap_to_disable_user_namespaces_where_it_can),
    T (test_compile_adds_disable_userns_as_a_compile_with_it_would),
    T (test_compile_names_the_fds_bwrap_reads_and_the_helper),
    T (test_compile_gives_the_sandbox_its_hostname),
    T (test_compile_refuses_a_hostname_it_cannot_give),
    T (test_compile_refuses_a_hostname_without_a_uts_namespace),
    T (test_compile_sizes_every_scratch_tmpfs_and_dev_shm),
    T (test_compile_sizes_nothing_without_scratch),
    T (test_compile_refuses_scratch_0_which_tmpfs_takes_for_no_limit),
    T (test_compile_keeps_one_dev_shm_the_policy_names),
    T (test_compile_refuses_scratch_for_a_setuid_bwrap),
    T (test_compile_refuses_scratch_over_the_host_s_dev_shm),
    T (test_compile_makes_a_minimal_root_read_only_under_scratch),
    T (test_compile_sets_the_rlimits_the_policy_names_and_core_0),
    T (test_compile_refuses_fewer_open_files_than_the_helper_needs),
    T (test_compile_bounds_pids_in_the_sandbox_s_own_user_namespace),
    T (test_compile_refuses_pids_for_a_sandbox_of_host_root),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
