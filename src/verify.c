/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* verify: the expected denials of a plan, and the record of each attempt.
 *
 * Building the spec and recording results is pure (plan, facts and the
 * helper's lines in, checks out). The outside checks read /proc/PID of
 * the helper that waits, stopped before exec, for cordon's word: they
 * are the only I/O here. One failed check and the command never runs. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/nsfs.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hide.h"
#include "launch.h"
#include "mount-table.h"
#include "path-util.h"
#include "proc-read.h"
#include "protocol.h"
#include "seccomp-probes.h"
#include "verify.h"

/* Values shorter than this are not searched for: they are not secrets,
 * and would match ordinary text ("1", "C", "/bin"). */
#define MIN_SECRET_LEN 8

struct _CordonVerify
{
  GPtrArray *checks;        /* CordonCheck */
  GString *spec;
  GPtrArray *allowed;       /* names that may be in an environment */
  GPtrArray *digests;       /* sha256 hex of dropped values */
  GPtrArray *mask_dests;    /* every mask's mount point */
  guint namespaces;
  guint64 host_ns[CORDON_N_NAMESPACES];
  guint64 keep_caps;
  gboolean seccomp;         /* a filter must be in force */
  uid_t host_uid;           /* whom the sandbox runs as on the host */
  gid_t host_gid;
  gboolean switched;        /* a root caller's sandbox, run as host_uid: no supplementary group, root's user namespace */
  CordonProcMode proc_mode;
  guint64 scratch;          /* [limits] scratch: the size of each tmpfs, or 0 */
  CordonRlimit rlimits[CORDON_RLIMIT_MAX];
  CordonLimit limits[CORDON_LIMIT_MAX]; /* the plan's, borrowed: only key and rule are read */
  GPtrArray *scratch_points;/* the sized tmpfs mounts */
  const CordonCgroupRun *cgroups; /* the run's cgroups, or NULL */
  guint next_result;        /* where the helper's next result is looked for first (record only) */
};

static void
check_free (gpointer p)
{
  CordonCheck *c = p;

  g_free (c->id);
  g_free (c->target);
  g_free (c->expect);
  g_free (c->detail);
  g_free (c);
}

static CordonCheck *
add_check (CordonVerify *v,
           const char *id,
           const char *target,
           const char *expect,
           const CordonOp *op)
{
  CordonCheck *c = g_new0 (CordonCheck, 1);

  c->id = g_strdup (id);
  c->target = g_strdup (target != NULL ? target : "");
  c->expect = g_strdup (expect);
  c->key = op != NULL ? op->key : CORDON_KEY_INVALID;
  if (op != NULL)
    c->rule = op->rule;
  g_ptr_array_add (v->checks, c);
  return c;
}

static CordonCheck *
add_fixed_check (CordonVerify *v,
                 CordonCheckId check,
                 const char *target,
                 const CordonOp *op)
{
  return add_check (v, cordon_checks[check].id, target, cordon_checks[check].expect, op);
}

/* One line of the spec: the verb, then each field (NULL-terminated). */
G_GNUC_NULL_TERMINATED static void
spec_line (CordonVerify *v,
           CordonSpecVerb verb,
           ...)
{
  va_list ap;

  g_string_append (v->spec, cordon_spec_verbs[verb].word);
  va_start (ap, verb);
  for (const char *field = va_arg (ap, const char *); field != NULL; field = va_arg (ap, const char *))
    {
      g_string_append_c (v->spec, '\t');
      g_string_append (v->spec, field);
    }
  va_end (ap);
  g_string_append_c (v->spec, '\n');
}

/* The id of the next check (its number, in decimal), in `buf`. Written
 * by hand: the spec is made on every launch, a printf a line. */
static const char *
next_id (const CordonVerify *v,
         char buf[16])
{
  guint n = v->checks->len;
  char *p = buf + 15;

  *p = '\0';
  do
    *--p = (char) ('0' + n % 10);
  while ((n /= 10) > 0);
  return p;
}

/* The start of a line that asks for a numbered check: "VERB\tID\t". */
static void
spec_start (CordonVerify *v,
            CordonSpecVerb verb,
            const char *id)
{
  g_string_append (v->spec, cordon_spec_verbs[verb].word);
  g_string_append_c (v->spec, '\t');
  g_string_append (v->spec, id);
  g_string_append_c (v->spec, '\t');
}

/* A line that asks for the check of a path, numbered as the check is,
 * and the check it asks for. */
static CordonCheck *
add_path_check (CordonVerify *v,
                CordonSpecVerb verb,
                const char *path,
                const CordonOp *op)
{
  char buf[16];
  const char *id = next_id (v, buf);

  spec_start (v, verb, id);
  cordon_path_append_encoded (v->spec, path);
  g_string_append_c (v->spec, '\n');
  return add_check (v, id, path, cordon_spec_verbs[verb].expect, op);
}

/* The spec verb that checks what `op` promises, or CORDON_SPEC_MAX. */
static CordonSpecVerb
mask_verb (const CordonOp *op)
{
  gboolean socket = op->key == CORDON_KEY_SOCKETS_MASK || op->key == CORDON_KEY_SOCKETS_MASK_LISTENING;

  switch (op->kind)
    {
    case CORDON_OP_MASK_FILE:
      return socket ? CORDON_SPEC_SOCKET : CORDON_SPEC_SECRET_FILE;
    case CORDON_OP_MASK_DIR:
      return CORDON_SPEC_SECRET_DIR;
    case CORDON_OP_RO_BIND:
      return CORDON_SPEC_READ_ONLY;
    default:
      return CORDON_SPEC_MAX;
    }
}

/* A hidden directory (hide.h): the names it may show ride beside it. */
static void
add_hidden_check (CordonVerify *v,
                  const CordonPlan *plan,
                  const CordonOp *op)
{
  char buf[16];
  const char *id = next_id (v, buf);
  g_autofree char *shown = cordon_hide_shown (plan, op->dest);

  spec_start (v, CORDON_SPEC_HIDDEN, id);
  cordon_path_append_encoded (v->spec, op->dest);
  g_string_append_c (v->spec, '\t');
  cordon_path_append_encoded (v->spec, shown);
  g_string_append_c (v->spec, '\n');
  add_check (v, id, op->dest, cordon_spec_verbs[CORDON_SPEC_HIDDEN].expect, op);
}

static void
add_mask_checks (CordonVerify *v,
                 const CordonPlan *plan)
{
  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);
      CordonSpecVerb verb = mask_verb (op);

      if (verb != CORDON_SPEC_MAX)
        add_path_check (v, verb, op->dest, op);
      if (op->pinned)
        add_path_check (v, CORDON_SPEC_PINNED, op->dest, op);
      if (op->kind == CORDON_OP_HIDE_DIR)
        add_hidden_check (v, plan, op);
      if (op->kind == CORDON_OP_MASK_FILE || op->kind == CORDON_OP_MASK_DIR)
        g_ptr_array_add (v->mask_dests, g_strdup (op->dest));
    }
}

