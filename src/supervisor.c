/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* supervisor: one poll loop over a signalfd, bwrap's status fd, the
 * helper's ready fd and a timerfd. It never trusts the sandbox to end by
 * itself: when bwrap is gone, or the timeout passes, every descendant of
 * cordon is killed. cordon and bwrap's keeper are both subreapers, so an
 * orphan comes to the keeper, or to cordon once the keeper is gone: none
 * escapes from below cordon by setsid() or a double fork. The keeper is
 * cordon's child and ends as bwrap ended, so its status is bwrap's. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cordon-error.h"
#include "json-writer.h"
#include "proc-read.h"
#include "protocol.h"
#include "supervisor.h"

static const int forwarded_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

typedef struct
{
  CordonLaunch *launch;
  const CordonSuperviseOptions *opts;
  int sigfd;
  int timerfd;
  gboolean ready;
  gboolean bwrap_done;
  gboolean timed_out;
  gboolean in_grace;
  int bwrap_status;
  int early_signal;
  int exec_errno;
  int keyring_errno;
  int fork_errno;
  int forwarded;
  gboolean verify_failed;
  gboolean verified_only;
  gboolean released;        /* CORDON_EXEC_GO was sent: the command may start */
  pid_t child_pid;
  int listener;             /* the filter's, once the helper sent it with "N" */
  int pending_listener;     /* an fd that came with the helper's bytes, not yet its "N" */
  gboolean said;            /* a word of the helper's other than "N" or "L" was read */
  gboolean filtered;        /* "N" or "L" was: the helper's own filter is loaded */
  GString *json;
  GString *status;
  GThread *looking;         /* the checks from outside, while the helper makes its own */
  GThread *loading_json;    /* json-glib, for the report, while bwrap sets the sandbox up */
  CordonOutsideLook look;   /* what they found, once joined */
  pid_t looked_at;          /* the helper they looked at */
  gint64 t_start;
  gint64 t_ready;
  guint n_killed;
} Supervisor;

static void
clear_fd (int *fd)
{
  if (*fd >= 0)
    close (*fd);
  *fd = -1;
}

static void
blocked_set (sigset_t *set)
{
  sigemptyset (set);
  sigaddset (set, SIGCHLD);
  for (guint i = 0; i < G_N_ELEMENTS (forwarded_signals); i++)
    sigaddset (set, forwarded_signals[i]);
}

/* Before the fork: signals queue for the signalfd from now on (none is
 * lost between fork and poll), and orphans of the sandbox come to us. */
