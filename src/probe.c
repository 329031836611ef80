/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* probe: runs bwrap on `true` with the plan's namespace shape and a new
 * procfs, once per host shape, and remembers a success. The cache is a
 * hint about this host, so it is trusted only in a directory of the
 * caller's that nobody else can write, as a regular file owned by the
 * caller and not writable by others; anything else is ignored and
 * rewritten. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cordon-error.h"
#include "file-util.h"
#include "policy.h"
#include "probe.h"
#include "proc-read.h"
#include "userns-fork.h"

#define CACHE_MAGIC "cordon-probe 1"

static const char * const result_names[CORDON_PROBE_MAX] = {
  "ok", "userns-disabled", "apparmor", "seccomp", "userns-limit", "root-map", "proc-masked",
  "namespaces-failed",
};

const char *
cordon_probe_result_name (CordonProbeResult result)
{
  g_return_val_if_fail (result < CORDON_PROBE_MAX, "?");
  return result_names[result];
}

void
cordon_probe_free (CordonProbe *probe)
{
  if (probe == NULL)
    return;
  g_free (probe->cache_path);
  g_free (probe->detail);
  g_free (probe->bwrap_message);
  g_free (probe);
}

char *
cordon_probe_default_cache_dir (const char * const *envp)
{
  const char *runtime = g_environ_getenv ((char **) envp, "XDG_RUNTIME_DIR");
  const char *home = g_environ_getenv ((char **) envp, "HOME");

  if (runtime != NULL && g_path_is_absolute (runtime))
    return g_build_filename (runtime, "cordon", NULL);
  if (home != NULL && g_path_is_absolute (home))
    return g_build_filename (home, ".cache", "cordon", NULL);
  return NULL;
}

/* A small file's contents, trimmed (a sysctl, an id), or NULL. */
char *
cordon_probe_read_value (const char *path)
{
  g_autofree char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  return g_strstrip (g_steal_pointer (&text));
}

/* NULL when the procfs at /proc is of cordon's own pid namespace (it
 * names cordon by its getpid()), else why not. cordon finds the sandbox's
 * processes, and checks them, by the pids bwrap reports, in that /proc. */
char *
cordon_probe_proc_mismatch (void)
{
  g_autofree char *self = g_file_read_link ("/proc/self", NULL);
  g_autofree char *mine = g_strdup_printf ("%d", (int) getpid ());

  if (self == NULL)
    return g_strdup ("/proc/self cannot be read: no procfs at /proc (mount one)");
  if (!g_str_equal (self, mine))
    return g_strdup_printf ("the procfs at /proc belongs to another pid namespace than cordon's "
                            "(it names cordon %s, cordon is %s there): mount a /proc of this pid "
                            "namespace (unshare --pid --fork --mount-proc, or the container's own)",
                            self, mine);
  return NULL;
}

/* Whom bwrap runs as: the caller, or the host user of a root caller's
 * sandbox (see identity.c), whose probe must be made as that user. */
static uid_t
runs_as_uid (const CordonProbeRequest *request)
{
  return request->switch_identity ? request->host_uid : request->uid;
}

static gid_t
runs_as_gid (const CordonProbeRequest *request)
{
  return request->switch_identity ? request->host_gid : getgid ();
}

/* A child as bwrap would be started for the run: the caller itself, or
 * uid 0 of a user namespace of root's that is the host user (see
 * userns-fork.c). 0 in the child, its pid in the parent, -1 on failure. */
static pid_t
fork_as_sandbox_user (const CordonProbeRequest *request)
{
  int err = 0;
  pid_t pid;

  if (!request->switch_identity)
    return fork ();
  if ((pid = cordon_userns_fork (request->host_uid, request->host_gid, &err)) < 0)
    errno = err;
  return pid;
}

/* The first line of what a failed bwrap wrote (its stderr, in a memfd:
 * no pipe to fill), printable ASCII only, without its "bwrap: ", or
 * NULL. */