/* The op that makes /proc/sys read-only (under mode=host-ro, the read-only
 * bind of the whole /proc does), or NULL. */
static const CordonOp *
proc_sys_op (const CordonPlan *plan)
{
  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);

      /* /proc/sys bound read-only over a private /proc, or the host's
       * /proc read-only whole (mode=host-ro, or the fallback to it). */
      if (op->kind == CORDON_OP_RO_BIND && (g_str_equal (op->dest, "/proc/sys") || g_str_equal (op->dest, "/proc")))
        return op;
    }
  return NULL;
}

/* What the host user cannot reach needs no mask: that it cannot is
 * proved here. And the kernel's settings are read-only. (The outside
 * checks come last, with the others: add_outside_identity_checks.) */
static void
add_identity_checks (CordonVerify *v,
                     const CordonPlan *plan)
{
  for (guint i = 0; i < plan->unreachable->len; i++)
    {
      CordonCheck *c = add_path_check (v, CORDON_SPEC_UNREACHABLE, g_ptr_array_index (plan->unreachable, i),
                                       NULL);

      c->key = CORDON_KEY_IDENTITY_HOST_USER;
      c->rule = plan->identity_rule;
    }
  if (plan->proc_mode != CORDON_PROC_NONE)
    {
      spec_line (v, CORDON_SPEC_PROC_SYS, NULL);
      add_fixed_check (v, CORDON_CHECK_PROC_SYS, "/proc/sys", proc_sys_op (plan));
    }
}

/* [limits] scratch=: each sized tmpfs as big as the policy says, and
 * /dev read-only, seen in the sandbox's mountinfo. */
static void
add_scratch_check (CordonVerify *v,
                   const CordonPlan *plan)
{
  const CordonOp *rule = NULL;

  if (plan->scratch == 0)
    return;
  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);

      if (op->kind == CORDON_OP_TMPFS && op->size > 0)
        g_ptr_array_add (v->scratch_points, g_strdup (op->dest));
      if (op->kind == CORDON_OP_OPTION && rule == NULL && g_strcmp0 (op->dest, "/dev") == 0)
        rule = op;
    }
  add_fixed_check (v, CORDON_CHECK_OUTSIDE_SCRATCH, "", rule);
}

/* The rlimits cordon-exec set, read back from /proc/HELPER/limits; the
 * rule is the first limit the policy names (core=0 is a default). */
static void
add_rlimits_check (CordonVerify *v,
                   const CordonPlan *plan)
{
  CordonCheck *c = add_fixed_check (v, CORDON_CHECK_OUTSIDE_RLIMITS, "", NULL);

  for (guint i = 0; i < CORDON_RLIMIT_MAX; i++)
    if (plan->rlimits[i].set && plan->rlimits[i].rule.file != NULL)
      {
        c->key = plan->rlimits[i].key;
        c->rule = plan->rlimits[i].rule;
        break;
      }
}

static void
add_outside_identity_checks (CordonVerify *v,
                             const CordonPlan *plan)
{
  g_autofree char *expect = g_strdup_printf ("seen from outside: bwrap and the sandbox run as host "
                                             "uid %u%s", (guint) plan->host_uid,
                                             plan->switch_identity ? ", with no supplementary group; "
                                             "bwrap in a user namespace of root's, the sandbox in "
                                             "its own below it" : "");
  CordonCheck *c;

  if (plan->proc_mode != CORDON_PROC_NONE)
    add_fixed_check (v, CORDON_CHECK_OUTSIDE_PROC_SYS, "/proc/sys", proc_sys_op (plan));
  c = add_check (v, cordon_checks[CORDON_CHECK_OUTSIDE_IDENTITY].id, "", expect, NULL);
  c->key = CORDON_KEY_IDENTITY_HOST_USER;
  c->rule = plan->identity_rule;
  add_rlimits_check (v, plan);
}

/* Under the host's /proc: cordon's own entries must be closed to the
 * sandbox; the helper finds them by cordon's number in the /proc that is
 * bound in, which is cordon's own (under a pid namespace of cordon's,
 * not getpid()'s). */
static void
add_host_proc_checks (CordonVerify *v,
                      const CordonPlan *plan)
{
  g_autofree char *self = NULL;

  if (plan->proc_mode != CORDON_PROC_HOST_RO)
    return;
  self = g_file_read_link ("/proc/self", NULL);
  spec_line (v, CORDON_SPEC_HOST_PROC, self != NULL ? self : "0", NULL);
}

/* Without a pid namespace of its own, or under the host's /proc, the
 * sandbox sees processes outside it: none may be open to it. */