gboolean
cordon_supervisor_prepare (GError **error)
{
  sigset_t set;

  blocked_set (&set);
  /* Inherited ignored, SIGCHLD would have the kernel reap the keeper
   * unseen, and cordon wait for its end for ever. */
  if (signal (SIGCHLD, SIG_DFL) == SIG_ERR || sigprocmask (SIG_BLOCK, &set, NULL) != 0
      || prctl (PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0)
    {
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST,
                   "cannot become the sandbox's subreaper: %s", g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}

/* Every live process below `root`. As cordon is a subreaper, a process
 * that left its parent by setsid() and a double fork is still below it. */
static GArray *
descendants (pid_t root)
{
  CordonPidList all = { 0 };
  GArray *live = g_array_new (FALSE, FALSE, sizeof (pid_t));

  cordon_proc_descendants (root, &all);
  for (size_t i = 0; i < all.len; i++)
    {
      pid_t ppid;
      char state;

      if (cordon_proc_stat (all.pids[i], &state, &ppid) == 0 && state != 'Z')
        g_array_append_val (live, all.pids[i]);
    }
  cordon_pid_list_clear (&all);
  return live;
}

/* cordon and every live process below it: the parents a descendant may
 * legitimately have. */
static GArray *
family_of_cordon (void)
{
  g_autoptr(GArray) below = descendants (getpid ());
  GArray *family = g_array_new (FALSE, FALSE, sizeof (pid_t));
  pid_t self = getpid ();

  g_array_append_val (family, self);
  g_array_append_vals (family, below->data, below->len);
  return family;
}

/* Signals `pid` only if it is still one of ours: it is pinned with a
 * pidfd first, then its parent is checked against the family just
 * listed, so a number reused by an unrelated process is left alone. */
static gboolean
signal_descendant (pid_t pid,
                   const GArray *family,
                   int sig)
{
  int pidfd = (int) syscall (SYS_pidfd_open, pid, 0);
  gboolean ours = FALSE, sent = FALSE;
  pid_t ppid;
  char state;

  /* Before Linux 5.3 there are no pidfds: kill by number, after the same
   * parent check (a narrower, not a closed, window for reuse). */
  if (pidfd < 0 && errno != ENOSYS)
    return FALSE;
  if (cordon_proc_stat (pid, &state, &ppid) == 0)
    for (guint i = 0; i < family->len && !ours; i++)
      ours = g_array_index (family, pid_t, i) == ppid;
  if (ours && pidfd >= 0)
    sent = syscall (SYS_pidfd_send_signal, pidfd, sig, NULL, 0) == 0;
  else if (ours)
    sent = kill (pid, sig) == 0;
  if (pidfd >= 0)
    close (pidfd);
  return sent;
}

static void
reap (Supervisor *sv)
{
  int status;
  pid_t pid;

  while ((pid = waitpid (-1, &status, WNOHANG)) > 0)
    if (pid == sv->launch->keeper_pid)
      {
        sv->bwrap_done = TRUE;
        sv->bwrap_status = status;
      }
}

/* The sandbox's own processes: every descendant but the keeper, bwrap's
 * monitor and, with a pid namespace, its init, cordon-exec (which ignores what it
 * has no handler for, and whose death would SIGKILL everything at once). */
static void
signal_sandbox (Supervisor *sv,
                int sig)
{
  g_autoptr(GArray) family = family_of_cordon ();

  for (guint i = 1; i < family->len; i++)
    {
      pid_t pid = g_array_index (family, pid_t, i);

      if (pid == sv->launch->keeper_pid || pid == sv->launch->pid
          || (sv->opts->pid_namespace && pid == sv->child_pid))
        continue;
      signal_descendant (pid, family, sig);
    }
}

/* Reaps until cordon has no child left, polling briefly: everything below
 * has just been sent SIGKILL, so each of our children dies promptly, and
 * when none is left no descendant is either. Bounded (about 100 ms), so a
 * process stuck in the kernel cannot hang cordon here. */
static void
wait_children (Supervisor *sv)
{
  for (guint i = 0; i < 1000; i++)
    {
      int status;
      pid_t pid = waitpid (-1, &status, WNOHANG);

      if (pid < 0 && errno == ECHILD)
        return;
      if (pid == sv->launch->keeper_pid)
        {
          sv->bwrap_done = TRUE;
          sv->bwrap_status = status;
        }
      if (pid <= 0)
        g_usleep (100);
    }
}

/* SIGKILL to every descendant until none is left: what forks while we
 * kill is found on the next round. Bounded in time (10 s): a process that
 * SIGKILL does not end by then is stuck in the kernel, and cordon must
 * still exit. */
static void
kill_everything (Supervisor *sv)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  gint64 keeper_deadline = deadline - 2 * G_USEC_PER_SEC;

  reap (sv);
  for (guint round = 0; round < 1000 && g_get_monotonic_time () < deadline; round++)
    {
      g_autoptr(GArray) family = family_of_cordon ();

      if (family->len == 1)
        break;
      /* The pid namespace's init first: its death takes every process
       * of the namespace with it, at once and whatever they do. */
      for (guint i = 1; sv->opts->pid_namespace && sv->child_pid > 0 && i < family->len; i++)
        if (g_array_index (family, pid_t, i) == sv->child_pid)
          signal_descendant (sv->child_pid, family, SIGKILL);
      for (guint i = 1; i < family->len; i++)
        {
          pid_t pid = g_array_index (family, pid_t, i);

          /* The keeper ends once bwrap has, after it has emptied and
           * removed the sandbox's cgroups: it is killed only if it
           * does not, late. */
          if (pid == sv->launch->keeper_pid && g_get_monotonic_time () < keeper_deadline)
            continue;
          if (signal_descendant (pid, family, SIGKILL))
            sv->n_killed++;
        }
      wait_children (sv);
    }
}

static void
on_json (Supervisor *sv)
{
  char buf[512];
  ssize_t n;
  const char *at;

  while ((n = read (sv->launch->status_fd, buf, sizeof buf)) > 0)
    g_string_append_len (sv->json, buf, n);
  at = strstr (sv->json->str, "\"child-pid\":");
  if (at != NULL && sv->child_pid == 0)
    sv->child_pid = (pid_t) strtol (at + strlen ("\"child-pid\":"), NULL, 10);
}

static gpointer
look_outside (gpointer data)
{
  Supervisor *sv = data;

  cordon_verify_look_outside (sv->opts->verify, sv->looked_at, sv->launch->pid, &sv->look);
  return NULL;
}

static gpointer
load_json (gpointer data)
{
  cordon_json_load (NULL);
  return NULL;
}

/* The helper is set up (its first word): all that it is and holds but
 * its fds is settled, and cordon looks at it from outside on the other
 * CPU while the helper makes its checks (issue 16); this thread goes on
 * answering the filter's notifications and reading results. Only where
 * bwrap has told the helper's pid already; else all waits for "W". */
static void
start_looking (Supervisor *sv)
{
  on_json (sv);
  if (sv->opts->verify == NULL || sv->child_pid <= 0 || sv->looking != NULL)
    return;
  sv->looked_at = sv->child_pid;
  sv->looking = g_thread_try_new ("cordon-look", look_outside, sv, NULL);
}

/* The look from outside, finished; NULL's where none was started. */
static gboolean
finish_looking (Supervisor *sv)
{
  if (sv->looking == NULL)
    return FALSE;
  g_thread_join (g_steal_pointer (&sv->looking));
  return TRUE;
}

/* The helper waits, stopped before exec, for cordon's own checks on it
 * from outside. Its pid is bwrap's child's, child_pid: with a pid
 * namespace it is the namespace's init (bwrap --as-pid-1). */
static void
on_wait (Supervisor *sv)
{
  CordonVerify *v = sv->opts->verify;
  pid_t helper = sv->child_pid;
  char word = CORDON_EXEC_STOP;

  on_json (sv);
  cordon_stopwatch_hand_over (sv->opts->times, CORDON_PHASE_INSIDE_CHECKS, CORDON_PHASE_OUTSIDE_CHECKS);
  /* What was looked at while it made its checks, then its fds; all of
   * it now where nothing was (or another pid was looked at). */
  if (finish_looking (sv) && v != NULL && helper == sv->looked_at)
    {
      cordon_verify_take_look (v, &sv->look);
      cordon_verify_outside_fds (v, helper);
    }
  else if (v != NULL && helper > 0)
    cordon_verify_outside (v, helper, sv->launch->pid);
  /* Before the command may write the workdir (json-writer.h: where the
   * loader may look); loaded beside bwrap's setup, as a rule. A failure
   * is the report's to tell. */
  if (sv->loading_json != NULL)
    g_thread_join (g_steal_pointer (&sv->loading_json));
  else if (sv->opts->load_json)
    cordon_json_load (NULL);
  cordon_stopwatch_end (sv->opts->times, CORDON_PHASE_OUTSIDE_CHECKS);
  /* A bogus or unasked result seen earlier fails the run too. */
  if (v == NULL || helper <= 0 || sv->verify_failed || !cordon_verify_passed (v))
    sv->verify_failed = TRUE;
  else if (sv->opts->verify_only)
    sv->verified_only = TRUE;
  else
    {
      word = CORDON_EXEC_GO;
      sv->released = TRUE;
      cordon_stopwatch_begin (sv->opts->times, CORDON_PHASE_RELEASE);
    }
  /* CORDON_EXEC_GO releases the command; anything else, or no word, stops it. */
  if (sv->launch->go_fd >= 0 && write (sv->launch->go_fd, &word, 1) != 1)
    sv->verify_failed = TRUE;
  clear_fd (&sv->launch->go_fd);
}

/* The helper's "N": the listener that came with it, the first word, where
 * one was asked for. Anything else is a helper not doing what it was
 * told, and fails the run: a listener not answered would leave every
 * refusal of the profile ENOSYS, and one never asked for is not taken. */
static void
on_listener (Supervisor *sv)
{
  if (sv->opts->seccomp_notify && sv->listener < 0 && sv->pending_listener >= 0 && !sv->said)
    {
      sv->listener = sv->pending_listener;
      sv->pending_listener = -1;
      sv->filtered = TRUE;
      if (sv->opts->denials != NULL)
        sv->opts->denials->listened = TRUE;
      return;
    }
  clear_fd (&sv->pending_listener);
  sv->verify_failed = TRUE;
  kill_everything (sv);
}

/* The helper's "L<errno>": no listener to be had (EBUSY: a filter above
 * cordon's has one), the plain filter loaded instead, the first word.
 * The refusals hold, unnamed (seccomp_denials null; cordon doctor says
 * why). */
static void
on_unlistened (Supervisor *sv)
{
  if (sv->opts->seccomp_notify && !sv->filtered && !sv->said)
    {
      sv->filtered = TRUE;
      return;
    }
  sv->verify_failed = TRUE;
  kill_everything (sv);
}

/* A refused call of the sandbox's, answered; counted once the command
 * may run (before, the refusals are the checks' own probes). */
static void
on_notification (Supervisor *sv)
{
  gboolean counted = sv->released || (sv->opts->verify == NULL && sv->ready);

  if (!cordon_seccomp_notify_answer (sv->listener, counted ? sv->opts->denials : NULL))
    clear_fd (&sv->listener);
}

/* The helper's "R": the command is being exec'd. With verification, it
 * may start only after cordon said go: an "R" before that is a helper
 * that skipped the gate. */
static void
on_running (Supervisor *sv)
{
  const char released = CORDON_KEEPER_RELEASED;

  if (sv->opts->verify != NULL && !sv->released)
    {
      sv->verify_failed = TRUE;
      kill_everything (sv);
      return;
    }
  if (sv->ready)
    return;
  sv->ready = TRUE;
  cordon_stopwatch_hand_over (sv->opts->times, CORDON_PHASE_RELEASE, CORDON_PHASE_RUN);
  /* The sandbox is released and the command starting: from now on a
   * keeper told to leave the sandbox alive may (before, a half-made
   * sandbox would be stranded). A keeper gone already cannot read it;
   * bwrap's end tells the rest. */
  if (sv->launch->life_fd >= 0 && write (sv->launch->life_fd, &released, 1) != 1)
    clear_fd (&sv->launch->life_fd);
  sv->t_ready = g_get_monotonic_time ();
}

/* One line from cordon-exec. */
static void
on_status_line (Supervisor *sv,
                const char *line)
{
  /* Asked to load its filter first, a helper that waits for release, or
   * starts the command, without saying it did is not believed (its
   * checks' results are kept: they say what the sandbox lacks). */
  /* Its first word: bwrap has made the sandbox, cordon-exec is set up. */
  if (!sv->said && !sv->filtered)
    {
      cordon_stopwatch_end (sv->opts->times, CORDON_PHASE_BWRAP_SETUP);
      if (sv->opts->verify != NULL)
        {
          cordon_stopwatch_begin (sv->opts->times, CORDON_PHASE_INSIDE_CHECKS);
          start_looking (sv);
        }
    }
  if (sv->opts->seccomp_notify && !sv->filtered
      && (line[0] == CORDON_EXEC_WAITING || line[0] == CORDON_EXEC_RUNNING))
    {
      sv->verify_failed = TRUE;
      kill_everything (sv);
      sv->said = TRUE;
      return;
    }
  switch (line[0])
    {
    case CORDON_EXEC_RUNNING:
      on_running (sv);
      break;
    case CORDON_EXEC_EXEC_ERRNO:
      sv->exec_errno = (int) strtol (line + 1, NULL, 10);
      break;
    case CORDON_EXEC_SETUP_ERRNO:
      sv->keyring_errno = (int) strtol (line + 1, NULL, 10);
      break;
    case CORDON_EXEC_FORK_ERRNO:
      sv->fork_errno = (int) strtol (line + 1, NULL, 10);
      break;
    case CORDON_EXEC_LISTENER:
      on_listener (sv);
      return;
    case CORDON_EXEC_UNLISTENED:
      on_unlistened (sv);
      return;
    case CORDON_EXEC_RESULT:
      /* A result for a check cordon did not ask for is not believed. */
      if (sv->opts->verify == NULL || !cordon_verify_record (sv->opts->verify, line))
        sv->verify_failed = TRUE;
      break;
    case CORDON_EXEC_FAILED:
      sv->verify_failed = TRUE;
      break;
    case CORDON_EXEC_WAITING:
      on_wait (sv);
      break;
    default:
      sv->verify_failed = TRUE;
      break;
    }
  sv->said = TRUE;
}

/* What the helper wrote, and an fd that came with it (SCM_RIGHTS): the
 * first is kept for its "N", any other closed. */
static ssize_t
receive (Supervisor *sv,
         char *buf,
         size_t size)
{
  union { char buf[CMSG_SPACE (4 * sizeof (int))]; struct cmsghdr align; } control;
  struct iovec iov = { buf, size };
  struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf,
                        .msg_controllen = sizeof control.buf };
  ssize_t n = recvmsg (sv->launch->ready_fd, &msg, MSG_CMSG_CLOEXEC);

  for (struct cmsghdr *c = n >= 0 ? CMSG_FIRSTHDR (&msg) : NULL; c != NULL; c = CMSG_NXTHDR (&msg, c))
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
      for (size_t i = 0; i < (c->cmsg_len - CMSG_LEN (0)) / sizeof (int); i++)
        {
          int fd;

          memcpy (&fd, CMSG_DATA (c) + i * sizeof (int), sizeof fd);
          if (sv->pending_listener < 0 && sv->listener < 0 && !sv->said && cordon_seccomp_notify_is_listener (fd))
            sv->pending_listener = fd;
          else
            close (fd);
        }
  return n;
}

