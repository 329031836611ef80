/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-identity: whom a sandbox runs as on the host, and what compile
 * stages for it (src/identity.c), on the fixture host as uid 0 and as an
 * ordinary caller: the user of [identity] host-user, --uid 0 --gid 0, the
 * idmapped writable paths, the shadows over directories that user cannot
 * search, the masks it cannot reach, and each refusal with its line. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "compile.h"
#include "fixture-host.h"
#include "plan.h"
#include "probe.h"

/* --- helpers ------------------------------------------------------------ */

/* The message of a compile that must fail. */
static char *
compile_error (FixtureHost *host,
               const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPlan) plan = fixture_compile_text (host, text, &error);

  assert_null (plan);
  assert_non_null (error);
  return g_strdup (error->message);
}

static void
chmod_fixture (FixtureHost *host,
               const char *path,
               mode_t mode)
{
  g_autofree char *real = g_strconcat (host->root, path, NULL);

  assert_int_equal (chmod (real, mode), 0);
}

static gint
find_op (const CordonPlan *plan,
         CordonOpKind kind)
{
  for (guint i = 0; i < plan->ops->len; i++)
    if (((CordonOp *) g_ptr_array_index (plan->ops, i))->kind == kind)
      return (gint) i;
  return -1;
}

static gint
last_unshare (const CordonPlan *plan)
{
  gint last = -1;

  for (guint i = 0; i < plan->ops->len; i++)
    if (((CordonOp *) g_ptr_array_index (plan->ops, i))->kind == CORDON_OP_UNSHARE)
      last = (gint) i;
  return last;
}

/* "kind path" for each stage entry, in order, joined by ", ". */
static char *
stage_list (const CordonPlan *plan)
{
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < plan->stage->len; i++)
    {
      const CordonStage *s = g_ptr_array_index (plan->stage, i);

      g_string_append_printf (out, "%s%s %s%s", i > 0 ? ", " : "", cordon_stage_kind_name (s->kind),
                              s->path, s->is_file ? " (file)" : "");
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

#define TRIAL "[policy]\ninclude=trial\n"

/* --- whom the sandbox runs as ------------------------------------------------ */

static void
test_identity_runs_a_root_callers_sandbox_as_the_dedicated_uid (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new (0);
  g_autoptr(CordonPlan) plan = fixture_compile_ok (host, TRIAL);

  assert_true (plan->switch_identity);
  assert_false (plan->host_root);
  assert_int_equal (plan->host_uid, 99999);
  assert_int_equal (plan->host_gid, 99999);
  /* bwrap is root to itself (uid 0 of the keeper's user namespace): its
   * options are a root caller's, the capability drop among them. */
  assert_true (find_op (plan, CORDON_OP_CAP_DROP_ALL) > last_unshare (plan));
}

static void
test_identity_leaves_an_ordinary_callers_sandbox_as_the_caller (void **state)
{
  /* Whatever the key says: auto, or root. */
  g_autoptr(CordonPlan) plan = fixture_compile_ok (*state, TRIAL);
  g_autoptr(CordonPlan) asroot = fixture_compile_ok (*state, TRIAL "[identity]\nhost-user=root\n");

  assert_false (plan->switch_identity);
  assert_false (plan->host_root);
  assert_int_equal (plan->host_uid, 1000);
  assert_int_equal (plan->stage->len, 0);
  assert_false (asroot->switch_identity);
  assert_false (asroot->host_root);
  assert_int_equal (asroot->host_uid, 1000);
}

static void
test_identity_host_user_root_keeps_root_as_a_named_degradation (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new (0);
  g_autoptr(CordonPlan) plan = fixture_compile_ok (host, TRIAL "[identity]\nhost-user=root\n");

  assert_false (plan->switch_identity);
  assert_true (plan->host_root);
  assert_int_equal (plan->host_uid, 0);
  assert_int_equal (plan->stage->len, 0);
  /* /proc/sys is read-only all the same. */
  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);

      if (op->kind == CORDON_OP_RO_BIND && g_str_equal (op->dest, "/proc/sys"))
        return;
    }
  fail_msg ("no read-only bind of /proc/sys");
}

