/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* render: spells a plan as bwrap options, and prints it for people
 * (explain), for sh (shell) and for programs (json). Pure. Environment
 * values never appear in any of these: bwrap receives the envp directly,
 * so no value sits in a cmdline (invariant 2), and the shell form refers
 * to the caller's variables by name. */
#include "config.h"

#include <string.h>

#include "json-writer.h"
#include "path-util.h"
#include "render.h"

static const char *
proc_mode_name (CordonProcMode mode)
{
  return cordon_key_info (CORDON_KEY_PROC_MODE)->words[mode];
}

static const char *
proc_fallback_name (CordonProcFallback fallback)
{
  return cordon_key_info (CORDON_KEY_PROC_FALLBACK)->words[fallback];
}

/* Each op's option and what follows it: nothing, its src, its dest,
 * both, or its fd. */
typedef enum { ARGS_NONE, ARGS_SRC, ARGS_DEST, ARGS_BOTH, ARGS_FD } Args;

static const struct
{
  const char *flag;
  Args args;
} op_spelling[CORDON_OP_MAX] = {
  [CORDON_OP_UNSHARE] = { NULL, ARGS_NONE },
  [CORDON_OP_NEW_SESSION] = { "--new-session", ARGS_NONE },
  [CORDON_OP_DIE_WITH_PARENT] = { "--die-with-parent", ARGS_NONE },
  [CORDON_OP_CAP_DROP_ALL] = { "--cap-drop", ARGS_NONE },
  [CORDON_OP_CAP_ADD] = { "--cap-add", ARGS_SRC },
  [CORDON_OP_RO_BIND] = { "--ro-bind", ARGS_BOTH },
  [CORDON_OP_BIND] = { "--bind", ARGS_BOTH },
  [CORDON_OP_SYMLINK] = { "--symlink", ARGS_BOTH },
  [CORDON_OP_PROC] = { "--proc", ARGS_DEST },
  [CORDON_OP_DEV] = { "--dev", ARGS_DEST },
  [CORDON_OP_TMPFS] = { "--tmpfs", ARGS_DEST },
  [CORDON_OP_MASK_FILE] = { "--ro-bind", ARGS_BOTH },
  [CORDON_OP_MASK_DIR] = { "--tmpfs", ARGS_DEST },
  [CORDON_OP_HIDE_DIR] = { "--tmpfs", ARGS_DEST },
  [CORDON_OP_CHDIR] = { "--chdir", ARGS_DEST },
  [CORDON_OP_HELPER_BIND] = { "--ro-bind", ARGS_BOTH },
  [CORDON_OP_STATUS_FD] = { "--json-status-fd", ARGS_FD },
  [CORDON_OP_DISABLE_USERNS] = { "--disable-userns", ARGS_NONE },
  [CORDON_OP_AS_PID_1] = { "--as-pid-1", ARGS_NONE },
  [CORDON_OP_SECCOMP] = { "--seccomp", ARGS_FD },
  [CORDON_OP_OPTION] = { NULL, ARGS_SRC },
};