static void
on_ready (Supervisor *sv)
{
  char buf[4096];
  ssize_t n;
  char *nl;

  while (sv->launch->ready_fd >= 0 && (n = receive (sv, buf, sizeof buf)) > 0)
    g_string_append_len (sv->status, buf, n);
  while ((nl = memchr (sv->status->str, '\n', sv->status->len)) != NULL)
    {
      *nl = '\0';
      on_status_line (sv, sv->status->str);
      g_string_erase (sv->status, 0, nl - sv->status->str + 1);
    }
}

static void
arm_timer (Supervisor *sv,
           guint64 ms)
{
  struct itimerspec its = { { 0, 0 }, { (time_t) (ms / 1000), (long) (ms % 1000) * 1000000L } };

  if (ms == 0)
    its.it_value.tv_nsec = 1;
  timerfd_settime (sv->timerfd, 0, &its, NULL);
}

static void
on_timer (Supervisor *sv)
{
  guint64 expirations;

  if (read (sv->timerfd, &expirations, sizeof expirations) < 0)
    return;
  on_ready (sv);
  if (!sv->ready)
    {
      /* Out of time before the command even started: it never will. */
      sv->timed_out = TRUE;
      kill_everything (sv);
      return;
    }
  if (!sv->timed_out)
    {
      /* First SIGTERM, so the command may clean up; then no choice. */
      sv->timed_out = TRUE;
      signal_sandbox (sv, SIGTERM);
      arm_timer (sv, sv->opts->kill_after_ms);
      return;
    }
  kill_everything (sv);
}