/* A container's maps for the fixture (which reads none): "inside
 * outside count" triples, the same for uids and gids. */
static void
set_maps (FixtureHost *host,
          const guint64 *ranges,
          guint n)
{
  GArray *map = g_array_new (FALSE, FALSE, sizeof (CordonIdRange));

  for (guint i = 0; i < n; i++)
    {
      CordonIdRange r = { ranges[3 * i], ranges[3 * i + 1], ranges[3 * i + 2] };

      g_array_append_val (map, r);
    }
  g_clear_pointer (&host->facts->uid_map, g_array_unref);
  g_clear_pointer (&host->facts->gid_map, g_array_unref);
  host->facts->uid_map = g_array_ref (map);
  host->facts->gid_map = map;
}

static void
test_identity_auto_takes_the_highest_mapped_uid_in_a_container (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new (0);
  g_autoptr(CordonPlan) small = NULL;
  g_autoptr(CordonPlan) large = NULL;
  g_autoptr(CordonPlan) wide = NULL;
  const guint64 to_65535[] = { 0, 100000, 65536 };
  const guint64 to_80000[] = { 0, 100000, 80001 };
  const guint64 all[] = { 0, 100000, 200000 };

  /* 99999 unmapped: the highest below it, but never an overflow id. */
  set_maps (host, to_65535, 1);
  small = fixture_compile_ok (host, TRIAL);
  assert_int_equal (small->host_uid, 65533);
  set_maps (host, to_80000, 1);
  large = fixture_compile_ok (host, TRIAL);
  assert_int_equal (large->host_uid, 80000);
  set_maps (host, all, 1);
  wide = fixture_compile_ok (host, TRIAL);
  assert_int_equal (wide->host_uid, 99999);
}

static void
test_identity_refuses_a_uid_that_maps_to_the_outside_root (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new (0);
  const guint64 maps[] = { 0, 100000, 1, 4242, 0, 1, 4243, 100001, 1 };
  g_autofree char *msg = NULL;
  g_autoptr(CordonPlan) plan = NULL;

  set_maps (host, maps, 3);
  msg = compile_error (host, TRIAL "[identity]\nhost-user=4242\n");
  assert_non_null (strstr (msg, "uid 4242 / gid 4242 maps to root (uid or gid 0) of the user namespace above"));
  plan = fixture_compile_ok (host, TRIAL "[identity]\nhost-user=4243\n");
  assert_int_equal (plan->host_uid, 4243);
}

static void
test_identity_takes_a_named_uid (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new (0);
  g_autoptr(CordonPlan) plan = fixture_compile_ok (host, TRIAL "[identity]\nhost-user=4242\n");

  assert_true (plan->switch_identity);
  assert_int_equal (plan->host_uid, 4242);
  assert_int_equal (plan->host_gid, 4242);
}

static void
test_identity_refuses_an_account_with_the_dedicated_uid (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new (0);
  g_autofree char *passwd = g_build_filename (host->root, "etc", "passwd", NULL);
  g_autofree char *msg = NULL;

  assert_true (g_file_set_contents (passwd, "someone:x:99999:99999::/:/bin/sh\n", -1, NULL));
  msg = compile_error (host, TRIAL);
  assert_non_null (strstr (msg, "uid 99999 (host-user=auto) is the account 'someone'"));
}

static void
test_identity_refuses_a_uid_of_no_account_whose_gid_is_a_group (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new (0);
  g_autofree char *group = g_build_filename (host->root, "etc", "group", NULL);
  g_autofree char *msg = NULL;
  g_autoptr(CordonPlan) plan = NULL;

  assert_true (g_file_set_contents (group, "sudo:x:27:\n", -1, NULL));
  msg = compile_error (host, TRIAL "[identity]\nhost-user=27\n");
  assert_non_null (strstr (msg, "uid 27 is no account's, and gid 27, which it would take, is the group 'sudo'"));
  /* A number no group has is taken as it is. */
  plan = fixture_compile_ok (host, TRIAL "[identity]\nhost-user=28\n");
  assert_int_equal (plan->host_gid, 28);
}

