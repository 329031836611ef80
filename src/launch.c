/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* launch: start bwrap with nothing of the caller's but what the plan
 * allows.
 *
 * bwrap's own documentation covers --clearenv and --setenv, but both act
 * inside the sandbox: bwrap itself still holds the caller's environment,
 * readable as /proc/1/environ by the sandbox, and its argv (every
 * --setenv value) as /proc/1/cmdline. So bwrap is exec'd with the plan's
 * envp and no more, its options come from a sealed memfd (--args), and
 * every other fd is closed in the child.
 *
 * bwrap is started by cordon-keeper (see src/cordon-keeper.c), which
 * stays its parent: should cordon be killed while bwrap sets up, the
 * keeper kills what bwrap leaves stranded. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cordon-error.h"
#include "file-util.h"
#include "launch.h"
#include "proc-read.h"
#include "path-util.h"
#include "seccomp-filter.h"

/* The fds bwrap is given, at fixed numbers in the child (protocol.h). */
enum
{
  FD_ARGS = CORDON_FD_ARGS,
  FD_JSON = CORDON_FD_JSON,
  FD_READY = CORDON_EXEC_STATUS_FD,
  FD_SPEC = CORDON_FD_SPEC,
  FD_GO = CORDON_EXEC_GO_FD,
  FD_SECCOMP = CORDON_FD_SECCOMP,
  FD_LIFE = CORDON_FD_LIFE,
  FD_STAGE = CORDON_FD_STAGE,
};

gboolean
cordon_launch_check_bwrap (const char *bwrap_path,
                           GError **error)
{
  struct stat st;

  if (stat (bwrap_path, &st) != 0 || !S_ISREG (st.st_mode))
    {
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST,
                   "bwrap not found at %s (install the bubblewrap package, or name it with "
                   "--bwrap or CORDON_BWRAP)", bwrap_path);
      return FALSE;
    }
  if (access (bwrap_path, X_OK) != 0)
    {
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST,
                   "%s is not executable (from the bubblewrap package)", bwrap_path);
      return FALSE;
    }
  return TRUE;
}

/* A sealed memfd holding the options: bwrap reads them with --args, so
 * they never appear in a cmdline, and the seals keep anyone who reaches
 * the fd from rewriting them. */
static int
sealed_memfd (GBytes *bytes,
              GError **error)
{
  gsize len = 0;
  const char *data = g_bytes_get_data (bytes, &len);
  int fd = memfd_create ("cordon-bwrap-args", MFD_CLOEXEC | MFD_ALLOW_SEALING);

  if (fd < 0)
    {
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "memfd_create: %s", g_strerror (errno));
      return -1;
    }
  while (len > 0)
    {
      ssize_t n = write (fd, data, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "writing bwrap's options: %s",
                       g_strerror (errno));
          close (fd);
          return -1;
        }
      data += n;
      len -= (gsize) n;
    }
  if (fcntl (fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0
      || lseek (fd, 0, SEEK_SET) != 0)
    {
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "sealing bwrap's options: %s",
                   g_strerror (errno));
      close (fd);
      return -1;
    }
  return fd;
}

/* posix_spawn, not fork: glibc spawns with CLONE_VFORK, so cordon's
 * page tables are not copied (a fork costs about a millisecond here). The
 * file actions put bwrap's fds and the keeper's socket at fixed numbers
 * and close every other (invariant 3; the keeper passes the ones below
 * FD_LIFE on to bwrap, and closes its own copies); the attributes give
 * it an empty signal mask and default dispositions, not the blocked set
 * cordon keeps for its signalfd nor anything the caller ignored. */