static void
render_op (CordonBwrapArgv *argv,
           gint index,
           const CordonOp *op)
{
  Args args;

  g_assert (op->kind < CORDON_OP_MAX);
  args = op_spelling[op->kind].args;
  /* A sized tmpfs: bwrap's --size applies to the --tmpfs that follows. */
  if (op->kind == CORDON_OP_TMPFS && op->size > 0)
    {
      cordon_bwrap_argv_add (argv, index, "--size");
      cordon_bwrap_argv_take (argv, index, g_strdup_printf ("%" G_GUINT64_FORMAT, op->size));
    }
  if (op->kind == CORDON_OP_UNSHARE)
    cordon_bwrap_argv_take (argv, index, g_strconcat ("--unshare-", cordon_namespace_name (op->ns), NULL));
  else if (op_spelling[op->kind].flag != NULL)
    cordon_bwrap_argv_add (argv, index, op_spelling[op->kind].flag);
  if (op->kind == CORDON_OP_CAP_DROP_ALL)
    cordon_bwrap_argv_add (argv, index, "ALL");
  if (args == ARGS_SRC || args == ARGS_BOTH)
    cordon_bwrap_argv_add (argv, index, op->src);
  if (args == ARGS_DEST || args == ARGS_BOTH)
    cordon_bwrap_argv_add (argv, index, op->dest);
  if (args == ARGS_FD)
    cordon_bwrap_argv_take (argv, index, g_strdup_printf ("%d", op->fd));
  /* An option of bwrap's that needs no spelling of its own. */
  if (op->kind == CORDON_OP_OPTION && op->dest != NULL)
    cordon_bwrap_argv_add (argv, index, op->dest);
  /* An empty directory, read-only: what a mask of one is. */
  if (op->kind == CORDON_OP_MASK_DIR)
    cordon_bwrap_argv_add_many (argv, index, "--remount-ro", op->dest, NULL);
}

CordonBwrapArgv *
cordon_render_argv (const CordonPlan *plan)
{
  CordonBwrapArgv *argv = cordon_bwrap_argv_new ();

  for (guint i = 0; i < plan->ops->len; i++)
    render_op (argv, (gint) i, g_ptr_array_index (plan->ops, i));
  return argv;
}

static const char * const default_command[] = { "sh", NULL };

static const char * const *
command_or_default (const char * const *command)
{
  return command != NULL && command[0] != NULL ? command : default_command;
}

/* NAME=VALUE from the policy's set= is policy text and safe to print; a
 * passed caller variable is written ${NAME+"NAME=$NAME"} so that its value
 * is taken from the shell that runs the line, never printed. */
static void
append_env_words (GString *out,
                  const CordonPlan *plan)
{
  for (guint i = 0; i < plan->env_decisions->len; i++)
    {
      const CordonEnvDecision *d = g_ptr_array_index (plan->env_decisions, i);

      if (!d->passed)
        continue;
      if (d->set_by_policy)
        {
          for (guint j = 0; j < plan->envp->len; j++)
            {
              const char *kv = g_ptr_array_index (plan->envp, j);

              if (g_str_has_prefix (kv, d->name) && kv[strlen (d->name)] == '=')
                {
                  g_autofree char *q = cordon_shell_quote (kv);

                  g_string_append_printf (out, " %s", q);
                }
            }
        }
      else
        /* ${NAME+...}: a variable unset in the pasting shell stays unset,
         * rather than arriving as an empty value. */
        g_string_append_printf (out, " ${%s+\"%s=$%s\"}", d->name, d->name, d->name);
    }
}

static const CordonOp *
find_fd_op (const CordonPlan *plan,
            CordonOpKind kind)
{
  for (guint i = 0; i < plan->ops->len; i++)
    if (((const CordonOp *) g_ptr_array_index (plan->ops, i))->kind == kind)
      return g_ptr_array_index (plan->ops, i);
  return NULL;
}

/* The fds bwrap reads have no spelling as arguments: the shell form says
 * what each one is, and the line gives them. */
static void
append_fd_comments (GString *out,
                    const CordonPlan *plan,
                    const char *filter_command)
{
  const CordonOp *status = find_fd_op (plan, CORDON_OP_STATUS_FD);
  const CordonOp *seccomp = find_fd_op (plan, CORDON_OP_SECCOMP);

  if (status != NULL)
    g_string_append_printf (out, "# fd %d (--json-status-fd): bwrap's status, for cordon's "
                            "supervisor; here it goes to /dev/null\n", status->fd);
  if (seccomp != NULL)
    g_string_append_printf (out, "# fd %d (--seccomp): the filter's BPF, a sealed memfd in cordon run; "
                            "here piped from %s\n", seccomp->fd, filter_command);
}