static void
test_identity_refuses_a_uid_of_no_account_in_someones_subordinate_ids (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new (0);
  g_autofree char *subuid = g_build_filename (host->root, "etc", "subuid", NULL);
  g_autofree char *msg = NULL;
  g_autoptr(CordonPlan) plan = NULL;

  assert_true (g_file_set_contents (subuid, "alice:100000:65536\n", -1, NULL));
  msg = compile_error (host, TRIAL "[identity]\nhost-user=100005\n");
  assert_non_null (strstr (msg, "uid 100005 lies in the subordinate ids of 'alice'"));
  /* Just past the range: taken. */
  plan = fixture_compile_ok (host, TRIAL "[identity]\nhost-user=165536\n");
  assert_int_equal (plan->host_uid, 165536);
}

static void
test_identity_refuses_an_unknown_user_at_its_line (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new (0);
  g_autofree char *msg = compile_error (host, TRIAL "[identity]\nhost-user=nobody-here\n");

  assert_non_null (strstr (msg, "test.policy:4:11: [identity] host-user=nobody-here: no user 'nobody-here'"));
}

static void
test_identity_refuses_without_the_capabilities_to_change_uid (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new (0);
  g_autofree char *msg = NULL;

  host->facts->cap_eff = 0;
  msg = compile_error (host, TRIAL);
  assert_non_null (strstr (msg, "without CAP_SETUID and CAP_SETGID"));
  assert_non_null (strstr (msg, "host-user=root"));
}

static void
test_identity_always_gives_the_sandbox_a_user_namespace_of_its_own (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new (0);
  g_autoptr(CordonPlan) plan = fixture_compile_ok (host, TRIAL "[namespaces]\nshare=user\n");
  g_autoptr(CordonPlan) asroot = fixture_compile_ok (host, TRIAL "[namespaces]\nshare=user\n"
                                                     "[identity]\nhost-user=root\n");
  const CordonOp *op;

  /* Left in the keeper's user namespace, the sandbox would be uid 0 there
   * beside bwrap's monitor, and could trace it: cordon adds a user
   * namespace the policy shares, and names [identity] for it. */
  assert_true (plan->switch_identity);
  assert_true (plan->namespaces & CORDON_NS_USER);
  op = g_ptr_array_index (plan->ops, 0);
  assert_int_equal (op->kind, CORDON_OP_UNSHARE);
  assert_int_equal (op->ns, CORDON_NS_USER);
  assert_int_equal (op->key, CORDON_KEY_IDENTITY_HOST_USER);
  assert_non_null (strstr (op->why, "bwrap's monitor"));
  /* As host root (no switch) the policy's sharing stands. */
  assert_false (asroot->namespaces & CORDON_NS_USER);
}

/* --- what is staged ---------------------------------------------------------- */

static void
test_identity_idmaps_each_writable_path_once (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new (0);
  g_autoptr(CordonPlan) plan = NULL;
  g_autofree char *list = NULL;

  fixture_host_add_dir (host, "/srv/cache");
  fixture_host_add_dir (host, "/home/alice/work/sub");
  plan = fixture_compile_ok (host, TRIAL "[filesystem]\nwritable=/srv/cache;${WORKDIR}/sub\n");
  list = stage_list (plan);
  /* The one below the workdir is reached through the workdir's tree. */
  assert_string_equal (list, "idmap /srv/cache, idmap /home/alice/work");
}

static void
test_identity_lays_a_shadow_over_a_directory_the_user_cannot_search (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new_full (0, NULL, "/srv/private/wd");
  g_autoptr(CordonPlan) plan = NULL;
  g_autofree char *list = NULL;

  fixture_host_add_dir (host, "/srv/private/wd");
  chmod_fixture (host, "/srv/private", 0700);
  plan = fixture_compile_ok (host, TRIAL);
  list = stage_list (plan);
  assert_string_equal (list, "shadow /srv/private, idmap /srv/private/wd");
}