static gboolean
spawn_keeper (char **argv,
              char **envp,
              const int *fds,
              guint n_fds,
              pid_t *out_pid,
              GError **error)
{
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  sigset_t none, all;
  g_autofree int *high = g_new (int, n_fds);
  guint first_free = FD_ARGS + n_fds;
  int rc = 0;

  /* Above the last slot first, so no dup2 below overwrites a source still
   * needed. An absent fd (-1: no verification, no filter) is closed at
   * its slot: whatever the caller had open there must not reach the
   * sandbox. */
  for (guint i = 0; i < n_fds; i++)
    high[i] = -1;
  for (guint i = 0; i < n_fds && rc == 0; i++)
    if (fds[i] >= 0 && (high[i] = fcntl (fds[i], F_DUPFD_CLOEXEC, (int) first_free)) < 0)
      rc = errno;
  posix_spawn_file_actions_init (&actions);
  posix_spawnattr_init (&attr);
  sigemptyset (&none);
  sigfillset (&all);
  for (guint i = 0; i < n_fds && rc == 0; i++)
    rc = high[i] >= 0 ? posix_spawn_file_actions_adddup2 (&actions, high[i], (int) (FD_ARGS + i))
                      : posix_spawn_file_actions_addclose (&actions, (int) (FD_ARGS + i));
  if (rc == 0)
    rc = posix_spawn_file_actions_addclosefrom_np (&actions, (int) first_free);
  if (rc == 0)
    rc = posix_spawnattr_setsigmask (&attr, &none);
  if (rc == 0)
    rc = posix_spawnattr_setsigdefault (&attr, &all);
  /* A group of its own: a SIGKILL sent to cordon's whole group must not
   * take the keeper along, whose work starts when cordon is gone. */
  if (rc == 0)
    rc = posix_spawnattr_setpgroup (&attr, 0);
  if (rc == 0)
    rc = posix_spawnattr_setflags (&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
                                   | POSIX_SPAWN_SETPGROUP);
  if (rc == 0)
    rc = posix_spawn (out_pid, argv[0], &actions, &attr, argv, envp);
  posix_spawn_file_actions_destroy (&actions);
  posix_spawnattr_destroy (&attr);
  for (guint i = 0; i < n_fds; i++)
    if (high[i] >= 0)
      close (high[i]);
  if (rc != 0)
    g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "cannot start %s: %s",
                 argv[0], g_strerror (rc));
  return rc == 0;
}

/* The keeper's first word: "P<bwrap's pid>", "E<errno>" (bwrap could
 * not be started), "S<errno>[ WHAT PATH]" (the stage failed, there),
 * "G<errno> WHAT NAME" (a cgroup could not be made or joined) or
 * "H<errno> WHAT NAME" (a placeholder could not be made or shared).
 * EOF or anything else: the keeper failed. */
gboolean
cordon_launch_read_keeper_word (int fd,
                                const char *bwrap_path,
                                pid_t *out_pid,
                                GError **error)
{
  char buf[CORDON_KEEPER_WORD_MAX + 1];
  size_t len = 0;
  ssize_t n;
  long value;
  char *end = NULL;

  /* Only this line is taken, a byte at a time (a few): the counters of
   * a run that has already ended may follow it. */
  while (len < sizeof buf - 1 && (len == 0 || buf[len - 1] != '\n')
         && ((n = read (fd, buf + len, 1)) > 0 || (n < 0 && errno == EINTR)))
    len += n > 0 ? (size_t) n : 0;
  buf[len] = '\0';
  errno = 0;
  value = len > 1 && g_ascii_isdigit (buf[1]) ? strtol (buf + 1, &end, 10) : 0;
  if (value <= 0 || errno != 0
      || (*end != '\n' && !((buf[0] == CORDON_KEEPER_STAGE_ERRNO || buf[0] == CORDON_KEEPER_CGROUP_ERRNO
                              || buf[0] == CORDON_KEEPER_PLACEHOLDER_ERRNO) && *end == ' ')))
    buf[0] = '\0';
  if (buf[0] == CORDON_KEEPER_PID)
    {
      *out_pid = (pid_t) value;
      return TRUE;
    }
  if (buf[0] == CORDON_KEEPER_ERRNO)
    g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "cannot start %s: %s",
                 bwrap_path, g_strerror ((int) value));
  else if (buf[0] == CORDON_KEEPER_STAGE_ERRNO)
    {
      g_autofree char *why = *end == ' ' ? g_strndup (end + 1, strcspn (end + 1, "\n")) : NULL;

      g_autofree char *seccomp = value == EPERM ? cordon_proc_status_field (0, "Seccomp") : NULL;

      /* Refused, under another sandbox's filter: that is the likeliest why. */
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "cordon-keeper could not prepare the "
                   "sandbox's mounts or become its host user: %s%s%s%s", why != NULL ? why : "",
                   why != NULL ? ": " : "", g_strerror ((int) value),
                   g_strcmp0 (seccomp, "2") == 0 ? " (a seccomp filter on cordon, Seccomp: 2 in its "
                   "/proc/self/status, refuses it: run cordon outside that sandbox, or let unshare, "
                   "mount and pivot_root through there)" : "");
    }
  else if (buf[0] == CORDON_KEEPER_CGROUP_ERRNO)
    {
      g_autofree char *why = g_strndup (end + 1, strcspn (end + 1, "\n"));

      g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "cordon-keeper could not put the sandbox "
                   "in its cgroups: %s: %s", why, g_strerror ((int) value));
    }
  else if (buf[0] == CORDON_KEEPER_PLACEHOLDER_ERRNO)
    {
      g_autofree char *why = g_strndup (end + 1, strcspn (end + 1, "\n"));

      g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "cordon-keeper could not hold the placeholder "
                   "of an absent protected path: %s: %s", why, g_strerror ((int) value));
    }
  else
    g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST,
                 "cordon-keeper failed before starting %s", bwrap_path);
  return FALSE;
}