/* The redirections that give bwrap its fds: the filter arrives on the
 * pipe's stdin, moves to its fd, and the caller's stdin (saved at 9)
 * comes back. */
static void
append_fd_redirections (GString *out,
                        const CordonPlan *plan)
{
  const CordonOp *status = find_fd_op (plan, CORDON_OP_STATUS_FD);
  const CordonOp *seccomp = find_fd_op (plan, CORDON_OP_SECCOMP);

  if (seccomp != NULL)
    g_string_append_printf (out, " %d<&0 0<&9 9<&-", seccomp->fd);
  if (status != NULL)
    g_string_append_printf (out, " %d>/dev/null", status->fd);
  if (seccomp != NULL)
    g_string_append (out, "; } 9<&0");
}

/* `filter` is the shell text of a command that writes the filter's BPF
 * (cordon compile --format=seccomp), for a plan with a filter. */
/* `argv` without the arguments of every op of `kind`, the origins kept. */
static CordonBwrapArgv *
without_op (const CordonPlan *plan,
            const CordonBwrapArgv *argv,
            CordonOpKind kind)
{
  CordonBwrapArgv *out = cordon_bwrap_argv_new ();

  for (guint i = 0; i < cordon_bwrap_argv_len (argv); i++)
    {
      gint origin = cordon_bwrap_argv_origin (argv, i);

      if (origin < 0 || (guint) origin >= plan->ops->len
          || ((const CordonOp *) g_ptr_array_index (plan->ops, origin))->kind != kind)
        cordon_bwrap_argv_add (out, origin, cordon_bwrap_argv_get (argv, i));
    }
  return out;
}

char *
cordon_render_shell (const CordonPlan *plan,
                     const CordonBwrapArgv *argv,
                     const char *bwrap_path,
                     const char *filter,
                     const char * const *command)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *bwrap = cordon_shell_quote (bwrap_path);
  const char * const *cmd = command_or_default (command);
  /* The command runs here without cordon-exec (see cordon_render_as). */
  g_autoptr(CordonBwrapArgv) pasted = without_op (plan, argv, CORDON_OP_AS_PID_1);
  gint last_origin = -2;

  /* What cordon-keeper does before bwrap has no shell spelling here: say
   * so, rather than let the line pass for the whole sandbox. */
  if (plan->switch_identity)
    g_string_append_printf (out, "# cordon run starts this bwrap as uid 0 of a user namespace whose "
                            "uid 0 is uid %u, gid %u (not root), after the stage of cordon explain; "
                            "pasted, it runs as the caller\n",
                            (guint) plan->host_uid, (guint) plan->host_gid);
  append_fd_comments (out, plan, filter);
  if (find_fd_op (plan, CORDON_OP_SECCOMP) != NULL)
    g_string_append_printf (out, "{ %s | ", filter);
  g_string_append (out, "env -i");
  append_env_words (out, plan);
  g_string_append_printf (out, " %s", bwrap);
  argv = pasted;
  for (guint i = 0; i < cordon_bwrap_argv_len (argv); i++)
    {
      g_autofree char *q = cordon_shell_quote (cordon_bwrap_argv_get (argv, i));
      gint origin = cordon_bwrap_argv_origin (argv, i);

      /* One op per line keeps the paste readable. */
      g_string_append (out, origin != last_origin ? " \\\n    " : " ");
      g_string_append (out, q);
      last_origin = origin;
    }
  g_string_append (out, " \\\n    --");
  for (guint i = 0; cmd[i] != NULL; i++)
    {
      g_autofree char *q = cordon_shell_quote (cmd[i]);

      g_string_append_printf (out, " %s", q);
    }
  append_fd_redirections (out, plan);
  g_string_append_c (out, '\n');
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static char *
rule_string (CordonKey key,
             const CordonLocation *rule)
{
  g_autofree char *where = NULL;
  const CordonKeyInfo *info;

  if (key == CORDON_KEY_INVALID)
    return g_strdup ("built-in");
  info = cordon_key_info (key);
  if (rule->file == NULL)
    return g_strdup_printf ("default of [%s] %s", info->section, info->name);
  where = cordon_location_to_string (rule);
  return g_strdup_printf ("%s [%s] %s", where, info->section, info->name);
}

