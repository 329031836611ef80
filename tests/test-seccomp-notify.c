/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-seccomp-notify: cordon's answers to the listener cordon-exec
 * loads, on this kernel. A forked child loads the filters as bwrap and
 * cordon-exec do and makes refused calls; the parent answers them as the
 * supervisor does. The refusals get their rule's errno and are counted by
 * name; without a listener they fail with ENOSYS still; and a listener of
 * the sandbox's own, which could answer "continue" to the profile's
 * refusals, is refused by the listened filter (the control: without its
 * guard, once cordon's listener is closed, such a listener lets ptrace
 * run). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "seccomp-filter.h"
#include "seccomp-notify.h"

/* The profile's filter of `kind`, as cordon builds it. */
static GBytes *
filter_of (CordonSeccompFilterKind kind)
{
  g_autoptr(CordonPlan) plan = cordon_plan_new ("test");
  g_autoptr(GError) error = NULL;
  GBytes *bpf;

  plan->seccomp = CORDON_SECCOMP_DEFAULT;
  bpf = cordon_seccomp_bpf (plan, kind, &error);
  assert_non_null (bpf);
  return bpf;
}

/* In a child: load `bpf` with `flags`; the listener's fd, or -1. */
static int
load (GBytes *bpf,
      unsigned int flags)
{
  gsize size;
  const void *data = g_bytes_get_data (bpf, &size);
  struct sock_fprog prog = { (unsigned short) (size / sizeof (struct sock_filter)), (struct sock_filter *) data };

  return (int) syscall (SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
}

static void
send_fd (int sock,
         int fd)
{
  char byte = 'N';
  struct iovec iov = { &byte, 1 };
  union { char buf[CMSG_SPACE (sizeof (int))]; struct cmsghdr align; } control;
  struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf,
                        .msg_controllen = sizeof control.buf };
  struct cmsghdr *c = CMSG_FIRSTHDR (&msg);

  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN (sizeof (int));
  memcpy (CMSG_DATA (c), &fd, sizeof fd);
  if (sendmsg (sock, &msg, 0) != 1)
    _exit (90);
}

static int
receive_fd (int sock)
{
  char byte;
  struct iovec iov = { &byte, 1 };
  union { char buf[CMSG_SPACE (sizeof (int))]; struct cmsghdr align; } control;
  struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf,
                        .msg_controllen = sizeof control.buf };
  struct cmsghdr *c;
  int fd = -1;

  if (recvmsg (sock, &msg, MSG_CMSG_CLOEXEC) != 1 || (c = CMSG_FIRSTHDR (&msg)) == NULL)
    return -1;
  memcpy (&fd, CMSG_DATA (c), sizeof fd);
  return fd;
}

static void
test_seccomp_notify_answers_each_refusal_with_its_errno_and_counts_it (void **state)
{
  g_autoptr(GBytes) outer = filter_of (CORDON_SECCOMP_FILTER_NOTIFY);
  g_autoptr(GBytes) listened = filter_of (CORDON_SECCOMP_FILTER_LISTENED);
  CordonSeccompDenials record = { 0 };
  int sv[2], listener, status = -1;
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  pid_t pid;

  assert_int_equal (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
  pid = fork ();
  assert_true (pid >= 0);
  if (pid == 0)
    {
      int fd, bad = 0;

      close (sv[0]);
      if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || load (outer, 0) != 0
          || (fd = load (listened, SECCOMP_FILTER_FLAG_NEW_LISTENER)) < 0)
        _exit (91);
      send_fd (sv[1], fd);
      close (fd);
      for (int i = 0; i < 3; i++)
        bad += ptrace (PTRACE_TRACEME, 0, NULL, NULL) == 0 || errno != EPERM;
      bad += socket (AF_PACKET, SOCK_RAW, 0) >= 0 || errno != EAFNOSUPPORT;
      _exit (bad);
    }
  close (sv[1]);
  listener = receive_fd (sv[0]);
  close (sv[0]);
  assert_true (listener >= 0);
  assert_true (cordon_seccomp_notify_is_listener (listener));
  /* As the supervisor does: until no process of the filter is left. */
  while (g_get_monotonic_time () < deadline)
    {
      struct pollfd p = { listener, POLLIN, 0 };

      if (poll (&p, 1, 100) < 0 && errno != EINTR)
        break;
      if (p.revents & POLLIN)
        assert_true (cordon_seccomp_notify_answer (listener, &record));
      else if (p.revents & (POLLHUP | POLLERR))
        break;
    }
  close (listener);
  assert_int_equal (waitpid (pid, &status, 0), pid);
  assert_true (WIFEXITED (status));
  assert_int_equal (WEXITSTATUS (status), 0);
  assert_non_null (record.denials);
  assert_int_equal (record.denials->len, 2);
  assert_string_equal (((CordonSeccompDenial *) g_ptr_array_index (record.denials, 0))->syscall, "ptrace");
  assert_int_equal (((CordonSeccompDenial *) g_ptr_array_index (record.denials, 0))->count, 3);
  assert_int_equal (((CordonSeccompDenial *) g_ptr_array_index (record.denials, 0))->err, EPERM);
  assert_string_equal (((CordonSeccompDenial *) g_ptr_array_index (record.denials, 1))->syscall, "socket");
  assert_int_equal (((CordonSeccompDenial *) g_ptr_array_index (record.denials, 1))->err, EAFNOSUPPORT);
  assert_int_equal (record.others, 0);
  cordon_seccomp_denials_clear (&record);
}