static void
on_signal (Supervisor *sv)
{
  struct signalfd_siginfo info;

  /* "R" may have arrived in the same poll round: a command that started
   * gets the signal forwarded, it is not reported as never started. */
  on_ready (sv);
  while (read (sv->sigfd, &info, sizeof info) == sizeof info)
    {
      if ((int) info.ssi_signo == SIGCHLD)
        continue;
      if (sv->ready)
        {
          sv->forwarded = (int) info.ssi_signo;
          signal_sandbox (sv, (int) info.ssi_signo);
        }
      else
        {
          /* Asked to stop before the command started: do not start it. */
          sv->early_signal = (int) info.ssi_signo;
          kill_everything (sv);
        }
    }
  reap (sv);
}


/* "USER-US SYSTEM-US MAX-RSS-KIB", the text of the keeper's "U": three
 * decimal numbers, one space apart, and nothing else. A word that is not
 * exactly that leaves the usage unknown, never partly guessed. */
gboolean
cordon_supervisor_parse_usage (const char *text,
                               CordonUsage *out_usage)
{
  g_auto(GStrv) fields = g_strsplit (text, " ", -1);
  guint64 values[3];

  if (g_strv_length (fields) != G_N_ELEMENTS (values))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    if (!g_ascii_string_to_unsigned (fields[i], 10, 0, G_MAXINT64, &values[i], NULL))
      return FALSE;
  out_usage->known = TRUE;
  out_usage->user_us = values[0];
  out_usage->system_us = values[1];
  out_usage->max_rss_kib = values[2];
  return TRUE;
}