/* The args of op `index`, joined by spaces, shell-quoted. */
static char *
op_args (const CordonBwrapArgv *argv,
         gint index)
{
  g_autoptr(GString) s = g_string_new (NULL);

  for (guint i = 0; i < cordon_bwrap_argv_len (argv); i++)
    if (cordon_bwrap_argv_origin (argv, i) == index)
      {
        g_autofree char *q = cordon_shell_quote (cordon_bwrap_argv_get (argv, i));

        if (s->len > 0)
          g_string_append_c (s, ' ');
        g_string_append (s, q);
      }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static void
explain_ops (GString *out,
             const CordonPlan *plan,
             const CordonBwrapArgv *argv)
{
  g_autoptr(GPtrArray) cols = g_ptr_array_new_with_free_func (g_free);
  gsize width = 0;

  for (guint i = 0; i < plan->ops->len; i++)
    {
      char *args = op_args (argv, (gint) i);

      width = MAX (width, strlen (args));
      g_ptr_array_add (cols, args);
    }
  g_string_append (out, "bwrap arguments, each beside the rule that produced it:\n");
  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);
      g_autofree char *rule = rule_string (op->key, &op->rule);

      g_string_append_printf (out, "  %-*s  %s: %s\n", (int) width,
                              (const char *) g_ptr_array_index (cols, i), rule, op->why);
    }
}

/* What cordon-keeper makes before bwrap starts, for a root caller's
 * sandbox run as another user: not bwrap arguments, but part of what
 * bwrap receives all the same. */
static void
explain_stage (GString *out,
               const CordonPlan *plan)
{
  gsize width = 0;

  if (plan->stage->len == 0)
    return;
  for (guint i = 0; i < plan->stage->len; i++)
    width = MAX (width, strlen (((CordonStage *) g_ptr_array_index (plan->stage, i))->path));
  g_string_append (out, "\nbefore bwrap, in cordon-keeper's own mount namespace:\n");
  for (guint i = 0; i < plan->stage->len; i++)
    {
      const CordonStage *s = g_ptr_array_index (plan->stage, i);
      g_autofree char *rule = rule_string (s->key, &s->rule);

      g_string_append_printf (out, "  %-6s %-*s  %s: %s\n", cordon_stage_kind_name (s->kind),
                              (int) width, s->path, rule, s->why);
    }
}

/* What bounds the sandbox beside its mounts: the files the keeper writes
 * in the cgroups it makes, the rlimits cordon-exec sets, and the limits
 * nothing holds (best-effort's degradations). */
