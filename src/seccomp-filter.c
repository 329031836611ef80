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
 *   ptrace, process_vm_readv, process_vm_writev, pidfd_getfd,
 *     perf_event_open, bpf, userfaultfd, kexec_*, *_module, acct, syslog,
 *     quotactl -> EPERM: debugging, tracing (another process's memory or
 *     fds: under a shared pid namespace those of the caller's processes
 *     outside, of the same uid) and kernel control.
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
 *     only inside the sandbox.
 * They are one table (rules, below), each naming the probe of
 * seccomp-probes.c that proves it inside the sandbox, or why none does.
 * Where the kernel can, the refusals of EPERM and EAFNOSUPPORT notify a
 * listener rather than fail (CORDON_SECCOMP_FILTER_NOTIFY): cordon answers
 * them with the same errno and names them (seccomp-notify.h). */
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
#include <sys/syscall.h>
#include <unistd.h>

#include "cordon-error.h"
#include "file-util.h"
#include "seccomp-filter.h"

#define KEYCTL_JOIN_SESSION_KEYRING 1
#define TIOCSTI_REQUEST 0x5412
#define TIOCLINUX_REQUEST 0x541C
#define X32_SYSCALL_BIT 0x40000000u

/* Why a rule has no probe of its own in the sandbox, where another of
 * its kind has one: a probe is a check of every run's, and what it would
 * prove its neighbour proves. test-seccomp-filter makes every rule's
 * call under the built filter. */
#define LIKE(probe) "refused as " probe " is, the kind of rule its probe proves in the sandbox"
#define WHY_STRICT "only under profile=strict, which the probes (the default profile's) do not cover"
#define WHY_FAMILY "one family below AF_NETLINK, compared as seccomp-socket-family's AF_PACKET is"
#define WHY_MODE "the set-ID comparison seccomp-setuid proves on fchmod and fchmodat2, on another call or bit"
#define WHY_PERSONA "a masked comparison like TIOCSTI's; a persona let through would weaken the address " \
                    "space of the checks after it"