/* The plan's rlimits as cordon-exec takes them: FSIZE,NOFILE,CORE,NPROC. */
static char *
rlimits_arg (const CordonPlan *plan)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < CORDON_RLIMIT_MAX; i++)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      if (plan->rlimits[i].set)
        g_string_append_printf (out, "%" G_GUINT64_FORMAT, plan->rlimits[i].value);
      else
        g_string_append_c (out, '-');
    }
  return g_string_free (out, FALSE);
}

/* The plan's placeholders (protect.c): mount points the keeper makes. */
static guint
count_placeholders (const CordonPlan *plan)
{
  guint n = 0;

  for (guint i = 0; i < plan->ops->len; i++)
    n += ((const CordonOp *) g_ptr_array_index (plan->ops, i))->placeholder ? 1 : 0;
  return n;
}

static char **
build_argv (const CordonLaunchRequest *request,
            GBytes *listened,
            GBytes *plain)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  int next_fd = FD_STAGE + (request->stage != NULL ? 1 + (int) request->stage->fds->len : 0);

  g_ptr_array_add (argv, g_strdup (request->keeper_path));
  g_ptr_array_add (argv, g_strdup_printf ("%d", FD_LIFE));
  /* With a new session the sandbox has no terminal: bwrap gets a process
   * group of its own too ("0"), so a Ctrl-C reaches cordon alone, which
   * forwards it to the command (rather than killing bwrap's monitor and,
   * through --die-with-parent, the command before it can clean up).
   * Without, bwrap joins cordon's group, the terminal's. */
  g_ptr_array_add (argv, cordon_plan_has_op (request->plan, CORDON_OP_NEW_SESSION)
                          ? g_strdup ("0") : g_strdup_printf ("%d", (int) getpgrp ()));
  /* What the keeper does once cordon is gone: kill the sandbox, unless
   * the policy lets it outlive cordon ([namespaces] die-with-parent=false). */
  g_ptr_array_add (argv, g_strdup (cordon_plan_has_op (request->plan, CORDON_OP_DIE_WITH_PARENT) ? CORDON_KEEPER_KILL : CORDON_KEEPER_LEAVE));
  if (request->stage != NULL)
    {
      g_ptr_array_add (argv, g_strdup (CORDON_KEEPER_ARG_STAGE));
      g_ptr_array_add (argv, g_strdup_printf ("%d", FD_STAGE));
    }
  /* The cgroup instructions come after the stage's fds, if any; the
   * placeholders' after those. */
  if (request->cgroups != NULL && cordon_cgroup_run_any (request->cgroups))
    {
      g_ptr_array_add (argv, g_strdup (CORDON_KEEPER_ARG_CGROUP));
      g_ptr_array_add (argv, g_strdup_printf ("%d", next_fd));
      next_fd += 1 + (int) request->cgroups->parent_fds->len + (request->cgroups->home_fd >= 0 ? 1 : 0);
    }
  if (count_placeholders (request->plan) > 0)
    {
      g_ptr_array_add (argv, g_strdup (CORDON_KEEPER_ARG_PLACEHOLDERS));
      g_ptr_array_add (argv, g_strdup_printf ("%d", next_fd));
    }
  g_ptr_array_add (argv, g_strdup (request->bwrap_path));
  g_ptr_array_add (argv, g_strdup ("--args"));
  g_ptr_array_add (argv, g_strdup_printf ("%d", FD_ARGS));
  /* bwrap 0.8 takes the command from its real argv only, not from --args. */
  g_ptr_array_add (argv, g_strdup ("--"));
  g_ptr_array_add (argv, g_strdup (CORDON_EXEC_SANDBOX_PATH));
  g_ptr_array_add (argv, g_strdup_printf ("%d", FD_READY));
  g_ptr_array_add (argv, g_strdup (CORDON_EXEC_ARG_RLIMITS));
  g_ptr_array_add (argv, rlimits_arg (request->plan));
  if (listened != NULL)
    {
      g_ptr_array_add (argv, g_strdup (CORDON_EXEC_ARG_NOTIFY));
      g_ptr_array_add (argv, g_strdup_printf ("%" G_GSIZE_FORMAT ",%" G_GSIZE_FORMAT, g_bytes_get_size (listened),
                                              g_bytes_get_size (plain)));
    }
  if (request->verify_spec != NULL)
    {
      g_ptr_array_add (argv, g_strdup (CORDON_EXEC_ARG_VERIFY));
      g_ptr_array_add (argv, g_strdup_printf ("%d", FD_SPEC));
      g_ptr_array_add (argv, g_strdup_printf ("%d", FD_GO));
    }
  for (guint i = 0; request->command[i] != NULL; i++)
    g_ptr_array_add (argv, g_strdup (request->command[i]));
  g_ptr_array_add (argv, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&argv), FALSE);
}