static void
explain_limits (GString *out,
                const CordonPlan *plan)
{
  static const char * const rlimit_names[CORDON_RLIMIT_MAX] = {
    "RLIMIT_FSIZE", "RLIMIT_NOFILE", "RLIMIT_CORE", "RLIMIT_NPROC",
  };

  if (plan->cgroup_dirs->len > 0 && plan->cgroup_mechanism == CORDON_CGROUP_SYSTEMD)
    g_string_append (out, "\nbefore bwrap, the user's systemd places cordon-keeper in a transient scope, "
                          "cordon-PID-RANDOM.scope, its limits these (as properties), in the following; the "
                          "keeper starts the sandbox in its child cgroup sandbox (memory.oom.group=1):\n");
  else if (plan->cgroup_dirs->len > 0)
    g_string_append_printf (out, "\nbefore bwrap, cordon-keeper makes cordon-PID-RANDOM (%s) below:\n",
                            cordon_cgroup_mechanism_name (plan->cgroup_mechanism));
  for (guint i = 0; i < plan->cgroup_dirs->len; i++)
    {
      const CordonCgroupDir *dir = g_ptr_array_index (plan->cgroup_dirs, i);

      g_string_append_printf (out, "  %s\n", dir->parent);
      for (guint j = 0; j < dir->settings->len; j++)
        {
          const CordonCgroupSetting *set = g_ptr_array_index (dir->settings, j);
          const CordonLimit *l = &plan->limits[set->limit];
          g_autofree char *rule = rule_string (l->key, &l->rule);

          g_string_append_printf (out, "    %s=%s  %s", set->file, set->value, rule);
          if (l->share > 0 && (g_str_equal (set->file, "memory.max") || g_str_equal (set->file, "memory.limit_in_bytes")))
            g_string_append_printf (out, " (%u%% of this host's RAM)", l->share);
          g_string_append_c (out, '\n');
        }
    }
  g_string_append (out, "\nin the sandbox, cordon-exec sets (soft and hard):\n");
  for (guint i = 0; i < CORDON_RLIMIT_MAX; i++)
    if (plan->rlimits[i].set)
      {
        g_autofree char *rule = rule_string (plan->rlimits[i].key, &plan->rlimits[i].rule);

        g_string_append_printf (out, "  %s=%" G_GUINT64_FORMAT "  %s\n", rlimit_names[i], plan->rlimits[i].value, rule);
      }
  for (guint i = 0; i < CORDON_LIMIT_MAX; i++)
    if (plan->limits[i].unheld != NULL)
      {
        g_autofree char *rule = rule_string (plan->limits[i].key, &plan->limits[i].rule);

        g_string_append_printf (out, "\nnot held on this host (enforce=best-effort: a degradation): %s  %s: %s\n",
                                cordon_key_info (plan->limits[i].key)->name, rule, plan->limits[i].unheld);
      }
}

/* Whom the sandbox runs as on the host. */
static char *
host_user_line (const CordonPlan *plan)
{
  if (plan->switch_identity)
    return g_strdup_printf ("uid %u, gid %u, not root", (guint) plan->host_uid, (guint) plan->host_gid);
  if (plan->host_root)
    return g_strdup ("root (host-user=root: a degradation)");
  return g_strdup_printf ("the caller, uid %u", (guint) plan->host_uid);
}

static void
explain_skips (GString *out,
               const CordonPlan *plan)
{
  if (plan->skipped->len == 0)
    {
      g_string_append (out, "\nskipped: none\n");
      return;
    }
  g_string_append (out, "\nskipped (nothing is created on the host for these):\n");
  for (guint i = 0; i < plan->skipped->len; i++)
    {
      const CordonSkip *skip = g_ptr_array_index (plan->skipped, i);
      g_autofree char *rule = rule_string (skip->key, &skip->rule);

      g_string_append_printf (out, "  %s  %s: %s\n", skip->path, rule, skip->reason);
    }
}

/* What the host's answers changed, beside the rule they changed. */
static void
explain_adapted (GString *out,
                 const CordonPlan *plan)
{
  if (plan->adapted->len == 0)
    return;
  g_string_append (out, "\nadapted to this host:\n");
  for (guint i = 0; i < plan->adapted->len; i++)
    {
      const CordonSkip *a = g_ptr_array_index (plan->adapted, i);
      g_autofree char *rule = rule_string (a->key, &a->rule);

      g_string_append_printf (out, "  %s  %s: %s\n", a->path, rule, a->reason);
    }
}

