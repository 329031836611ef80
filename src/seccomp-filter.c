/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* seccomp-filter: the default profile. Each rule closes a path that the mount
 * rules cannot:
 *   keyctl, add_key, request_key -> EPERM: the kernel keyrings are shared
 *     with the caller's user (Kerberos tickets, other keys). The one call
 *     allowed is joining a new session keyring, which cordon-exec makes.
 *   ioctl TIOCSTI, TIOCLINUX -> EPERM, compared on the low 32 bits of the
 *     request (the kernel ignores the high ones: CVE-2019-10063): pushing
 *     input into the caller's terminal (CVE-2017-5226).
 *   fsopen, fsconfig, fsmount, fspick, move_mount, open_tree,
 *     mount_setattr, open_tree_attr, statmount, listmount -> ENOSYS: the
 *     new mount API widens the kernel surface. (The last three are newer
 *     than some libseccomp that knows them not by name: by number then.)
 *   clone3 -> ENOSYS: its flags sit in memory a filter cannot read; libc
 *     falls back to clone, whose flags it can.
 *   unshare and clone with CLONE_NEWUSER -> EPERM: no nested user
 *     namespace, the usual first step of a kernel exploit.
 *   ptrace, perf_event_open, bpf, userfaultfd, kexec_*, *_module, acct,
 *     syslog, quotactl -> EPERM: debugging, tracing and kernel control.
 *   personality with ADDR_NO_RANDOMIZE, MMAP_PAGE_ZERO, ADDR_COMPAT_LAYOUT
 *     or READ_IMPLIES_EXEC -> EPERM: each weakens the address space.
 *   socket of a family other than unix, inet, inet6, netlink ->
 *     EAFNOSUPPORT (AF_PACKET, AF_BLUETOOTH, AF_VSOCK...). On i386,
 *     where socket() goes through socketcall, libseccomp can only see
 *     the multiplexed call: socketcall(SYS_SOCKET) is refused whatever
 *     the family, so 32-bit programs get no sockets at all (fail closed).
 *   io_uring_setup, io_uring_enter, io_uring_register -> ENOSYS: io_uring
 *     opens sockets and files without the calls these rules look at.
 *   chmod, fchmod, fchmodat, fchmodat2, creat, open, openat, mknod and
 *     mknodat with a mode holding S_ISUID or S_ISGID -> EPERM; openat2
 *     (whose mode sits in memory) -> ENOSYS, libc falls back to openat:
 *     a set-user-ID file left in a writable bind is one the host runs as
 *     its owner, the caller (root, for a root caller) — mounts are nosuid
 *     only inside the sandbox. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cordon-error.h"
#include "file-util.h"
#include "seccomp-filter.h"

#define KEYCTL_JOIN_SESSION_KEYRING 1
#define TIOCSTI_REQUEST 0x5412
#define TIOCLINUX_REQUEST 0x541C

typedef struct
{
  const char *name;
  int err;
} Blocked;

static const Blocked blocked[] = {
  { "add_key", EPERM }, { "request_key", EPERM },
  { "fsopen", ENOSYS }, { "fsconfig", ENOSYS }, { "fsmount", ENOSYS }, { "fspick", ENOSYS },
  { "move_mount", ENOSYS }, { "open_tree", ENOSYS }, { "mount_setattr", ENOSYS },
  { "clone3", ENOSYS },
  /* io_uring performs socket(), open() and more without the system calls
   * the rules below look at: closed by default, not only under strict. */
  { "io_uring_setup", ENOSYS }, { "io_uring_enter", ENOSYS }, { "io_uring_register", ENOSYS },
  { "openat2", ENOSYS },
  { "ptrace", EPERM }, { "perf_event_open", EPERM }, { "bpf", EPERM }, { "userfaultfd", EPERM },
  { "kexec_load", EPERM }, { "kexec_file_load", EPERM }, { "init_module", EPERM },
  { "finit_module", EPERM }, { "delete_module", EPERM }, { "acct", EPERM },
  { "syslog", EPERM }, { "quotactl", EPERM },
};

/* Calls newer than the libseccomp of some hosts (Debian 12's 2.5.4 knows
 * none of these by name, and adds no rule by number to a filter of
 * several architectures), blocked by number in a few instructions of
 * cordon's own before libseccomp's program. Since Linux 5.1 a new call
 * has one number on every architecture but alpha and MIPS (whose ABIs
 * add 4000, 5000 or 6000: left out here); x32's calls are x86_64's with
 * bit 30 set. The kernel that
 * runs the sandbox may well be newer than the libseccomp cordon was
 * built with: on this one's, open_tree_attr cloned a tree through a
 * filter that refused open_tree. */