static char *
first_line_of (int fd)
{
  char buf[256];
  ssize_t n = pread (fd, buf, sizeof buf - 1, 0);
  char *line;

  if (n <= 0)
    return NULL;
  buf[n] = '\0';
  buf[strcspn (buf, "\n")] = '\0';
  for (char *p = buf; *p != '\0'; p++)
    if (!g_ascii_isprint (*p))
      *p = '?';
  line = g_strdup (g_str_has_prefix (buf, "bwrap: ") ? buf + strlen ("bwrap: ") : buf);
  if (line[0] == '\0')
    g_clear_pointer (&line, g_free);
  return line;
}

/* `argv` run as bwrap would be, its output discarded (but for the first
 * line of its stderr into *out_message, when asked): TRUE with its wait
 * status, FALSE (with `error`) when it could not be started. */
static gboolean
run_quiet (const CordonProbeRequest *request,
           const char * const *argv,
           int *out_status,
           char **out_message,
           GError **error)
{
  const char *envp[] = { "PATH=/usr/bin:/bin", NULL };
  int err_fd = out_message != NULL ? memfd_create ("cordon-probe-stderr", MFD_CLOEXEC) : -1;
  pid_t pid = fork_as_sandbox_user (request);
  int null_fd;

  if (pid == 0)
    {
      struct sigaction dfl = { .sa_handler = SIG_DFL };
      sigset_t none;

      /* Async-signal-safe calls only, from here to exec. bwrap gets what
       * a launch gives it: no signal blocked, SIGPIPE (which cordon
       * ignores) as by default. */
      sigemptyset (&none);
      sigprocmask (SIG_SETMASK, &none, NULL);
      sigaction (SIGPIPE, &dfl, NULL);
      if ((null_fd = open ("/dev/null", O_WRONLY | O_CLOEXEC)) >= 0)
        {
          dup2 (null_fd, STDOUT_FILENO);
          dup2 (err_fd >= 0 ? err_fd : null_fd, STDERR_FILENO);
        }
      close_range (3, ~0U, 0);
      execve (argv[0], (char **) argv, (char **) envp);
      _exit (127);
    }
  if (pid < 0)
    {
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "cannot start %s: %s", argv[0], g_strerror (errno));
      if (err_fd >= 0)
        close (err_fd);
      return FALSE;
    }
  while (waitpid (pid, out_status, 0) < 0)
    if (errno != EINTR)
      {
        g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "waitpid: %s", g_strerror (errno));
        if (err_fd >= 0)
          close (err_fd);
        return FALSE;
      }
  if (out_message != NULL && err_fd >= 0)
    *out_message = first_line_of (err_fd);
  if (err_fd >= 0)
    close (err_fd);
  return TRUE;
}

static gboolean
stat_id (const char *path,
         struct stat *out_st,
         GError **error)
{
  if (stat (path, out_st) == 0)
    return TRUE;
  g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "cannot stat %s: %s", path, g_strerror (errno));
  return FALSE;
}

/* Everything a probe answer depends on: another boot, another container
 * (mount or pid namespace), another bwrap, another user or another
 * namespace shape asks again. */
char *
cordon_probe_cache_key (const CordonProbeRequest *request,
                        GError **error)
{
  g_autofree char *boot = cordon_probe_read_value ("/proc/sys/kernel/random/boot_id");
  /* The user-namespace settings are in the key too: changing one asks
   * again. */
  g_autofree char *maxns = cordon_probe_read_value ("/proc/sys/user/max_user_namespaces");
  g_autofree char *clone = cordon_probe_read_value ("/proc/sys/kernel/unprivileged_userns_clone");
  g_autofree char *aa = cordon_probe_read_value ("/proc/sys/kernel/apparmor_restrict_unprivileged_userns");
  struct stat mnt, pid, bw;

  if (!stat_id ("/proc/self/ns/mnt", &mnt, error) || !stat_id ("/proc/self/ns/pid", &pid, error)
      || !stat_id (request->bwrap_path, &bw, error))
    return NULL;
  return g_strdup_printf ("boot=%s mntns=%lu pidns=%lu bwrap=%s dev=%lu ino=%lu mtime=%lld uid=%u "
                          "as=%u:%u ns=%x userns=%s/%s/%s",
                          boot != NULL ? boot : "?", (gulong) mnt.st_ino, (gulong) pid.st_ino,
                          request->bwrap_path, (gulong) bw.st_dev, (gulong) bw.st_ino,
                          (long long) bw.st_mtime, (guint) request->uid, (guint) runs_as_uid (request),
                          (guint) runs_as_gid (request), request->namespaces,
                          maxns != NULL ? maxns : "-", clone != NULL ? clone : "-", aa != NULL ? aa : "-");
}

