/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* exec-checks: each check attempts the escape for real and reports what
 * happened on the status fd as "V<TAB>ID<TAB>ok|fail<TAB>ERRNO<TAB>DETAIL".
 * A check passes when the attempt fails the way the policy promises.
 * Details name paths and variable names, never a variable's value. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec-checks.h"
#include "proc-read.h"
#include "protocol.h"
#include "seccomp-probes.h"
#include "sha256.h"
#include "spec-codec.h"

#define KEYCTL_READ 11
#define KEY_SPEC_SESSION_KEYRING -3

void
cordon_exec_write (int fd,
                   const char *text)
{
  size_t len = strlen (text);

  while (len > 0)
    {
      ssize_t n = write (fd, text, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return;
      text += n;
      len -= (size_t) n;
    }
}

typedef struct
{
  void (*fn) (void *);
  void *arg;
  int pinned;                 /* the parent runs on one CPU until the child is done */
  cpu_set_t cpus;             /* the CPUs it may run on otherwise */
  int err;                    /* why the child could not run fn */
} Spawn;

/* The child, on the parent's CPU: the parent's CPUs back (the command
 * must not inherit the pin), then fn, which does not return. */
static void
spawn_child (Spawn *sp)
{
  if (sp->pinned && sched_setaffinity (0, sizeof sp->cpus, &sp->cpus) != 0)
    {
      sp->err = errno;
      _exit (127);
    }
  sp->fn (sp->arg);
  _exit (127);
}

/* vfork() in a frame of its own, which the child never returns from:
 * nothing of the caller's is live in registers across it. */
static pid_t __attribute__ ((noinline))
spawn_vfork (Spawn *sp)
{
  pid_t pid = vfork ();

  if (pid == 0)
    spawn_child (sp);
  return pid;
}

/* This process held to the CPU it runs on: 1, or 0 (it is not). */
static int
pin (Spawn *sp)
{
  int cpu = sched_getcpu ();
  cpu_set_t here;

  if (cpu < 0 || sched_getaffinity (0, sizeof sp->cpus, &sp->cpus) != 0)
    return 0;
  CPU_ZERO (&here);
  CPU_SET (cpu, &here);
  return sched_setaffinity (0, sizeof here, &here) == 0;
}

pid_t
cordon_exec_spawn (void (*fn) (void *),
                   void *arg)
{
  Spawn sp = { fn, arg, 0, { { 0 } }, 0 };
  pid_t pid;
  int saved;

  /* The child starts where this process stops for it, on its CPU: left
   * to the scheduler, it would often start on the other one, which has
   * to be woken or is busy with another's work (milliseconds on a loaded
   * guest), and this process be woken back from there. */
  sp.pinned = pin (&sp);
  /* No signal handler is installed in cordon-exec: none can run in the
   * child on this process's stack, nor here while the child holds it. */
  pid = spawn_vfork (&sp);
  saved = errno;
  if (sp.pinned)
    sched_setaffinity (0, sizeof sp.cpus, &sp.cpus);
  if (pid > 0 && sp.err != 0)
    {
      /* Not run as it should be: reaped here, told as a failed start. */
      waitpid (pid, NULL, 0);
      pid = -1;
      saved = sp.err;
    }
  errno = saved;
  return pid;
}

void
cordon_checker_flush (CordonChecker *ck,
                      const char *last)
{
  size_t len = last != NULL ? strlen (last) : 0;

  if (len > 0 && len < sizeof ck->out - ck->out_len)
    {
      memcpy (ck->out + ck->out_len, last, len);
      ck->out_len += len;
      last = NULL;
    }
  ck->out[ck->out_len] = '\0';
  if (ck->out_len > 0)
    cordon_exec_write (ck->status_fd, ck->out);
  ck->out_len = 0;
  if (last != NULL)
    cordon_exec_write (ck->status_fd, last);
}

/* One result line, held in `out`. */
static void
result (CordonChecker *ck,
        const char *id,
        int ok,
        int err,
        const char *detail)
{
  char line[1024];
  int len = snprintf (line, sizeof line, "%c\t%s\t%s\t%d\t%s\n", (char) CORDON_EXEC_RESULT, id,
                      ok ? CORDON_RESULT_OK : CORDON_RESULT_FAIL, err, detail != NULL ? detail : "");

  /* A line cut short still ends the line. */
  if (len >= (int) sizeof line)
    {
      len = (int) sizeof line - 1;
      line[len - 1] = '\n';
    }
  if ((size_t) len >= sizeof ck->out - ck->out_len)
    cordon_checker_flush (ck, NULL);
  memcpy (ck->out + ck->out_len, line, (size_t) len);
  ck->out_len += (size_t) len;
  if (!ok)
    ck->failed++;
}

/* The result of a check of a fixed id (protocol.h). */
static void
result_of (CordonChecker *ck,
           CordonCheckId check,
           int ok,
           int err,
           const char *detail)
{
  result (ck, cordon_checks[check].id, ok, err, detail);
}

/* The name a check gives what it tries to create (this process's pid
 * in it), made once. */
static const char *
probe_name (CordonChecker *ck)
{
  if (ck->probe_name[0] == '\0')
    snprintf (ck->probe_name, sizeof ck->probe_name, ".cordon-verify-%d", (int) getpid ());
  return ck->probe_name;
}

/* Whether `name` is one of `shown`'s: "/a/b" holds a and b. */
static int
is_shown (const char *shown,
          const char *name)
{
  size_t len = strlen (name);

  for (const char *p = shown; (p = strchr (p, '/')) != NULL; p++)
    if (strncmp (p + 1, name, len) == 0 && (p[1 + len] == '/' || p[1 + len] == '\0'))
      return 1;
  return 0;
}

/* The first entry of the directory open at `dir` (not "." or "..")
 * that `shown` (see is_shown; NULL: none) does not hold, into `out`: 1,
 * 0 when there is none, -1 with errno when the directory cannot be read
 * to its end. */
static int
first_entry (int dir,
             const char *shown,
             char *out,
             size_t size)
{
  _Alignas (struct dirent64) char buf[4096];
  ssize_t n;

  while ((n = getdents64 (dir, buf, sizeof buf)) > 0)
    for (ssize_t at = 0; at < n; at += ((struct dirent64 *) (buf + at))->d_reclen)
      {
        const char *name = ((struct dirent64 *) (buf + at))->d_name;

        if (strcmp (name, ".") == 0 || strcmp (name, "..") == 0 || (shown != NULL && is_shown (shown, name)))
          continue;
        snprintf (out, size, "%s", name);
        return 1;
      }
  return n == 0 ? 0 : -1;
}

/* connect() must fail: a masked socket is /dev/null, which refuses. A
 * real datagram or seqpacket socket answers EPROTOTYPE to a stream
 * socket, so each type is tried. */
static void
check_socket (CordonChecker *ck,
              char * const *arg)
{
  const char *id = arg[0], *path = arg[1];
  static const int types[] = { SOCK_STREAM, SOCK_DGRAM, SOCK_SEQPACKET };
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  int err = 0;

  if (strlen (path) >= sizeof addr.sun_path)
    {
      result (ck, id, 0, ENAMETOOLONG, "socket path too long to try");
      return;
    }
  strcpy (addr.sun_path, path);
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    {
      /* Non-blocking: a real socket with a full backlog answers EAGAIN
       * (reachable) instead of holding the check for ever. */
      int fd = socket (AF_UNIX, types[i] | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
      int rc = fd >= 0 ? connect (fd, (struct sockaddr *) &addr, sizeof addr) : -1;

      err = errno;
      if (fd >= 0)
        close (fd);
      if (rc == 0 || err == EAGAIN || err == EINPROGRESS)
        {
          result (ck, id, 0, 0, rc == 0 ? "connected" : "reachable (its backlog is full)");
          return;
        }
      if (err != EPROTOTYPE)
        break;
    }
  result (ck, id, 1, err, "");
}

/* A masked file reads back empty; one that cannot be opened is denied. */
static void
check_secret_file (CordonChecker *ck,
                   char * const *arg)
{
  const char *id = arg[0], *path = arg[1];
  char byte;
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  ssize_t n;

  if (fd < 0)
    {
      result (ck, id, 1, errno, "");
      return;
    }
  n = read (fd, &byte, 1);
  close (fd);
  result (ck, id, n <= 0, n > 0 ? 0 : errno, n > 0 ? "readable" : "");
}

/* A masked directory is empty, and nothing can be created in it. */
static void
check_secret_dir (CordonChecker *ck,
                  char * const *arg)
{
  const char *id = arg[0], *path = arg[1];
  int dir = open (path, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC);
  char name[256];
  struct statvfs vfs;

  if (dir < 0)
    {
      result (ck, id, 1, errno, "");
      return;
    }
  /* The rest through the directory opened, not by its path again. */
  switch (first_entry (dir, NULL, name, sizeof name))
    {
    case 1:
      result (ck, id, 0, 0, "has entries");
      break;
    case -1:
      result (ck, id, 0, errno, "cannot be listed");
      break;
    default:
      if (fstatvfs (dir, &vfs) == 0 && !(vfs.f_flag & ST_RDONLY))
        result (ck, id, 0, 0, "not mounted read-only");
      else if (mkdirat (dir, probe_name (ck), 0700) == 0)
        {
          unlinkat (dir, probe_name (ck), AT_REMOVEDIR);
          result (ck, id, 0, 0, "writable");
        }
      else
        result (ck, id, 1, errno, "");
      break;
    }
  close (dir);
}

/* Outside the writable paths, no file can be created: the mount itself
 * must be read-only (EACCES from file permissions proves nothing about
 * the mount, and does not hold for the owner). */
static void
check_read_only (CordonChecker *ck,
                 char * const *arg)
{
  const char *id = arg[0], *path = arg[1];
  char probe[4200];
  struct statvfs vfs;
  struct stat st;
  int fd;

  if (statvfs (path, &vfs) == 0 && !(vfs.f_flag & ST_RDONLY))
    {
      result (ck, id, 0, 0, "not mounted read-only");
      return;
    }
  /* A file (a protected one under a writable bind): opening it for
   * writing is the attempt; nothing is written. */
  if (stat (path, &st) == 0 && S_ISREG (st.st_mode))
    {
      fd = open (path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
      if (fd >= 0)
        {
          close (fd);
          result (ck, id, 0, 0, "opens for writing");
          return;
        }
      result (ck, id, 1, errno, "");
      return;
    }
  snprintf (probe, sizeof probe, "%s/%s", strcmp (path, "/") == 0 ? "" : path, probe_name (ck));
  fd = open (probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd >= 0)
    {
      close (fd);
      unlink (probe);
      result (ck, id, 0, 0, "a file could be created");
      return;
    }
  result (ck, id, 1, errno, "");
}

/* A protected path, or a directory above one, under a writable bind: a
 * mount point, so that nothing can be put in its place. rename() is the
 * attempt, undone should it succeed. */
static void
check_pinned (CordonChecker *ck,
              char * const *arg)
{
  const char *id = arg[0], *path = arg[1];
  char aside[4200];
  struct stat st;

  if (lstat (path, &st) != 0)
    {
      result (ck, id, 0, errno, "is missing");
      return;
    }
  snprintf (aside, sizeof aside, "%s%s", path, probe_name (ck));
  if (rename (path, aside) == 0)
    {
      (void) rename (aside, path);
      result (ck, id, 0, 0, "could be renamed");
      return;
    }
  result (ck, id, 1, errno, "");
}

/* A cgroup or cgroup2 mount of this mount namespace that is not
 * read-only: 1, with "MOUNT POINT is a writable cgroup file system" in
 * `why`. */
static int
writable_cgroupfs (char *why,
                   size_t why_len)
{
  char *text = cordon_proc_read (0, "mountinfo", NULL);
  int found = 0;

  for (char *save = NULL, *l = text != NULL ? strtok_r (text, "\n", &save) : NULL; l != NULL && !found;
       l = strtok_r (NULL, "\n", &save))
    {
      char *dash = strstr (l, " - "), point[256], opts[256];

      if (dash == NULL || (strncmp (dash, " - cgroup ", 10) != 0 && strncmp (dash, " - cgroup2 ", 11) != 0))
        continue;
      if (sscanf (l, "%*s %*s %*s %*s %255s %255s", point, opts) == 2
          && (strcmp (opts, "rw") == 0 || strncmp (opts, "rw,", 3) == 0))
        {
          snprintf (why, why_len, "%s is a writable cgroup file system", point);
          found = 1;
        }
    }
  free (text);
  return found;
}

/* One of the sandbox's cgroups, by its host path: none of its limits
 * opens for writing (the open is the attempt: nothing is written), and
 * the helper cannot move itself into the parent (the write is the
 * attempt: should it succeed, the run fails and is torn down). Through
 * the sandbox's /sys, a read-only bind where there is one. */
static void
check_cgroup (CordonChecker *ck,
              char * const *arg)
{
  const char *id = arg[0], *leaf = arg[1], *parent = arg[2], *file = arg[3];
  char path[4200];
  int fd, err;

  /* Not at these paths, but writable elsewhere (a policy that binds the
   * host's /sys, or /, writable at another path): no cgroup file system
   * may be mounted read-write in the sandbox at all. One reading of the
   * mount table for all the cgroup lines, a moment apart: nothing runs
   * in the sandbox to mount anything but this process. */
  if (!ck->cgroupfs_looked)
    {
      writable_cgroupfs (ck->cgroupfs_why, sizeof ck->cgroupfs_why);
      ck->cgroupfs_looked = 1;
    }
  if (ck->cgroupfs_why[0] != '\0')
    {
      result (ck, id, 0, 0, ck->cgroupfs_why);
      return;
    }

  if (strcmp (file, "-") != 0)
    {
      snprintf (path, sizeof path, "%s/%s", leaf, file);
      if ((fd = open (path, O_WRONLY | O_CLOEXEC | O_NOCTTY)) >= 0)
        {
          close (fd);
          result (ck, id, 0, 0, "a limit of its cgroup opens for writing");
          return;
        }
    }
  snprintf (path, sizeof path, "%s/cgroup.procs", parent);
  if ((fd = open (path, O_WRONLY | O_CLOEXEC | O_NOCTTY)) >= 0)
    {
      ssize_t n = write (fd, "0", 1);

      err = errno;
      close (fd);
      if (n == 1)
        {
          result (ck, id, 0, 0, "it moved itself to the parent cgroup");
          return;
        }
      result (ck, id, 1, err, "");
      return;
    }
  result (ck, id, 1, errno, "");
}

/* Seen as the sandbox: the path cannot be reached at all (a directory on
 * the way that the host user may not search, or a shadow without it). */
static void
check_unreachable (CordonChecker *ck,
                   char * const *arg)
{
  const char *id = arg[0], *path = arg[1];
  struct stat st;

  if (lstat (path, &st) == 0)
    {
      result (ck, id, 0, 0, "reachable");
      return;
    }
  result (ck, id, errno == EACCES || errno == ENOENT || errno == ENOTDIR, errno,
          errno == EACCES || errno == ENOENT || errno == ENOTDIR ? "" : "lstat failed otherwise");
}

/* The kernel's settings: /proc/sys is a read-only mount, and none of a
 * sample of settings (core_pattern would run a program of the sandbox's
 * as root at the next crash) opens for writing. Nothing is written: the
 * open itself is the attempt. */
static void
check_proc_sys (CordonChecker *ck,
                char * const *arg)
{
  static const char * const samples[] = {
    "/proc/sys/kernel/core_pattern", "/proc/sys/kernel/printk_ratelimit_burst",
    "/proc/sys/vm/drop_caches", "/proc/sys/kernel/hostname", "/proc/sys/net/ipv4/ip_forward",
  };
  struct statvfs vfs;
  char detail[128];

  if (statvfs ("/proc/sys", &vfs) != 0)
    {
      result_of (ck, CORDON_CHECK_PROC_SYS, 0, errno, "/proc/sys cannot be examined");
      return;
    }
  if (!(vfs.f_flag & ST_RDONLY))
    {
      result_of (ck, CORDON_CHECK_PROC_SYS, 0, 0, "/proc/sys is not mounted read-only");
      return;
    }
  for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++)
    {
      int fd = open (samples[i], O_WRONLY | O_CLOEXEC | O_NOCTTY);

      if (fd >= 0)
        {
          close (fd);
          snprintf (detail, sizeof detail, "%s opens for writing", samples[i]);
          result_of (ck, CORDON_CHECK_PROC_SYS, 0, 0, detail);
          return;
        }
    }
  result_of (ck, CORDON_CHECK_PROC_SYS, 1, 0, "");
}

static void
check_namespace (CordonChecker *ck,
                 char * const *arg)
{
  const char *id = arg[0], *name = arg[1], *host_inode = arg[2];
  char path[64];
  struct stat st;

  snprintf (path, sizeof path, "/proc/self/ns/%s", name);
  if (stat (path, &st) != 0)
    {
      int err = errno;

      if (access ("/proc/self", F_OK) != 0)
        result (ck, id, 1, 0, "no /proc inside: checked from outside");
      else
        result (ck, id, 0, err, "cannot read the namespace");
      return;
    }
  result (ck, id, (unsigned long) st.st_ino != strtoul (host_inode, NULL, 10), 0,
          (unsigned long) st.st_ino == strtoul (host_inode, NULL, 10) ? "the host's namespace" : "");
}

static void
add_to (char ***list,
        size_t *n,
        const char *value)
{
  *list = realloc (*list, (*n + 1) * sizeof (char *));
  if (*list == NULL)
    abort ();
  (*list)[(*n)++] = strdup (value);
}

/* A call the filter blocks, attempted for real: the errno must be the
 * filter's. Without the filter it would succeed or fail otherwise (a new
 * user namespace, a packet socket, ENOTTY from a plain ioctl). */
static void
expect_errno (CordonChecker *ck,
              CordonCheckId check,
              long rc,
              int want)
{
  char detail[96];
  int ok = rc < 0 && errno == want;

  snprintf (detail, sizeof detail, "expected errno %d, got %s %ld", want,
            rc >= 0 ? "a result of" : "errno", rc >= 0 ? rc : (long) errno);
  result_of (ck, check, ok, rc < 0 ? errno : 0, ok ? "" : detail);
}

/* Whether probe `id` is in the comma-separated list cordon asked for. */
static int
wanted (const char *list,
        const char *id)
{
  size_t len = strlen (id);

  for (const char *p = list; (p = strstr (p, id)) != NULL; p += len)
    if ((p == list || p[-1] == ',') && (p[len] == ',' || p[len] == '\0'))
      return 1;
  return 0;
}

/* One probe of seccomp-probes.c, reported. */
static void
run_probe (CordonChecker *ck,
           const CordonSeccompProbe *probe)
{
  long rc;
  int err, want;

  cordon_seccomp_probe_run (probe, &rc, &err, &want);
  errno = err;
  expect_errno (ck, probe->check, rc, want);
}

typedef struct
{
  CordonChecker *ck;
  const char *probes;         /* the spec's list */
} Probes;

/* The probes' child: it writes its results itself (and those its parent
 * held: cordon reads them all while the checks after run) and ends with
 * the number that failed, as a fork's child would (valgrind runs it as
 * one; the lines its parent held it then writes twice, and a result
 * given twice keeps its worse outcome). */
static void
probes_child (void *data)
{
  Probes *p = data;
  int failed = p->ck->failed;

  for (unsigned i = 0; i < cordon_seccomp_n_probes; i++)
    if (wanted (p->probes, cordon_checks[cordon_seccomp_probes[i].check].id))
      run_probe (p->ck, &cordon_seccomp_probes[i]);
  cordon_checker_flush (p->ck, NULL);
  _exit (p->ck->failed - failed);
}

/* In a child: where the filter is missing, a probe succeeds, and its
 * effect (a new user namespace, an open socket) must not change what the
 * later checks see, nor the command's process. The child has fds, a
 * user namespace and credentials of its own; only memory is shared, and
 * no probe writes any but the results. */
static void
check_seccomp (CordonChecker *ck,
               char * const *arg)
{
  Probes p = { ck, arg[0] };
  int failed = ck->failed, status = 0;
  pid_t pid;

  ck->seccomp = 1;
  pid = cordon_exec_spawn (probes_child, &p);
  if (pid < 0 || waitpid (pid, &status, 0) != pid || !WIFEXITED (status))
    result_of (ck, cordon_seccomp_probes[0].check, 0, errno, "the seccomp probes did not run");
  else
    ck->failed = failed + WEXITSTATUS (status);
}

/* The settings of the fixed checks, from their spec lines. */

static void
set_env_allow (CordonChecker *ck,
               char * const *arg)
{
  add_to (&ck->allowed, &ck->n_allowed, arg[0]);
}

static void
set_digest (CordonChecker *ck,
            char * const *arg)
{
  add_to (&ck->digests, &ck->n_digests, arg[0]);
}

static void
set_pid_namespace (CordonChecker *ck,
                   char * const *arg)
{
  ck->pid_ns_new = 1;
}

static void
set_host_proc (CordonChecker *ck,
               char * const *arg)
{
  ck->host_proc = 1;
  ck->cordon_pid = strtol (arg[0], NULL, 10);
}

static void
set_outside_shown (CordonChecker *ck,
                   char * const *arg)
{
  ck->outside_shown = 1;
}

static void
set_capeff (CordonChecker *ck,
            char * const *arg)
{
  ck->cap_eff = strtoull (arg[0], NULL, 16);
}

/* The attempt of check_read_only on a directory open at `dir`: its
 * mount read-only, and no file can be created in it. */
static void
read_only_dir (CordonChecker *ck,
               const char *id,
               int dir)
{
  struct statvfs vfs;
  int fd;

  if (fstatvfs (dir, &vfs) == 0 && !(vfs.f_flag & ST_RDONLY))
    {
      result (ck, id, 0, 0, "not mounted read-only");
      return;
    }
  fd = openat (dir, probe_name (ck), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd >= 0)
    {
      close (fd);
      unlinkat (dir, probe_name (ck), 0);
      result (ck, id, 0, 0, "a file could be created");
      return;
    }
  result (ck, id, 1, errno, "");
}

/* A hidden directory: none of the host's entries shows, only the mount
 * points of what the policy binds below it, and nothing can be created
 * there (the probe of check_read_only). */
static void
check_hidden (CordonChecker *ck,
              char * const *arg)
{
  const char *id = arg[0], *path = arg[1], *shown = arg[2];
  int dir = open (path, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC);
  char name[256], detail[320];

  if (dir < 0)
    {
      result (ck, id, 0, errno, "cannot be listed");
      return;
    }
  /* The rest through the directory opened, not by its path again. */
  switch (first_entry (dir, shown, name, sizeof name))
    {
    case 1:
      snprintf (detail, sizeof detail, "shows %.255s, which the policy does not bind", name);
      /* A name is the host's: no tab or newline may end the line early. */
      for (char *c = detail; *c != '\0'; c++)
        if ((unsigned char) *c < 0x20 || *c == 0x7f)
          *c = '?';
      result (ck, id, 0, 0, detail);
      break;
    case -1:
      result (ck, id, 0, errno, "cannot be listed");
      break;
    default:
      read_only_dir (ck, id, dir);
      break;
    }
  close (dir);
}

/* What each verb of the spec does, given the fields after it. */
static void (* const spec_run[CORDON_SPEC_MAX]) (CordonChecker *ck, char * const *arg) = {
  [CORDON_SPEC_SOCKET] = check_socket,
  [CORDON_SPEC_SECRET_FILE] = check_secret_file,
  [CORDON_SPEC_SECRET_DIR] = check_secret_dir,
  [CORDON_SPEC_READ_ONLY] = check_read_only,
  [CORDON_SPEC_UNREACHABLE] = check_unreachable,
  [CORDON_SPEC_NAMESPACE] = check_namespace,
  [CORDON_SPEC_PROC_SYS] = check_proc_sys,
  [CORDON_SPEC_SECCOMP] = check_seccomp,
  [CORDON_SPEC_ENV_ALLOW] = set_env_allow,
  [CORDON_SPEC_DIGEST] = set_digest,
  [CORDON_SPEC_PID_NAMESPACE] = set_pid_namespace,
  [CORDON_SPEC_HOST_PROC] = set_host_proc,
  [CORDON_SPEC_OUTSIDE_SHOWN] = set_outside_shown,
  [CORDON_SPEC_CAPEFF] = set_capeff,
  [CORDON_SPEC_CGROUP] = check_cgroup,
  [CORDON_SPEC_PINNED] = check_pinned,
  [CORDON_SPEC_HIDDEN] = check_hidden,
};

void
cordon_checker_run_line (CordonChecker *ck,
                         char *line)
{
  char *f[6] = { NULL, NULL, NULL, NULL, NULL, NULL };
  size_t n = 0;
  CordonSpecVerb verb;

  for (char *save = NULL, *tok = strtok_r (line, "\t", &save); tok != NULL && n < 6;
       tok = strtok_r (NULL, "\t", &save))
    f[n++] = tok;
  for (size_t i = 1; i < n; i++)
    cordon_spec_decode (f[i]);
  if (n == 0)
    return;
  verb = cordon_spec_verb_find (f[0], (unsigned) n);
  if (verb == CORDON_SPEC_MAX || spec_run[verb] == NULL)
    result (ck, CORDON_SPEC_UNKNOWN_ID, 0, EINVAL, f[0]);
  else
    spec_run[verb] (ck, f + 1);
}

extern char **environ;

static int
listed (char **list,
        size_t n,
        const char *value)
{
  for (size_t i = 0; i < n; i++)
    if (strcmp (list[i], value) == 0)
      return 1;
  return 0;
}

/* Only allowed names in the environment the command will get. */
static void
check_environ (CordonChecker *ck)
{
  for (char **e = environ; *e != NULL; e++)
    {
      size_t len = strcspn (*e, "=");
      char name[256];

      snprintf (name, sizeof name, "%.*s", (int) (len < 255 ? len : 255), *e);
      if (!listed (ck->allowed, ck->n_allowed, name))
        {
          char detail[300];

          snprintf (detail, sizeof detail, "%s is set", name);
          result_of (ck, CORDON_CHECK_ENVIRON, 0, 0, detail);
          return;
        }
    }
  result_of (ck, CORDON_CHECK_ENVIRON, 1, 0, "");
}

/* Does a NUL-separated file hold an entry (a value after '=' when
 * `after_eq`) whose digest is one of a dropped variable's value? All of
 * it is read, whatever its size, into memory malloc reuses (a static
 * buffer was a page to fault in, and cut the file at 1 MB). */
static int
file_holds_digest (CordonChecker *ck,
                   const char *path,
                   int after_eq)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  size_t len = 0;
  char *text = fd >= 0 ? cordon_read_fd_whole (fd, (size_t) -1, &len) : NULL;
  int found = 0;

  if (fd >= 0)
    close (fd);
  for (char *p = text; p != NULL && p < text + len && !found; p += strlen (p) + 1)
    {
      char *value = after_eq && strchr (p, '=') != NULL ? strchr (p, '=') + 1 : p;
      char hex[65];

      cordon_sha256_hex (value, strlen (value), hex);
      found = listed (ck->digests, ck->n_digests, hex);
    }
  free (text);
  return found;
}

/* TRUE when process `pid` (a /proc entry) is in this process's pid
 * namespace; FALSE too when its ns link cannot be read. */
static int
in_my_pid_ns (const char *pid)
{
  char path[300];
  struct stat mine, theirs;

  snprintf (path, sizeof path, "/proc/%s/ns/pid", pid);
  return stat ("/proc/self/ns/pid", &mine) == 0 && stat (path, &theirs) == 0
         && mine.st_ino == theirs.st_ino;
}

/* No value of a dropped variable anywhere the sandbox can read: every
 * /proc/PID/environ and /proc/PID/cmdline of the sandbox (bwrap's own
 * among them: --clearenv alone would leave them in bwrap's
 * /proc/1/environ). Under the host's /proc (a named degradation) the
 * host's other processes show too: that their environments are closed
 * is the "processes" check, and cordon's own is "cordon-unreadable". */
static void
check_dropped_values (CordonChecker *ck)
{
  DIR *proc = opendir ("/proc");
  struct dirent *de;

  while (proc != NULL && (de = readdir (proc)) != NULL)
    {
      static const char * const files[] = { "environ", "cmdline" };
      char path[300];

      if (de->d_name[0] < '0' || de->d_name[0] > '9')
        continue;
      if (ck->host_proc && !in_my_pid_ns (de->d_name))
        continue;
      for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        {
          snprintf (path, sizeof path, "/proc/%s/%s", de->d_name, files[i]);
          if (!file_holds_digest (ck, path, i == 0))
            continue;
          closedir (proc);
          result_of (ck, CORDON_CHECK_DROPPED_VALUES, 0, 0, path);
          return;
        }
    }
  if (proc != NULL)
    closedir (proc);
  result_of (ck, CORDON_CHECK_DROPPED_VALUES, 1, 0, "");
}

/* 1 when the procfs at /proc hides the processes one may not trace
 * (hidepid=2/invisible or 4/ptraceable, in its super options): their
 * entries are absent rather than closed. */
static int
proc_hides_pids (void)
{
  FILE *f = fopen ("/proc/self/mountinfo", "re");
  char line[4096], fields[4096];
  int hides = 0;

  /* Every procfs mounted at /proc, in mount order: the last is on top. */
  while (f != NULL && fgets (line, sizeof line, f) != NULL)
    {
      const char *sep = strstr (line, " - ");
      char *field[5], *save = NULL;
      size_t n = 0;

      /* "ID PARENT MAJ:MIN ROOT MOUNT-POINT ... - FSTYPE SOURCE SUPER-OPTIONS" */
      memcpy (fields, line, sizeof fields);
      for (char *tok = strtok_r (fields, " ", &save); tok != NULL && n < 5; tok = strtok_r (NULL, " ", &save))
        field[n++] = tok;
      if (n < 5 || sep == NULL || strcmp (field[4], "/proc") != 0 || strncmp (sep + 3, "proc ", 5) != 0)
        continue;
      hides = strstr (sep, "hidepid=2") != NULL || strstr (sep, "hidepid=invisible") != NULL
              || strstr (sep, "hidepid=4") != NULL || strstr (sep, "hidepid=ptraceable") != NULL;
    }
  if (f != NULL)
    fclose (f);
  return hides;
}

/* Under the host's /proc: cordon's own entries must stay closed to the
 * sandbox (cordon is non-dumpable), since cordon holds the caller's
 * whole environment. (Its command line anyone on the host may read: the
 * caller wrote it.) */
static void
check_cordon_unreadable (CordonChecker *ck)
{
  static const char * const files[] = { "environ", "mem" };
  char path[96], target[256], detail[200] = "";
  int hidden = proc_hides_pids ();
  DIR *fds;
  struct dirent *de;

  for (size_t i = 0; i < sizeof files / sizeof files[0] && detail[0] == '\0'; i++)
    {
      int fd;

      snprintf (path, sizeof path, "/proc/%ld/%s", ck->cordon_pid, files[i]);
      fd = open (path, O_RDONLY | O_CLOEXEC);
      if (fd >= 0)
        {
          snprintf (detail, sizeof detail, "%s is readable", path);
          close (fd);
        }
      /* cordon is alive while this runs: a missing entry means this is
       * not cordon's, and nothing was proved; unless the procfs hides
       * what may not be traced, which is closed all the more. */
      else if (errno != EACCES && errno != EPERM && !(errno == ENOENT && hidden))
        snprintf (detail, sizeof detail, "%s: %s", path, strerror (errno));
    }
  /* The fd directory may list (its mode lets root in), but no link in it
   * may be followed or read. */
  snprintf (path, sizeof path, "/proc/%ld/fd", ck->cordon_pid);
  fds = opendir (path);
  if (fds == NULL && errno != EACCES && errno != EPERM && !(errno == ENOENT && hidden)
      && detail[0] == '\0')
    snprintf (detail, sizeof detail, "%s: %s", path, strerror (errno));
  while (fds != NULL && detail[0] == '\0' && (de = readdir (fds)) != NULL)
    {
      char link[160];

      if (de->d_name[0] == '.')
        continue;
      snprintf (link, sizeof link, "%s/%.40s", path, de->d_name);
      if (readlink (link, target, sizeof target) >= 0)
        snprintf (detail, sizeof detail, "%s can be read", link);
    }
  if (fds != NULL)
    closedir (fds);
  result_of (ck, CORDON_CHECK_CORDON_UNREADABLE, detail[0] == '\0', 0, detail);
}

/* 1 when /proc/PID/environ gives the sandbox any byte: a kernel thread's
 * opens but is empty, another user's (or one in another user namespace)
 * does not open. */
static int
environ_readable (const char *pid)
{
  char path[300], byte;
  int fd;
  ssize_t n;

  snprintf (path, sizeof path, "/proc/%s/environ", pid);
  if ((fd = open (path, O_RDONLY | O_CLOEXEC)) < 0)
    return 0;
  n = read (fd, &byte, 1);
  close (fd);
  return n > 0;
}

/* Under the host's /proc: every process outside the sandbox is listed (for
 * the report: their number and the first of their pids), and none may
 * have an environment the sandbox can read. That happens without a user
 * namespace of the sandbox's own: each process of the caller's (its shell
 * among them) shows every variable it holds. */
static void
check_outside_processes (CordonChecker *ck)
{
  DIR *proc = opendir ("/proc");
  struct dirent *de;
  char out[900], open_one[300] = "";
  size_t len, listed = 0, count = 0;

  len = (size_t) snprintf (out, sizeof out, "host /proc (a named degradation); outside the sandbox:");
  while (proc != NULL && (de = readdir (proc)) != NULL)
    {
      if (de->d_name[0] < '0' || de->d_name[0] > '9' || in_my_pid_ns (de->d_name))
        continue;
      count++;
      if (open_one[0] == '\0' && environ_readable (de->d_name))
        snprintf (open_one, sizeof open_one, "%s", de->d_name);
      if (len + strlen (de->d_name) + 24 < sizeof out)
        {
          len += (size_t) snprintf (out + len, sizeof out - len, " %s", de->d_name);
          listed++;
        }
    }
  if (proc != NULL)
    closedir (proc);
  if (count > listed)
    snprintf (out + len, sizeof out - len, " (and %zu more)", count - listed);
  else if (count == 0)
    snprintf (out + len, sizeof out - len, " none");
  if (open_one[0] != '\0')
    {
      snprintf (out, sizeof out, "/proc/%s/environ, outside the sandbox, is readable: the host's "
                "/proc without a user namespace of the sandbox's own shows every environment "
                "of the caller's processes", open_one);
      result_of (ck, CORDON_CHECK_PROCESSES, 0, 0, out);
      return;
    }
  result_of (ck, CORDON_CHECK_PROCESSES, 1, 0, out);
}

/* Only 0-2 and cordon-exec's own: nothing the caller held open. */
static void
check_fds (CordonChecker *ck,
           const int *own,
           size_t n_own)
{
  DIR *dir = opendir ("/proc/self/fd");
  struct dirent *de;
  int self = dir != NULL ? dirfd (dir) : -1;
  char detail[64] = "";

  while (dir != NULL && (de = readdir (dir)) != NULL)
    {
      int fd = atoi (de->d_name), ours = fd <= 2 || fd == self;

      if (de->d_name[0] == '.')
        continue;
      for (size_t i = 0; i < n_own; i++)
        ours = ours || fd == own[i];
      if (!ours && detail[0] == '\0')
        snprintf (detail, sizeof detail, "fd %d is open", fd);
    }
  if (dir != NULL)
    closedir (dir);
  result_of (ck, CORDON_CHECK_FDS, detail[0] == '\0', 0, detail);
}

/* The value of `field` in `status` (NULL: unread), cut to `size`; ""
 * when there is none. */
static void
status_field (const char *status,
              const char *field,
              char *out,
              size_t size)
{
  size_t len = 0;
  const char *value = cordon_proc_status_find (status, field, &len);

  snprintf (out, size, "%.*s", value != NULL ? (int) len : 0, value != NULL ? value : "");
}

/* What the checks of /proc read of this process, once for them all: it
 * changes nothing of it meanwhile. */
typedef struct
{
  char *status;               /* /proc/self/status, or NULL */
  char self[32];              /* its entry in /proc (the /proc/self link), or "" */
  int self_errno;             /* why there is none */
  char mnt[64];               /* its /proc/self/ns/mnt link, or "" */
  int mnt_errno;
} Own;

/* The link at `path` into `out`: "" (with *out_errno) when unread. */
static void
read_link (const char *path,
           char *out,
           size_t size,
           int *out_errno)
{
  ssize_t n = readlink (path, out, size - 1);

  *out_errno = n > 0 ? 0 : errno;
  out[n > 0 ? n : 0] = '\0';
}

static void
own_read (Own *own)
{
  own->status = cordon_proc_read (0, "status", NULL);
  read_link ("/proc/self", own->self, sizeof own->self, &own->self_errno);
  read_link ("/proc/self/ns/mnt", own->mnt, sizeof own->mnt, &own->mnt_errno);
}

/* CapEff and NoNewPrivs, from one reading of this process's status. */
static void
check_credentials (CordonChecker *ck,
                   const Own *own)
{
  char cap[64] = "", nnp[16] = "";

  status_field (own->status, "CapEff", cap, sizeof cap);
  status_field (own->status, "NoNewPrivs", nnp, sizeof nnp);
  {
    /* Exactly what the policy keeps ([capabilities] keep=), 0 by default. */
    unsigned long long eff = strtoull (cap, NULL, 16);
    int ok = cap[0] != '\0' && eff == ck->cap_eff;
    char detail[64];

    snprintf (detail, sizeof detail, "CapEff is %s, expected %016llx", cap[0] != '\0' ? cap : "unreadable",
              ck->cap_eff);
    result_of (ck, CORDON_CHECK_CAPABILITIES, ok, 0, ok ? "" : detail);
  }
  result_of (ck, CORDON_CHECK_NO_NEW_PRIVS, strcmp (nnp, "1") == 0, 0,
             strcmp (nnp, "1") == 0 ? "" : "NoNewPrivs is not 1");
}

static void
check_mount (CordonChecker *ck)
{
  if (mount ("cordon-verify", "/dev", "tmpfs", MS_NOSUID | MS_NODEV, NULL) == 0)
    {
      umount ("/dev");
      result_of (ck, CORDON_CHECK_MOUNT, 0, 0, "mount() succeeded");
      return;
    }
  result_of (ck, CORDON_CHECK_MOUNT, 1, errno, "");
}

/* TIOCSTI on every terminal the sandbox holds must be refused: it would
 * push input into the caller's terminal (CVE-2017-5226). */
static void
check_tiocsti (CordonChecker *ck)
{
  for (int fd = 0; fd <= 2; fd++)
    {
      char nul = '\0';

      if (isatty (fd) && ioctl (fd, TIOCSTI, &nul) == 0)
        {
          result_of (ck, CORDON_CHECK_TIOCSTI, 0, 0, "TIOCSTI accepted on a terminal");
          return;
        }
    }
  result_of (ck, CORDON_CHECK_TIOCSTI, 1, 0, "");
}

/* The session keyring is the fresh, empty one cordon-exec joined. */
static void
check_keyring (CordonChecker *ck)
{
  char ids[64];
  long n = syscall (SYS_keyctl, KEYCTL_READ, KEY_SPEC_SESSION_KEYRING, ids, sizeof ids);

  /* Empty, or not readable at all because the filter refuses keyctl
   * (which seccomp-keyring proves): anything else proves nothing. */
  int ok = n == 0 || (n < 0 && errno == EPERM && ck->seccomp);

  result_of (ck, CORDON_CHECK_KEYRING, ok, n < 0 ? errno : 0,
             ok ? "" : n > 0 ? "the session keyring holds keys" : "the session keyring cannot be read");
}

/* With a pid namespace of its own, the sandbox sees only its processes.
 * The proof is the /proc mounted at /proc: a procfs of the sandbox's pid
 * namespace names this process by its pid there. The host's /proc (bound
 * in by a bwrap that ignored --proc) names it by its host pid, and under
 * a user namespace the host's processes cannot even be told apart by
 * their ns/pid: so the pid is compared, not the namespaces. */
static void
check_processes (CordonChecker *ck,
                 const Own *own)
{
  char mine[32];
  int ok;

  if (!ck->pid_ns_new)
    return;
  if (ck->host_proc)
    {
      check_outside_processes (ck);
      return;
    }
  snprintf (mine, sizeof mine, "%d", (int) getpid ());
  ok = own->self[0] != '\0' && strcmp (own->self, mine) == 0;
  result_of (ck, CORDON_CHECK_PROCESSES, ok, own->self_errno,
             ok ? "" : "/proc is not the sandbox's own: other processes show");
}

/* Each process /proc lists whose mount namespace can be read (one closed
 * to the sandbox, EACCES, or gone is passed over), to `visit` with
 * whether it is in this process's, until a visit writes `detail`; there
 * too why /proc cannot be listed. This process itself is passed over:
 * every visit finds it as it should be (its own namespace, its own
 * filters). */
typedef void (*ProcessVisit) (const char *pid,
                              int same_ns,
                              long data,
                              char *detail,
                              size_t size);

static void
walk_processes (const Own *own,
                ProcessVisit visit,
                long data,
                char *detail,
                size_t size)
{
  char theirs[64], path[300];
  DIR *proc = opendir ("/proc");
  struct dirent *de;

  while (proc != NULL && detail[0] == '\0' && (de = readdir (proc)) != NULL)
    {
      ssize_t n;

      if (de->d_name[0] < '0' || de->d_name[0] > '9' || strcmp (de->d_name, own->self) == 0)
        continue;
      snprintf (path, sizeof path, "/proc/%s/ns/mnt", de->d_name);
      n = readlink (path, theirs, sizeof theirs - 1);
      if (n <= 0)
        continue;
      theirs[n] = '\0';
      visit (de->d_name, strcmp (theirs, own->mnt) == 0, data, detail, size);
    }
  if (proc == NULL)
    snprintf (detail, size, "/proc cannot be listed: %s", strerror (errno));
  else
    closedir (proc);
}

/* Under a shared pid namespace or the host's /proc, processes outside
 * the sandbox show. None may be open to it: a process whose
 * /proc/PID/ns/mnt it may read is one it may trace (the same access
 * check guards /proc/PID/root, cwd, fd and, for writing, mem), and one
 * in another mount namespace is not the sandbox's: bwrap's monitor,
 * say, left in the sandbox's user namespace, whose memory written would
 * run code with bwrap's capabilities, and whose root is the host's. */
static void
visit_closed (const char *pid,
              int same_ns,
              long data,
              char *detail,
              size_t size)
{
  (void) data;
  if (!same_ns)
    snprintf (detail, size, "/proc/%s, a process in another mount namespace, is "
              "open to the sandbox: its root, its fds and its memory can be reached", pid);
}

static void
check_processes_closed (CordonChecker *ck,
                        const Own *own)
{
  char detail[400] = "";

  if (own->mnt[0] == '\0')
    {
      result_of (ck, CORDON_CHECK_PROCESSES_CLOSED, 0, own->mnt_errno, "/proc/self/ns/mnt cannot be read");
      return;
    }
  walk_processes (own, visit_closed, 0, detail, sizeof detail);
  result_of (ck, CORDON_CHECK_PROCESSES_CLOSED, detail[0] == '\0', 0, detail);
}

/* The seccomp filters a /proc/PID/status text counts, or -1 where the
 * kernel shows none (before Linux 5.9) or it is unread (NULL). */
static long
filters_in (const char *status)
{
  char count[32] = "";

  status_field (status, "Seccomp_filters", count, sizeof count);
  return count[0] >= '0' && count[0] <= '9' ? strtol (count, NULL, 10) : -1;
}

static long
filters_of (pid_t pid)
{
  char *status = cordon_proc_read (pid, "status", NULL);
  long count = filters_in (status);

  free (status);
  return count;
}

/* Code inside may write the memory of a process of its uid that it can
 * see in its mount namespace; one with fewer filters than this one
 * (bwrap's own init, were it pid 1) would run what it wrote without the
 * one that refuses the sandbox a listener of its own, which would answer
 * "continue" to the profile's refusals. None may have fewer. A process
 * whose namespace link is closed is one whose memory is too (the same
 * access check); one in another namespace is processes-closed's. */
static void
visit_filtered (const char *pid,
                int same_ns,
                long own,
                char *detail,
                size_t size)
{
  long count = same_ns ? filters_of ((pid_t) atol (pid)) : -1;

  if (count >= 0 && count < own)
    snprintf (detail, size, "/proc/%s has %ld seccomp filters, the helper %ld: code inside that "
              "wrote its memory would run outside the helper's", pid, count, own);
}

static void
check_filtered (CordonChecker *ck,
                const Own *own)
{
  char detail[400] = "";
  long count = filters_in (own->status);

  if (count < 0 || own->mnt[0] == '\0')
    {
      /* Without a listener, the refusals are errors: no filter added
       * inside, nor a listener, can undo them. */
      result_of (ck, CORDON_CHECK_FILTERED, !ck->listened, 0, ck->listened
                 ? "this process's Seccomp_filters cannot be read: the listened filter is unproven"
                 : "no Seccomp_filters shown: refusals are errors, which nothing added inside undoes");
      return;
    }
  walk_processes (own, visit_filtered, count, detail, sizeof detail);
  result_of (ck, CORDON_CHECK_FILTERED, detail[0] == '\0', 0, detail);
}

/* 1 when /proc holds no entry at all (or is absent), else 0. */
static int
proc_is_empty (void)
{
  DIR *d = opendir ("/proc");
  struct dirent *de;
  int empty = 1;

  while (d != NULL && empty && (de = readdir (d)) != NULL)
    if (strcmp (de->d_name, ".") != 0 && strcmp (de->d_name, "..") != 0)
      empty = 0;
  if (d != NULL)
    closedir (d);
  return empty;
}

void
cordon_checker_run_fixed (CordonChecker *ck,
                          const int *own_fds,
                          size_t n_own_fds)
{
  Own own;

  check_environ (ck);
  check_mount (ck);
  check_tiocsti (ck);
  check_keyring (ck);
  if (access ("/proc/self/status", R_OK) != 0)
    {
      /* No /proc inside ([proc] mode=none): cordon checks this very
       * process's fds and credentials from outside before releasing it.
       * No environ, cmdline or process list can be read here only if
       * /proc is truly empty, which is checked, not assumed. */
      static const CordonCheckId outside[] = { CORDON_CHECK_FDS, CORDON_CHECK_CAPABILITIES,
                                               CORDON_CHECK_NO_NEW_PRIVS };
      int empty = proc_is_empty ();

      for (size_t i = 0; i < sizeof outside / sizeof outside[0]; i++)
        result_of (ck, outside[i], 1, 0, "no /proc inside: checked from outside");
      if (ck->seccomp)
        result_of (ck, CORDON_CHECK_FILTERED, empty, 0,
                   empty ? "no /proc inside: no process's memory to write" : "/proc is not empty");
      result_of (ck, CORDON_CHECK_DROPPED_VALUES, empty, 0,
                 empty ? "no /proc inside: no environ or cmdline to read" : "/proc is not empty");
      /* "processes" only where cordon asked for it (a pid namespace). */
      if (ck->pid_ns_new)
        result_of (ck, CORDON_CHECK_PROCESSES, empty, 0,
                   empty ? "no /proc inside: no process to see" : "/proc is not empty");
      if (ck->outside_shown)
        result_of (ck, CORDON_CHECK_PROCESSES_CLOSED, empty, 0,
                   empty ? "no /proc inside: no process to reach" : "/proc is not empty");
      return;
    }
  check_dropped_values (ck);
  if (ck->host_proc)
    check_cordon_unreadable (ck);
  check_fds (ck, own_fds, n_own_fds);
  own_read (&own);
  check_credentials (ck, &own);
  if (ck->seccomp)
    check_filtered (ck, &own);
  check_processes (ck, &own);
  if (ck->outside_shown)
    check_processes_closed (ck, &own);
  free (own.status);
}