static void
close_fds (int *fds,
           guint n)
{
  for (guint i = 0; i < n; i++)
    if (fds[i] >= 0)
      close (fds[i]);
}

/* bwrap's status pipe, the helper's and the keeper's sockets (the
 * helper's: its listener comes with a word). cordon's ends of the first
 * two never block its poll loop (O_NONBLOCK from the start); the keeper's
 * socket blocks: its first word is awaited. On failure, nothing is left
 * open. */
static gboolean
open_channels (int json[2],
               int ready[2],
               int life[2],
               GError **error)
{
  if (pipe2 (json, O_CLOEXEC) == 0 && socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ready) == 0
      && socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, life) == 0
      && fcntl (json[0], F_SETFL, O_NONBLOCK) == 0 && fcntl (ready[0], F_SETFL, O_NONBLOCK) == 0)
    return TRUE;
  g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "pipe: %s", g_strerror (errno));
  close_fds ((int[]) { json[0], json[1], ready[0], ready[1], life[0], life[1] }, 6);
  return FALSE;
}

/* What the keeper's child gets to read: the options, the verification
 * spec and its go pipe, the filter, the stage. -1 for each one absent. */
typedef struct
{
  int memfd;
  int specfd;
  int go[2];
  int filterfd;
  GBytes *listened;           /* cordon-exec's filters, sent on its status socket: the listened */
  GBytes *plain;              /* one, and the one it loads where the kernel gives no listener */
  int stagefd;
  int cgroupfd;
  int placefd;
  GArray *place_parents;      /* int: each placeholder's parent, in the spec's order */
} Inputs;

static void
inputs_close (Inputs *in)
{
  close_fds ((int[]) { in->memfd, in->specfd, in->go[0], in->go[1], in->filterfd, in->stagefd, in->cgroupfd,
                       in->placefd }, 8);
  g_clear_pointer (&in->listened, g_bytes_unref);
  g_clear_pointer (&in->plain, g_bytes_unref);
  if (in->place_parents != NULL)
    close_fds ((int *) in->place_parents->data, in->place_parents->len);
  g_clear_pointer (&in->place_parents, g_array_unref);
}

/* The keeper's placeholders (src/keeper-placeholder.h): a line each, and
 * the fd of its parent, opened now, before anything of the sandbox runs
 * (the keeper resolves no path), through no symlink. */