static gboolean
shows_outside (const CordonPlan *plan)
{
  return !(plan->namespaces & CORDON_NS_PID) || plan->proc_mode == CORDON_PROC_HOST_RO;
}

static void
add_outside_shown_checks (CordonVerify *v,
                          const CordonPlan *plan)
{
  if (shows_outside (plan))
    spec_line (v, CORDON_SPEC_OUTSIDE_SHOWN, NULL);
}

static void
add_namespace_checks (CordonVerify *v,
                      const CordonPlan *plan)
{
  g_autofree char *caps = g_strdup_printf ("%016" G_GINT64_MODIFIER "x", plan->keep_caps);

  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);
      char buf[16];
      const char *id = next_id (v, buf);
      g_autofree char *inode = NULL;
      guint bit = 0;

      if (op->kind != CORDON_OP_UNSHARE)
        continue;
      while ((1u << bit) != op->ns)
        bit++;
      if (v->host_ns[bit] == 0)
        continue;   /* the host's own is unknown: nothing to compare */
      inode = g_strdup_printf ("%" G_GUINT64_FORMAT, v->host_ns[bit]);
      spec_line (v, CORDON_SPEC_NAMESPACE, id, cordon_namespace_name (op->ns), inode, NULL);
      add_check (v, id, cordon_namespace_name (op->ns), cordon_spec_verbs[CORDON_SPEC_NAMESPACE].expect, op);
    }
  if (plan->namespaces & CORDON_NS_PID)
    spec_line (v, CORDON_SPEC_PID_NAMESPACE, NULL);
  spec_line (v, CORDON_SPEC_CAPEFF, caps, NULL);
  if (plan->seccomp != CORDON_SECCOMP_NONE)
    {
      g_autoptr(GString) probes = g_string_new (NULL);

      /* Every probe but those of calls allow= took out of the profile. */
      for (guint i = 0; i < cordon_seccomp_n_probes; i++)
        {
          const CordonSeccompProbe *probe = &cordon_seccomp_probes[i];

          if (g_ptr_array_find_with_equal_func (plan->seccomp_allow, probe->syscall, g_str_equal, NULL))
            continue;
          if (probes->len > 0)
            g_string_append_c (probes, ',');
          g_string_append (probes, cordon_checks[probe->check].id);
          add_fixed_check (v, probe->check, "", NULL);
        }
      spec_line (v, CORDON_SPEC_SECCOMP, probes->len > 0 ? probes->str : "-", NULL);
    }
}

static gboolean
value_is_legitimate (const CordonPlan *plan,
                     const CordonHostFacts *facts,
                     const char *value,
                     const char * const *command)
{
  for (guint i = 0; i < plan->envp->len; i++)
    {
      const char *kv = g_ptr_array_index (plan->envp, i);
      const char *eq = strchr (kv, '=');

      if (eq != NULL && g_str_equal (eq + 1, value))
        return TRUE;
    }
  for (guint i = 0; command != NULL && command[i] != NULL; i++)
    if (g_str_equal (command[i], value))
      return TRUE;
  /* bwrap sets PWD to the directory it changes to; a shell (a wrapper
   * around bwrap) exports the directory it started in. Neither is secret. */
  return (plan->workdir != NULL && g_str_equal (plan->workdir, value))
         || (facts->cwd != NULL && g_str_equal (facts->cwd, value));
}

/* Variables a shell sets and exports by itself (a wrapper script around
 * bwrap re-creates them): paths and counters, not secrets. */
static const char * const shell_bookkeeping[] = { "PWD", "OLDPWD", "SHLVL", "_", NULL };

/* The names that may be set, and the digests of the values that must
 * appear nowhere: the helper compares digests, so it never holds a
 * secret. A dropped value that is also a passed value or an argument of
 * the command is not searched for: it is there by the caller's will. */
static void
add_environment (CordonVerify *v,
                 const CordonPlan *plan,
                 const CordonHostFacts *facts,
                 const char * const *command)
{
  /* bwrap itself sets PWD, to the workdir, when it changes to it. */
  g_ptr_array_add (v->allowed, g_strdup ("PWD"));
  spec_line (v, CORDON_SPEC_ENV_ALLOW, "PWD", NULL);
  for (guint i = 0; i < plan->env_decisions->len; i++)
    {
      const CordonEnvDecision *d = g_ptr_array_index (plan->env_decisions, i);
      const char *value = d->passed ? NULL : cordon_host_facts_getenv (facts, d->name);
      g_autofree char *hex = NULL;

      if (d->passed)
        {
          g_ptr_array_add (v->allowed, g_strdup (d->name));
          spec_line (v, CORDON_SPEC_ENV_ALLOW, d->name, NULL);
          continue;
        }
      if (value == NULL || strlen (value) < MIN_SECRET_LEN || value_is_legitimate (plan, facts, value, command)
          || g_strv_contains (shell_bookkeeping, d->name))
        continue;
      hex = g_compute_checksum_for_string (G_CHECKSUM_SHA256, value, -1);
      if (!g_ptr_array_find_with_equal_func (v->digests, hex, g_str_equal, NULL))
        {
          spec_line (v, CORDON_SPEC_DIGEST, hex, NULL);
          g_ptr_array_add (v->digests, g_steal_pointer (&hex));
        }
    }
}

/* The checks every sandbox gets, in cordon(1)'s order, each of those a
 * plan makes only sometimes in its place. */