static void
explain_env (GString *out,
             const CordonPlan *plan)
{
  gsize width = 0;

  g_string_append (out, "\nenvironment (names only; values are never shown):\n");
  for (guint i = 0; i < plan->env_decisions->len; i++)
    width = MAX (width, strlen (((CordonEnvDecision *) g_ptr_array_index (plan->env_decisions, i))->name));
  for (guint i = 0; i < plan->env_decisions->len; i++)
    {
      const CordonEnvDecision *d = g_ptr_array_index (plan->env_decisions, i);
      g_autofree char *where = d->rule.file != NULL ? cordon_location_to_string (&d->rule) : NULL;

      g_string_append_printf (out, "  %-*s  %s%s%s\n", (int) width, d->name, d->reason,
                              where != NULL ? "  " : "", where != NULL ? where : "");
    }
}

char *
cordon_render_explain (const CordonPlan *plan,
                       const CordonBwrapArgv *argv)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *timeout = plan->timeout > 0
    ? g_strdup_printf ("%" G_GUINT64_FORMAT " s", plan->timeout) : g_strdup ("none");
  g_autofree char *host_user = host_user_line (plan);

  g_string_append_printf (out, "policy %s, workdir %s\n", plan->policy_name,
                          plan->workdir != NULL ? plan->workdir : "(none)");
  if (plan->description != NULL)
    g_string_append_printf (out, "  %s\n", plan->description);
  g_string_append_printf (out, "proc: %s, fallback %s; timeout: %s; seccomp: %s\n",
                          proc_mode_name (plan->proc_mode),
                          proc_fallback_name (plan->proc_fallback), timeout,
                          cordon_key_info (CORDON_KEY_SECCOMP_PROFILE)->words[plan->seccomp]);
  g_string_append_printf (out, "host user: %s\n", host_user);
  if (plan->audit)
    g_string_append_printf (out, "after the run: the writable paths are audited (on-finding=%s, at most %u entries)\n\n",
                            cordon_key_info (CORDON_KEY_AUDIT_ON_FINDING)->words[plan->audit_mode], plan->audit_max);
  else
    g_string_append (out, "after the run: no audit ([audit] walk=false)\n\n");
  explain_ops (out, plan, argv);
  explain_stage (out, plan);
  explain_limits (out, plan);
  explain_adapted (out, plan);
  explain_skips (out, plan);
  explain_env (out, plan);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static void
json_rule (CordonJson *b,
           CordonKey key,
           const CordonLocation *rule)
{
  cordon_json_set_member_name (b, "rule");
  if (rule->file != NULL)
    {
      g_autofree char *where = cordon_location_to_string (rule);

      cordon_json_add_string_value (b, where);
    }
  else
    cordon_json_add_null_value (b);
  cordon_json_set_member_name (b, "key");
  if (key != CORDON_KEY_INVALID)
    {
      g_autofree char *k = g_strdup_printf ("[%s] %s", cordon_key_info (key)->section,
                                            cordon_key_info (key)->name);

      cordon_json_add_string_value (b, k);
    }
  else
    cordon_json_add_null_value (b);
}

static void
json_ops (CordonJson *b,
          const CordonPlan *plan,
          const CordonBwrapArgv *argv)
{
  cordon_json_set_member_name (b, "ops");
  cordon_json_begin_array (b);
  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);

      cordon_json_begin_object (b);
      cordon_json_set_member_name (b, "op");
      cordon_json_add_string_value (b, cordon_op_kind_name (op->kind));
      cordon_json_set_member_name (b, "args");
      cordon_json_begin_array (b);
      for (guint j = 0; j < cordon_bwrap_argv_len (argv); j++)
        if (cordon_bwrap_argv_origin (argv, j) == (gint) i)
          cordon_json_add_string_value (b, cordon_bwrap_argv_get (argv, j));
      cordon_json_end_array (b);
      json_rule (b, op->key, &op->rule);
      cordon_json_set_member_name (b, "why");
      cordon_json_add_string_value (b, op->why);
      cordon_json_end_object (b);
    }
  cordon_json_end_array (b);
}