static gboolean
open_placeholders (const CordonPlan *plan,
                   Inputs *in,
                   GError **error)
{
  g_autoptr(GString) spec = g_string_new (NULL);
  g_autoptr(GBytes) bytes = NULL;

  in->place_parents = g_array_new (FALSE, FALSE, sizeof (int));
  for (guint i = 0; i < plan->ops->len; i++)
    {
      const CordonOp *op = g_ptr_array_index (plan->ops, i);
      g_autofree char *parent = NULL, *name = NULL;
      int fd;

      if (!op->placeholder)
        continue;
      parent = g_path_get_dirname (op->dest);
      name = g_path_get_basename (op->dest);
      /* Through no symlink: one a concurrent sandbox of the same workdir
       * put on the way would have root's keeper make and remove its
       * placeholder elsewhere. */
      if ((fd = cordon_file_open_dir_no_symlink (parent)) < 0)
        {
          g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "cannot open %s, to make the placeholder %s "
                       "in: %s", parent, op->dest, g_strerror (errno));
          return FALSE;
        }
      g_string_append_printf (spec, "%s\t%u\t", CORDON_PLACEHOLDER_LINE, in->place_parents->len);
      cordon_path_append_encoded (spec, name);
      g_string_append_c (spec, '\n');
      g_array_append_val (in->place_parents, fd);
    }
  if (in->place_parents->len == 0)
    return TRUE;
  bytes = g_string_free_to_bytes (g_steal_pointer (&spec));
  return (in->placefd = sealed_memfd (bytes, error)) >= 0;
}

static gboolean
open_inputs (const CordonLaunchRequest *request,
             GBytes *option_bytes,
             Inputs *in,
             GError **error)
{
  if (request->stage != NULL && (in->stagefd = sealed_memfd (request->stage->spec, error)) < 0)
    return FALSE;
  if ((in->memfd = sealed_memfd (option_bytes, error)) < 0)
    return FALSE;
  if (request->verify_spec != NULL && (in->specfd = sealed_memfd (request->verify_spec, error)) < 0)
    return FALSE;
  if (request->verify_spec != NULL && pipe2 (in->go, O_CLOEXEC) != 0)
    {
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "pipe: %s", g_strerror (errno));
      return FALSE;
    }
  /* The filters are made (or read from their cache) by the caller:
   * bwrap's, and with a listener cordon-exec's two. */
  if (request->filter != NULL && (in->filterfd = sealed_memfd (request->filter, error)) < 0)
    return FALSE;
  if (request->filter != NULL && request->seccomp_notify)
    {
      if (request->listened == NULL || request->plain == NULL)
        {
          g_set_error (error, CORDON_ERROR, CORDON_ERROR_FAILED, "cordon-exec's filters were not made");
          return FALSE;
        }
      in->listened = g_bytes_ref (request->listened);
      in->plain = g_bytes_ref (request->plain);
    }
  if (request->cgroups != NULL && cordon_cgroup_run_any (request->cgroups))
    {
      g_autoptr(GBytes) spec = cordon_cgroup_run_spec (request->cgroups);

      if ((in->cgroupfd = sealed_memfd (spec, error)) < 0)
        return FALSE;
    }
  return open_placeholders (request->plan, in, error);
}

/* cordon-exec's filters, ahead of its reading on its status socket
 * (--notify LISTENED,PLAIN): in the socket's buffer before the sandbox
 * starts, so neither side waits; no fd of their own (protocol.h). */
static gboolean
send_filters (const int ready[2],
              const Inputs *in,
              GError **error)
{
  GBytes *both[] = { in->listened, in->plain };

  for (guint i = 0; i < G_N_ELEMENTS (both); i++)
    {
      gsize size;
      const char *data = g_bytes_get_data (both[i], &size);
      ssize_t n;

      while ((n = send (ready[0], data, size, MSG_NOSIGNAL)) < 0 && errno == EINTR)
        ;
      if (n != (ssize_t) size)
        {
          g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "cannot pass the seccomp filter to cordon-exec: %s",
                       n < 0 ? g_strerror (errno) : "a short write");
          return FALSE;
        }
    }
  return TRUE;
}