static void
add_fixed_checks (CordonVerify *v,
                  const CordonPlan *plan)
{
  for (CordonCheckId c = CORDON_CHECK_ENVIRON; c <= CORDON_CHECK_OUTSIDE_MASKS; c++)
    {
      if (c == CORDON_CHECK_CORDON_UNREADABLE && plan->proc_mode != CORDON_PROC_HOST_RO)
        continue;
      if (c == CORDON_CHECK_PROCESSES && !(plan->namespaces & CORDON_NS_PID))
        continue;
      if (c == CORDON_CHECK_FILTERED && plan->seccomp == CORDON_SECCOMP_NONE)
        continue;
      if (c == CORDON_CHECK_PROCESSES_CLOSED && !shows_outside (plan))
        continue;
      add_fixed_check (v, c, "", NULL);
    }
}

CordonVerify *
cordon_verify_new (const CordonPlan *plan,
                   const CordonHostFacts *facts,
                   const char * const *command)
{
  CordonVerify *v = g_new0 (CordonVerify, 1);

  v->checks = g_ptr_array_new_with_free_func (check_free);
  v->spec = g_string_new (NULL);
  v->allowed = g_ptr_array_new_with_free_func (g_free);
  v->digests = g_ptr_array_new_with_free_func (g_free);
  v->mask_dests = g_ptr_array_new_with_free_func (g_free);
  v->namespaces = plan->namespaces;
  v->keep_caps = plan->keep_caps;
  v->seccomp = plan->seccomp != CORDON_SECCOMP_NONE;
  v->host_uid = plan->host_uid;
  v->host_gid = plan->host_gid;
  v->switched = plan->switch_identity;
  v->proc_mode = plan->proc_mode;
  v->scratch = plan->scratch;
  memcpy (v->rlimits, plan->rlimits, sizeof v->rlimits);
  memcpy (v->limits, plan->limits, sizeof v->limits);
  v->scratch_points = g_ptr_array_new_with_free_func (g_free);
  memcpy (v->host_ns, facts->ns_inodes, sizeof v->host_ns);
  add_mask_checks (v, plan);
  add_identity_checks (v, plan);
  add_namespace_checks (v, plan);
  add_host_proc_checks (v, plan);
  add_outside_shown_checks (v, plan);
  add_environment (v, plan, facts, command);
  add_fixed_checks (v, plan);
  add_outside_identity_checks (v, plan);
  add_scratch_check (v, plan);
  return v;
}

void
cordon_verify_free (CordonVerify *v)
{
  if (v == NULL)
    return;
  g_ptr_array_unref (v->checks);
  g_string_free (v->spec, TRUE);
  g_ptr_array_unref (v->allowed);
  g_ptr_array_unref (v->digests);
  g_ptr_array_unref (v->mask_dests);
  g_ptr_array_unref (v->scratch_points);
  g_free (v);
}

/* The run's cgroups: from inside, that none of their limits opens for
 * writing and the sandbox cannot move itself to the parent (one check
 * per hierarchy); from outside, that the helper and bwrap are in each
 * and each limit file holds the plan's value. */
void
cordon_verify_add_cgroups (CordonVerify *v,
                           const CordonCgroupRun *cgroups)
{
  const CordonCheck *first = NULL;

  v->cgroups = cgroups;
  for (guint i = 0; cordon_cgroup_run_any (cgroups) && i < cgroups->dirs->len; i++)
    {
      const CordonCgroupDir *dir = g_ptr_array_index (cgroups->dirs, i);
      const CordonCgroupSetting *set = dir->settings->len > 0 ? g_ptr_array_index (dir->settings, 0) : NULL;
      char buf[16];
      const char *id = next_id (v, buf);
      g_autofree char *leaf = cordon_cgroup_run_path (cgroups, i);
      CordonCheck *c;

      spec_start (v, CORDON_SPEC_CGROUP, id);
      cordon_path_append_encoded (v->spec, leaf);
      g_string_append_c (v->spec, '\t');
      /* Out of a DELEGATED cgroup, the way is back to cordon's own (its
       * parent, enabling controllers, holds no process). */
      cordon_path_append_encoded (v->spec, dir->home != NULL ? dir->home : dir->parent);
      g_string_append_c (v->spec, '\t');
      g_string_append (v->spec, set != NULL ? set->file : "-");
      g_string_append_c (v->spec, '\n');
      c = add_check (v, id, leaf, cordon_spec_verbs[CORDON_SPEC_CGROUP].expect, NULL);
      if (set != NULL)
        {
          c->key = v->limits[set->limit].key;
          c->rule = v->limits[set->limit].rule;
        }
      /* outside-cgroup takes the rule of the first that has one (a
       * cgroup made for its counters only holds no limit). */
      first = first != NULL && first->rule.file != NULL ? first : c;
    }
  if (first != NULL)
    {
      CordonCheck *c = add_fixed_check (v, CORDON_CHECK_OUTSIDE_CGROUP, "", NULL);

      c->key = first->key;
      c->rule = first->rule;
    }
  /* A scope of the user's systemd is the user's: its manager, on the
   * user's bus or its own socket, would change its limits for anyone who
   * asks. Neither may be reachable from the sandbox. */
  if (first != NULL && cgroups->mechanism == CORDON_CGROUP_SYSTEMD && cgroups->bus_address != NULL
      && g_str_has_prefix (cgroups->bus_address, "unix:path="))
    {
      const char *bus = cgroups->bus_address + strlen ("unix:path=");
      g_autofree char *dir = g_path_get_dirname (bus);
      g_autofree char *private = g_build_filename (dir, "systemd", "private", NULL);
      const char * const paths[] = { bus, private };

      for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
        {
          CordonCheck *c = add_path_check (v, CORDON_SPEC_SOCKET, paths[i], NULL);

          c->key = first->key;
          c->rule = first->rule;
        }
    }
}

GBytes *
cordon_verify_get_spec (const CordonVerify *v)
{
  return g_bytes_new (v->spec->str, v->spec->len);
}

static CordonCheck *
find_check (const CordonVerify *v,
            const char *id)
{
  for (guint i = 0; i < v->checks->len; i++)
    if (g_str_equal (((CordonCheck *) g_ptr_array_index (v->checks, i))->id, id))
      return g_ptr_array_index (v->checks, i);
  return NULL;
}