static void
json_skips (CordonJson *b,
            const char *member,
            const char *name,
            const GPtrArray *skips)
{
  cordon_json_set_member_name (b, member);
  cordon_json_begin_array (b);
  for (guint i = 0; i < skips->len; i++)
    {
      const CordonSkip *skip = g_ptr_array_index (skips, i);

      cordon_json_begin_object (b);
      cordon_json_set_member_name (b, name);
      cordon_json_add_string_value (b, skip->path);
      json_rule (b, skip->key, &skip->rule);
      cordon_json_set_member_name (b, "reason");
      cordon_json_add_string_value (b, skip->reason);
      cordon_json_end_object (b);
    }
  cordon_json_end_array (b);
}

static void
json_identity (CordonJson *b,
               const CordonPlan *plan)
{
  cordon_json_set_member_name (b, "host_uid");
  cordon_json_add_int_value (b, plan->host_uid);
  cordon_json_set_member_name (b, "host_gid");
  cordon_json_add_int_value (b, plan->host_gid);
  cordon_json_set_member_name (b, "stage");
  cordon_json_begin_array (b);
  for (guint i = 0; i < plan->stage->len; i++)
    {
      const CordonStage *s = g_ptr_array_index (plan->stage, i);

      cordon_json_begin_object (b);
      cordon_json_set_member_name (b, "kind");
      cordon_json_add_string_value (b, cordon_stage_kind_name (s->kind));
      cordon_json_set_member_name (b, "path");
      cordon_json_add_string_value (b, s->path);
      json_rule (b, s->key, &s->rule);
      cordon_json_set_member_name (b, "why");
      cordon_json_add_string_value (b, s->why);
      cordon_json_end_object (b);
    }
  cordon_json_end_array (b);
}

static void
json_env (CordonJson *b,
          const CordonPlan *plan)
{
  const char *members[] = { "env_passed", "env_dropped" };

  for (guint pass = 0; pass < 2; pass++)
    {
      cordon_json_set_member_name (b, members[pass]);
      cordon_json_begin_array (b);
      for (guint i = 0; i < plan->env_decisions->len; i++)
        {
          const CordonEnvDecision *d = g_ptr_array_index (plan->env_decisions, i);

          if (d->passed == (pass == 0))
            cordon_json_add_string_value (b, d->name);
        }
      cordon_json_end_array (b);
    }
}

static void
json_strv (CordonJson *b,
           const char *member,
           const char * const *strv,
           const CordonBwrapArgv *argv)
{
  cordon_json_set_member_name (b, member);
  cordon_json_begin_array (b);
  for (guint i = 0; strv != NULL && strv[i] != NULL; i++)
    cordon_json_add_string_value (b, strv[i]);
  for (guint i = 0; argv != NULL && i < cordon_bwrap_argv_len (argv); i++)
    cordon_json_add_string_value (b, cordon_bwrap_argv_get (argv, i));
  cordon_json_end_array (b);
}

/* The fds bwrap reads beside its arguments, each with the option that
 * names it: whoever runs the args (--format=nul) must give them. */
static void
json_fds (CordonJson *b,
          const CordonPlan *plan)
{
  cordon_json_set_member_name (b, "fds");
  cordon_json_begin_array (b);
  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);

      if (op->kind != CORDON_OP_STATUS_FD && op->kind != CORDON_OP_SECCOMP)
        continue;
      cordon_json_begin_object (b);
      cordon_json_set_member_name (b, "fd");
      cordon_json_add_int_value (b, op->fd);
      cordon_json_set_member_name (b, "option");
      cordon_json_add_string_value (b, op->kind == CORDON_OP_SECCOMP ? "--seccomp" : "--json-status-fd");
      cordon_json_set_member_name (b, "content");
      cordon_json_add_string_value (b, op->kind == CORDON_OP_SECCOMP
                                        ? "read: the filter's BPF (cordon compile --format=seccomp)"
                                        : "written: bwrap's JSON status");
      cordon_json_end_object (b);
    }
  cordon_json_end_array (b);
}