static char *
cache_path_for (const char *dir,
                const char *key)
{
  g_autofree char *sum = g_compute_checksum_for_string (G_CHECKSUM_SHA256, key, -1);
  g_autofree char *name = g_strdup_printf ("probe-%.32s", sum);

  return g_build_filename (dir, name, NULL);
}

/* A cache directory is trusted only when it is a real directory of the
 * caller's that nobody else can write: otherwise another user could plant
 * an answer (or a seccomp filter, seccomp-cache.c), or swap the file
 * between a check and a read. An fd, or -1. */
int
cordon_probe_open_cache_dir (const char *dir,
                             uid_t uid)
{
  int fd = open (dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  struct stat st;

  if (fd < 0)
    return -1;
  if (fstat (fd, &st) != 0 || st.st_uid != uid || (st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
    {
      close (fd);
      return -1;
    }
  return fd;
}

/* TRUE with *out_result when the cache file holds a trustworthy answer
 * for `key`: opened without following a link, checked and read through
 * the same fd. */
static gboolean
cache_read (const char *dir,
            const char *path,
            const char *key,
            uid_t uid,
            CordonProbeResult *out_result,
            gboolean *out_disable_userns)
{
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  int dfd = cordon_probe_open_cache_dir (dir, uid);

  if (dfd < 0)
    return FALSE;
  text = cordon_file_read_owned_at (dfd, base, uid, 4096, NULL);
  close (dfd);
  if (text == NULL)
    return FALSE;
  lines = g_strsplit (text, "\n", -1);
  if (g_strv_length (lines) < 4 || !g_str_equal (lines[0], CACHE_MAGIC)
      || !g_str_has_prefix (lines[1], "key=") || !g_str_equal (lines[1] + 4, key)
      || !g_str_equal (lines[2], "result=ok") || !g_str_has_prefix (lines[3], "disable-userns="))
    return FALSE;
  *out_result = CORDON_PROBE_OK;
  *out_disable_userns = g_str_equal (lines[3], "disable-userns=yes");
  return TRUE;
}

/* Best effort: a cache that cannot be written costs the next run a probe,
 * nothing else. The directory is made private to the caller. */
static void
cache_write (const char *dir,
             const char *path,
             const char *key,
             uid_t uid,
             gboolean disable_userns)
{
  g_autofree char *text = g_strdup_printf ("%s\nkey=%s\nresult=ok\ndisable-userns=%s\n", CACHE_MAGIC,
                                           key, disable_userns ? "yes" : "no");
  g_autofree char *base = g_path_get_basename (path);
  int dfd;

  if (g_mkdir_with_parents (dir, 0700) != 0 || (dfd = cordon_probe_open_cache_dir (dir, uid)) < 0)
    return;
  /* Through the directory just checked, not its path again. A foreign or
   * corrupt file is replaced; a reader never sees half an answer, and a
   * run killed while writing leaves no temporary file. */
  (void) cordon_file_replace_at (dfd, base, text, strlen (text), 0600, NULL);
  close (dfd);
}

/* The probe's bwrap options: the plan's namespaces, the host root (only
 * to find `true`), a fresh /dev and, when `with_proc`, a new procfs. */
char **
cordon_probe_bwrap_args (guint namespaces,
                         gboolean with_proc)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);

  for (guint bit = 0; bit < CORDON_N_NAMESPACES; bit++)
    if (namespaces & (1u << bit))
      g_ptr_array_add (args, g_strconcat ("--unshare-", cordon_namespace_name (1u << bit), NULL));
  g_ptr_array_add (args, g_strdup ("--ro-bind"));
  g_ptr_array_add (args, g_strdup ("/"));
  g_ptr_array_add (args, g_strdup ("/"));
  g_ptr_array_add (args, g_strdup ("--dev"));
  g_ptr_array_add (args, g_strdup ("/dev"));
  if (with_proc)
    {
      g_ptr_array_add (args, g_strdup ("--proc"));
      g_ptr_array_add (args, g_strdup ("/proc"));
    }
  g_ptr_array_add (args, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&args), FALSE);
}