static void
test_identity_clones_the_helper_below_a_closed_directory (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new (0);
  g_autoptr(CordonPlan) plan = NULL;
  g_autofree char *list = NULL;

  fixture_host_add_file (host, "/opt/build/bin/cordon-exec");
  chmod_fixture (host, "/opt/build", 0700);
  host->facts->helper_path = g_strdup ("/opt/build/bin/cordon-exec");
  plan = fixture_compile_ok (host, TRIAL);
  list = stage_list (plan);
  assert_string_equal (list, "shadow /opt/build, idmap /home/alice/work, clone /opt/build/bin/cordon-exec (file)");
}

static void
test_identity_stages_nothing_where_every_path_is_reachable (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new (0);
  g_autoptr(CordonPlan) plan = fixture_compile_ok (host, "[policy]\ninclude=base\n[filesystem]\nroot=read-only\n");

  assert_true (plan->switch_identity);
  assert_int_equal (plan->stage->len, 0);
}

static void
test_identity_leaves_out_a_mask_the_user_cannot_reach (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new (0);
  g_autoptr(CordonPlan) plan = NULL;
  const CordonSkip *skip;

  fixture_host_add_file (host, "/opt/closed/secret");
  chmod_fixture (host, "/opt/closed", 0700);
  plan = fixture_compile_ok (host, TRIAL "[secrets]\nmask=/opt/closed/secret\n");
  skip = fixture_find_skip (plan, "/opt/closed/secret");
  assert_non_null (skip);
  assert_non_null (strstr (skip->reason, "uid 99999, the sandbox's host user, cannot reach it"));
  assert_int_equal (find_op (plan, CORDON_OP_MASK_FILE), -1);
  assert_int_equal (plan->unreachable->len, 1);
  assert_string_equal (g_ptr_array_index (plan->unreachable, 0), "/opt/closed/secret");
}

static void
test_identity_masks_what_the_caller_itself_would_reach (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new (0);
  g_autoptr(CordonPlan) plan = NULL;

  fixture_host_add_file (host, "/opt/closed/secret");
  chmod_fixture (host, "/opt/closed", 0700);
  plan = fixture_compile_ok (host, TRIAL "[secrets]\nmask=/opt/closed/secret\n[identity]\nhost-user=root\n");
  assert_true (find_op (plan, CORDON_OP_MASK_FILE) >= 0);
  assert_int_equal (plan->unreachable->len, 0);
}

/* --- refusals ------------------------------------------------------------------ */

static void
test_identity_refuses_keep_setfcap_with_a_writable_path (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new (0);
  g_autofree char *msg = compile_error (host, TRIAL "[capabilities]\nkeep=setfcap\n");

  assert_non_null (strstr (msg, "test.policy:4:6: keep=setfcap cannot be given to a sandbox run as uid 99999"));
}

static void
test_identity_allows_keep_setfcap_without_a_writable_path (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new (0);
  g_autoptr(CordonPlan) plan = fixture_compile_ok (host, "[policy]\ninclude=base\n[filesystem]\nroot=read-only\n"
                                                 "[capabilities]\nkeep=setfcap\n");

  assert_true (plan->switch_identity);
}

static void
test_identity_refuses_a_symlinked_writable_path (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new (0);
  g_autofree char *msg = NULL;

  fixture_host_add_dir (host, "/srv/real");
  fixture_host_add_symlink (host, "/srv/link", "real");
  msg = compile_error (host, TRIAL "[filesystem]\nwritable=/srv/link\n");
  assert_non_null (strstr (msg, "/srv/link is reached through the symlink /srv/link"));
}

/* A symlink an earlier run left in its writable path (/srv/shared/cache
 * -> /usr/lib), on the way to this run's writable path: root must not
 * follow it, or /usr/lib would be bound writable, idmapped. */
static void
test_identity_refuses_a_symlink_on_the_way_to_a_writable_path (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new (0);
  g_autofree char *msg = NULL;

  fixture_host_add_dir (host, "/srv/shared");
  fixture_host_add_symlink (host, "/srv/shared/cache", "../../usr");
  msg = compile_error (host, TRIAL "[filesystem]\nwritable=/srv/shared/cache/lib\n");
  assert_non_null (strstr (msg, "/srv/shared/cache/lib is reached through the symlink /srv/shared/cache"));
}