static const struct
{
  const char *name;
  guint32 nr;
} blocked_by_number[] = {
  { "statmount", 457 }, { "listmount", 458 }, { "open_tree_attr", 467 },
};

#define X32_SYSCALL_BIT 0x40000000u

/* strict adds what a build or a test suite does not need: io_uring
 * (a large, often-patched kernel surface), namespaces and mounts, file
 * handles (the "shocker" escape), swap, reboot and host names. */
static const char * const strict_extra[] = {
  "setns", "mount", "umount2",
  "pivot_root", "chroot", "name_to_handle_at", "open_by_handle_at", "swapon", "swapoff",
  "reboot", "sethostname", "setdomainname", NULL
};

typedef struct
{
  scmp_filter_ctx ctx;
  const GPtrArray *exempt;   /* [seccomp] allow=: left alone by the profile */
} Filter;

static gboolean
is_exempt (const Filter *f,
           const char *name)
{
  for (guint i = 0; i < f->exempt->len; i++)
    if (g_str_equal (g_ptr_array_index (f->exempt, i), name))
      return TRUE;
  return FALSE;
}

/* A name this libseccomp or architecture does not know is skipped: there
 * is then no such call to block. */
static int
add_errno (const Filter *f,
           const char *name,
           int err,
           unsigned int n_args,
           const struct scmp_arg_cmp *args)
{
  int nr = seccomp_syscall_resolve_name (name);

  if (nr == __NR_SCMP_ERROR || is_exempt (f, name))
    return 0;
  return seccomp_rule_add_array (f->ctx, SCMP_ACT_ERRNO ((unsigned int) err), nr, n_args, args);
}

/* ADDR_NO_RANDOMIZE, MMAP_PAGE_ZERO, ADDR_COMPAT_LAYOUT, READ_IMPLIES_EXEC */
static const scmp_datum_t personality_flags[] = { 0x0040000, 0x0100000, 0x0200000, 0x0400000 };

const char * const cordon_seccomp_filtered_by_argument[] = {
  "keyctl", "ioctl", "unshare", "clone", "personality", "socket",
  "chmod", "fchmod", "fchmodat", "fchmodat2", "creat", "open", "openat", "mknod", "mknodat", NULL
};

/* Each call that sets a file's mode, and the argument that holds it. */
static const struct
{
  const char *name;
  unsigned int mode_arg;
} mode_setting[] = {
  { "chmod", 1 }, { "fchmod", 1 }, { "fchmodat", 2 }, { "fchmodat2", 2 }, { "creat", 1 },
  { "open", 2 }, { "openat", 3 }, { "mknod", 1 }, { "mknodat", 2 },
};

/* TRUE for a call whose mode argument the profile filters (set-ID bits
 * refused), and openat2, which it refuses outright for that reason. */
gboolean
cordon_seccomp_sets_mode (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (mode_setting); i++)
    if (g_str_equal (mode_setting[i].name, name))
      return TRUE;
  return g_str_equal (name, "openat2");
}

