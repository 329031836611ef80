/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* doctor: the host report of `cordon doctor`. Each finding comes from the
 * host's own settings and files, never from bwrap's hint text, which
 * often names the wrong cause. The probe is run fresh, as `run` would. */
#include "config.h"

#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroup.h"
#include "doctor.h"
#include "seccomp-filter.h"
#include "host-facts.h"
#include "host-identity.h"
#include "json-writer.h"
#include "probe.h"
#include "proc-read.h"

static void
finding_free (gpointer p)
{
  CordonFinding *f = p;

  g_free (f->name);
  g_free (f->value);
  g_free (f->fix);
  g_free (f);
}

static void
add (GPtrArray *out,
     const char *name,
     char *value,
     gboolean ok,
     const char *fix)
{
  CordonFinding *f = g_new0 (CordonFinding, 1);

  f->name = g_strdup (name);
  f->value = value;
  f->ok = ok;
  f->fix = ok || fix == NULL ? NULL : g_strdup (fix);
  g_ptr_array_add (out, f);
}

static void
check_userns (GPtrArray *out,
              uid_t uid)
{
  g_autofree char *max = cordon_probe_read_value ("/proc/sys/user/max_user_namespaces");
  g_autofree char *clone = cordon_probe_read_value ("/proc/sys/kernel/unprivileged_userns_clone");
  g_autofree char *aa = cordon_probe_read_value ("/proc/sys/kernel/apparmor_restrict_unprivileged_userns");

  add (out, "user.max_user_namespaces", g_strdup (max != NULL ? max : "unknown"),
       max == NULL || !g_str_equal (max, "0"),
       "user namespaces are disabled: sysctl -w user.max_user_namespaces=15000 "
       "(and in /etc/sysctl.d/ to keep it)");
  if (clone != NULL)
    add (out, "kernel.unprivileged_userns_clone", g_strdup (clone), uid == 0 || !g_str_equal (clone, "0"),
         "unprivileged user namespaces are disabled: sysctl -w kernel.unprivileged_userns_clone=1");
  if (aa != NULL)
    add (out, "kernel.apparmor_restrict_unprivileged_userns", g_strdup (aa),
         uid == 0 || !g_str_equal (aa, "1"),
         "AppArmor restricts unprivileged user namespaces: install the profile in "
         CORDON_DATADIR "/apparmor/bwrap into /etc/apparmor.d/ and run "
         "apparmor_parser -r /etc/apparmor.d/bwrap (narrower than lifting the sysctl)");
}

static void
check_bwrap (GPtrArray *out,
             const char *bwrap)
{
  g_autofree char *version = NULL;
  gboolean setuid = cordon_host_bwrap_is_setuid (bwrap);
  struct stat st;

  if (stat (bwrap, &st) != 0 || access (bwrap, X_OK) != 0)
    {
      add (out, "bwrap", g_strdup_printf ("%s: not found or not executable", bwrap), FALSE,
           "install the bubblewrap package (or name another with --bwrap or CORDON_BWRAP)");
      return;
    }
  version = cordon_host_bwrap_version (bwrap);
  add (out, "bwrap", g_strdup_printf ("%s (%s)", bwrap, version != NULL ? version : "version unknown"),
       TRUE, NULL);
  /* A setuid bwrap refuses several options (--cap-add for a non-root
   * caller among them) and runs with more privilege than needed. */
  add (out, "bwrap setuid", g_strdup (setuid ? "yes" : "no"), !setuid,
       "bwrap is setuid root: cordon runs it without a user namespace for a caller other than "
       "root (a named degradation); prefer the non-setuid build with unprivileged user "
       "namespaces (chmod u-s), where the kernel allows them");
}

/* hidepid= on /proc hides other users' processes: harmless for cordon,
 * but worth knowing when a fallback to the host /proc is considered. */
static void
check_proc (GPtrArray *out)
{
  g_autofree char *info = cordon_probe_read_value ("/proc/self/mountinfo");
  g_auto(GStrv) lines = info != NULL ? g_strsplit (info, "\n", -1) : NULL;
  g_autofree char *found = NULL;

  /* "ID PARENT MAJ:MIN ROOT POINT OPTS ... - FSTYPE SOURCE SUPEROPTS" */
  for (guint i = 0; lines != NULL && lines[i] != NULL; i++)
    {
      const char *sep = strstr (lines[i], " - ");
      g_auto(GStrv) left = NULL, right = NULL;

      if (sep == NULL)
        continue;
      left = g_strsplit (lines[i], " ", 6);
      right = g_strsplit (sep + 3, " ", 3);
      if (g_strv_length (left) >= 5 && g_str_equal (left[4], "/proc")
          && g_strv_length (right) == 3 && g_str_equal (right[0], "proc"))
        {
          g_free (found);
          found = g_strdup (right[2]);
        }
    }
  add (out, "/proc mount options", g_strdup (found != NULL ? found : "no proc file system at /proc"),
       found != NULL, "mount a proc file system at /proc (a container should give it one)");
}