/* Fail closed: bwrap's filter alone, nobody listening (cordon-exec not
 * yet started, or a sandbox left by a cordon gone). */
static void
test_seccomp_notify_refusals_without_a_listener_fail_with_enosys (void **state)
{
  g_autoptr(GBytes) outer = filter_of (CORDON_SECCOMP_FILTER_NOTIFY);
  int status = -1;
  pid_t pid = fork ();

  assert_true (pid >= 0);
  if (pid == 0)
    {
      if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || load (outer, 0) != 0)
        _exit (91);
      _exit (ptrace (PTRACE_TRACEME, 0, NULL, NULL) == -1 && errno == ENOSYS ? 0 : 1);
    }
  assert_int_equal (waitpid (pid, &status, 0), pid);
  assert_true (WIFEXITED (status));
  assert_int_equal (WEXITSTATUS (status), 0);
}

/* The sandbox's own listener: a filter notifying ptrace, which a child
 * of its answers "continue". In the child of the test: 11 when the
 * listener was refused with EPERM, 12 for another refusal, 20 when
 * ptrace ran through it, 21 when it did not. */
static int
steal_with_own_listener (void)
{
  struct sock_filter insns[] = {
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_ptrace, 0, 1),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog prog = { G_N_ELEMENTS (insns), insns };
  struct seccomp_notif req;
  struct seccomp_notif_resp resp;
  int own, status = -1;
  pid_t victim;

  own = (int) syscall (SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
  if (own < 0)
    return errno == EPERM ? 11 : 12;
  victim = fork ();
  if (victim == 0)
    _exit (ptrace (PTRACE_TRACEME, 0, NULL, NULL) == 0 ? 0 : 1);
  memset (&req, 0, sizeof req);
  if (victim < 0 || ioctl (own, SECCOMP_IOCTL_NOTIF_RECV, &req) != 0)
    return 92;
  memset (&resp, 0, sizeof resp);
  resp.id = req.id;
  resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
  if (ioctl (own, SECCOMP_IOCTL_NOTIF_SEND, &resp) != 0 || waitpid (victim, &status, 0) != victim)
    return 93;
  return WIFEXITED (status) && WEXITSTATUS (status) == 0 ? 20 : 21;
}

/* Under cordon's filters of `kind`, its listener closed: what the
 * sandbox's own listener comes to. */
static int
steal_under (CordonSeccompFilterKind kind)
{
  g_autoptr(GBytes) outer = filter_of (CORDON_SECCOMP_FILTER_NOTIFY);
  g_autoptr(GBytes) inner = filter_of (kind);
  int status = -1;
  pid_t pid = fork ();

  assert_true (pid >= 0);
  if (pid == 0)
    {
      int fd;

      if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || load (outer, 0) != 0
          || (fd = load (inner, SECCOMP_FILTER_FLAG_NEW_LISTENER)) < 0)
        _exit (91);
      /* cordon gone: the kernel's one-listener rule holds no more. */
      close (fd);
      _exit (steal_with_own_listener ());
    }
  assert_int_equal (waitpid (pid, &status, 0), pid);
  assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

static void
test_seccomp_notify_listened_filter_refuses_a_listener_of_the_sandboxs (void **state)
{
  assert_int_equal (steal_under (CORDON_SECCOMP_FILTER_LISTENED), 11);
}

/* The control: the hole the guard closes is real on this kernel. */
static void
test_seccomp_notify_without_the_guard_a_listener_of_the_sandboxs_lets_ptrace_run (void **state)
{
  assert_int_equal (steal_under (CORDON_SECCOMP_FILTER_NOTIFY), 20);
}

static void
test_seccomp_notify_answers_with_each_rules_errno (void **state)
{
  assert_int_equal (cordon_seccomp_errno_of ("ptrace"), EPERM);
  assert_int_equal (cordon_seccomp_errno_of ("socket"), EAFNOSUPPORT);
  assert_int_equal (cordon_seccomp_errno_of ("socketcall"), EAFNOSUPPORT);
  assert_int_equal (cordon_seccomp_errno_of ("fchmodat"), EPERM);
  /* deny= of the policy's, and a number libseccomp had no name for. */
  assert_int_equal (cordon_seccomp_errno_of ("uname"), EPERM);
  assert_int_equal (cordon_seccomp_errno_of ("syscall 999"), EPERM);
}

static void
test_seccomp_notify_tells_a_listener_from_another_fd (void **state)
{
  int p[2];

  assert_int_equal (pipe (p), 0);
  assert_false (cordon_seccomp_notify_is_listener (p[0]));
  assert_false (cordon_seccomp_notify_is_listener (-1));
  close (p[0]);
  close (p[1]);
}

/* deny= names its own rule; the profile's calls name the profile. */
static void
test_seccomp_notify_names_the_rule_that_refused (void **state)
{
  g_autoptr(CordonPlan) plan = cordon_plan_new ("test");
  CordonLocation at = { g_intern_string ("x.policy"), 4, 6 }, got;

  plan->seccomp = CORDON_SECCOMP_DEFAULT;
  plan->seccomp_rule = (CordonLocation) { g_intern_string ("base.policy"), 59, 9 };
  g_ptr_array_add (plan->seccomp_deny, g_strdup ("uname"));
  g_array_append_val (plan->seccomp_deny_rules, at);
  /* ptrace is the profile's even where deny= names it too. */
  g_ptr_array_add (plan->seccomp_deny, g_strdup ("ptrace"));
  g_array_append_val (plan->seccomp_deny_rules, at);
  assert_true (cordon_seccomp_refused_by_deny (plan, "uname", &got));
  assert_int_equal (got.line, 4);
  assert_false (cordon_seccomp_refused_by_deny (plan, "ptrace", &got));
  assert_int_equal (got.line, 59);
  assert_false (cordon_seccomp_refused_by_deny (plan, "personality", &got));
  assert_string_equal (got.file, "base.policy");
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_seccomp_notify_answers_each_refusal_with_its_errno_and_counts_it),
    cmocka_unit_test (test_seccomp_notify_refusals_without_a_listener_fail_with_enosys),
    cmocka_unit_test (test_seccomp_notify_listened_filter_refuses_a_listener_of_the_sandboxs),
    cmocka_unit_test (test_seccomp_notify_without_the_guard_a_listener_of_the_sandboxs_lets_ptrace_run),
    cmocka_unit_test (test_seccomp_notify_answers_with_each_rules_errno),
    cmocka_unit_test (test_seccomp_notify_tells_a_listener_from_another_fd),
    cmocka_unit_test (test_seccomp_notify_names_the_rule_that_refused),
  };

  if (!cordon_seccomp_notify_available ())
    {
      /* Nothing here can be proven without the kernel's notifications. */
      fprintf (stderr, "SECCOMP_RET_USER_NOTIF is not available on this kernel\n");
      return 77;
    }
  return cmocka_run_group_tests (tests, NULL, NULL);
}