/* The keeper's last lines, the counters of the sandbox's cgroups (into
 * `stats`, when given) and what its processes used: all written before
 * it ended (it is reaped), so none is waited for. */
static void
read_keeper_words (int life_fd,
                   CordonCgroupStats *stats,
                   CordonUsage *usage)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_auto(GStrv) lines = NULL;
  char buf[4096];
  ssize_t n;

  while ((n = recv (life_fd, buf, sizeof buf, MSG_DONTWAIT)) > 0 || (n < 0 && errno == EINTR))
    if (n > 0)
      g_string_append_len (text, buf, n);
  lines = g_strsplit (text->str, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] == CORDON_KEEPER_COUNTER && stats != NULL)
      cordon_cgroup_stats_take_line (stats, lines[i] + 1);
    else if (lines[i][0] == CORDON_KEEPER_USAGE && !cordon_supervisor_parse_usage (lines[i] + 1, usage))
      memset (usage, 0, sizeof *usage);
}

static void
poll_until_done (Supervisor *sv)
{
  while (!sv->bwrap_done)
    {
      struct pollfd fds[5] = {
        { sv->sigfd, POLLIN, 0 },
        { sv->launch->status_fd, POLLIN, 0 },
        { sv->launch->ready_fd, POLLIN, 0 },
        { sv->timerfd, POLLIN, 0 },
        { sv->listener, POLLIN, 0 },
      };

      /* A hung-up pipe stays readable: stop watching it once drained. */
      if (poll (fds, G_N_ELEMENTS (fds), -1) < 0 && errno != EINTR)
        break;
      if (fds[0].revents & POLLIN)
        on_signal (sv);
      if (fds[1].revents & (POLLIN | POLLHUP))
        on_json (sv);
      if (fds[1].revents & POLLHUP)
        clear_fd (&sv->launch->status_fd);
      if (fds[2].revents & (POLLIN | POLLHUP))
        on_ready (sv);
      if (fds[2].revents & POLLHUP)
        clear_fd (&sv->launch->ready_fd);
      if (fds[3].revents & POLLIN)
        on_timer (sv);
      /* POLLHUP: no process of the filter is left. */
      if (fds[4].revents & POLLIN)
        on_notification (sv);
      else if (fds[4].revents & (POLLHUP | POLLERR | POLLNVAL))
        clear_fd (&sv->listener);
      reap (sv);
    }
}