/* Whether a filter loaded here could have a listener: 0, or the errno
 * the kernel refuses one with (EBUSY: a filter above cordon's has one).
 * Tried in a child, whose filter (allow everything) dies with it. */
static int
listener_errno (void)
{
  struct sock_filter allow = BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  struct sock_fprog prog = { 1, &allow };
  int status;
  pid_t child = fork ();

  if (child == 0)
    _exit (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
           || syscall (SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog) < 0
           ? (errno & 0x7f) : 0);
  if (child < 0)
    return errno;
  while (waitpid (child, &status, 0) < 0)
    if (errno != EINTR)
      return errno;
  return WIFEXITED (status) ? WEXITSTATUS (status) : EINTR;
}

/* Not a failure: without a listener the profile's refusals hold, unnamed. */
static char *
refusals_named (void)
{
  int err;

  if (!cordon_seccomp_notify_available ())
    return g_strdup ("no (this kernel has no SECCOMP_RET_USER_NOTIF, or shows no Seccomp_filters: refused "
                     "calls fail unnamed)");
  if ((err = listener_errno ()) == EBUSY)
    return g_strdup ("no (a seccomp filter above cordon's has a listener, EBUSY: refused calls fail unnamed)");
  if (err != 0)
    return g_strdup_printf ("no (the kernel gives no listener: %s; refused calls fail unnamed)", g_strerror (err));
  return g_strdup ("yes (SECCOMP_RET_USER_NOTIF: cordon answers them and names each)");
}

static void
check_container (GPtrArray *out)
{
  g_autofree char *seccomp = cordon_proc_status_field (0, "Seccomp");
  gboolean in_container = g_file_test ("/.dockerenv", G_FILE_TEST_EXISTS)
                          || g_file_test ("/run/.containerenv", G_FILE_TEST_EXISTS)
                          || g_getenv ("container") != NULL;

  add (out, "container", g_strdup (in_container ? "yes" : "no (none detected)"), TRUE, NULL);
  /* Not a failure by itself: the probe says whether bwrap gets through. */
  add (out, "seccomp on cordon",
       g_strdup (g_strcmp0 (seccomp, "2") == 0
                 ? "a filter (Seccomp: 2 in /proc/self/status: a container runtime's or an enclosing "
                   "sandbox's); bwrap needs unshare, clone, mount and pivot_root through it"
                 : "none"),
       TRUE, NULL);
  add (out, "seccomp refusals named", refusals_named (), TRUE, NULL);
  {
    g_autofree char *mismatch = cordon_probe_proc_mismatch ();

    add (out, "/proc of cordon's pid namespace",
         g_strdup (mismatch == NULL ? "yes" : "no"), mismatch == NULL, mismatch);
  }
}

/* A root caller's sandbox runs as another host user by default
 * ([identity] host-user=auto): say which, or why it cannot. */
static void
check_identity (GPtrArray *out,
                const CordonDoctorRequest *request)
{
  if (request->uid != 0)
    add (out, "sandbox host user", g_strdup_printf ("the caller, uid %u", (guint) request->uid), TRUE, NULL);
  else if (request->host_user_error != NULL)
    add (out, "sandbox host user", g_strdup (request->host_user_error), FALSE,
         "name a dedicated unprivileged user with [identity] host-user= in the policy");
  else
    add (out, "sandbox host user", g_strdup_printf ("uid %u, gid %u (host-user=auto): a root caller's "
                                                    "sandbox is not host root",
                                                    (guint) request->host_uid, (guint) request->host_gid),
         TRUE, NULL);
}

static void
check_probe (GPtrArray *out,
             const CordonDoctorRequest *request)
{
  /* The shape of the shipped policies: every namespace. */
  CordonProbeRequest req = { request->bwrap_path, CORDON_NS_ALL, request->uid, request->cache_dir, TRUE,
                             request->host_uid != request->uid, request->host_uid, request->host_gid, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonProbe) probe = cordon_probe_run (&req, &error);

  if (probe == NULL)
    {
      add (out, "probe", g_strdup (error->message), FALSE, "see the bwrap finding above");
      return;
    }
  add (out, "probe", g_strdup_printf ("%s: %s", cordon_probe_result_name (probe->result), probe->detail),
       probe->result == CORDON_PROBE_OK, probe->detail);
  add (out, "probe cache", g_strdup (probe->cache_path != NULL ? probe->cache_path : "none (no cache directory)"),
       TRUE, NULL);
}

