/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-seccomp-filter: the profile's rule table, and the filter built
 * from it. Every rule has a probe in the sandbox or says why not; the
 * filter, loaded in a forked child, refuses each rule's call with the
 * rule's errno, and a child without it does not (else the call proves
 * nothing on this host, and is not counted); the strict rules hold only
 * under strict, allow= takes a rule out, deny= adds one; and every probe
 * cordon-exec makes passes under the filter and fails without it.
 *
 * A rule's call is made with every argument the rule does not compare
 * all ones: an address no process holds, fd -1, flags no call takes.
 * Without the filter each fails on that (EFAULT, EBADF, EINVAL) before
 * it could do anything, as root too. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "seccomp-filter.h"
#include "seccomp-probes.h"

/* What a call in a child came to. */
typedef struct
{
  long rc;
  int err;          /* errno when rc < 0 */
  int want;         /* a probe's: the errno the filter answers */
} Outcome;

typedef Outcome (*Attempt) (const void *data);

/* The BPF program of the filter a plan builds, or NULL without one. */
static GByteArray *
program_of (CordonSeccompProfile profile,
            const char *allow,
            const char *deny)
{
  g_autoptr(CordonPlan) plan = cordon_plan_new ("test");
  g_autoptr(GError) error = NULL;
  GByteArray *program = g_byte_array_new ();
  guint8 buf[4096];
  ssize_t n;
  int fd;

  plan->seccomp = profile;
  if (allow != NULL)
    g_ptr_array_add (plan->seccomp_allow, g_strdup (allow));
  if (deny != NULL)
    g_ptr_array_add (plan->seccomp_deny, g_strdup (deny));
  fd = cordon_seccomp_memfd (plan, CORDON_SECCOMP_FILTER_ERRNO, &error);
  assert_true (fd >= 0);
  while ((n = read (fd, buf, sizeof buf)) > 0)
    g_byte_array_append (program, buf, (guint) n);
  close (fd);
  assert_true (program->len > 0 && program->len % sizeof (struct sock_filter) == 0);
  return program;
}

/* In the child: as cordon-exec starts (no_new_privs, a fresh session
 * keyring, so that a key added touches nothing of ours; stdin nowhere,
 * so that TIOCSTI reaches no terminal), under `program` when there is
 * one. Exits 3 when the anonymous join was refused: the filter must let
 * it through. */
