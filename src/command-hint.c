/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* command-hint: the host side of a 127. The sandbox's view of a path is
 * the plan's deepest mount above it (cordon_plan_cover, masked files
 * too); a scratch tmpfs, a mask or a hidden directory there, or no mount
 * at all, hides what the host has. Candidates are those execvp tries in
 * the sandbox: the command itself when it names a path (from the
 * sandbox's working directory), else each absolute directory of the
 * sandbox's PATH, then those of the caller's PATH it leaves out. None
 * below a writable bind is read: the sandbox could have put it there. */
#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include "command-hint.h"
#include "path-util.h"

static const CordonOp *
shown_by (const CordonPlan *plan,
          const char *path)
{
  for (guint i = plan->ops->len; i > 0; i--)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i - 1);

      if (op->kind == CORDON_OP_MASK_FILE && g_strcmp0 (op->dest, path) == 0)
        return op;
    }
  return cordon_plan_cover (plan, path, NULL);
}

static gboolean
hides (const CordonOp *op)
{
  return op == NULL || (op->kind != CORDON_OP_RO_BIND && op->kind != CORDON_OP_BIND);
}

static gboolean
under_writable (const CordonPlan *plan,
                const char *path)
{
  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);

      if (op->kind == CORDON_OP_BIND && cordon_path_is_ancestor (op->dest, path, TRUE))
        return TRUE;
    }
  return FALSE;
}

/* An executable file at `path` on the host, outside every writable bind. */
static gboolean
host_has_program (const CordonPlan *plan,
                  const char *path)
{
  struct stat st;

  return !under_writable (plan, path) && stat (path, &st) == 0 && S_ISREG (st.st_mode)
         && (st.st_mode & 0111) != 0;
}

static const char *
what_it_is (const CordonOp *op)
{
  switch (op->kind)
    {
    case CORDON_OP_TMPFS:
      return "a scratch tmpfs";
    case CORDON_OP_MASK_DIR:
    case CORDON_OP_MASK_FILE:
      return "masked";
    case CORDON_OP_HIDE_DIR:
      return "hidden";
    default:
      return cordon_op_kind_name (op->kind);
    }
}

/* "HOST is on the host, but in the sandbox DEST is WHAT (FILE:L:C [S] K); ...",
 * the rule as explain shows it. */
static char *
describe (const CordonOp *op,
          const char *host)
{
  const char *advice = "to run it, bind it with [filesystem] read-only= or copy it into the workdir";
  g_autofree char *where = NULL;
  const CordonKeyInfo *key;

  if (op == NULL)
    return g_strdup_printf ("%s is on the host, but no rule of the policy binds it into the sandbox; %s",
                            host, advice);
  key = op->key != CORDON_KEY_INVALID ? cordon_key_info (op->key) : NULL;
  where = op->rule.file != NULL ? cordon_location_to_string (&op->rule) : g_strdup ("built in");
  /* A mask is the policy's word that the file is a secret: no advice. */
  if (op->kind == CORDON_OP_MASK_FILE || op->kind == CORDON_OP_MASK_DIR)
    advice = NULL;
  return g_strdup_printf ("%s is on the host, but in the sandbox %s is %s (%s%s%s%s%s)%s%s", host, op->dest,
                          what_it_is (op), where, key != NULL ? " [" : "", key != NULL ? key->section : "",
                          key != NULL ? "] " : "", key != NULL ? key->name : "", advice != NULL ? "; " : "",
                          advice != NULL ? advice : "");
}

static const char *
sandbox_path (const CordonPlan *plan)
{
  for (guint i = 0; i < plan->envp->len; i++)
    {
      const char *entry = g_ptr_array_index (plan->envp, i);

      if (g_str_has_prefix (entry, "PATH="))
        return entry + strlen ("PATH=");
    }
  return "/bin:/usr/bin";     /* execvp's own, where PATH is not set */
}

static const char *
sandbox_cwd (const CordonPlan *plan)
{
  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);

      if (op->kind == CORDON_OP_CHDIR)
        return op->dest;
    }
  return "/";
}

/* The first directory of `dirs` with `name` hidden in the sandbox and
 * on the host, described; NULL if none. With `left_out`, only the
 * directories not in `left_out` (a PATH), said so. */
static char *
search_dirs (const CordonPlan *plan,
             const char *dirs,
             const char *name,
             const char *left_out)
{
  g_auto(GStrv) each = g_strsplit (dirs, ":", -1);
  g_auto(GStrv) out = left_out != NULL ? g_strsplit (left_out, ":", -1) : NULL;

  for (guint i = 0; each[i] != NULL; i++)
    {
      g_autofree char *dir = each[i][0] == '/' ? cordon_path_normalize (each[i]) : NULL;
      g_autofree char *candidate = dir != NULL ? g_build_filename (dir, name, NULL) : NULL;
      const CordonOp *op;

      if (candidate == NULL || (out != NULL && g_strv_contains ((const char * const *) out, each[i]))
          || !host_has_program (plan, candidate))
        continue;
      op = shown_by (plan, candidate);
      if (out == NULL && hides (op))
        return describe (op, candidate);
      if (out != NULL && hides (op))
        {
          g_autofree char *d = describe (op, candidate);

          return g_strdup_printf ("%s (and the sandbox's PATH leaves %s out)", d, dir);
        }
      if (out != NULL)
        return g_strdup_printf ("%s is on the host and in the sandbox, but the sandbox's PATH leaves %s out; "
                                "run it by its path", candidate, dir);
    }
  return NULL;
}

char *
cordon_command_hint (const CordonPlan *plan,
                     const char *command,
                     const char *host_path)
{
  g_autofree char *inside = NULL;
  char *hint;

  g_return_val_if_fail (plan != NULL && command != NULL, NULL);
  if (strchr (command, '/') != NULL)
    {
      g_autofree char *joined = g_build_filename (command[0] == '/' ? "/" : sandbox_cwd (plan), command, NULL);
      const CordonOp *op;

      if (cordon_path_has_dotdot (joined))
        return NULL;          /* its place in the plan is the file system's to say */
      inside = cordon_path_normalize (joined);
      op = shown_by (plan, inside);
      return hides (op) && host_has_program (plan, inside) ? describe (op, inside) : NULL;
    }
  if (command[0] == '\0')
    return NULL;
  hint = search_dirs (plan, sandbox_path (plan), command, NULL);
  if (hint == NULL && host_path != NULL)
    hint = search_dirs (plan, host_path, command, sandbox_path (plan));
  return hint;
}