static void
set_outcome (CordonCheck *c,
             gboolean ok,
             int err,
             const char *detail)
{
  /* A check reported twice keeps its worst outcome. */
  if (c->done && !c->ok)
    return;
  c->done = TRUE;
  c->ok = ok;
  c->err = err;
  g_free (c->detail);
  c->detail = g_strdup (detail);
}

/* One "V<TAB>ID<TAB>ok|fail<TAB>ERRNO<TAB>DETAIL" line of the helper.
 * FALSE for a line that names no known check: the sandbox is not to be
 * believed about checks cordon did not ask for. */
gboolean
cordon_verify_record (CordonVerify *v,
                      const char *line)
{
  const char *f[5] = { line, NULL, NULL, NULL, NULL };
  g_autofree char *id = NULL;
  gboolean ok;
  guint i, n = v->checks->len;

  /* Its fields in place: at most five, the detail the rest of the line. */
  for (guint k = 1; k < G_N_ELEMENTS (f) && (f[k] = strchr (f[k - 1], '\t')) != NULL; k++)
    f[k]++;
  if (f[3] == NULL || f[0][0] != CORDON_EXEC_RESULT || f[0][1] != '\t')
    return FALSE;
  id = g_strndup (f[1], f[2] - 1 - f[1]);
  ok = f[3] - 1 - f[2] == (gssize) strlen (CORDON_RESULT_OK) && strncmp (f[2], CORDON_RESULT_OK, f[3] - 1 - f[2]) == 0;
  /* The helper reports in the spec's order: the next check is tried
   * first, then every one. */
  for (i = 0; i < n; i++)
    if (g_str_equal (((CordonCheck *) g_ptr_array_index (v->checks, (v->next_result + i) % n))->id, id))
      break;
  if (i == n)
    return FALSE;
  i = (v->next_result + i) % n;
  v->next_result = (i + 1) % n;
  set_outcome (g_ptr_array_index (v->checks, i), ok, (int) strtol (f[3], NULL, 10), f[4] != NULL ? f[4] : "");
  return TRUE;
}

/* Every check has run, and none failed. A check the helper never
 * reported counts as failed: silence proves nothing. */
gboolean
cordon_verify_passed (const CordonVerify *v)
{
  for (guint i = 0; i < v->checks->len; i++)
    {
      const CordonCheck *c = g_ptr_array_index (v->checks, i);

      if (!c->done || !c->ok)
        return FALSE;
    }
  return TRUE;
}

guint
cordon_verify_n_checks (const CordonVerify *v)
{
  return v->checks->len;
}

const CordonCheck *
cordon_verify_get_check (const CordonVerify *v,
                         guint i)
{
  g_return_val_if_fail (i < v->checks->len, NULL);
  return g_ptr_array_index (v->checks, i);
}

/* --- from outside, on /proc/PID of the waiting helper ----------------- */

/* The value of `field` in a /proc/PID/status text, or NULL. */
static char *
status_value (const char *status,
              const char *field)
{
  size_t len = 0;
  const char *value = cordon_proc_status_find (status, field, &len);

  return value != NULL ? g_strndup (value, len) : NULL;
}

/* Names outside the allowlist, or a value whose digest is a dropped
 * one, in the NUL-separated environment of `pid`. */
static char *
environ_problem (CordonVerify *v,
                 pid_t pid)
{
  size_t len = 0;
  g_autofree char *env = cordon_proc_read (pid, "environ", &len);

  if (env == NULL)
    return g_strdup_printf ("cannot read /proc/%d/environ", (int) pid);
  for (const char *p = env; p < env + len; p += strlen (p) + 1)
    {
      const char *eq = strchr (p, '=');
      g_autofree char *name = g_strndup (p, eq != NULL ? (gsize) (eq - p) : strlen (p));
      g_autofree char *hex = eq != NULL ? g_compute_checksum_for_string (G_CHECKSUM_SHA256, eq + 1, -1) : NULL;

      if (!g_ptr_array_find_with_equal_func (v->allowed, name, g_str_equal, NULL))
        return g_strdup_printf ("%s is set in /proc/%d/environ", name, (int) pid);
      if (hex != NULL && g_ptr_array_find_with_equal_func (v->digests, hex, g_str_equal, NULL))
        return g_strdup_printf ("a dropped value is in /proc/%d/environ", (int) pid);
    }
  return NULL;
}

static char *
status_problem (const char *status,
                guint64 keep_caps,
                gboolean seccomp)
{
  g_autofree char *cap = status_value (status, "CapEff");
  g_autofree char *nnp = status_value (status, "NoNewPrivs");
  g_autofree char *mode = status_value (status, "Seccomp");

  if (cap == NULL || nnp == NULL)
    return g_strdup ("cannot read CapEff and NoNewPrivs");
  if (g_ascii_strtoull (cap, NULL, 16) != keep_caps)
    return g_strdup ("CapEff is not what the policy keeps");
  if (nnp[0] != '1')
    return g_strdup ("NoNewPrivs is not 1");
  /* The filter is in force: the sandbox cannot fake this line. */
  if (seccomp && g_strcmp0 (mode, "2") != 0)
    return g_strdup ("no seccomp filter is in force");
  return NULL;
}

static char *
namespaces_problem (CordonVerify *v,
                    pid_t pid)
{
  for (guint bit = 0; bit < CORDON_N_NAMESPACES; bit++)
    {
      g_autofree char *path = NULL;
      struct stat st;

      if (!(v->namespaces & (1u << bit)) || v->host_ns[bit] == 0)
        continue;
      path = g_strdup_printf ("/proc/%d/ns/%s", (int) pid, cordon_namespace_name (1u << bit));
      if (stat (path, &st) != 0)
        return g_strdup_printf ("cannot read %s", path);
      if ((guint64) st.st_ino == v->host_ns[bit])
        return g_strdup_printf ("the %s namespace is the host's", cordon_namespace_name (1u << bit));
    }
  return NULL;
}