/* Every rule here is on a call of cordon_seccomp_filtered_by_argument. */
static int
add_argument_rules (const Filter *f)
{
  static const int other_families[] = { 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15 };
  struct scmp_arg_cmp a;
  int rc = 0;

  a = SCMP_A0 (SCMP_CMP_NE, KEYCTL_JOIN_SESSION_KEYRING);
  rc = rc ?: add_errno (f, "keyctl", EPERM, 1, &a);
  /* Joining is allowed only into a new, anonymous keyring: with a name,
   * it would join an existing keyring of that name. */
  {
    struct scmp_arg_cmp join[2] = { SCMP_A0 (SCMP_CMP_EQ, KEYCTL_JOIN_SESSION_KEYRING),
                                    SCMP_A1 (SCMP_CMP_NE, 0) };

    rc = rc ?: add_errno (f, "keyctl", EPERM, 2, join);
  }
  a = SCMP_A1 (SCMP_CMP_MASKED_EQ, 0xFFFFFFFFu, TIOCSTI_REQUEST);
  rc = rc ?: add_errno (f, "ioctl", EPERM, 1, &a);
  a = SCMP_A1 (SCMP_CMP_MASKED_EQ, 0xFFFFFFFFu, TIOCLINUX_REQUEST);
  rc = rc ?: add_errno (f, "ioctl", EPERM, 1, &a);
  a = SCMP_A0 (SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER);
  rc = rc ?: add_errno (f, "unshare", EPERM, 1, &a);
  rc = rc ?: add_errno (f, "clone", EPERM, 1, &a);
  /* libseccomp takes one comparison per argument in a rule: each flag
   * that weakens the address space is a rule of its own. */
  for (guint i = 0; i < G_N_ELEMENTS (personality_flags); i++)
    {
      /* Bit 31 in the mask: the query personality(0xffffffff) never
       * matches, as no persona sets it. */
      a = SCMP_A0 (SCMP_CMP_MASKED_EQ, personality_flags[i] | 0x80000000u, personality_flags[i]);
      rc = rc ?: add_errno (f, "personality", EPERM, 1, &a);
    }
  for (guint i = 0; i < G_N_ELEMENTS (other_families); i++)
    {
      a = SCMP_A0 (SCMP_CMP_EQ, (scmp_datum_t) other_families[i]);
      rc = rc ?: add_errno (f, "socket", EAFNOSUPPORT, 1, &a);
    }
  a = SCMP_A0 (SCMP_CMP_GT, AF_NETLINK);
  rc = rc ?: add_errno (f, "socket", EAFNOSUPPORT, 1, &a);
  /* No set-user-ID or set-group-ID file: one rule per bit per call. */
  for (guint i = 0; i < G_N_ELEMENTS (mode_setting); i++)
    for (scmp_datum_t bit = S_ISGID; bit <= S_ISUID; bit <<= 1)
      {
        a = (struct scmp_arg_cmp) { mode_setting[i].mode_arg, SCMP_CMP_MASKED_EQ, bit, bit };
        rc = rc ?: add_errno (f, mode_setting[i].name, EPERM, 1, &a);
      }
  return rc;
}

static gboolean
profile_refuses (const CordonPlan *plan,
                 const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (blocked); i++)
    if (g_str_equal (blocked[i].name, name))
      return TRUE;
  return plan->seccomp == CORDON_SECCOMP_STRICT && g_strv_contains (strict_extra, name);
}

static int
build (const Filter *f,
       const CordonPlan *plan)
{
  int rc = 0;

  /* The compat ABIs of x86_64: a 32-bit or x32 program inside would
   * otherwise reach every call through them. */
  if (seccomp_arch_native () == SCMP_ARCH_X86_64)
    {
      rc = seccomp_arch_add (f->ctx, SCMP_ARCH_X86);
      rc = rc ?: seccomp_arch_add (f->ctx, SCMP_ARCH_X32);
    }
  for (guint i = 0; i < G_N_ELEMENTS (blocked) && rc == 0; i++)
    rc = add_errno (f, blocked[i].name, blocked[i].err, 0, NULL);
  for (guint i = 0; plan->seccomp == CORDON_SECCOMP_STRICT && strict_extra[i] != NULL && rc == 0; i++)
    rc = add_errno (f, strict_extra[i], EPERM, 0, NULL);
  rc = rc ?: add_argument_rules (f);
  /* deny= after the profile: EPERM whatever the arguments. A call the
   * profile already refuses outright stays refused as it is (a second
   * rule would conflict); cordon check refuses deny= of the calls the
   * profile filters by argument. */
  for (guint i = 0; i < plan->seccomp_deny->len && rc == 0; i++)
    {
      const char *name = g_ptr_array_index (plan->seccomp_deny, i);
      int nr = seccomp_syscall_resolve_name (name);

      if (nr != __NR_SCMP_ERROR && !profile_refuses (plan, name))
        rc = seccomp_rule_add (f->ctx, SCMP_ACT_ERRNO (EPERM), nr, 0);
    }
  return rc;
}

/* "If the call is NR of ARCH, ENOSYS": five instructions that fall
 * through to what follows otherwise. */
static void
add_by_number (GArray *prologue,
               guint32 arch,
               guint32 nr)
{
  const struct sock_filter insns[] = {
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, arch)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, arch, 0, 3),
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)),
  };

  g_array_append_vals (prologue, insns, G_N_ELEMENTS (insns));
}

/* The architectures whose numbers for the calls above are the same:
 * libseccomp's tokens for them are the kernel's AUDIT_ARCH values (its
 * x32 token is not: x32 is x86_64's AUDIT_ARCH, its numbers with bit 30). */
