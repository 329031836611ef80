/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cgroup-prime: see cgroup-prime.h. The thread names itself by its
 * thread id in `tasks`: a move of "0" (the calling thread) skips the
 * lock, and a move of the whole of cordon (cgroup.procs) would move the
 * process back should something have moved it meanwhile; a thread that
 * ends at once can be moved anywhere without harm. It starts with every
 * signal blocked: the supervisor takes cordon's signals from a signalfd
 * (src/supervisor.c), and a thread that let one through would have it
 * delivered there (a SIGCHLD lost, a SIGTERM taken by its default). */
#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "cgroup-prime.h"

static gpointer
prime_thread (gpointer data)
{
  g_autofree char *tasks = data;
  char tid[32];
  int fd = open (tasks, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);

  if (fd >= 0)
    {
      g_snprintf (tid, sizeof tid, "%d", (int) gettid ());
      /* The result is no concern: the keeper's own move is checked. */
      (void) !write (fd, tid, strlen (tid));
      close (fd);
    }
  return NULL;
}

void
cordon_cgroup_prime (const CordonPlan *plan)
{
  const CordonCgroupDir *dir;
  GThread *thread;
  char *tasks;
  sigset_t all, saved;

  if (plan->cgroup_mechanism != CORDON_CGROUP_V1 || plan->cgroup_dirs->len == 0)
    return;
  dir = g_ptr_array_index (plan->cgroup_dirs, 0);
  sigfillset (&all);
  if (pthread_sigmask (SIG_SETMASK, &all, &saved) != 0)
    return;
  tasks = g_build_filename (dir->parent, "tasks", NULL);
  thread = g_thread_try_new ("cordon-prime", prime_thread, tasks, NULL);
  if (thread != NULL)
    g_thread_unref (thread);
  else
    g_free (tasks);
  pthread_sigmask (SIG_SETMASK, &saved, NULL);
}