/* 0-2, and the helper's status and go fds. */
static char *
fds_problem (pid_t pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/fd", (int) pid);
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir == NULL)
    return g_strdup_printf ("cannot list %s", path);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      long fd = strtol (name, NULL, 10);

      if (fd > 2 && fd != CORDON_EXEC_STATUS_FD && fd != CORDON_EXEC_GO_FD)
        return g_strdup_printf ("fd %ld is open", fd);
    }
  return NULL;
}

/* The sandbox's mount table, NULL when it cannot be read. */
static GPtrArray *
read_mounts (pid_t pid)
{
  g_autofree char *info = cordon_proc_read (pid, "mountinfo", NULL);

  return info != NULL ? cordon_mount_table_parse (info) : NULL;
}

/* Each mask is a mount point in the sandbox's mount table: bwrap did
 * not skip it. */
static char *
masks_problem (CordonVerify *v,
               GPtrArray *mounts)
{
  if (mounts == NULL)
    return g_strdup ("cannot read the sandbox's mountinfo");
  for (guint i = 0; i < v->mask_dests->len; i++)
    {
      const char *dest = g_ptr_array_index (v->mask_dests, i);

      if (cordon_mount_table_top_at (mounts, dest) == NULL)
        return g_strdup_printf ("%s is not a mount point", dest);
    }
  return NULL;
}

/* "Uid:\tR\tE\tS\tFS" (or Gid): every one of the four is `id`. */
static gboolean
ids_are (const char *status,
         const char *field,
         guint id)
{
  g_autofree char *value = status_value (status, field);
  g_autofree char *want = g_strdup_printf ("%u\t%u\t%u\t%u", id, id, id, id);

  return g_strcmp0 (value, want) == 0;
}

/* The sandbox runs as the host user the plan names: bwrap, and the helper
 * that becomes the command. A root caller's runs with no supplementary
 * group (one of root's would open root's files by group). */
static char *
identity_problem (CordonVerify *v,
                  pid_t pid,
                  const char *status)
{
  size_t n_groups = 0;
  const char *groups = cordon_proc_status_find (status, "Groups", &n_groups);

  if (status == NULL || groups == NULL)
    return g_strdup_printf ("cannot read /proc/%d/status", (int) pid);
  if (!ids_are (status, "Uid", v->host_uid))
    return g_strdup_printf ("process %d does not run as host uid %u", (int) pid, (guint) v->host_uid);
  if (v->switched && !ids_are (status, "Gid", v->host_gid))
    return g_strdup_printf ("process %d does not run as host gid %u", (int) pid, (guint) v->host_gid);
  /* "Groups:" and nothing but blanks up to the end of its line. */
  if (v->switched && n_groups > 0)
    return g_strdup_printf ("process %d holds supplementary groups", (int) pid);
  return NULL;
}