static void
test_identity_refuses_the_mode_rules_taken_out_with_a_writable_path (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new (0);
  g_autofree char *allow = compile_error (host, TRIAL "[seccomp]\nallow=fchmodat\n");
  g_autofree char *none = compile_error (host, TRIAL "[seccomp]\nprofile=none\n");

  assert_non_null (strstr (allow, "test.policy:4:7: allow=fchmodat cannot be given to a sandbox run as uid 99999"));
  assert_non_null (strstr (none, "test.policy:4:9: profile=none cannot be given to a sandbox run as uid 99999"));
}

static void
test_identity_proves_a_left_out_tmpfs_unreachable_too (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new (0);
  g_autoptr(CordonPlan) plan = NULL;

  fixture_host_add_dir (host, "/opt/closed/cache");
  chmod_fixture (host, "/opt/closed", 0700);
  plan = fixture_compile_ok (host, TRIAL "[filesystem]\ntmpfs=/opt/closed/cache\n");
  assert_non_null (fixture_find_skip (plan, "/opt/closed/cache"));
  assert_int_equal (plan->unreachable->len, 1);
  assert_string_equal (g_ptr_array_index (plan->unreachable, 0), "/opt/closed/cache");
}

static void
test_identity_refuses_to_bind_a_closed_directory_and_reach_below_it (void **state)
{
  g_autoptr(FixtureHost) host = fixture_host_new_full (0, NULL, "/opt/closed/wd");
  g_autofree char *msg = NULL;

  fixture_host_add_dir (host, "/opt/closed/wd");
  chmod_fixture (host, "/opt/closed", 0700);
  msg = compile_error (host, TRIAL "[filesystem]\nread-only=/opt/closed\n");
  assert_non_null (strstr (msg, "/opt/closed is bound, and paths below it too"));
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown (f, fixture_host_setup, fixture_host_teardown)
    T (test_identity_runs_a_root_callers_sandbox_as_the_dedicated_uid),
    T (test_identity_leaves_an_ordinary_callers_sandbox_as_the_caller),
    T (test_identity_host_user_root_keeps_root_as_a_named_degradation),
    T (test_identity_auto_takes_the_highest_mapped_uid_in_a_container),
    T (test_identity_refuses_a_uid_that_maps_to_the_outside_root),
    T (test_identity_takes_a_named_uid),
    T (test_identity_refuses_an_account_with_the_dedicated_uid),
    T (test_identity_refuses_a_uid_of_no_account_whose_gid_is_a_group),
    T (test_identity_refuses_a_uid_of_no_account_in_someones_subordinate_ids),
    T (test_identity_refuses_an_unknown_user_at_its_line),
    T (test_identity_refuses_without_the_capabilities_to_change_uid),
    T (test_identity_always_gives_the_sandbox_a_user_namespace_of_its_own),
    T (test_identity_idmaps_each_writable_path_once),
    T (test_identity_lays_a_shadow_over_a_directory_the_user_cannot_search),
    T (test_identity_clones_the_helper_below_a_closed_directory),
    T (test_identity_stages_nothing_where_every_path_is_reachable),
    T (test_identity_leaves_out_a_mask_the_user_cannot_reach),
    T (test_identity_masks_what_the_caller_itself_would_reach),
    T (test_identity_refuses_keep_setfcap_with_a_writable_path),
    T (test_identity_allows_keep_setfcap_without_a_writable_path),
    T (test_identity_refuses_a_symlinked_writable_path),
    T (test_identity_refuses_a_symlink_on_the_way_to_a_writable_path),
    T (test_identity_refuses_the_mode_rules_taken_out_with_a_writable_path),
    T (test_identity_proves_a_left_out_tmpfs_unreachable_too),
    T (test_identity_refuses_to_bind_a_closed_directory_and_reach_below_it),
#undef T
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