/* The keeper, with every fd of its child at its slot (see the enum). */
static gboolean
start_keeper (const CordonLaunchRequest *request,
              char **argv,
              char **envp,
              const Inputs *in,
              const int json[2],
              const int ready[2],
              const int life[2],
              pid_t *out_keeper,
              GError **error)
{
  g_autoptr(GArray) fds = g_array_new (FALSE, FALSE, sizeof (int));
  const int fixed[] = { in->memfd, json[1], ready[1], in->specfd, in->go[0], in->filterfd, life[1] };

  /* Each fd's slot is its place in fixed[], counted from FD_ARGS: the
   * numbers the plan's options name (--json-status-fd, --seccomp) and the
   * helpers expect. */
  G_STATIC_ASSERT (FD_JSON == FD_ARGS + 1 && FD_READY == FD_ARGS + 2 && FD_SPEC == FD_ARGS + 3
                   && FD_GO == FD_ARGS + 4 && FD_SECCOMP == FD_ARGS + 5 && FD_LIFE == FD_ARGS + 6
                   && FD_STAGE == FD_ARGS + 7);

  g_array_append_vals (fds, fixed, G_N_ELEMENTS (fixed));
  if (in->stagefd >= 0)
    {
      g_array_append_val (fds, in->stagefd);
      g_array_append_vals (fds, request->stage->fds->data, request->stage->fds->len);
    }
  if (in->cgroupfd >= 0)
    {
      g_array_append_val (fds, in->cgroupfd);
      g_array_append_vals (fds, request->cgroups->parent_fds->data, request->cgroups->parent_fds->len);
      if (request->cgroups->home_fd >= 0)
        g_array_append_val (fds, request->cgroups->home_fd);
    }
  if (in->placefd >= 0)
    {
      g_array_append_val (fds, in->placefd);
      g_array_append_vals (fds, in->place_parents->data, in->place_parents->len);
    }
  return spawn_keeper (argv, envp, (const int *) fds->data, fds->len, out_keeper, error);
}

/* The keeper into the run's scope, then told so ("M"). On failure the
 * keeper, waiting, is ended: it has started nothing. */
static gboolean
place_keeper (const CordonLaunchRequest *request,
              pid_t keeper,
              int life_fd,
              GError **error)
{
  const char placed = CORDON_KEEPER_PLACED;

  if (cordon_cgroup_run_start_scope (request->cgroups, request->plan, keeper, error)
      && write (life_fd, &placed, 1) == 1)
    return TRUE;
  if (error != NULL && *error == NULL)
    g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "cannot tell cordon-keeper: %s", g_strerror (errno));
  kill (keeper, SIGKILL);
  while (waitpid (keeper, NULL, 0) < 0 && errno == EINTR)
    ;
  return FALSE;
}

gboolean
cordon_launch_start (const CordonLaunchRequest *request,
                     CordonLaunch *out_launch,
                     GError **error)
{
  g_autoptr(GBytes) option_bytes = cordon_bwrap_argv_to_nul (request->argv);
  g_auto(GStrv) argv = NULL;
  g_autofree char **envp = g_new0 (char *, request->plan->envp->len + 1);
  int json[2] = { -1, -1 }, ready[2] = { -1, -1 }, life[2] = { -1, -1 };
  Inputs in = { -1, -1, { -1, -1 }, -1, NULL, NULL, -1, -1, -1, NULL };
  gboolean ok;
  pid_t pid = 0, keeper = 0;
  int go;

  for (guint i = 0; i < request->plan->envp->len; i++)
    envp[i] = g_ptr_array_index (request->plan->envp, i);
  if (!open_inputs (request, option_bytes, &in, error) || !open_channels (json, ready, life, error))
    {
      inputs_close (&in);
      return FALSE;
    }
  if (in.listened != NULL && !send_filters (ready, &in, error))
    {
      inputs_close (&in);
      close_fds ((int[]) { json[0], json[1], ready[0], ready[1], life[0], life[1] }, 6);
      return FALSE;
    }
  argv = build_argv (request, in.listened, in.plain);
  ok = start_keeper (request, argv, envp, &in, json, ready, life, &keeper, error);
  /* SYSTEMD: the keeper waits for its scope before it starts bwrap. */
  if (ok && request->cgroups != NULL && request->cgroups->mechanism == CORDON_CGROUP_SYSTEMD
      && cordon_cgroup_run_any (request->cgroups))
    ok = place_keeper (request, keeper, life[0], error);
  /* The child's ends are the child's: cordon keeps only its own. */
  go = in.go[1];
  in.go[1] = -1;
  inputs_close (&in);
  close_fds ((int[]) { json[1], ready[1], life[1] }, 3);
  if (ok && !cordon_launch_read_keeper_word (life[0], request->bwrap_path, &pid, error))
    {
      while (waitpid (keeper, NULL, 0) < 0 && errno == EINTR)
        ;
      ok = FALSE;
    }
  if (!ok)
    {
      close_fds ((int[]) { json[0], ready[0], go, life[0] }, 4);
      return FALSE;
    }
  out_launch->pid = pid;
  out_launch->go_fd = go;
  out_launch->keeper_pid = keeper;
  out_launch->life_fd = life[0];
  out_launch->status_fd = json[0];
  out_launch->ready_fd = ready[0];
  return TRUE;
}
