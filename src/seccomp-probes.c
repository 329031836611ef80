/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* seccomp-probes: see seccomp-probes.h. Each attempt touches nothing of
 * the host's: a key in the fresh session keyring cordon-exec joined, an
 * anonymous file, a namespace or socket of the probing child's own. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "seccomp-probes.h"

#define KEY_SPEC_SESSION_KEYRING -3

static long
probe_keyring (int *want)
{
  return syscall (SYS_add_key, "user", "cordon-verify", "x", (size_t) 1, KEY_SPEC_SESSION_KEYRING);
}

/* TIOCSTI with high bits set: the kernel ignores them (CVE-2019-10063). */
static long
probe_tiocsti (int *want)
{
  return syscall (SYS_ioctl, 0, 0x100005412UL, "");
}

static long
probe_mount_api (int *want)
{
  return syscall (SYS_fsopen, "tmpfs", 0);
}

/* 467 on every architecture cordon builds for (x86_64's number; ENOSYS
 * too from a kernel before 6.15, which has no such call). */
static long
probe_by_number (int *want)
{
  return syscall (467 /* open_tree_attr */, AT_FDCWD, "/", 0, NULL, 0);
}

static long
probe_clone3 (int *want)
{
  return syscall (SYS_clone3, NULL, 0);
}

static long
probe_userns (int *want)
{
  return syscall (SYS_unshare, 0x10000000 /* CLONE_NEWUSER */);
}

static long
probe_socket_family (int *want)
{
  return socket (17 /* AF_PACKET */, SOCK_RAW | SOCK_CLOEXEC, 0);
}

static long
probe_io_uring (int *want)
{
  return syscall (SYS_io_uring_setup, 1, NULL);
}

/* A file of our own (an anonymous one: nothing of the host's is touched)
 * made set-user-ID: without the filter, that works. fchmod, then
 * fchmodat2 (Linux 6.6; 452 on x86_64), which a libseccomp that does not
 * know it would leave open: EPERM from the filter, or ENOSYS from an
 * older kernel (then *want is ENOSYS: there is no such call to refuse). */
static long
probe_setuid (int *want)
{
  int fd = (int) syscall (SYS_memfd_create, "cordon-verify", 0);
  char path[64];
  long rc;

  snprintf (path, sizeof path, "/proc/self/fd/%d", fd);
  rc = fd < 0 ? fd : syscall (SYS_fchmod, fd, 04755);
  if (!(rc < 0 && errno == EPERM))
    return rc;
  if ((rc = syscall (452 /* fchmodat2 */, AT_FDCWD, path, 04755, 0)) < 0 && errno == ENOSYS)
    *want = ENOSYS;
  return rc;
}

const CordonSeccompProbe cordon_seccomp_probes[] = {
  { CORDON_CHECK_SECCOMP_KEYRING, "add_key", EPERM, probe_keyring },
  { CORDON_CHECK_SECCOMP_TIOCSTI, "ioctl", EPERM, probe_tiocsti },
  { CORDON_CHECK_SECCOMP_MOUNT_API, "fsopen", ENOSYS, probe_mount_api },
  { CORDON_CHECK_SECCOMP_BY_NUMBER, "open_tree_attr", ENOSYS, probe_by_number },
  { CORDON_CHECK_SECCOMP_CLONE3, "clone3", ENOSYS, probe_clone3 },
  { CORDON_CHECK_SECCOMP_USERNS, "unshare", EPERM, probe_userns },
  { CORDON_CHECK_SECCOMP_SOCKET_FAMILY, "socket", EAFNOSUPPORT, probe_socket_family },
  { CORDON_CHECK_SECCOMP_IO_URING, "io_uring_setup", ENOSYS, probe_io_uring },
  { CORDON_CHECK_SECCOMP_SETUID, "fchmod", EPERM, probe_setuid },
};

const unsigned cordon_seccomp_n_probes = sizeof cordon_seccomp_probes / sizeof cordon_seccomp_probes[0];

int
cordon_seccomp_probe_run (const CordonSeccompProbe *probe,
                          long *out_rc,
                          int *out_errno,
                          int *out_want)
{
  int want = probe->want;
  long rc;

  errno = 0;
  rc = probe->attempt (&want);
  *out_errno = rc < 0 ? errno : 0;
  *out_rc = rc;
  *out_want = want;
  return rc < 0 && *out_errno == want;
}