static void
child_start (const GByteArray *program)
{
  struct sock_fprog prog;
  int null = open ("/dev/null", O_RDONLY | O_CLOEXEC);

  if (null < 0 || dup2 (null, 0) != 0 || prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    _exit (2);
  if (program != NULL)
    {
      prog.len = (unsigned short) (program->len / sizeof (struct sock_filter));
      prog.filter = (struct sock_filter *) program->data;
      if (prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
        _exit (2);
    }
  if (syscall (SYS_keyctl, 1 /* KEYCTL_JOIN_SESSION_KEYRING */, NULL) < 0)
    _exit (3);
}

static Outcome
in_child (const GByteArray *program,
          Attempt attempt,
          const void *data)
{
  Outcome outcome = { -2, 0, 0 };
  int pipe_fds[2], status = 0;
  pid_t pid;

  assert_int_equal (pipe (pipe_fds), 0);
  if ((pid = fork ()) == 0)
    {
      close (pipe_fds[0]);
      child_start (program);
      outcome = attempt (data);
      _exit (write (pipe_fds[1], &outcome, sizeof outcome) == sizeof outcome ? 0 : 1);
    }
  close (pipe_fds[1]);
  assert_true (pid > 0);
  if (read (pipe_fds[0], &outcome, sizeof outcome) != sizeof outcome)
    outcome.rc = -2;
  close (pipe_fds[0]);
  assert_int_equal (waitpid (pid, &status, 0), pid);
  if (WIFEXITED (status) && WEXITSTATUS (status) == 3)
    fail_msg ("the filter refused the anonymous session keyring join cordon-exec makes");
  assert_true (outcome.rc != -2);
  return outcome;
}

/* --- the rules ------------------------------------------------------------ */

static guint64
matching (const CordonSeccompArg *a)
{
  switch (a->op)
    {
    case CORDON_SECCOMP_EQ:
      return a->value;
    case CORDON_SECCOMP_NE:
    case CORDON_SECCOMP_GT:
      return a->value + 1;
    case CORDON_SECCOMP_MASKED_EQ:
    default:
      /* Every bit the rule does not compare set: the high 32 of an
       * ioctl request among them. */
      return a->value | ~a->mask;
    }
}

/* The rule's number on this host, or -1 when the filter has no such
 * call to refuse (a name this libseccomp does not know is skipped). */
static long
number_of (const CordonSeccompRule *r)
{
  int nr;

  if (r->by_number != 0)
    return seccomp_arch_native () == SCMP_ARCH_X86_64 || seccomp_arch_native () == SCMP_ARCH_AARCH64
           ? (long) r->by_number : -1;
  nr = seccomp_syscall_resolve_name (r->name);
  return nr == __NR_SCMP_ERROR ? -1 : nr;
}

static Outcome
call_rule (const void *data)
{
  const CordonSeccompRule *r = data;
  unsigned long args[6] = { ~0UL, ~0UL, ~0UL, ~0UL, ~0UL, ~0UL };
  Outcome o = { 0, 0, r->err };

  for (guint i = 0; i < r->n_args; i++)
    args[r->args[i].arg] = (unsigned long) matching (&r->args[i]);
  errno = 0;
  o.rc = syscall (number_of (r), args[0], args[1], args[2], args[3], args[4], args[5]);
  o.err = o.rc < 0 ? errno : 0;
  return o;
}

static gboolean
refused (Outcome o,
         int err)
{
  return o.rc == -1 && o.err == err;
}

static void
test_seccomp_filter_gives_every_rule_a_probe_or_a_reason (void **state)
{
  gsize n = 0;
  const CordonSeccompRule *rules = cordon_seccomp_rules (&n);

  assert_true (n > 0);
  for (gsize i = 0; i < n; i++)
    {
      const CordonSeccompRule *r = &rules[i];
      gboolean found = FALSE;

      if (r->probe == CORDON_CHECK_MAX)
        {
          if (r->unprobed == NULL || r->unprobed[0] == '\0')
            fail_msg ("rule %" G_GSIZE_FORMAT " (%s) has neither a probe nor a reason", i, r->name);
          continue;
        }
      assert_null (r->unprobed);
      for (unsigned j = 0; j < cordon_seccomp_n_probes; j++)
        found = found || cordon_seccomp_probes[j].check == r->probe;
      if (!found)
        fail_msg ("rule %" G_GSIZE_FORMAT " (%s) names no probe cordon-exec makes", i, r->name);
    }
}

static void
test_seccomp_filter_has_a_rule_for_every_probe (void **state)
{
  gsize n = 0;
  const CordonSeccompRule *rules = cordon_seccomp_rules (&n);

  for (unsigned j = 0; j < cordon_seccomp_n_probes; j++)
    {
      const CordonSeccompProbe *p = &cordon_seccomp_probes[j];
      gboolean proves = FALSE;

      /* The probe proves a rule of the call allow= would take it out for,
       * with the errno it expects. */
      for (gsize i = 0; i < n; i++)
        proves = proves || (rules[i].probe == p->check && g_str_equal (rules[i].name, p->syscall)
                            && rules[i].err == p->want);
      if (!proves)
        fail_msg ("the probe %s proves no rule of %s", cordon_checks[p->check].id, p->syscall);
    }
}

static void
test_seccomp_filter_answers_which_calls_it_filters_by_argument (void **state)
{
  assert_true (cordon_seccomp_filters_by_argument ("ioctl"));
  assert_true (cordon_seccomp_filters_by_argument ("keyctl"));
  assert_true (cordon_seccomp_filters_by_argument ("mknodat"));
  assert_false (cordon_seccomp_filters_by_argument ("add_key"));
  assert_false (cordon_seccomp_filters_by_argument ("mount"));
  assert_true (cordon_seccomp_sets_mode ("fchmodat2"));
  assert_true (cordon_seccomp_sets_mode ("openat2"));
  assert_false (cordon_seccomp_sets_mode ("socket"));
  assert_false (cordon_seccomp_sets_mode ("open_tree"));
}

/* Each rule of a profile (strict's only when `strict`) refused with its
 * errno under `program`, and not without a filter; rules whose call the
 * host refuses that way by itself are not counted. The number counted. */
static guint
assert_rules_refused (const GByteArray *program,
                      gboolean strict,
                      const char *allowed)
{
  gsize n = 0;
  const CordonSeccompRule *rules = cordon_seccomp_rules (&n);
  guint counted = 0;

  for (gsize i = 0; i < n; i++)
    {
      const CordonSeccompRule *r = &rules[i];
      gboolean applies = (!r->strict_only || strict) && g_strcmp0 (r->name, allowed) != 0;

      if (number_of (r) < 0 || refused (in_child (NULL, call_rule, r), r->err))
        continue;
      counted++;
      if (refused (in_child (program, call_rule, r), r->err) != applies)
        fail_msg ("rule %" G_GSIZE_FORMAT " (%s, errno %d) is %s by the filter", i, r->name, r->err,
                  applies ? "not applied" : "applied");
    }
  return counted;
}

static void
test_seccomp_filter_refuses_what_each_rule_says (void **state)
{
  g_autoptr(GByteArray) program = program_of (CORDON_SECCOMP_DEFAULT, NULL, NULL);
  gsize n = 0;

  cordon_seccomp_rules (&n);
  /* Nearly every call fails otherwise without the filter, on any host. */
  assert_true (assert_rules_refused (program, FALSE, NULL) > n / 2);
}

static void
test_seccomp_filter_strict_adds_its_rules (void **state)
{
  g_autoptr(GByteArray) program = program_of (CORDON_SECCOMP_STRICT, NULL, NULL);

  assert_true (assert_rules_refused (program, TRUE, NULL) > 0);
}

static void
test_seccomp_filter_allow_takes_out_a_rule (void **state)
{
  g_autoptr(GByteArray) no_add_key = program_of (CORDON_SECCOMP_DEFAULT, "add_key", NULL);
  g_autoptr(GByteArray) no_by_number = program_of (CORDON_SECCOMP_DEFAULT, "open_tree_attr", NULL);

  assert_rules_refused (no_add_key, FALSE, "add_key");
  /* The prologue's rules too, though libseccomp knows not the name. */
  assert_rules_refused (no_by_number, FALSE, "open_tree_attr");
}

static Outcome
call_getppid (const void *data)
{
  Outcome o = { 0, 0, EPERM };

  errno = 0;
  o.rc = syscall (SYS_getppid);
  o.err = o.rc < 0 ? errno : 0;
  return o;
}

static void
test_seccomp_filter_deny_refuses_a_call_with_eperm (void **state)
{
  g_autoptr(GByteArray) program = program_of (CORDON_SECCOMP_DEFAULT, NULL, "getppid");
  g_autoptr(GByteArray) plain = program_of (CORDON_SECCOMP_DEFAULT, NULL, NULL);

  assert_true (refused (in_child (program, call_getppid, NULL), EPERM));
  assert_true (in_child (plain, call_getppid, NULL).rc > 0);
}

/* Calls beside the rules, which no rule names: each must get through.
 * (A comparison made too wide would refuse them.) */
static const struct
{
  const char *name;
  unsigned long args[4];
} let_through[] = {
  { "ioctl", { ~0UL, 0x5401 /* TCGETS */ } },
  { "ioctl", { ~0UL, 0x5413 /* TIOCGWINSZ: one bit from TIOCSTI */ } },
  { "personality", { 0xffffffffUL /* the query */ } },
  { "personality", { 0x0008000 /* FDPIC_FUNCPTRS: no weakening */ } },
  { "socket", { 1 /* AF_UNIX */, SOCK_STREAM | SOCK_CLOEXEC } },
  { "socket", { 10 /* AF_INET6 */, SOCK_DGRAM | SOCK_CLOEXEC } },
  { "socket", { 16 /* AF_NETLINK */, SOCK_RAW | SOCK_CLOEXEC } },
  { "unshare", { 0 } },
  { "keyctl", { 1 /* KEYCTL_JOIN_SESSION_KEYRING */, 0 /* anonymous */ } },
  { "fchmod", { ~0UL, 01777 /* sticky, not set-ID */ } },
  { "mknodat", { ~0UL, ~0UL, 0644 } },
};

static Outcome
call_let_through (const void *data)
{
  const unsigned long *args = let_through[*(const unsigned *) data].args;
  const char *name = let_through[*(const unsigned *) data].name;
  Outcome o = { 0, 0, 0 };

  errno = 0;
  o.rc = syscall (seccomp_syscall_resolve_name (name), args[0], args[1], args[2], args[3], 0, 0);
  o.err = o.rc < 0 ? errno : 0;
  return o;
}

static void
test_seccomp_filter_lets_through_what_no_rule_names (void **state)
{
  g_autoptr(GByteArray) program = program_of (CORDON_SECCOMP_DEFAULT, NULL, NULL);

  for (unsigned i = 0; i < G_N_ELEMENTS (let_through); i++)
    {
      Outcome o = in_child (program, call_let_through, &i);

      if (o.rc < 0 && (o.err == EPERM || o.err == ENOSYS || o.err == EAFNOSUPPORT))
        fail_msg ("%s (case %u) is refused: errno %d", let_through[i].name, i, o.err);
    }
}

/* The numbers the prologue refuses are the kernel's (x86_64's table; the
 * same on every architecture it is built for), and libseccomp's where it
 * knows the name. */
static void
test_seccomp_filter_numbers_are_the_kernels (void **state)
{
  static const struct
  {
    const char *name;
    guint32 nr;
  } kernel[] = { { "statmount", 457 }, { "listmount", 458 }, { "open_tree_attr", 467 } };
  gsize n = 0, by_number = 0;
  const CordonSeccompRule *rules = cordon_seccomp_rules (&n);

  for (gsize i = 0; i < n; i++)
    {
      int known;

      if (rules[i].by_number == 0)
        continue;
      by_number++;
      for (guint j = 0; j < G_N_ELEMENTS (kernel); j++)
        if (g_str_equal (kernel[j].name, rules[i].name))
          assert_int_equal (rules[i].by_number, kernel[j].nr);
      known = seccomp_syscall_resolve_name_arch (SCMP_ARCH_X86_64, rules[i].name);
      if (known != __NR_SCMP_ERROR)
        assert_int_equal (rules[i].by_number, known);
    }
  assert_int_equal (by_number, G_N_ELEMENTS (kernel));
}

/* --- the probes ----------------------------------------------------------- */

static Outcome
make_probe (const void *data)
{
  Outcome o;

  cordon_seccomp_probe_run (data, &o.rc, &o.err, &o.want);
  return o;
}

static void
test_seccomp_filter_passes_every_probe_and_no_probe_passes_without (void **state)
{
  g_autoptr(GByteArray) program = program_of (CORDON_SECCOMP_DEFAULT, NULL, NULL);

  for (unsigned i = 0; i < cordon_seccomp_n_probes; i++)
    {
      const CordonSeccompProbe *p = &cordon_seccomp_probes[i];
      Outcome with = in_child (program, make_probe, p);
      Outcome without = in_child (NULL, make_probe, p);

      if (!refused (with, with.want))
        fail_msg ("%s: under the filter, errno %d (rc %ld), not %d", cordon_checks[p->check].id, with.err,
                  with.rc, with.want);
      /* Without the filter the probe must fail, or it proves nothing:
       * but for a host that has no such call (no io_uring, an old
       * kernel), or, for a caller other than root, refuses it as the
       * filter does (user namespaces restricted). */
      if (refused (without, without.want)
          && !(without.err == ENOSYS || (without.err == EPERM && getuid () != 0)))
        fail_msg ("%s proves nothing: without the filter too, errno %d", cordon_checks[p->check].id,
                  without.err);
    }
}

static void
test_seccomp_filter_fails_the_probe_of_an_allowed_call (void **state)
{
  g_autoptr(GByteArray) program = program_of (CORDON_SECCOMP_DEFAULT, "add_key", NULL);
  const CordonSeccompProbe *keyring = &cordon_seccomp_probes[0];
  Outcome o;

  assert_int_equal (keyring->check, CORDON_CHECK_SECCOMP_KEYRING);
  o = in_child (program, make_probe, keyring);
  /* The key is added (to the child's own fresh keyring). */
  assert_false (refused (o, o.want));
  assert_true (o.rc > 0);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_seccomp_filter_gives_every_rule_a_probe_or_a_reason),
    cmocka_unit_test (test_seccomp_filter_has_a_rule_for_every_probe),
    cmocka_unit_test (test_seccomp_filter_answers_which_calls_it_filters_by_argument),
    cmocka_unit_test (test_seccomp_filter_refuses_what_each_rule_says),
    cmocka_unit_test (test_seccomp_filter_strict_adds_its_rules),
    cmocka_unit_test (test_seccomp_filter_allow_takes_out_a_rule),
    cmocka_unit_test (test_seccomp_filter_deny_refuses_a_call_with_eperm),
    cmocka_unit_test (test_seccomp_filter_lets_through_what_no_rule_names),
    cmocka_unit_test (test_seccomp_filter_numbers_are_the_kernels),
    cmocka_unit_test (test_seccomp_filter_passes_every_probe_and_no_probe_passes_without),
    cmocka_unit_test (test_seccomp_filter_fails_the_probe_of_an_allowed_call),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