static const guint32 same_numbers[] = {
  SCMP_ARCH_X86_64, SCMP_ARCH_X86, SCMP_ARCH_AARCH64, SCMP_ARCH_ARM, SCMP_ARCH_RISCV64,
  SCMP_ARCH_PPC64, SCMP_ARCH_PPC64LE, SCMP_ARCH_S390X,
};

/* The instructions that go before libseccomp's program (its jumps are
 * relative: they are not moved by what comes before). None on an
 * architecture of other numbers: there the calls stay as libseccomp
 * leaves them. (A name exempt by allow= is one this libseccomp knows:
 * cordon check refuses others.) */
static GArray *
by_number_prologue (const Filter *f)
{
  GArray *prologue = g_array_new (FALSE, FALSE, sizeof (struct sock_filter));
  guint32 native = seccomp_arch_native ();
  gboolean known = FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (same_numbers); i++)
    known = known || same_numbers[i] == native;
  for (guint i = 0; known && i < G_N_ELEMENTS (blocked_by_number); i++)
    {
      guint32 nr = blocked_by_number[i].nr;

      if (is_exempt (f, blocked_by_number[i].name))
        continue;
      add_by_number (prologue, native, nr);
      if (native == SCMP_ARCH_X86_64)
        {
          add_by_number (prologue, SCMP_ARCH_X86_64, nr | X32_SYSCALL_BIT);
          add_by_number (prologue, SCMP_ARCH_X86, nr);
        }
    }
  return prologue;
}

/* libseccomp's program, exported, behind the prologue, into `fd`. */
static int
export_with_prologue (const Filter *f,
                      int fd)
{
  g_autoptr(GArray) program = by_number_prologue (f);
  int body = memfd_create ("cordon-seccomp-body", MFD_CLOEXEC);
  struct stat st;
  g_autofree char *text = NULL;
  int rc;

  if (body < 0)
    return -errno;
  rc = seccomp_export_bpf (f->ctx, body);
  /* A program of whole instructions, and not none: libseccomp's ends
   * with its default action. */
  if (rc == 0 && (fstat (body, &st) != 0 || st.st_size <= 0 || st.st_size % sizeof (struct sock_filter) != 0
                  || st.st_size > BPF_MAXINSNS * (off_t) sizeof (struct sock_filter)))
    rc = -EIO;
  if (rc == 0)
    {
      text = g_malloc ((gsize) st.st_size);
      rc = pread (body, text, (size_t) st.st_size, 0) == st.st_size ? 0 : -EIO;
    }
  close (body);
  if (rc != 0)
    return rc;
  g_array_append_vals (program, text, (guint) (st.st_size / sizeof (struct sock_filter)));
  if (program->len > BPF_MAXINSNS)
    return -E2BIG;
  return write (fd, program->data, program->len * sizeof (struct sock_filter))
         == (ssize_t) (program->len * sizeof (struct sock_filter)) ? 0 : -EIO;
}

/* The filter as BPF in a sealed memfd, positioned at 0 for bwrap. */
int
cordon_seccomp_memfd (const CordonPlan *plan,
                      GError **error)
{
  scmp_filter_ctx ctx = seccomp_init (SCMP_ACT_ALLOW);
  Filter f = { ctx, plan->seccomp_allow };
  int fd = memfd_create ("cordon-seccomp", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  int rc = ctx == NULL || fd < 0 ? -ENOMEM : build (&f, plan);

  if (rc == 0)
    rc = export_with_prologue (&f, fd);
  if (ctx != NULL)
    seccomp_release (ctx);
  if (rc == 0 && (fcntl (fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0
                  || lseek (fd, 0, SEEK_SET) != 0))
    rc = -errno;
  if (rc != 0)
    {
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "cannot build the seccomp filter: %s",
                   g_strerror (-rc));
      if (fd >= 0)
        close (fd);
      return -1;
    }
  return fd;
}

/* The filter's BPF, as bwrap reads it from --seccomp's fd. */
GBytes *
cordon_seccomp_bpf (const CordonPlan *plan,
                    GError **error)
{
  int fd = cordon_seccomp_memfd (plan, error);
  GBytes *bytes;

  if (fd < 0)
    return NULL;
  bytes = cordon_file_read_fd (fd, error);
  close (fd);
  return bytes;
}