/* The JSON of `compile --format=json`, as a value (json-writer.h turns
 * it into text): pure. What is pasted runs the command without
 * cordon-exec, so without --as-pid-1 (see cordon_render_as). */
GVariant *
cordon_render_json (const CordonPlan *plan,
                    const CordonBwrapArgv *full_argv,
                    const char *bwrap_path,
                    const char * const *command)
{
  g_autoptr(CordonJson) b = cordon_json_new ();
  g_autoptr(CordonBwrapArgv) argv = without_op (plan, full_argv, CORDON_OP_AS_PID_1);

  cordon_json_begin_object (b);
  cordon_json_set_member_name (b, "policy");
  cordon_json_add_string_value (b, plan->policy_name);
  cordon_json_set_member_name (b, "workdir");
  cordon_json_add_string_value (b, plan->workdir);
  cordon_json_set_member_name (b, "bwrap");
  cordon_json_add_string_value (b, bwrap_path);
  json_strv (b, "args", NULL, argv);
  json_fds (b, plan);
  json_strv (b, "command", command_or_default (command), NULL);
  json_env (b, plan);
  json_ops (b, plan, argv);
  json_identity (b, plan);
  json_skips (b, "skipped", "path", plan->skipped);
  json_skips (b, "adapted", "what", plan->adapted);
  cordon_json_set_member_name (b, "description");
  cordon_json_add_string_value (b, plan->description);
  cordon_json_set_member_name (b, "proc_mode");
  cordon_json_add_string_value (b, proc_mode_name (plan->proc_mode));
  cordon_json_set_member_name (b, "proc_fallback");
  cordon_json_add_string_value (b, proc_fallback_name (plan->proc_fallback));
  cordon_json_set_member_name (b, "seccomp");
  cordon_json_add_string_value (b, cordon_key_info (CORDON_KEY_SECCOMP_PROFILE)->words[plan->seccomp]);
  cordon_json_set_member_name (b, "timeout");
  cordon_json_add_int_value (b, (gint64) plan->timeout);
  cordon_json_end_object (b);
  return g_variant_ref (cordon_json_get_root (b));
}

/* The output of `cordon compile --format=FORMAT` (shell or nul) and of
 * `cordon explain` ("explain"); json is cordon_render_json's. */
GBytes *
cordon_render_as (const char *format,
                  const CordonPlan *plan,
                  const CordonBwrapArgv *argv,
                  const char *bwrap_path,
                  const char *filter,
                  const char * const *command)
{
  g_autoptr(CordonBwrapArgv) pasted = NULL;
  char *text;

  /* What is pasted runs the command without cordon-exec: bwrap's own
   * init reaps for it, where as pid 1 it would ignore every signal. The
   * explanation is of cordon's own run, --as-pid-1 and all; the shell
   * form drops it itself. */
  if (g_str_equal (format, "nul"))
    argv = pasted = without_op (plan, argv, CORDON_OP_AS_PID_1);
  if (g_str_equal (format, "nul"))
    return cordon_bwrap_argv_to_nul (argv);
  if (g_str_equal (format, "explain"))
    text = cordon_render_explain (plan, argv);
  else
    text = cordon_render_shell (plan, argv, bwrap_path, filter, command);
  return g_bytes_new_take (text, strlen (text));
}

/* The command the shell form runs for the filter: `cordon`, the policy
 * `ref` (its name, or an absolute path) and the workdir, so that it
 * writes the same filter wherever the line is pasted. */
char *
cordon_render_filter_command (const char *cordon,
                              const char *ref,
                              const char *workdir)
{
  g_autofree char *q_self = cordon_shell_quote (cordon);
  g_autofree char *q_ref = cordon_shell_quote (ref);
  g_autofree char *q_wd = cordon_shell_quote (workdir);

  return g_strdup_printf ("%s compile %s -C %s --format=seccomp", q_self, q_ref, q_wd);
}