/* The first that applies: a signal before the command started (128+N),
 * the timeout (124), a denial that did not hold before release (125),
 * verified and stopped (0), bwrap gone before release (125), a command
 * that could not be executed (127 or 126), else the command's own status.
 * A failure of verification after release (a bogus late line) does not
 * hide the status of a command that ran. */
void
cordon_supervisor_fill_result (const CordonRunFacts *facts,
                               CordonRunResult *out_result)
{
  CordonRunResult *r = out_result;

  memset (r, 0, sizeof *r);
  r->child_pid = facts->child_pid;
  r->exec_errno = facts->exec_errno;
  r->keyring_errno = facts->keyring_errno;
  r->fork_errno = facts->fork_errno;
  if (facts->early_signal != 0)
    {
      r->outcome = CORDON_OUTCOME_SIGNALED;
      r->exit_status = 128 + facts->early_signal;
    }
  else if (facts->timed_out)
    {
      r->outcome = CORDON_OUTCOME_TIMED_OUT;
      r->exit_status = 124;
    }
  else if (facts->verify_failed && (!facts->ready || facts->verify_only))
    {
      r->outcome = CORDON_OUTCOME_VERIFY_FAILED;
      r->exit_status = 125;
    }
  else if (facts->verified_only)
    {
      r->outcome = CORDON_OUTCOME_VERIFIED;
      r->exit_status = 0;
    }
  else if (!facts->ready)
    {
      r->outcome = CORDON_OUTCOME_LAUNCH_FAILED;
      r->exit_status = 125;
    }
  else if (facts->exec_errno != 0)
    {
      gboolean missing = facts->exec_errno == ENOENT || facts->exec_errno == ENOTDIR;

      r->outcome = missing ? CORDON_OUTCOME_NOT_FOUND : CORDON_OUTCOME_NOT_EXECUTABLE;
      r->exit_status = missing ? 127 : 126;
    }
  else
    {
      r->outcome = CORDON_OUTCOME_EXITED;
      r->exit_status = WIFEXITED (facts->bwrap_status) ? WEXITSTATUS (facts->bwrap_status)
                                                       : 128 + WTERMSIG (facts->bwrap_status);
      /* bwrap reports a command killed by signal N as 128+N, as a shell does. */
      if (r->exit_status > 128 && r->exit_status < 128 + NSIG)
        r->term_signal = r->exit_status - 128;
    }
}