/* Which mechanism holds [limits] memory, swap, cpu and pids here. */
static void
check_limits (GPtrArray *out,
              uid_t uid)
{
  CordonCgroupHost host = { 0 };
  g_autoptr(GString) held = g_string_new (NULL);

  cordon_cgroup_host_find (&host, uid, g_getenv ("DBUS_SESSION_BUS_ADDRESS"), g_getenv ("XDG_RUNTIME_DIR"));
  for (guint c = 0; c < CORDON_CONTROLLER_CPUACCT; c++)
    if (host.writable[c])
      g_string_append_printf (held, "%s%s", held->len > 0 ? ", " : "", cordon_controller_name (c));
  if (host.mechanism != CORDON_CGROUP_NONE)
    add (out, "limits", g_strdup_printf ("%s (%s)%s%s%s%s", cordon_cgroup_mechanism_name (host.mechanism), held->str,
                                         host.delegated != NULL ? " below " : "",
                                         host.delegated != NULL ? host.delegated : "",
                                         host.missing != NULL ? "; not: " : "",
                                         host.missing != NULL ? host.missing : ""),
         TRUE, NULL);
  else
    /* No problem for making a sandbox: a policy that sets these limits
     * is refused (enforce=required) or degraded by name, on its own. */
    add (out, "limits", g_strdup_printf ("none, rlimits only: memory=, swap= and cpu= cannot be held, pids= "
                                         "only in a user namespace of the sandbox's own (%s)",
                                         host.missing != NULL ? host.missing : "no cgroup"), TRUE, NULL);
  cordon_cgroup_host_clear (&host);
}

GPtrArray *
cordon_doctor_run (const CordonDoctorRequest *request)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (finding_free);

  check_userns (out, request->uid);
  check_bwrap (out, request->bwrap_path);
  check_proc (out);
  check_container (out);
  check_identity (out, request);
  check_limits (out, request->uid);
  check_probe (out, request);
  return out;
}

char *
cordon_doctor_to_json (GPtrArray *findings,
                       GError **error)
{
  g_autoptr(CordonJson) b = cordon_json_new ();

  cordon_json_begin_array (b);
  for (guint i = 0; i < findings->len; i++)
    {
      const CordonFinding *f = g_ptr_array_index (findings, i);

      cordon_json_begin_object (b);
      cordon_json_set_member_name (b, "name");
      cordon_json_add_string_value (b, f->name);
      cordon_json_set_member_name (b, "value");
      cordon_json_add_string_value (b, f->value);
      cordon_json_set_member_name (b, "ok");
      cordon_json_add_boolean_value (b, f->ok);
      cordon_json_set_member_name (b, "fix");
      if (f->fix != NULL)
        cordon_json_add_string_value (b, f->fix);
      else
        cordon_json_add_null_value (b);
      cordon_json_end_object (b);
    }
  cordon_json_end_array (b);
  return cordon_json_to_text (b, error);
}

/* One finding a line, its fix beneath. */
char *
cordon_doctor_to_text (GPtrArray *findings)
{
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < findings->len; i++)
    {
      const CordonFinding *f = g_ptr_array_index (findings, i);

      g_string_append_printf (out, "%-7s %-45s %s\n", f->ok ? "ok" : "PROBLEM", f->name, f->value);
      if (f->fix != NULL)
        g_string_append_printf (out, "        fix: %s\n", f->fix);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* The findings of this host, for `bwrap` (NULL: the one cordon run would
 * use) and the caller of `envp`. */
GPtrArray *
cordon_doctor_examine (const char *bwrap,
                       const char * const *envp,
                       GError **error)
{
  g_autoptr(CordonHostFacts) facts = cordon_host_facts_new ("", envp, NULL, error);
  CordonDoctorRequest req;

  if (facts == NULL)
    return NULL;
  cordon_host_identity_resolve (facts, NULL);
  req.bwrap_path = bwrap != NULL ? bwrap : facts->bwrap_path;
  req.cache_dir = facts->cache_dir;
  req.uid = facts->uid;
  req.host_uid = facts->identity.uid;
  req.host_gid = facts->identity.gid;
  req.host_user_error = facts->identity.error;
  return cordon_doctor_run (&req);
}