/* TRUE when bwrap ran `true` with these options and it exited 0. Its
 * output is discarded, the classification is cordon's own, but for the
 * first line of a failure's message, kept in *out_message when asked:
 * it is what the user can search for. */
static gboolean
try_bwrap (const CordonProbeRequest *request,
           gboolean with_proc,
           char **out_message,
           GError **error)
{
  g_auto(GStrv) opts = cordon_probe_bwrap_args (request->namespaces, with_proc);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  int status = 0;

  g_ptr_array_add (argv, (gpointer) request->bwrap_path);
  for (guint i = 0; opts[i] != NULL; i++)
    g_ptr_array_add (argv, opts[i]);
  g_ptr_array_add (argv, (gpointer) "--");
  g_ptr_array_add (argv, (gpointer) "true");
  g_ptr_array_add (argv, NULL);
  if (access (request->bwrap_path, X_OK) != 0)
    {
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "%s", g_strerror (errno));
      return FALSE;
    }
  if (!run_quiet (request, (const char * const *) argv->pdata, &status, out_message, error))
    return FALSE;
  if (WIFEXITED (status) && WEXITSTATUS (status) == 0 && out_message != NULL)
    g_clear_pointer (out_message, g_free);
  return WIFEXITED (status) && WEXITSTATUS (status) == 0;
}

/* bwrap 0.8.0 added --disable-userns (no user namespace can be made
 * inside); an older bwrap refuses the option. Tried once, for real. */
static gboolean
takes_disable_userns (const CordonProbeRequest *request)
{
  const char *argv[] = { request->bwrap_path, "--unshare-user", "--disable-userns",
                         "--ro-bind", "/", "/", "--", "true", NULL };
  int status = 0;

  if (!(request->namespaces & CORDON_NS_USER) || !run_quiet (request, argv, &status, NULL, NULL))
    return FALSE;
  return WIFEXITED (status) && WEXITSTATUS (status) == 0;
}

static gboolean
sysctl_is (const char *path,
           const char *value)
{
  g_autofree char *text = cordon_probe_read_value (path);

  return text != NULL && g_str_equal (text, value);
}

/* unshare(CLONE_NEWUSER), tried in a child so that cordon stays where
 * it is: 0 when it works, else its errno (-1: the child did not say). */