static gboolean
same_file (int a,
           int b)
{
  struct stat sa, sb;

  return fstat (a, &sa) == 0 && fstat (b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* /proc/PID/ns/user (or /proc/self's, for pid 0) opened, or -1 with
 * the problem. */
static int
open_userns (pid_t pid,
             char **problem)
{
  g_autofree char *path = pid > 0 ? g_strdup_printf ("/proc/%d/ns/user", (int) pid)
                                  : g_strdup ("/proc/self/ns/user");
  int fd = *problem != NULL ? -1 : open (path, O_RDONLY | O_CLOEXEC);

  if (fd < 0 && *problem == NULL)
    *problem = g_strdup_printf ("cannot open %s: %s", path, g_strerror (errno));
  return fd;
}

/* Up from the user namespace `from`: `to` is on the way. */
static gboolean
is_below (int from,
          int to)
{
  int at = dup (from);

  while (at >= 0 && !same_file (at, to))
    {
      int up = ioctl (at, NS_GET_PARENT);

      close (at);
      at = up;
    }
  if (at < 0)
    return FALSE;
  close (at);
  return TRUE;
}

/* The namespaces bwrap (`b`), the helper (`h`) and cordon (`self`) run
 * in, as they must be for a sandbox run as another user. */
static char *
userns_order_problem (int b,
                      int h,
                      int self)
{
  uid_t owner = (uid_t) -1;

  if (ioctl (b, NS_GET_OWNER_UID, &owner) != 0)
    return g_strdup_printf ("the owner of bwrap's user namespace cannot be read: %s", g_strerror (errno));
  if (owner != 0)
    return g_strdup_printf ("bwrap's user namespace is owned by uid %u, not root", (guint) owner);
  if (same_file (b, self))
    return g_strdup ("bwrap runs in cordon's own user namespace");
  if (same_file (b, h))
    return g_strdup ("the sandbox shares bwrap's user namespace");
  if (!is_below (h, b))
    return g_strdup ("the sandbox's user namespace is not below bwrap's");
  return NULL;
}

/* A sandbox run as another host user: bwrap's user namespace is root's
 * (made by cordon-keeper as root, so that no process of that user holds
 * a capability over it), not cordon's own, and the helper's is below it
 * and not it (its own, so that bwrap's monitor is out of its reach). */
static char *
userns_problem (pid_t helper,
                pid_t bwrap)
{
  char *problem = NULL;
  int b = open_userns (bwrap, &problem);
  int h = open_userns (helper, &problem);
  int self = open_userns (0, &problem);

  if (problem == NULL)
    problem = userns_order_problem (b, h, self);
  if (b >= 0)
    close (b);
  if (h >= 0)
    close (h);
  if (self >= 0)
    close (self);
  return problem;
}

/* /proc/sys (or the whole of a host /proc) is a read-only mount in the
 * sandbox's mount table, the one on top there. */
static char *
proc_sys_problem (CordonVerify *v,
                  GPtrArray *mounts)
{
  const char *point = v->proc_mode == CORDON_PROC_HOST_RO ? "/proc" : "/proc/sys";
  const CordonMount *top;

  if (mounts == NULL)
    return g_strdup ("cannot read the sandbox's mountinfo");
  if ((top = cordon_mount_table_top_at (mounts, point)) == NULL)
    return g_strdup_printf ("%s is not a mount point", point);
  return top->ro ? NULL : g_strdup_printf ("%s is not mounted read-only", point);
}

/* The kernel gives a tmpfs whole pages: a size up to the next page is
 * the one asked for. */
static char *
scratch_problem (CordonVerify *v,
                 GPtrArray *mounts)
{
  guint64 page = (guint64) sysconf (_SC_PAGESIZE);
  guint64 most = (v->scratch + page - 1) / page * page;
  const CordonMount *dev, *root;

  if (mounts == NULL)
    return g_strdup ("cannot read the sandbox's mountinfo");
  for (guint i = 0; i < v->scratch_points->len; i++)
    {
      const char *point = g_ptr_array_index (v->scratch_points, i);
      const CordonMount *top = cordon_mount_table_top_at (mounts, point);

      if (top == NULL || !g_str_equal (top->fstype, "tmpfs"))
        return g_strdup_printf ("%s is not a tmpfs", point);
      if (top->size == 0)
        return g_strdup_printf ("%s has no size (no limit)", point);
      if (top->size > most)
        return g_strdup_printf ("%s holds %" G_GUINT64_FORMAT " bytes, not at most %" G_GUINT64_FORMAT,
                                point, top->size, v->scratch);
    }
  if ((dev = cordon_mount_table_top_at (mounts, "/dev")) == NULL || !dev->ro)
    return g_strdup ("/dev is not mounted read-only");
  /* The root: a read-only bind of the host's, or bwrap's tmpfs under
   * root=minimal, made read-only. */
  if ((root = cordon_mount_table_top_at (mounts, "/")) == NULL || !root->ro)
    return g_strdup ("/ is not mounted read-only");
  return NULL;
}

/* "Max open files   64   64   files": soft and hard, or FALSE. */
static gboolean
limit_of (const char *limits,
          const char *name,
          guint64 *out_soft,
          guint64 *out_hard)
{
  const char *line = limits != NULL ? strstr (limits, name) : NULL;
  g_auto(GStrv) f = NULL;

  if (line == NULL || (line != limits && line[-1] != '\n'))
    return FALSE;
  f = g_strsplit_set (line + strlen (name), " \n", -1);
  for (guint i = 0, n = 0; f[i] != NULL && n < 2; i++)
    if (f[i][0] != '\0')
      {
        guint64 v = g_str_equal (f[i], "unlimited") ? G_MAXUINT64 : g_ascii_strtoull (f[i], NULL, 10);

        *(n++ == 0 ? out_soft : out_hard) = v;
        if (n == 2)
          return TRUE;
      }
  return FALSE;
}

static char *
rlimits_problem (CordonVerify *v,
                 pid_t helper)
{
  static const char * const names[CORDON_RLIMIT_MAX] = {
    "Max file size", "Max open files", "Max core file size", "Max processes",
  };
  g_autofree char *limits = cordon_proc_read (helper, "limits", NULL);

  if (limits == NULL)
    return g_strdup_printf ("cannot read /proc/%d/limits", (int) helper);
  for (guint i = 0; i < CORDON_RLIMIT_MAX; i++)
    {
      guint64 soft = 0, hard = 0;
      g_autofree char *s = NULL, *h = NULL;

      if (!v->rlimits[i].set)
        continue;
      if (!limit_of (limits, names[i], &soft, &hard))
        return g_strdup_printf ("no \"%s\" in /proc/%d/limits", names[i], (int) helper);
      if (soft == v->rlimits[i].value && hard == v->rlimits[i].value)
        continue;
      s = soft == G_MAXUINT64 ? g_strdup ("unlimited") : g_strdup_printf ("%" G_GUINT64_FORMAT, soft);
      h = hard == G_MAXUINT64 ? g_strdup ("unlimited") : g_strdup_printf ("%" G_GUINT64_FORMAT, hard);
      return g_strdup_printf ("%s is %s (soft), %s (hard), not %" G_GUINT64_FORMAT, names[i], s, h,
                              v->rlimits[i].value);
    }
  return NULL;
}

static void
outside_result (CordonVerify *v,
                CordonCheckId check,
                char *problem)
{
  CordonCheck *c = find_check (v, cordon_checks[check].id);

  if (c != NULL)
    set_outcome (c, problem == NULL, 0, problem != NULL ? problem : "");
  g_free (problem);
}

/* The helper's open fds: only once it waits, its checks done (they
 * open and close files as they go). */
void
cordon_verify_outside_fds (CordonVerify *v,
                           pid_t helper)
{
  outside_result (v, CORDON_CHECK_OUTSIDE_FDS, fds_problem (helper));
}

static void
found (CordonOutsideLook *look,
       CordonCheckId check,
       char *problem)
{
  look->looked[check] = TRUE;
  look->problem[check] = problem;
}

/* Everything from outside but the fds, into `out`: what no check inside
 * changes (environments, status, namespaces, mounts, identity, rlimits,
 * cgroups), so that it may be looked at while the helper makes its
 * checks, once it is set up. It only reads `v` (and /proc): another
 * thread may record the helper's results meanwhile. */
void
cordon_verify_look_outside (const CordonVerify *cv,
                            pid_t helper,
                            pid_t bwrap,
                            CordonOutsideLook *out)
{
  /* The problem functions below only read `v`. */
  CordonVerify *v = (CordonVerify *) cv;
  /* Each file of the helper read once, for every check on it. */
  g_autofree char *status = cordon_proc_read (helper, "status", NULL);
  g_autofree char *bwrap_status = cordon_proc_read (bwrap, "status", NULL);
  g_autoptr(GPtrArray) mounts = read_mounts (helper);
  char *problem = environ_problem (v, bwrap);

  memset (out, 0, sizeof *out);
  if (problem == NULL)
    problem = environ_problem (v, helper);
  found (out, CORDON_CHECK_OUTSIDE_ENVIRON, problem);
  found (out, CORDON_CHECK_OUTSIDE_STATUS, status_problem (status, v->keep_caps, v->seccomp));
  found (out, CORDON_CHECK_OUTSIDE_NAMESPACES, namespaces_problem (v, helper));
  found (out, CORDON_CHECK_OUTSIDE_MASKS, masks_problem (v, mounts));
  problem = identity_problem (v, bwrap, bwrap_status);
  if (problem == NULL)
    problem = identity_problem (v, helper, status);
  if (problem == NULL && v->switched)
    problem = userns_problem (helper, bwrap);
  found (out, CORDON_CHECK_OUTSIDE_IDENTITY, problem);
  if (find_check (v, cordon_checks[CORDON_CHECK_OUTSIDE_PROC_SYS].id) != NULL)
    found (out, CORDON_CHECK_OUTSIDE_PROC_SYS, proc_sys_problem (v, mounts));
  if (find_check (v, cordon_checks[CORDON_CHECK_OUTSIDE_SCRATCH].id) != NULL)
    found (out, CORDON_CHECK_OUTSIDE_SCRATCH, scratch_problem (v, mounts));
  found (out, CORDON_CHECK_OUTSIDE_RLIMITS, rlimits_problem (v, helper));
  if (v->cgroups != NULL && cordon_cgroup_run_any (v->cgroups))
    {
      problem = cordon_cgroup_run_problem (v->cgroups, bwrap);
      if (problem == NULL)
        problem = cordon_cgroup_run_problem (v->cgroups, helper);
      found (out, CORDON_CHECK_OUTSIDE_CGROUP, problem);
    }
}

/* What cordon_verify_look_outside found, recorded; `look` is emptied. */
void
cordon_verify_take_look (CordonVerify *v,
                         CordonOutsideLook *look)
{
  for (guint id = 0; id < CORDON_CHECK_MAX; id++)
    if (look->looked[id])
      outside_result (v, id, g_steal_pointer (&look->problem[id]));
  cordon_verify_outside_look_clear (look);
}

void
cordon_verify_outside_look_clear (CordonOutsideLook *look)
{
  for (guint id = 0; id < CORDON_CHECK_MAX; id++)
    g_clear_pointer (&look->problem[id], g_free);
  memset (look, 0, sizeof *look);
}

void
cordon_verify_outside (CordonVerify *v,
                       pid_t helper,
                       pid_t bwrap)
{
  CordonOutsideLook look;

  cordon_verify_look_outside (v, helper, bwrap, &look);
  cordon_verify_take_look (v, &look);
  cordon_verify_outside_fds (v, helper);
}

static char *
check_rule (const CordonCheck *c)
{
  return c->rule.file != NULL ? cordon_location_to_string (&c->rule) : g_strdup ("cordon");
}

static const char *
check_detail (const CordonCheck *c)
{
  return c->detail[0] != '\0' ? c->detail : g_strerror (c->err);
}

/* One line per check that did not hold, beside the rule it checked:
 * "cordon: verify: RULE: TARGET: EXPECTATION: WHAT HAPPENED". */
char *
cordon_verify_format_failures (const CordonVerify *v)
{
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < v->checks->len; i++)
    {
      const CordonCheck *c = g_ptr_array_index (v->checks, i);
      g_autofree char *where = check_rule (c);

      if (c->done && c->ok)
        continue;
      g_string_append_printf (out, "cordon: verify: %s: %s%s%s: %s\n", where, c->target,
                              c->target[0] != '\0' ? ": " : "", c->expect,
                              !c->done ? "not checked" : check_detail (c));
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* The per-rule table of `cordon verify`: `aligned` (for a terminal) with
 * a header, else tab-separated (for scripts). */
char *
cordon_verify_format_table (const CordonVerify *v,
                            gboolean aligned)
{
  g_autoptr(GString) out = g_string_new (NULL);
  gsize w_rule = 4, w_target = 6;

  for (guint i = 0; i < v->checks->len; i++)
    {
      const CordonCheck *c = g_ptr_array_index (v->checks, i);
      g_autofree char *where = check_rule (c);

      w_rule = MAX (w_rule, strlen (where));
      w_target = MAX (w_target, strlen (c->target));
    }
  if (aligned)
    g_string_append_printf (out, "%-4s  %-*s  %-*s  %s\n", "", (int) w_rule, "rule",
                            (int) w_target, "target", "expectation");
  for (guint i = 0; i < v->checks->len; i++)
    {
      const CordonCheck *c = g_ptr_array_index (v->checks, i);
      g_autofree char *where = check_rule (c);
      const char *mark = !c->done ? "----" : c->ok ? "ok" : "FAIL";
      const char *detail = c->done && !c->ok ? check_detail (c) : "";

      if (aligned)
        g_string_append_printf (out, "%-4s  %-*s  %-*s  %s%s%s\n", mark, (int) w_rule, where,
                                (int) w_target, c->target, c->expect, detail[0] != '\0' ? ": " : "", detail);
      else
        g_string_append_printf (out, "%s\t%s\t%s\t%s\t%s\n", mark, where, c->target, c->expect, detail);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}