#define NONE CORDON_CHECK_MAX
#define PLAIN(n, e, p, why) { .name = n, .err = e, .probe = p, .unprobed = why }
#define STRICT(n) { .name = n, .err = EPERM, .strict_only = TRUE, .probe = NONE, .unprobed = WHY_STRICT }
#define BY_NUMBER(n, nr, p, why) { .name = n, .err = ENOSYS, .by_number = nr, .probe = p, .unprobed = why }
#define ARG(n, e, a, o, m, v, p, why) \
  { .name = n, .err = e, .n_args = 1, .args = { { a, CORDON_SECCOMP_##o, m, v } }, .probe = p, .unprobed = why }
/* set-group-ID, then set-user-ID (which the probe's 04755 sets). */
#define MODE(n, a, p, why) \
  { .name = n, .err = EPERM, .set_id = TRUE, .n_args = 1, \
    .args = { { a, CORDON_SECCOMP_MASKED_EQ, S_ISGID, S_ISGID } }, .probe = NONE, .unprobed = WHY_MODE }, \
  { .name = n, .err = EPERM, .set_id = TRUE, .n_args = 1, \
    .args = { { a, CORDON_SECCOMP_MASKED_EQ, S_ISUID, S_ISUID } }, .probe = p, .unprobed = why }
#define SOCKET(family) ARG ("socket", EAFNOSUPPORT, 0, EQ, 0, family, NONE, WHY_FAMILY)
/* ADDR_NO_RANDOMIZE, MMAP_PAGE_ZERO, ADDR_COMPAT_LAYOUT, READ_IMPLIES_EXEC. Bit
 * 31 in the mask: the query personality(0xffffffff) never matches, as no
 * persona sets it. */
#define PERSONA(flag) ARG ("personality", EPERM, 0, MASKED_EQ, (flag) | 0x80000000u, flag, NONE, WHY_PERSONA)

/* The profile, in the order the filter is built: the calls refused
 * outright, those refused by number, strict's, then those refused by
 * their arguments (libseccomp takes one comparison per argument in a
 * rule: each flag, family or bit is a rule of its own). */
static const CordonSeccompRule rules[] = {
  PLAIN ("add_key", EPERM, CORDON_CHECK_SECCOMP_KEYRING, NULL),
  PLAIN ("request_key", EPERM, NONE, LIKE ("add_key")),
  PLAIN ("fsopen", ENOSYS, CORDON_CHECK_SECCOMP_MOUNT_API, NULL),
  PLAIN ("fsconfig", ENOSYS, NONE, LIKE ("fsopen")),
  PLAIN ("fsmount", ENOSYS, NONE, LIKE ("fsopen")),
  PLAIN ("fspick", ENOSYS, NONE, LIKE ("fsopen")),
  PLAIN ("move_mount", ENOSYS, NONE, LIKE ("fsopen")),
  PLAIN ("open_tree", ENOSYS, NONE, LIKE ("fsopen")),
  PLAIN ("mount_setattr", ENOSYS, NONE, LIKE ("fsopen")),
  PLAIN ("clone3", ENOSYS, CORDON_CHECK_SECCOMP_CLONE3, NULL),
  /* io_uring performs socket(), open() and more without the system calls
   * the rules below look at: closed by default, not only under strict. */
  PLAIN ("io_uring_setup", ENOSYS, CORDON_CHECK_SECCOMP_IO_URING, NULL),
  PLAIN ("io_uring_enter", ENOSYS, NONE, LIKE ("io_uring_setup") ", without which there is no ring"),
  PLAIN ("io_uring_register", ENOSYS, NONE, LIKE ("io_uring_setup") ", without which there is no ring"),
  { .name = "openat2", .err = ENOSYS, .set_id = TRUE, .probe = NONE, .unprobed = LIKE ("clone3") },
  PLAIN ("ptrace", EPERM, NONE, LIKE ("add_key")),
  /* ptrace's reach without ptrace: another process's memory and fds,
   * where a shared pid namespace shows processes of the same uid outside. */
  PLAIN ("process_vm_readv", EPERM, NONE, LIKE ("add_key")),
  PLAIN ("process_vm_writev", EPERM, NONE, LIKE ("add_key")),
  PLAIN ("pidfd_getfd", EPERM, NONE, LIKE ("add_key")),
  PLAIN ("perf_event_open", EPERM, NONE, LIKE ("add_key")),
  PLAIN ("bpf", EPERM, NONE, LIKE ("add_key")),
  PLAIN ("userfaultfd", EPERM, NONE, LIKE ("add_key")),
  PLAIN ("kexec_load", EPERM, NONE, LIKE ("add_key")),
  PLAIN ("kexec_file_load", EPERM, NONE, LIKE ("add_key")),
  PLAIN ("init_module", EPERM, NONE, LIKE ("add_key")),
  PLAIN ("finit_module", EPERM, NONE, LIKE ("add_key")),
  PLAIN ("delete_module", EPERM, NONE, LIKE ("add_key")),
  PLAIN ("acct", EPERM, NONE, LIKE ("add_key")),
  PLAIN ("syslog", EPERM, NONE, LIKE ("add_key")),
  PLAIN ("quotactl", EPERM, NONE, LIKE ("add_key")),

  /* Calls newer than the libseccomp of some hosts (Debian 12's 2.5.4
   * knows none of these by name, and adds no rule by number to a filter
   * of several architectures), blocked by number in a few instructions of
   * cordon's own before libseccomp's program. Since Linux 5.1 a new call
   * has one number on every architecture but alpha and MIPS (whose ABIs
   * add 4000, 5000 or 6000: left out here); x32's calls are x86_64's with
   * bit 30 set. The kernel that runs the sandbox may well be newer than
   * the libseccomp cordon was built with: on this one's, open_tree_attr
   * cloned a tree through a filter that refused open_tree. */
  BY_NUMBER ("statmount", 457, NONE, "refused by number, in the prologue seccomp-by-number proves"),
  BY_NUMBER ("listmount", 458, NONE, "refused by number, in the prologue seccomp-by-number proves"),
  BY_NUMBER ("open_tree_attr", 467, CORDON_CHECK_SECCOMP_BY_NUMBER, NULL),

  /* strict adds what a build or a test suite does not need: namespaces
   * and mounts, file handles (the "shocker" escape), swap, reboot and
   * host names. */
  STRICT ("setns"), STRICT ("mount"), STRICT ("umount2"), STRICT ("pivot_root"), STRICT ("chroot"),
  STRICT ("name_to_handle_at"), STRICT ("open_by_handle_at"), STRICT ("swapon"), STRICT ("swapoff"),
  STRICT ("reboot"), STRICT ("sethostname"), STRICT ("setdomainname"),

  ARG ("keyctl", EPERM, 0, NE, 0, KEYCTL_JOIN_SESSION_KEYRING, NONE,
       "the keyring check's keyctl(KEYCTL_READ) meets it: refused here, or reading an empty keyring"),
  /* Joining is allowed only into a new, anonymous keyring: with a name,
   * it would join an existing keyring of that name. */
  { .name = "keyctl", .err = EPERM, .n_args = 2,
    .args = { { 0, CORDON_SECCOMP_EQ, 0, KEYCTL_JOIN_SESSION_KEYRING }, { 1, CORDON_SECCOMP_NE, 0, 0 } },
    .probe = NONE, .unprobed = "what it lets through, the anonymous join, is cordon-exec's own, made before "
                               "any check: a filter that refused it would stop every sandbox (K<errno>)" },
  ARG ("ioctl", EPERM, 1, MASKED_EQ, 0xFFFFFFFFu, TIOCSTI_REQUEST, CORDON_CHECK_SECCOMP_TIOCSTI, NULL),
  ARG ("ioctl", EPERM, 1, MASKED_EQ, 0xFFFFFFFFu, TIOCLINUX_REQUEST, NONE,
       "compared on the low 32 bits as TIOCSTI is, which seccomp-tiocsti proves with the high bits set"),
  ARG ("unshare", EPERM, 0, MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER, CORDON_CHECK_SECCOMP_USERNS, NULL),
  ARG ("clone", EPERM, 0, MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER, NONE,
       "compared as unshare's flags are, which seccomp-userns proves; a clone let through is a process"),
  PERSONA (0x0040000), PERSONA (0x0100000), PERSONA (0x0200000), PERSONA (0x0400000),
  /* Every family but unix, inet, inet6 and netlink. */
  SOCKET (3), SOCKET (4), SOCKET (5), SOCKET (6), SOCKET (7), SOCKET (8), SOCKET (9), SOCKET (11),
  SOCKET (12), SOCKET (13), SOCKET (14), SOCKET (15),
  ARG ("socket", EAFNOSUPPORT, 0, GT, 0, AF_NETLINK, CORDON_CHECK_SECCOMP_SOCKET_FAMILY, NULL),
  /* No set-user-ID or set-group-ID file: one rule per bit per call that
   * sets a file's mode, on the argument that holds it. */
  MODE ("chmod", 1, NONE, WHY_MODE),
  MODE ("fchmod", 1, CORDON_CHECK_SECCOMP_SETUID, NULL),
  MODE ("fchmodat", 2, NONE, WHY_MODE),
  MODE ("fchmodat2", 2, CORDON_CHECK_SECCOMP_SETUID, NULL),
  MODE ("creat", 1, NONE, WHY_MODE),
  MODE ("open", 2, NONE, WHY_MODE),
  MODE ("openat", 3, NONE, WHY_MODE),
  MODE ("mknod", 1, NONE, WHY_MODE),
  MODE ("mknodat", 2, NONE, WHY_MODE),
};

#undef NONE
#undef PLAIN
#undef STRICT
#undef BY_NUMBER
#undef ARG
#undef MODE
#undef SOCKET
#undef PERSONA

const CordonSeccompRule *
cordon_seccomp_rules (gsize *out_n)
{
  *out_n = G_N_ELEMENTS (rules);
  return rules;
}

/* Whether this kernel notifies a listener of a refused call
 * (SECCOMP_RET_USER_NOTIF, Linux 5.0) and libseccomp can say so, and
 * shows each process's filters (Seccomp_filters, Linux 5.9): the check
 * "filtered" proves with it that no process inside lacks the listened
 * one. */
gboolean
cordon_seccomp_notify_available (void)
{
  guint32 action = SECCOMP_RET_USER_NOTIF;
  g_autofree char *status = NULL;

  return syscall (SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0 && seccomp_api_get () >= 5
         && g_file_get_contents ("/proc/self/status", &status, NULL, NULL)
         && strstr (status, "\nSeccomp_filters:") != NULL;
}

/* The errno the listener answers a notified call with: its rules' (one
 * per name), EPERM for a deny= of the policy's. i386's socketcall is
 * socket's. */
int
cordon_seccomp_errno_of (const char *name)
{
  if (g_strcmp0 (name, "socketcall") == 0)
    return EAFNOSUPPORT;
  for (guint i = 0; name != NULL && i < G_N_ELEMENTS (rules); i++)
    if (rules[i].err != ENOSYS && g_str_equal (rules[i].name, name))
      return rules[i].err;
  return EPERM;
}

/* The errnos the listener answers with, by name. */
const char *
cordon_seccomp_errno_name (int err)
{
  return err == EPERM ? "EPERM" : err == EAFNOSUPPORT ? "EAFNOSUPPORT" : NULL;
}

typedef struct
{
  scmp_filter_ctx ctx;
  const GPtrArray *exempt;   /* [seccomp] allow=: left alone by the profile */
  CordonSeccompFilterKind kind;
} Filter;

/* What a refusal of errno `err` returns in this kind of filter. */
static guint32
action_of (const Filter *f,
           int err)
{
  return f->kind == CORDON_SECCOMP_FILTER_ERRNO || err == ENOSYS ? SCMP_ACT_ERRNO ((unsigned int) err)
                                                                 : SCMP_ACT_NOTIFY;
}

static gboolean
is_exempt (const Filter *f,
           const char *name)
{
  for (guint i = 0; i < f->exempt->len; i++)
    if (g_str_equal (g_ptr_array_index (f->exempt, i), name))
      return TRUE;
  return FALSE;
}

gboolean
cordon_seccomp_filters_by_argument (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (rules); i++)
    if (rules[i].n_args > 0 && g_str_equal (rules[i].name, name))
      return TRUE;
  return FALSE;
}

gboolean
cordon_seccomp_sets_mode (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (rules); i++)
    if (rules[i].set_id && g_str_equal (rules[i].name, name))
      return TRUE;
  return FALSE;
}

static const enum scmp_compare scmp_ops[] = {
  [CORDON_SECCOMP_EQ] = SCMP_CMP_EQ,
  [CORDON_SECCOMP_NE] = SCMP_CMP_NE,
  [CORDON_SECCOMP_GT] = SCMP_CMP_GT,
  [CORDON_SECCOMP_MASKED_EQ] = SCMP_CMP_MASKED_EQ,
};

/* One rule for libseccomp. A name this libseccomp or architecture does
 * not know is skipped: there is then no such call to block. */
static int
add_rule (const Filter *f,
          const CordonSeccompRule *r)
{
  int nr = seccomp_syscall_resolve_name (r->name);
  struct scmp_arg_cmp args[G_N_ELEMENTS (r->args)];

  if (nr == __NR_SCMP_ERROR || is_exempt (f, r->name))
    return 0;
  for (guint i = 0; i < r->n_args; i++)
    {
      const CordonSeccompArg *a = &r->args[i];

      /* MASKED_EQ compares (arg & datum_a) with datum_b; the others, arg
       * with datum_a. */
      args[i] = a->op == CORDON_SECCOMP_MASKED_EQ
                ? (struct scmp_arg_cmp) { a->arg, SCMP_CMP_MASKED_EQ, a->mask, a->value }
                : (struct scmp_arg_cmp) { a->arg, scmp_ops[a->op], a->value, 0 };
    }
  return seccomp_rule_add_array (f->ctx, action_of (f, r->err), nr, r->n_args, args);
}

/* A call the profile refuses whatever the arguments, by a rule of
 * libseccomp's. */
static gboolean
profile_refuses (const CordonPlan *plan,
                 const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (rules); i++)
    if (rules[i].n_args == 0 && rules[i].by_number == 0 && g_str_equal (rules[i].name, name)
        && (!rules[i].strict_only || plan->seccomp == CORDON_SECCOMP_STRICT))
      return TRUE;
  return FALSE;
}

/* Which rule refused `name`: a deny= of the policy's (TRUE, its place in
 * `out_rule`), or the profile (FALSE, [seccomp] profile's place). */
gboolean
cordon_seccomp_refused_by_deny (const CordonPlan *plan,
                                const char *name,
                                CordonLocation *out_rule)
{
  for (guint i = 0; name != NULL && i < plan->seccomp_deny->len; i++)
    if (g_str_equal (g_ptr_array_index (plan->seccomp_deny, i), name) && !profile_refuses (plan, name))
      {
        *out_rule = g_array_index (plan->seccomp_deny_rules, CordonLocation, i);
        return TRUE;
      }
  *out_rule = plan->seccomp_rule;
  return FALSE;
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
  /* The listener's filter refuses another with a listener: the newest
   * filter that notifies is the one whose listener answers, and code
   * inside with a listener of its own would answer "continue" to every
   * call refused here. (The kernel refuses a second listener, EBUSY,
   * only while cordon's is open: not once cordon is gone, a sandbox
   * left running by die-with-parent=false.) A filter without one is
   * harmless: a call it notifies fails with ENOSYS. */
  if (f->kind == CORDON_SECCOMP_FILTER_LISTENED)
    rc = rc ?: seccomp_rule_add (f->ctx, SCMP_ACT_ERRNO (EPERM), SCMP_SYS (seccomp), 1,
                                 SCMP_A1 (SCMP_CMP_MASKED_EQ, SECCOMP_FILTER_FLAG_NEW_LISTENER,
                                          SECCOMP_FILTER_FLAG_NEW_LISTENER));
  for (guint i = 0; i < G_N_ELEMENTS (rules) && rc == 0; i++)
    if (rules[i].by_number == 0 && (!rules[i].strict_only || plan->seccomp == CORDON_SECCOMP_STRICT))
      rc = add_rule (f, &rules[i]);
  /* deny= after the profile: EPERM whatever the arguments. A call the
   * profile already refuses outright stays refused as it is (a second
   * rule would conflict); cordon check refuses deny= of the calls the
   * profile filters by argument. */
  for (guint i = 0; i < plan->seccomp_deny->len && rc == 0; i++)
    {
      const char *name = g_ptr_array_index (plan->seccomp_deny, i);
      int nr = seccomp_syscall_resolve_name (name);

      if (nr != __NR_SCMP_ERROR && !profile_refuses (plan, name))
        rc = seccomp_rule_add (f->ctx, action_of (f, EPERM), nr, 0);
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
  for (guint i = 0; known && i < G_N_ELEMENTS (rules); i++)
    {
      guint32 nr = rules[i].by_number;

      if (nr == 0 || is_exempt (f, rules[i].name))
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
                      CordonSeccompFilterKind kind,
                      GError **error)
{
  scmp_filter_ctx ctx = seccomp_init (SCMP_ACT_ALLOW);
  Filter f = { ctx, plan->seccomp_allow, kind };
  int fd = memfd_create ("cordon-seccomp", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  /* A binary tree of the call numbers (libseccomp 2.5's level 2), not a
   * list: a call is found in a few comparisons, for each call of the
   * sandbox's, and the kernel loads the program faster (170-220 us
   * against 300-360 for trial's, measured here). */
  int rc = ctx == NULL || fd < 0 ? -ENOMEM : seccomp_attr_set (ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);

  rc = rc ?: build (&f, plan);

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

/* Everything the BPF of `kind` is made from, as text: the rules (each
 * field; never a pointer), the plan's profile, allow= and deny=, the
 * kind, the native architecture and libseccomp's version (its tables
 * give the numbers). The same text, the same program: the key of
 * seccomp-cache.c. */
char *
cordon_seccomp_filter_inputs (const CordonPlan *plan,
                              CordonSeccompFilterKind kind)
{
  const struct scmp_version *v = seccomp_version ();
  GString *text = g_string_new (NULL);

  g_string_append_printf (text, "libseccomp=%u.%u.%u arch=%#x kind=%d profile=%d\n", v->major, v->minor,
                          v->micro, seccomp_arch_native (), (int) kind, (int) plan->seccomp);
  for (guint i = 0; i < G_N_ELEMENTS (rules); i++)
    {
      const CordonSeccompRule *r = &rules[i];

      g_string_append_printf (text, "rule=%s %d %d %u %d %u", r->name, r->err, r->strict_only, r->by_number,
                              r->set_id, r->n_args);
      for (guint a = 0; a < r->n_args; a++)
        g_string_append_printf (text, " %u:%d:%" G_GINT64_MODIFIER "x:%" G_GINT64_MODIFIER "x", r->args[a].arg,
                                (int) r->args[a].op, r->args[a].mask, r->args[a].value);
      g_string_append_c (text, '\n');
    }
  for (guint i = 0; i < plan->seccomp_allow->len; i++)
    g_string_append_printf (text, "allow=%s\n", (const char *) g_ptr_array_index (plan->seccomp_allow, i));
  for (guint i = 0; i < plan->seccomp_deny->len; i++)
    g_string_append_printf (text, "deny=%s\n", (const char *) g_ptr_array_index (plan->seccomp_deny, i));
  return g_string_free (text, FALSE);
}

/* The filter's BPF, as bwrap reads it from --seccomp's fd. */
GBytes *
cordon_seccomp_bpf (const CordonPlan *plan,
                    CordonSeccompFilterKind kind,
                    GError **error)
{
  int fd = cordon_seccomp_memfd (plan, kind, error);
  GBytes *bytes;

  if (fd < 0)
    return NULL;
  bytes = cordon_file_read_fd (fd, error);
  close (fd);
  return bytes;
}
