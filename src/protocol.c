/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* protocol: the tables of protocol.h: the spec's verbs and the checks of
 * a fixed id, each with what it proves (the report's "expect"). cordon
 * writes what cordon-exec reads from these, and records what it reports
 * by them; plain C, linked by both. */
#include "config.h"

#include <string.h>

#include "protocol.h"

const CordonSpecVerbInfo cordon_spec_verbs[CORDON_SPEC_MAX] = {
  [CORDON_SPEC_SOCKET] = { "socket", 3, "connect() is refused" },
  [CORDON_SPEC_SECRET_FILE] = { "secret-file", 3, "reads back empty or is denied" },
  [CORDON_SPEC_SECRET_DIR] = { "secret-dir", 3, "is empty and read-only" },
  [CORDON_SPEC_READ_ONLY] = { "read-only", 3, "no file can be created" },
  [CORDON_SPEC_UNREACHABLE] = { "unreachable", 3,
                                "cannot be reached (the sandbox's host user may not search on the way)" },
  [CORDON_SPEC_NAMESPACE] = { "namespace", 4, "is new, not the host's" },
  [CORDON_SPEC_PROC_SYS] = { "proc-sys", 1, NULL },
  [CORDON_SPEC_SECCOMP] = { "seccomp", 2, NULL },
  [CORDON_SPEC_ENV_ALLOW] = { "env-allow", 2, NULL },
  [CORDON_SPEC_DIGEST] = { "digest", 2, NULL },
  [CORDON_SPEC_PID_NAMESPACE] = { "pid-namespace", 1, NULL },
  [CORDON_SPEC_HOST_PROC] = { "host-proc", 2, NULL },
  [CORDON_SPEC_OUTSIDE_SHOWN] = { "outside-shown", 1, NULL },
  [CORDON_SPEC_CAPEFF] = { "capeff", 2, NULL },
  [CORDON_SPEC_CGROUP] = { "cgroup", 5, "the sandbox can neither open a limit of its cgroup for writing nor move itself to the parent" },
  [CORDON_SPEC_PINNED] = { "pinned", 3, "cannot be renamed or removed (a mount point)" },
  [CORDON_SPEC_HIDDEN] = { "hidden", 4, "shows only what the policy binds there, and nothing can be created" },
};

CordonSpecVerb
cordon_spec_verb_find (const char *word,
                       unsigned n_fields)
{
  for (unsigned i = 0; i < CORDON_SPEC_MAX; i++)
    if (cordon_spec_verbs[i].n_fields == n_fields && strcmp (cordon_spec_verbs[i].word, word) == 0)
      return (CordonSpecVerb) i;
  return CORDON_SPEC_MAX;
}

const CordonCheckInfo cordon_checks[CORDON_CHECK_MAX] = {
  [CORDON_CHECK_PROC_SYS] = { "proc-sys", "read-only: no kernel setting opens for writing" },
  [CORDON_CHECK_SECCOMP_KEYRING] = { "seccomp-keyring", "add_key fails with EPERM" },
  [CORDON_CHECK_SECCOMP_TIOCSTI] = { "seccomp-tiocsti", "TIOCSTI with the high 32 bits set fails with EPERM" },
  [CORDON_CHECK_SECCOMP_MOUNT_API] = { "seccomp-mount-api", "fsopen fails with ENOSYS" },
  [CORDON_CHECK_SECCOMP_BY_NUMBER] = { "seccomp-by-number", "open_tree_attr, blocked by number, fails with ENOSYS" },
  [CORDON_CHECK_SECCOMP_CLONE3] = { "seccomp-clone3", "clone3 fails with ENOSYS" },
  [CORDON_CHECK_SECCOMP_USERNS] = { "seccomp-userns", "unshare(CLONE_NEWUSER) fails with EPERM" },
  [CORDON_CHECK_SECCOMP_SOCKET_FAMILY] = { "seccomp-socket-family", "an AF_PACKET socket fails with EAFNOSUPPORT" },
  [CORDON_CHECK_SECCOMP_IO_URING] = { "seccomp-io-uring", "io_uring_setup fails with ENOSYS" },
  [CORDON_CHECK_SECCOMP_SETUID] = { "seccomp-setuid", "fchmod to a set-user-ID mode fails with EPERM" },
  [CORDON_CHECK_ENVIRON] = { "environ", "only allowed variable names are set" },
  [CORDON_CHECK_MOUNT] = { "mount", "mount() is refused" },
  [CORDON_CHECK_TIOCSTI] = { "tiocsti", "TIOCSTI is refused on every terminal" },
  [CORDON_CHECK_KEYRING] = { "keyring", "the session keyring is fresh and empty" },
  [CORDON_CHECK_DROPPED_VALUES] = { "dropped-values",
                                    "no dropped variable's value is in any /proc/PID/environ or cmdline" },
  [CORDON_CHECK_CORDON_UNREADABLE] = { "cordon-unreadable", "cordon's own /proc/PID files (environ, mem, fd "
                                       "links) are closed to the sandbox" },
  [CORDON_CHECK_FDS] = { "fds", "only fds 0-2 and cordon's own are open" },
  [CORDON_CHECK_CAPABILITIES] = { "capabilities", "CapEff holds exactly the kept capabilities (none by default)" },
  [CORDON_CHECK_NO_NEW_PRIVS] = { "no-new-privs", "NoNewPrivs is 1" },
  [CORDON_CHECK_FILTERED] = { "filtered", "no process inside has fewer seccomp filters than the helper "
                              "(bwrap's own init would)" },
  [CORDON_CHECK_PROCESSES] = { "processes", "only the sandbox's processes are visible" },
  [CORDON_CHECK_PROCESSES_CLOSED] = { "processes-closed", "no process outside the sandbox is open to it "
                                      "(its /proc/PID/root, fds, memory)" },
  [CORDON_CHECK_OUTSIDE_ENVIRON] = { "outside-environ", "bwrap's and the helper's environments hold only "
                                     "allowed names" },
  [CORDON_CHECK_OUTSIDE_STATUS] = { "outside-status", "seen from outside: CapEff as kept, NoNewPrivs 1, the "
                                    "seccomp filter in force" },
  [CORDON_CHECK_OUTSIDE_NAMESPACES] = { "outside-namespaces", "seen from outside: every unshared namespace is new" },
  [CORDON_CHECK_OUTSIDE_FDS] = { "outside-fds", "seen from outside: only fds 0-2 and cordon's own" },
  [CORDON_CHECK_OUTSIDE_MASKS] = { "outside-masks", "seen from outside: every mask is mounted" },
  [CORDON_CHECK_OUTSIDE_PROC_SYS] = { "outside-proc-sys", "seen from outside: mounted read-only" },
  [CORDON_CHECK_OUTSIDE_IDENTITY] = { "outside-identity", NULL },
  [CORDON_CHECK_OUTSIDE_SCRATCH] = { "outside-scratch", "seen from outside: every scratch tmpfs is of its size, /dev and / read-only" },
  [CORDON_CHECK_OUTSIDE_RLIMITS] = { "outside-rlimits", "seen from outside: the helper's file-size, open-files, core and pids limits are the policy's" },
  [CORDON_CHECK_OUTSIDE_CGROUP] = { "outside-cgroup", "seen from outside: bwrap and the helper are in each of the sandbox's cgroups, whose limits are the policy's" },
};