static void
fill_result (Supervisor *sv,
             CordonRunResult *r)
{
  CordonRunFacts facts = {
    .ready = sv->ready,
    .timed_out = sv->timed_out,
    .bwrap_status = sv->bwrap_status,
    .early_signal = sv->early_signal,
    .exec_errno = sv->exec_errno,
    .keyring_errno = sv->keyring_errno,
    .fork_errno = sv->fork_errno,
    .verify_failed = sv->verify_failed,
    .verify_only = sv->opts->verify_only,
    .verified_only = sv->verified_only,
    .child_pid = sv->child_pid,
  };

  cordon_supervisor_fill_result (&facts, r);
  r->forwarded_signal = sv->forwarded;
  r->n_killed = sv->n_killed;
  r->launch_us = sv->ready ? (guint64) (sv->t_ready - sv->t_start) : 0;
}

/* The poll loop, with what runs beside it: with verification the command
 * waits for cordon's go, and json-glib (for a report) is loaded on the
 * other CPU meanwhile, joined before the go; the look from outside. Both
 * are joined before the teardown: a sandbox gone before its "W" has its
 * look dropped, not recorded. */
static void
supervise_threads (Supervisor *sv)
{
  if (sv->opts->load_json && sv->opts->verify != NULL)
    sv->loading_json = g_thread_try_new ("cordon-json", load_json, NULL, NULL);
  poll_until_done (sv);
  if (sv->loading_json != NULL)
    g_thread_join (g_steal_pointer (&sv->loading_json));
  finish_looking (sv);
  cordon_verify_outside_look_clear (&sv->look);
}

gboolean
cordon_supervise (CordonLaunch *launch,
                  const CordonSuperviseOptions *options,
                  CordonRunResult *out_result,
                  GError **error)
{
  Supervisor sv = { 0 };
  sigset_t set;

  sv.launch = launch;
  sv.opts = options;
  sv.listener = sv.pending_listener = -1;
  sv.t_start = g_get_monotonic_time ();
  sv.json = g_string_new (NULL);
  sv.status = g_string_new (NULL);
  blocked_set (&set);
  sv.sigfd = signalfd (-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
  sv.timerfd = timerfd_create (CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
  if (sv.sigfd < 0 || sv.timerfd < 0)
    {
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "signalfd/timerfd: %s", g_strerror (errno));
      kill_everything (&sv);
      clear_fd (&sv.sigfd);
      clear_fd (&sv.timerfd);
      clear_fd (&launch->ready_fd);
      clear_fd (&launch->status_fd);
      g_string_free (sv.json, TRUE);
      g_string_free (sv.status, TRUE);
      clear_fd (&launch->go_fd);
      clear_fd (&launch->life_fd);
      return FALSE;
    }
  if (options->timeout_ms > 0)
    arm_timer (&sv, options->timeout_ms);
  supervise_threads (&sv);
  cordon_stopwatch_hand_over (options->times, CORDON_PHASE_RUN, CORDON_PHASE_TEARDOWN);
  /* Late bytes: "R" or "E<errno>" may still sit in the pipes. */
  if (launch->ready_fd >= 0)
    on_ready (&sv);
  if (launch->status_fd >= 0)
    on_json (&sv);
  clear_fd (&launch->ready_fd);
  clear_fd (&launch->status_fd);
  clear_fd (&sv.pending_listener);
  /* Whatever the sandbox left running (without a pid namespace, a
   * background job of the command) ends with it. */
  kill_everything (&sv);
  fill_result (&sv, out_result);
  if (launch->life_fd >= 0)
    read_keeper_words (launch->life_fd, options->counters, &out_result->usage);
  close (sv.sigfd);
  close (sv.timerfd);
  /* After the kill: a process stopped in a refused call is gone, not
   * left to get ENOSYS. (A sandbox left running, die-with-parent=false,
   * gets ENOSYS from now on: refused still.) */
  clear_fd (&sv.listener);
  clear_fd (&launch->go_fd);
  /* The keeper is gone (reaped above): nobody writes this any more. */
  clear_fd (&launch->life_fd);
  g_string_free (sv.json, TRUE);
  g_string_free (sv.status, TRUE);
  return TRUE;
}
