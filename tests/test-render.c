/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-render: plan -> bwrap argv and its printed forms. Each op kind's
 * spelling, the NUL form bwrap's --args reads, and that no caller
 * environment value reaches the shell, JSON or explain forms (invariant 2:
 * values travel only in the envp handed to bwrap). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <json-glib/json-glib.h>

#include "fixture-host.h"
#include "plan.h"
#include "json-writer.h"
#include "render.h"

/* --- helpers ------------------------------------------------------------ */

/* The argv of a plan holding the single op given, joined by spaces. */

/* compile --format=json's text, as main.c writes it. */
static char *
render_json_text (const CordonPlan *plan,
                  const CordonBwrapArgv *argv,
                  const char * const *command)
{
  g_autoptr(GVariant) value = cordon_render_json (plan, argv, "/usr/bin/bwrap", command);
  g_autoptr(GError) error = NULL;
  char *text = cordon_json_variant_to_text (value, &error);

  assert_non_null (text);
  return text;
}

static char *
render_one (CordonOpKind kind,
            const char *src,
            const char *dest,
            guint ns)
{
  g_autoptr(CordonPlan) plan = cordon_plan_new ("t");
  g_autoptr(CordonBwrapArgv) argv = NULL;
  g_autoptr(GString) out = g_string_new (NULL);

  cordon_plan_add_op (plan, kind, src, dest, NULL, "why")->ns = ns;
  argv = cordon_render_argv (plan);
  for (guint i = 0; i < cordon_bwrap_argv_len (argv); i++)
    {
      assert_int_equal (cordon_bwrap_argv_origin (argv, i), 0);
      g_string_append_printf (out, "%s%s", i > 0 ? " " : "", cordon_bwrap_argv_get (argv, i));
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

typedef struct
{
  CordonPlan *plan;
  CordonBwrapArgv *argv;
} Compiled;

static void
compiled_clear (Compiled *c)
{
  g_clear_pointer (&c->argv, cordon_bwrap_argv_free);
  g_clear_pointer (&c->plan, cordon_plan_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Compiled, compiled_clear)

static void
compile_text (FixtureHost *host,
              const char *text,
              Compiled *out)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonPolicy) policy = fixture_load_text (text, NULL, &error);

  if (policy == NULL)
    fail_msg ("policy did not load: %s", error->message);
  out->plan = fixture_compile (host, policy, &error);
  if (out->plan == NULL)
    fail_msg ("compile failed: %s", error->message);
  out->argv = cordon_render_argv (out->plan);
}

/* Allows caller variables, sets one, masks a secret, skips another. */
static const char policy_text[] =
  "[policy]\n"
  "include=base\n"
  "[environment]\n"
  "allow=PATH;TERM;LD_PRELOAD;SECRET_*\n"
  "set=EDITOR=/usr/bin/vi\n"
  "[filesystem]\n"
  "writable=${WORKDIR}\n"
  "tmpfs=/tmp;/run\n"
  "writable-try=/srv/cache\n"
  "[secrets]\n"
  "mask=${HOME}/.netrc;${HOME}/.ssh;${HOME}/.kube\n";

/* Caller values of the fixture that no printed form may hold. */
static void
assert_no_env_value (const char *text)
{
  static const char * const values[] = {
    FIXTURE_SECRET_VALUE, FIXTURE_PATH, "/evil.so", "C.UTF-8", "xterm",
  };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    if (strstr (text, values[i]) != NULL)
      fail_msg ("the value '%s' is printed:\n%s", values[i], text);
}

/* --- one op kind each ------------------------------------------------------ */

static void
test_render_spells_unshare_with_the_namespace_name (void **state)
{
  g_autofree char *s = render_one (CORDON_OP_UNSHARE, NULL, NULL, CORDON_NS_NET);

  assert_string_equal (s, "--unshare-net");
}

static void
test_render_spells_new_session (void **state)
{
  g_autofree char *s = render_one (CORDON_OP_NEW_SESSION, NULL, NULL, 0);

  assert_string_equal (s, "--new-session");
}

static void
test_render_spells_die_with_parent (void **state)
{
  g_autofree char *s = render_one (CORDON_OP_DIE_WITH_PARENT, NULL, NULL, 0);

  assert_string_equal (s, "--die-with-parent");
}


/* What launch gives bwrap is spelled like any op. */
static char *
render_fd_op (CordonOpKind kind,
              int fd)
{
  g_autoptr(CordonPlan) plan = cordon_plan_new ("t");
  g_autoptr(CordonBwrapArgv) argv = NULL;
  g_autoptr(GBytes) nul = NULL;
  gsize len;
  const char *data;
  g_autofree char *text = NULL;

  cordon_plan_add_op (plan, kind, NULL, NULL, NULL, "why")->fd = fd;
  argv = cordon_render_argv (plan);
  nul = cordon_bwrap_argv_to_nul (argv);
  data = g_bytes_get_data (nul, &len);
  text = g_memdup2 (data, len);
  for (gsize i = 0; i < len; i++)
    if (text[i] == '\0')
      text[i] = i + 1 < len ? ' ' : '\0';
  return g_steal_pointer (&text);
}

static void
test_render_spells_the_ops_launch_gives_bwrap (void **state)
{
  g_autofree char *helper = render_one (CORDON_OP_HELPER_BIND, "/usr/libexec/cordon/cordon-exec",
                                        "/dev/.cordon-exec", 0);
  g_autofree char *status = render_fd_op (CORDON_OP_STATUS_FD, 4);
  g_autofree char *seccomp = render_fd_op (CORDON_OP_SECCOMP, 8);
  g_autofree char *userns = render_fd_op (CORDON_OP_DISABLE_USERNS, 0);

  assert_string_equal (helper, "--ro-bind /usr/libexec/cordon/cordon-exec /dev/.cordon-exec");
  assert_string_equal (status, "--json-status-fd 4");
  assert_string_equal (seccomp, "--seccomp 8");
  assert_string_equal (userns, "--disable-userns");
}

/* bwrap's --size applies to the --tmpfs after it. */
static void
test_render_spells_a_sized_tmpfs (void **state)
{
  g_autoptr(CordonPlan) plan = cordon_plan_new ("t");
  g_autoptr(CordonBwrapArgv) argv = NULL;
  g_autoptr(GString) out = g_string_new (NULL);

  cordon_plan_add_op (plan, CORDON_OP_TMPFS, NULL, "/tmp", NULL, "why")->size = 1 << 20;
  cordon_plan_add_op (plan, CORDON_OP_TMPFS, NULL, "/run", NULL, "why");
  argv = cordon_render_argv (plan);
  for (guint i = 0; i < cordon_bwrap_argv_len (argv); i++)
    g_string_append_printf (out, "%s%s", i > 0 ? " " : "", cordon_bwrap_argv_get (argv, i));
  assert_string_equal (out->str, "--size 1048576 --tmpfs /tmp --tmpfs /run");
}

static void
test_render_spells_cap_drop_as_cap_drop_all (void **state)
{
  g_autofree char *s = render_one (CORDON_OP_CAP_DROP_ALL, NULL, NULL, 0);

  assert_string_equal (s, "--cap-drop ALL");
}

static void
test_render_spells_ro_bind_with_source_then_dest (void **state)
{
  g_autofree char *s = render_one (CORDON_OP_RO_BIND, "/usr", "/mnt/usr", 0);

  assert_string_equal (s, "--ro-bind /usr /mnt/usr");
}

static void
test_render_spells_a_writable_bind (void **state)
{
  g_autofree char *s = render_one (CORDON_OP_BIND, "/home/alice/work", "/home/alice/work", 0);

  assert_string_equal (s, "--bind /home/alice/work /home/alice/work");
}

static void
test_render_spells_symlink_with_target_then_link (void **state)
{
  g_autofree char *s = render_one (CORDON_OP_SYMLINK, "usr/bin", "/bin", 0);

  assert_string_equal (s, "--symlink usr/bin /bin");
}

static void
test_render_spells_proc (void **state)
{
  g_autofree char *s = render_one (CORDON_OP_PROC, NULL, "/proc", 0);

  assert_string_equal (s, "--proc /proc");
}

static void
test_render_spells_dev (void **state)
{
  g_autofree char *s = render_one (CORDON_OP_DEV, NULL, "/dev", 0);

  assert_string_equal (s, "--dev /dev");
}

static void
test_render_spells_tmpfs (void **state)
{
  g_autofree char *s = render_one (CORDON_OP_TMPFS, NULL, "/tmp", 0);

  assert_string_equal (s, "--tmpfs /tmp");
}

static void
test_render_spells_a_file_mask_as_a_read_only_dev_null_bind (void **state)
{
  g_autofree char *s = render_one (CORDON_OP_MASK_FILE, "/dev/null", "/home/alice/.netrc", 0);

  assert_string_equal (s, "--ro-bind /dev/null /home/alice/.netrc");
}

static void
test_render_spells_a_dir_mask_as_tmpfs_then_remount_ro (void **state)
{
  g_autofree char *s = render_one (CORDON_OP_MASK_DIR, NULL, "/home/alice/.ssh", 0);

  assert_string_equal (s, "--tmpfs /home/alice/.ssh --remount-ro /home/alice/.ssh");
}

static void
test_render_spells_chdir (void **state)
{
  g_autofree char *s = render_one (CORDON_OP_CHDIR, NULL, "/home/alice/work", 0);

  assert_string_equal (s, "--chdir /home/alice/work");
}

static void
test_render_tags_each_arg_with_the_index_of_its_op (void **state)
{
  g_autoptr(CordonPlan) plan = cordon_plan_new ("t");
  g_autoptr(CordonBwrapArgv) argv = NULL;
  static const gint expected[] = { 0, 1, 1, 1, 2, 2, 2, 2 };

  cordon_plan_add_op (plan, CORDON_OP_NEW_SESSION, NULL, NULL, NULL, "a");
  cordon_plan_add_op (plan, CORDON_OP_RO_BIND, "/", "/", NULL, "b");
  cordon_plan_add_op (plan, CORDON_OP_MASK_DIR, NULL, "/x", NULL, "c");
  argv = cordon_render_argv (plan);
  assert_int_equal (cordon_bwrap_argv_len (argv), G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    assert_int_equal (cordon_bwrap_argv_origin (argv, i), expected[i]);
}

/* --- nul ---------------------------------------------------------------------- */

static void
test_render_nul_form_ends_every_arg_with_a_nul (void **state)
{
  g_autoptr(CordonPlan) plan = cordon_plan_new ("t");
  g_autoptr(CordonBwrapArgv) argv = NULL;
  g_autoptr(GBytes) bytes = NULL;
  static const char expected[] = "--ro-bind\0/a b\0/c\0--tmpfs\0/tmp";   /* + final NUL */
  gsize len;
  const char *data;

  cordon_plan_add_op (plan, CORDON_OP_RO_BIND, "/a b", "/c", NULL, "x");
  cordon_plan_add_op (plan, CORDON_OP_TMPFS, NULL, "/tmp", NULL, "y");
  argv = cordon_render_argv (plan);
  bytes = cordon_bwrap_argv_to_nul (argv);
  data = g_bytes_get_data (bytes, &len);
  assert_int_equal (len, sizeof expected);
  assert_memory_equal (data, expected, sizeof expected);
}

/* --- shell ---------------------------------------------------------------- */

static void
test_render_shell_never_prints_a_passed_callers_value (void **state)
{
  g_auto(Compiled) c = { 0 };
  g_autofree char *shell = NULL;

  compile_text (*state, policy_text, &c);
  shell = cordon_render_shell (c.plan, c.argv, "/usr/bin/bwrap", "cordon compile t --format=seccomp", NULL);
  assert_no_env_value (shell);
  assert_non_null (strstr (shell, " ${PATH+\"PATH=$PATH\"}"));
  assert_non_null (strstr (shell, " ${TERM+\"TERM=$TERM\"}"));
}

static void
test_render_shell_leaves_out_dropped_variables (void **state)
{
  g_auto(Compiled) c = { 0 };
  g_autofree char *shell = NULL;

  compile_text (*state, policy_text, &c);
  shell = cordon_render_shell (c.plan, c.argv, "/usr/bin/bwrap", "cordon compile t --format=seccomp", NULL);
  assert_null (strstr (shell, "LD_PRELOAD"));
  assert_null (strstr (shell, "DISPLAY"));
  /* allowed by SECRET_*: passed by name, never by value */
  assert_non_null (strstr (shell, "\"SECRET_TOKEN=$SECRET_TOKEN\""));
}

static void
test_render_shell_prints_a_set_value_literally (void **state)
{
  g_auto(Compiled) c = { 0 };
  g_autofree char *shell = NULL;

  compile_text (*state, policy_text, &c);
  shell = cordon_render_shell (c.plan, c.argv, "/usr/bin/bwrap", "cordon compile t --format=seccomp", NULL);
  assert_non_null (strstr (shell, " EDITOR=/usr/bin/vi "));
  assert_null (strstr (shell, "$EDITOR"));
}

static void
test_render_shell_starts_from_an_empty_environment (void **state)
{
  g_auto(Compiled) c = { 0 };
  g_autofree char *shell = NULL;

  compile_text (*state, policy_text, &c);
  shell = cordon_render_shell (c.plan, c.argv, "/usr/bin/bwrap", "cordon compile t --format=seccomp", NULL);
  /* After the lines that name bwrap's fds, the filter's pipe into env -i. */
  assert_non_null (strstr (shell, "\n{ cordon compile "));
  assert_non_null (strstr (shell, " --format=seccomp | env -i "));
  assert_non_null (strstr (shell, " /usr/bin/bwrap \\\n"));
}

static void
test_render_shell_holds_every_arg_in_order (void **state)
{
  g_auto(Compiled) c = { 0 };
  g_autofree char *shell = NULL;
  const char *p;

  compile_text (*state, policy_text, &c);
  shell = cordon_render_shell (c.plan, c.argv, "/usr/bin/bwrap", "cordon compile t --format=seccomp", NULL);
  p = strstr (shell, "/usr/bin/bwrap");
  for (guint i = 0; i < cordon_bwrap_argv_len (c.argv); i++)
    {
      p = strstr (p, cordon_bwrap_argv_get (c.argv, i));
      if (p == NULL)
        fail_msg ("arg %u '%s' missing or out of order", i, cordon_bwrap_argv_get (c.argv, i));
    }
}

static void
test_render_shell_puts_one_op_per_line (void **state)
{
  g_autoptr(CordonPlan) plan = cordon_plan_new ("t");
  g_autoptr(CordonBwrapArgv) argv = NULL;
  g_autofree char *shell = NULL;

  cordon_plan_add_op (plan, CORDON_OP_RO_BIND, "/", "/", NULL, "x");
  cordon_plan_add_op (plan, CORDON_OP_MASK_DIR, NULL, "/d", NULL, "y");
  argv = cordon_render_argv (plan);
  shell = cordon_render_shell (plan, argv, "/usr/bin/bwrap", "cordon compile t --format=seccomp", NULL);
  assert_string_equal (shell,
                       "env -i /usr/bin/bwrap \\\n"
                       "    --ro-bind / / \\\n"
                       "    --tmpfs /d --remount-ro /d \\\n"
                       "    -- sh\n");
}

static void
test_render_shell_quotes_args_that_need_it (void **state)
{
  g_autoptr(CordonPlan) plan = cordon_plan_new ("t");
  g_autoptr(CordonBwrapArgv) argv = NULL;
  g_autofree char *shell = NULL;
  const char * const command[] = { "printf", "%s\\n", "it's", NULL };

  cordon_plan_add_op (plan, CORDON_OP_RO_BIND, "/a b", "/$x", NULL, "x");
  argv = cordon_render_argv (plan);
  shell = cordon_render_shell (plan, argv, "/opt/my bwrap", "cordon compile t --format=seccomp", command);
  assert_string_equal (shell,
                       "env -i '/opt/my bwrap' \\\n"
                       "    --ro-bind '/a b' '/$x' \\\n"
                       "    -- printf '%s\\n' 'it'\\''s'\n");
}

/* --- json ---------------------------------------------------------------- */

static JsonObject *
parse_json (const char *text,
            JsonParser *parser)
{
  g_autoptr(GError) error = NULL;
  JsonNode *root;

  if (!json_parser_load_from_data (parser, text, -1, &error))
    fail_msg ("json does not parse: %s", error->message);
  root = json_parser_get_root (parser);
  assert_non_null (root);
  assert_true (JSON_NODE_HOLDS_OBJECT (root));
  return json_node_get_object (root);
}

static gboolean
array_has_string (JsonArray *a,
                  const char *s)
{
  for (guint i = 0; i < json_array_get_length (a); i++)
    if (g_strcmp0 (json_array_get_string_element (a, i), s) == 0)
      return TRUE;
  return FALSE;
}


/* The fds the args name, each with its option: what whoever runs
 * --format=nul must give bwrap. The shell form gives them itself. */
static void
test_render_names_the_fds_bwrap_reads (void **state)
{
  g_auto(Compiled) c = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *json = NULL;
  g_autofree char *shell = NULL;
  JsonArray *fds;
  JsonObject *o;

  compile_text (*state, policy_text, &c);
  json = render_json_text (c.plan, c.argv, NULL);
  fds = json_object_get_array_member (parse_json (json, parser), "fds");
  assert_int_equal (json_array_get_length (fds), 2);
  o = json_array_get_object_element (fds, 0);
  assert_int_equal (json_object_get_int_member (o, "fd"), 4);
  assert_string_equal (json_object_get_string_member (o, "option"), "--json-status-fd");
  o = json_array_get_object_element (fds, 1);
  assert_int_equal (json_object_get_int_member (o, "fd"), 8);
  assert_string_equal (json_object_get_string_member (o, "option"), "--seccomp");
  shell = cordon_render_shell (c.plan, c.argv, "/usr/bin/bwrap", "'/opt/my cordon' compile t --format=seccomp", NULL);
  assert_non_null (strstr (shell, "\n{ '/opt/my cordon' compile t --format=seccomp | env -i "));
  assert_true (g_str_has_suffix (shell, " -- sh 8<&0 0<&9 9<&- 4>/dev/null; } 9<&0\n"));
}

/* The filter's command names the policy and the workdir, quoted, so the
 * pasted line does not depend on where it is pasted. */
static void
test_render_names_the_filter_s_policy_and_workdir (void **state)
{
  g_autofree char *plain = cordon_render_filter_command ("/usr/bin/cordon", "trial", "/home/me/p");
  g_autofree char *quoted = cordon_render_filter_command ("/opt/my cordon", "/etc/it's.policy", "/w d");

  assert_string_equal (plain, "/usr/bin/cordon compile trial -C /home/me/p --format=seccomp");
  assert_string_equal (quoted, "'/opt/my cordon' compile '/etc/it'\\''s.policy' -C '/w d' --format=seccomp");
}

static void
test_render_json_holds_the_args_in_order (void **state)
{
  g_auto(Compiled) c = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *json = NULL;
  JsonObject *o;
  JsonArray *args;

  compile_text (*state, policy_text, &c);
  json = render_json_text (c.plan, c.argv, NULL);
  o = parse_json (json, parser);
  args = json_object_get_array_member (o, "args");
  assert_non_null (args);
  assert_int_equal (json_array_get_length (args), cordon_bwrap_argv_len (c.argv));
  for (guint i = 0; i < cordon_bwrap_argv_len (c.argv); i++)
    assert_string_equal (json_array_get_string_element (args, i), cordon_bwrap_argv_get (c.argv, i));
  assert_string_equal (json_object_get_string_member (o, "bwrap"), "/usr/bin/bwrap");
  assert_string_equal (json_object_get_string_member (o, "workdir"), FIXTURE_WORKDIR);
}

static void
test_render_json_has_an_op_per_plan_op_with_its_rule (void **state)
{
  g_auto(Compiled) c = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *json = NULL;
  JsonArray *ops;
  gboolean found = FALSE;

  compile_text (*state, policy_text, &c);
  json = render_json_text (c.plan, c.argv, NULL);
  ops = json_object_get_array_member (parse_json (json, parser), "ops");
  assert_int_equal (json_array_get_length (ops), c.plan->ops->len);
  for (guint i = 0; i < json_array_get_length (ops); i++)
    {
      JsonObject *op = json_array_get_object_element (ops, i);

      /* The secret's (the absent protected paths' placeholders are
       * mask-dir ops too, of [filesystem] protect). */
      if (g_strcmp0 (json_object_get_string_member (op, "op"), "mask-dir") == 0
          && g_strcmp0 (json_object_get_string_member (op, "key"), "[filesystem] protect") != 0)
        {
          JsonArray *args = json_object_get_array_member (op, "args");

          found = TRUE;
          assert_string_equal (json_object_get_string_member (op, "rule"), "test.policy:11:21");
          assert_string_equal (json_object_get_string_member (op, "key"), "[secrets] mask");
          assert_int_equal (json_array_get_length (args), 4);
          assert_string_equal (json_array_get_string_element (args, 2), "--remount-ro");
        }
    }
  assert_true (found);
}

static void
test_render_json_lists_skips_with_their_reason (void **state)
{
  g_auto(Compiled) c = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *json = NULL;
  JsonArray *skipped;
  gboolean found = FALSE;

  compile_text (*state, policy_text, &c);
  json = render_json_text (c.plan, c.argv, NULL);
  skipped = json_object_get_array_member (parse_json (json, parser), "skipped");
  assert_int_equal (json_array_get_length (skipped), c.plan->skipped->len);
  for (guint i = 0; i < json_array_get_length (skipped); i++)
    {
      JsonObject *s = json_array_get_object_element (skipped, i);

      assert_non_null (json_object_get_string_member (s, "reason"));
      if (g_strcmp0 (json_object_get_string_member (s, "path"), "/srv/cache") == 0)
        {
          found = TRUE;
          assert_string_equal (json_object_get_string_member (s, "key"), "[filesystem] writable-try");
        }
    }
  assert_true (found);
}

static void
test_render_json_lists_passed_and_dropped_names (void **state)
{
  g_auto(Compiled) c = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *json = NULL;
  JsonObject *o;
  JsonArray *passed, *dropped;

  compile_text (*state, policy_text, &c);
  json = render_json_text (c.plan, c.argv, NULL);
  o = parse_json (json, parser);
  passed = json_object_get_array_member (o, "env_passed");
  dropped = json_object_get_array_member (o, "env_dropped");
  assert_non_null (passed);
  assert_non_null (dropped);
  assert_true (array_has_string (passed, "PATH"));
  assert_true (array_has_string (passed, "EDITOR"));
  assert_true (array_has_string (dropped, "LD_PRELOAD"));
  assert_true (array_has_string (dropped, "DISPLAY"));
  assert_false (array_has_string (passed, "LD_PRELOAD"));
}

static void
test_render_json_never_prints_an_env_value (void **state)
{
  g_auto(Compiled) c = { 0 };
  g_autofree char *json = NULL;

  compile_text (*state, policy_text, &c);
  json = render_json_text (c.plan, c.argv, NULL);
  assert_no_env_value (json);
}

static void
test_render_json_holds_the_command (void **state)
{
  g_auto(Compiled) c = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *json = NULL;
  const char * const command[] = { "make", "test", NULL };
  JsonArray *cmd;

  compile_text (*state, policy_text, &c);
  json = render_json_text (c.plan, c.argv, command);
  cmd = json_object_get_array_member (parse_json (json, parser), "command");
  assert_int_equal (json_array_get_length (cmd), 2);
  assert_string_equal (json_array_get_string_element (cmd, 0), "make");
  assert_string_equal (json_array_get_string_element (cmd, 1), "test");
}

/* --- explain ---------------------------------------------------------------- */

/* The line of `text` that holds `needle`, or NULL. */
static char *
line_with (const char *text,
           const char *needle)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    if (strstr (lines[i], needle) != NULL)
      return g_strdup (lines[i]);
  return NULL;
}

static void
test_render_explain_puts_each_ops_args_beside_its_location (void **state)
{
  g_auto(Compiled) c = { 0 };
  g_autofree char *explain = NULL;

  compile_text (*state, policy_text, &c);
  explain = cordon_render_explain (c.plan, c.argv);
  for (guint i = 0; i < c.plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (c.plan->ops, i);
      g_autoptr(GString) args = g_string_new (NULL);
      g_autofree char *line = NULL;

      for (guint j = 0; j < cordon_bwrap_argv_len (c.argv); j++)
        if (cordon_bwrap_argv_origin (c.argv, j) == (gint) i)
          g_string_append_printf (args, "%s%s", args->len > 0 ? " " : "", cordon_bwrap_argv_get (c.argv, j));
      line = line_with (explain, args->str);
      if (line == NULL)
        fail_msg ("no line for '%s' in:\n%s", args->str, explain);
      if (op->rule.file != NULL)
        {
          g_autofree char *where = cordon_location_to_string (&op->rule);

          if (strstr (line, where) == NULL)
            fail_msg ("'%s' is not beside %s:\n%s", args->str, where, line);
        }
    }
}

static void
test_render_explain_locates_a_mask_at_its_value (void **state)
{
  g_auto(Compiled) c = { 0 };
  g_autofree char *explain = NULL;
  g_autofree char *line = NULL;

  compile_text (*state, policy_text, &c);
  explain = cordon_render_explain (c.plan, c.argv);
  line = line_with (explain, "--ro-bind /dev/null /home/alice/.netrc");
  assert_non_null (line);
  assert_non_null (strstr (line, "test.policy:11:6 [secrets] mask"));
}

static void
test_render_explain_locates_an_included_rule_in_its_own_file (void **state)
{
  g_auto(Compiled) c = { 0 };
  g_autofree char *explain = NULL;
  g_autofree char *line = NULL;

  compile_text (*state, policy_text, &c);
  explain = cordon_render_explain (c.plan, c.argv);
  line = line_with (explain, "--unshare-net");
  assert_non_null (line);
  /* The rule is base.policy's, not the including policy's. */
  assert_non_null (strstr (line, "<embedded>/base.policy:"));
  assert_non_null (strstr (line, "[namespaces] unshare"));
}

static void
test_render_explain_lists_every_skip_with_its_reason (void **state)
{
  g_auto(Compiled) c = { 0 };
  g_autofree char *explain = NULL;

  compile_text (*state, policy_text, &c);
  explain = cordon_render_explain (c.plan, c.argv);
  assert_true (c.plan->skipped->len > 0);
  for (guint i = 0; i < c.plan->skipped->len; i++)
    {
      const CordonSkip *skip = g_ptr_array_index (c.plan->skipped, i);
      g_autofree char *needle = g_strdup_printf ("  %s  ", skip->path);
      g_autofree char *line = line_with (explain, needle);

      if (line == NULL || strstr (line, skip->reason) == NULL)
        fail_msg ("skip of %s (%s) is not explained:\n%s", skip->path, skip->reason, explain);
    }
}

static void
test_render_explain_names_variables_but_never_prints_a_value (void **state)
{
  g_auto(Compiled) c = { 0 };
  g_autofree char *explain = NULL;
  g_autofree char *path_line = NULL;
  g_autofree char *preload_line = NULL;

  compile_text (*state, policy_text, &c);
  explain = cordon_render_explain (c.plan, c.argv);
  assert_no_env_value (explain);
  path_line = line_with (explain, "  PATH ");
  preload_line = line_with (explain, "  LD_PRELOAD ");
  assert_non_null (path_line);
  assert_non_null (strstr (path_line, "passed"));
  assert_non_null (preload_line);
  assert_non_null (strstr (preload_line, "never-pass"));
}

static void
test_render_explain_says_none_when_nothing_is_skipped (void **state)
{
  g_autoptr(CordonPlan) plan = cordon_plan_new ("t");
  g_autoptr(CordonBwrapArgv) argv = NULL;
  g_autofree char *explain = NULL;

  cordon_plan_add_op (plan, CORDON_OP_DEV, NULL, "/dev", NULL, "fresh /dev");
  argv = cordon_render_argv (plan);
  explain = cordon_render_explain (plan, argv);
  assert_non_null (strstr (explain, "\nskipped: none\n"));
  assert_non_null (strstr (explain, "--dev /dev  built-in: fresh /dev\n"));
}

/* A root caller's v1 host, as cordon_cgroup_host_find finds it: memory,
 * pids and cpu each a hierarchy cordon may write. */
static void
host_has_v1 (FixtureHost *host)
{
  static const char * const parents[CORDON_CONTROLLER_MAX] = {
    "/sys/fs/cgroup/memory/job", "/sys/fs/cgroup/pids/job", "/sys/fs/cgroup/cpu/job", NULL,
  };

  fixture_host_set_cgroup_v1 (host, parents, TRUE);
}

/* Each file the keeper writes, in each cgroup, beside the rule that
 * asked for it (swap=0 is memory='s default). */
static void
test_render_explain_puts_each_cgroup_file_beside_its_rule (void **state)
{
  g_auto(Compiled) c = { 0 };
  g_autofree char *explain = NULL;

  host_has_v1 (*state);
  compile_text (*state, "[namespaces]\nunshare=user;pid\n[limits]\nmemory=256M\ncpu=50%\npids=100\n", &c);
  explain = cordon_render_explain (c.plan, c.argv);
  if (strstr (explain, "\nbefore bwrap, cordon-keeper makes cordon-PID-RANDOM (cgroup-v1) below:\n"
                       "  /sys/fs/cgroup/memory/job\n"
                       "    memory.limit_in_bytes=268435456  test.policy:4:8 [limits] memory\n"
                       "    memory.memsw.limit_in_bytes=268435456  default of [limits] swap\n"
                       "  /sys/fs/cgroup/pids/job\n"
                       "    pids.max=100  test.policy:6:6 [limits] pids\n"
                       "  /sys/fs/cgroup/cpu/job\n"
                       "    cpu.cfs_period_us=100000  test.policy:5:5 [limits] cpu\n"
                       "    cpu.cfs_quota_us=50000  test.policy:5:5 [limits] cpu\n"
                       "\nin the sandbox, cordon-exec sets (soft and hard):\n"
                       "  RLIMIT_CORE=0  default of [limits] core\n") == NULL)
    fail_msg ("no cgroup files beside their rules in:\n%s", explain);
  /* The cgroup holds pids: no RLIMIT_NPROC, and nothing unheld. */
  assert_null (strstr (explain, "RLIMIT_NPROC"));
  assert_null (strstr (explain, "not held on this host"));
}

/* No cgroup: no keeper's cgroup, pids as RLIMIT_NPROC, and what
 * best-effort leaves unheld, each with its rule and the host's reason. */
static void
test_render_explain_names_the_rlimit_and_each_limit_not_held (void **state)
{
  FixtureHost *host = *state;
  g_auto(Compiled) c = { 0 };
  g_autofree char *explain = NULL;

  host->facts->cgroup.mechanism = CORDON_CGROUP_NONE;
  host->facts->cgroup.missing = g_strdup ("this host mounts no cgroup with memory, pids and cpu");
  compile_text (host, "[namespaces]\nunshare=user;pid\n[limits]\nmemory=256M\npids=100\nenforce=best-effort\n", &c);
  explain = cordon_render_explain (c.plan, c.argv);
  assert_null (strstr (explain, "cordon-keeper makes"));
  if (strstr (explain, "\n  RLIMIT_NPROC=100  test.policy:5:6 [limits] pids\n") == NULL)
    fail_msg ("no RLIMIT_NPROC beside pids= in:\n%s", explain);
  if (strstr (explain, "\nnot held on this host (enforce=best-effort: a degradation): memory  "
                       "test.policy:4:8 [limits] memory: this host mounts no cgroup with memory, pids and cpu\n") == NULL)
    fail_msg ("memory= not named unheld in:\n%s", explain);
}

#define T(f) cmocka_unit_test_setup_teardown (f, fixture_host_setup, fixture_host_teardown)

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_render_spells_unshare_with_the_namespace_name),
    cmocka_unit_test (test_render_spells_new_session),
    cmocka_unit_test (test_render_spells_die_with_parent),
    cmocka_unit_test (test_render_spells_the_ops_launch_gives_bwrap),
    cmocka_unit_test (test_render_spells_a_sized_tmpfs),
    cmocka_unit_test (test_render_spells_cap_drop_as_cap_drop_all),
    cmocka_unit_test (test_render_spells_ro_bind_with_source_then_dest),
    cmocka_unit_test (test_render_spells_a_writable_bind),
    cmocka_unit_test (test_render_spells_symlink_with_target_then_link),
    cmocka_unit_test (test_render_spells_proc),
    cmocka_unit_test (test_render_spells_dev),
    cmocka_unit_test (test_render_spells_tmpfs),
    cmocka_unit_test (test_render_spells_a_file_mask_as_a_read_only_dev_null_bind),
    cmocka_unit_test (test_render_spells_a_dir_mask_as_tmpfs_then_remount_ro),
    cmocka_unit_test (test_render_spells_chdir),
    cmocka_unit_test (test_render_tags_each_arg_with_the_index_of_its_op),
    cmocka_unit_test (test_render_nul_form_ends_every_arg_with_a_nul),
    T (test_render_shell_never_prints_a_passed_callers_value),
    T (test_render_shell_leaves_out_dropped_variables),
    T (test_render_shell_prints_a_set_value_literally),
    T (test_render_shell_starts_from_an_empty_environment),
    T (test_render_shell_holds_every_arg_in_order),
    cmocka_unit_test (test_render_shell_puts_one_op_per_line),
    cmocka_unit_test (test_render_shell_quotes_args_that_need_it),
    T (test_render_json_holds_the_args_in_order),
    T (test_render_names_the_fds_bwrap_reads),
    cmocka_unit_test (test_render_names_the_filter_s_policy_and_workdir),
    T (test_render_json_has_an_op_per_plan_op_with_its_rule),
    T (test_render_json_lists_skips_with_their_reason),
    T (test_render_json_lists_passed_and_dropped_names),
    T (test_render_json_never_prints_an_env_value),
    T (test_render_json_holds_the_command),
    T (test_render_explain_puts_each_ops_args_beside_its_location),
    T (test_render_explain_locates_a_mask_at_its_value),
    T (test_render_explain_locates_an_included_rule_in_its_own_file),
    T (test_render_explain_lists_every_skip_with_its_reason),
    T (test_render_explain_names_variables_but_never_prints_a_value),
    cmocka_unit_test (test_render_explain_says_none_when_nothing_is_skipped),
    T (test_render_explain_puts_each_cgroup_file_beside_its_rule),
    T (test_render_explain_names_the_rlimit_and_each_limit_not_held),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