static int
try_unshare_user (const CordonProbeRequest *request)
{
  int status = 0;
  pid_t pid = fork_as_sandbox_user (request);

  if (pid == 0)
    _exit (unshare (CLONE_NEWUSER) == 0 ? 0 : errno & 0xff);
  if (pid < 0)
    return -1;
  while (waitpid (pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

/* /proc/self/uid_map or gid_map as ranges: CordonIdRange, in file order;
 * NULL when it cannot be read. */
GArray *
cordon_probe_read_id_map (const char *path)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  GArray *map;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  map = g_array_new (FALSE, FALSE, sizeof (CordonIdRange));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      guint64 inside = 0, outside = 0, count = 0;
      CordonIdRange r;

      if (sscanf (lines[i], "%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT,
                  &inside, &outside, &count) != 3 || count == 0)
        continue;
      r.inside = inside;
      r.outside = outside;
      r.count = count;
      g_array_append_val (map, r);
    }
  return map;
}

/* TRUE with *out_outside when `inside` is mapped by `map`. */
gboolean
cordon_probe_id_map_find (const GArray *map,
                          guint64 inside,
                          guint64 *out_outside)
{
  for (guint i = 0; map != NULL && i < map->len; i++)
    {
      const CordonIdRange *r = &g_array_index (map, CordonIdRange, i);

      if (inside >= r->inside && inside - r->inside < r->count)
        {
          if (out_outside != NULL)
            *out_outside = r->outside + (inside - r->inside);
          return TRUE;
        }
    }
  return FALSE;
}

/* cordon's effective capabilities (CapEff), 0 when unreadable. */
guint64
cordon_probe_self_caps (void)
{
  g_autofree char *cap = cordon_proc_status_field (0, "CapEff");

  return cap != NULL ? g_ascii_strtoull (cap, NULL, 16) : 0;
}

/* TRUE inside a user namespace other than the host's: the identity map
 * of the whole range is the initial namespace's. */
static gboolean
in_child_userns (const GArray *known)
{
  g_autoptr(GArray) read = known == NULL ? cordon_probe_read_id_map ("/proc/self/uid_map") : NULL;
  const GArray *map = known != NULL ? known : read;
  const CordonIdRange *r = map != NULL && map->len == 1 ? &g_array_index (map, CordonIdRange, 0) : NULL;

  return r == NULL || r->inside != 0 || r->outside != 0 || r->count != G_GUINT64_CONSTANT (4294967295);
}

/* Bit 31 of CapEff: CAP_SETFCAP. */
static gboolean
has_cap_setfcap (void)
{
  return (cordon_probe_self_caps () & (G_GUINT64_CONSTANT (1) << 31)) != 0;
}

/* Why bwrap failed, from the host's own settings and cordon's own tries
 * first: bwrap's message often names the wrong cause. Also asked when a
 * launch fails (then `namespaces_only`: bwrap is not tried again without
 * /proc, and a cause that is not the namespaces' is left unnamed). */
CordonProbeResult
cordon_probe_classify (const CordonProbeRequest *request,
                       gboolean namespaces_only)
{
  /* Every cause below is about making a user namespace: none applies to
   * a plan without one (a setuid bwrap's, say). */
  if (request->namespaces & CORDON_NS_USER)
    {
      g_autofree char *seccomp = NULL;
      int err;

      if (sysctl_is ("/proc/sys/user/max_user_namespaces", "0")
          || (runs_as_uid (request) != 0 && sysctl_is ("/proc/sys/kernel/unprivileged_userns_clone", "0")))
        return CORDON_PROBE_USERNS_DISABLED;
      if (runs_as_uid (request) != 0
          && sysctl_is ("/proc/sys/kernel/apparmor_restrict_unprivileged_userns", "1"))
        return CORDON_PROBE_APPARMOR;
      err = try_unshare_user (request);
      seccomp = cordon_proc_status_field (0, "Seccomp");
      if (err == EPERM && g_strcmp0 (seccomp, "2") == 0)
        return CORDON_PROBE_SECCOMP;
      if (err == ENOSPC)
        return CORDON_PROBE_USERNS_LIMIT;
      /* Since Linux 5.12, mapping uid 0 of the parent namespace into a
       * new one takes CAP_SETFCAP there: root without capabilities in a
       * user namespace (a sandbox started by root) cannot. */
      if (err == 0 && runs_as_uid (request) == 0 && in_child_userns (request->uid_map) && !has_cap_setfcap ())
        return CORDON_PROBE_ROOT_MAP;
    }
  if (!namespaces_only && try_bwrap (request, FALSE, NULL, NULL))
    return CORDON_PROBE_PROC_MASKED;
  /* Nothing of the above, under a filter of another sandbox (firejail
   * --seccomp refuses mount: "Failed to make / slave"): the filter is
   * the likeliest cause, and bwrap's own message says what it refused. */
  {
    g_autofree char *seccomp = cordon_proc_status_field (0, "Seccomp");

    if (g_strcmp0 (seccomp, "2") == 0)
      return CORDON_PROBE_SECCOMP;
  }
  return CORDON_PROBE_NAMESPACES_FAILED;
}

char *
cordon_probe_describe (CordonProbeResult result)
{
  switch (result)
    {
    case CORDON_PROBE_OK:
      return g_strdup ("a private /proc can be mounted");
    case CORDON_PROBE_USERNS_DISABLED:
      return g_strdup ("user namespaces are disabled on this host (user.max_user_namespaces=0 "
                       "or kernel.unprivileged_userns_clone=0); enable them with sysctl");
    case CORDON_PROBE_APPARMOR:
      return g_strdup ("AppArmor restricts unprivileged user namespaces "
                       "(kernel.apparmor_restrict_unprivileged_userns=1); give bwrap an "
                       "AppArmor profile rather than lifting the restriction");
    case CORDON_PROBE_SECCOMP:
      return g_strdup ("a seccomp filter on cordon (Seccomp: 2 in its /proc/self/status) refuses what "
                       "bwrap needs (a container runtime's profile, or an enclosing sandbox's, such as "
                       "firejail --seccomp); let unshare, clone, mount and pivot_root through there "
                       "(an enclosing cordon: [seccomp] allow=unshare;clone), or run cordon outside it");
    case CORDON_PROBE_USERNS_LIMIT:
      return g_strdup ("no user namespace can be created here (ENOSPC): an enclosing sandbox was "
                       "made with --disable-userns, or the nesting depth or user.max_user_namespaces "
                       "is reached (an enclosing cordon: [seccomp] allow=unshare;clone)");
    case CORDON_PROBE_ROOT_MAP:
      return g_strdup ("uid 0 of a user namespace without CAP_SETFCAP cannot map itself into a new "
                       "one (Linux 5.12 and later), as inside a sandbox started by root; run the "
                       "enclosing sandbox as an ordinary user");
    case CORDON_PROBE_PROC_MASKED:
      return g_strdup ("a private /proc cannot be mounted here (the /proc of this container "
                       "is partly masked); [proc] fallback=host-ro runs with the host /proc read-only");
    case CORDON_PROBE_NAMESPACES_FAILED:
    case CORDON_PROBE_MAX:
    default:
      return g_strdup ("bwrap cannot create the namespaces this policy unshares");
    }
}

CordonProbe *
cordon_probe_run (const CordonProbeRequest *request,
                  GError **error)
{
  g_autoptr(CordonProbe) probe = g_new0 (CordonProbe, 1);
  g_autofree char *key = cordon_probe_cache_key (request, error);
  g_autoptr(GError) spawn_error = NULL;

  if (key == NULL)
    return NULL;
  if (request->cache_dir != NULL)
    probe->cache_path = cache_path_for (request->cache_dir, key);
  if (probe->cache_path != NULL && !request->refresh
      && cache_read (request->cache_dir, probe->cache_path, key, request->uid, &probe->result,
                     &probe->disable_userns))
    probe->cached = TRUE;
  else if (try_bwrap (request, TRUE, &probe->bwrap_message, &spawn_error))
    {
      probe->result = CORDON_PROBE_OK;
      probe->disable_userns = takes_disable_userns (request);
    }
  else if (spawn_error != NULL)
    {
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "cannot run %s: %s",
                   request->bwrap_path, spawn_error->message);
      return NULL;
    }
  else
    probe->result = cordon_probe_classify (request, FALSE);
  /* Only a success is remembered. A failure is asked again each run: it
   * may have been passing (a process limit), and a remembered failure
   * would select a degraded fallback on no evidence of this run. */
  if (!probe->cached && probe->cache_path != NULL && probe->result == CORDON_PROBE_OK)
    cache_write (request->cache_dir, probe->cache_path, key, request->uid, probe->disable_userns);
  probe->detail = cordon_probe_describe (probe->result);
  if (probe->result != CORDON_PROBE_OK && probe->bwrap_message != NULL)
    {
      /* cordon's reading first, bwrap's own words beside it. */
      char *both = g_strdup_printf ("%s (bwrap: %s)", probe->detail, probe->bwrap_message);

      g_free (probe->detail);
      probe->detail = both;
    }
  return g_steal_pointer (&probe);
}
