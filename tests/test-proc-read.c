/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-proc-read: the /proc reader cordon and its helpers share, against
 * the live /proc of this test (its own status, a tree of children it
 * forks, a thread's child) and against texts no kernel would write: a
 * field that only begins like the one asked for, a name that holds
 * parentheses, a stat cut short. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <glib.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc-read.h"

static char *
find (const char *status,
      const char *field)
{
  size_t len = 0;
  const char *value = cordon_proc_status_find (status, field, &len);

  return value != NULL ? g_strndup (value, len) : NULL;
}

static void
test_proc_read_returns_the_whole_file_and_its_length (void **state)
{
  g_autofree char *expected = NULL;
  gsize expected_len = 0;
  size_t len = 0;
  g_autofree char *text = cordon_proc_read (0, "cmdline", &len);

  assert_true (g_file_get_contents ("/proc/self/cmdline", &expected, &expected_len, NULL));
  assert_non_null (text);
  /* NUL-separated: the length is the file's, not strlen's. */
  assert_int_equal (len, expected_len);
  assert_true (len > strlen (text));
  assert_memory_equal (text, expected, len);
  assert_int_equal (text[len], '\0');
}

static void
test_proc_read_of_a_reaped_process_fails_with_enoent (void **state)
{
  pid_t pid = fork ();

  if (pid == 0)
    _exit (0);
  assert_true (pid > 0);
  assert_int_equal (waitpid (pid, NULL, 0), pid);
  errno = 0;
  assert_null (cordon_proc_read (pid, "status", NULL));
  assert_int_equal (errno, ENOENT);
}

static void
test_proc_status_field_reads_this_process_by_pid_and_as_self (void **state)
{
  g_autofree char *pid = g_strdup_printf ("%d", (int) getpid ());
  g_autofree char *ppid = g_strdup_printf ("%d", (int) getppid ());
  g_autofree char *self = cordon_proc_status_field (0, "Pid");
  g_autofree char *by_pid = cordon_proc_status_field (getpid (), "Pid");
  g_autofree char *parent = cordon_proc_status_field (0, "PPid");
  g_autofree char *name = cordon_proc_status_field (0, "Name");

  assert_string_equal (self, pid);
  assert_string_equal (by_pid, pid);
  assert_string_equal (parent, ppid);
  /* The first line is a field like any other. */
  assert_string_equal (name, "test-proc-read");
}

static void
test_proc_status_field_that_is_absent_is_enoent (void **state)
{
  errno = 0;
  assert_null (cordon_proc_status_field (0, "NoSuchField"));
  assert_int_equal (errno, ENOENT);
  /* A prefix of a real field ("CapEff") is not that field. */
  assert_null (cordon_proc_status_field (0, "CapE"));
}

static void
test_proc_status_find_takes_a_field_only_at_the_start_of_a_line (void **state)
{
  const char *status = "Name:\tx CapEff:\t1\n"
                       "CapEffective:\t2\n"
                       "capeff:\t3\n"
                       "CapEff\t4\n"
                       "CapEff:\t000001ffffffffff\n";
  g_autofree char *cap = find (status, "CapEff");

  assert_string_equal (cap, "000001ffffffffff");
}

static void
test_proc_status_find_skips_blanks_and_stops_at_the_line_end (void **state)
{
  g_autofree char *spaced = find ("Uid:  \t 0\t0\t0\t0\nGid:\t1\n", "Uid");
  g_autofree char *last = find ("Name:\tx\nSeccomp:\t2", "Seccomp");
  g_autofree char *empty = find ("Groups:\t\nPid:\t1\n", "Groups");
  g_autofree char *blank_only = find ("Groups: \t \n", "Groups");

  assert_string_equal (spaced, "0\t0\t0\t0");
  /* The last line needs no newline. */
  assert_string_equal (last, "2");
  /* A field with no value is there, and empty. */
  assert_string_equal (empty, "");
  assert_string_equal (blank_only, "");
}

static void
test_proc_status_find_of_nothing_is_null (void **state)
{
  size_t len = 7;

  assert_null (cordon_proc_status_find (NULL, "CapEff", &len));
  assert_null (cordon_proc_status_find ("", "CapEff", &len));
  assert_null (cordon_proc_status_find ("\n\n\n", "CapEff", &len));
  assert_int_equal (len, 7);
}

static void
test_proc_stat_parse_reads_after_the_last_parenthesis (void **state)
{
  char state_letter = '?';
  pid_t ppid = -1;

  /* A name may hold spaces, parentheses and digits. */
  assert_int_equal (cordon_proc_stat_parse ("12 (a) b (c) 99) S 42 12 12 0", &state_letter, &ppid), 0);
  assert_int_equal (state_letter, 'S');
  assert_int_equal (ppid, 42);
}

static void
test_proc_stat_parse_refuses_a_cut_text_and_writes_nothing (void **state)
{
  static const char * const cut[] = { "12 (name", "12 (name)", "12 (name)S 42", "" };
  char state_letter = '?';
  pid_t ppid = -1;

  for (size_t i = 0; i < G_N_ELEMENTS (cut); i++)
    {
      errno = 0;
      assert_int_equal (cordon_proc_stat_parse (cut[i], &state_letter, &ppid), -1);
      assert_int_equal (errno, EINVAL);
    }
  assert_int_equal (cordon_proc_stat_parse (NULL, &state_letter, &ppid), -1);
  assert_int_equal (state_letter, '?');
  assert_int_equal (ppid, -1);
}

static void
test_proc_stat_of_this_process_is_running_under_its_parent (void **state)
{
  char state_letter = '?';
  pid_t ppid = -1;

  assert_int_equal (cordon_proc_stat (getpid (), &state_letter, &ppid), 0);
  assert_int_equal (state_letter, 'R');
  assert_int_equal (ppid, getppid ());
}

static void
test_pid_list_grows_and_finds_what_it_holds (void **state)
{
  CordonPidList list = { 0 };

  for (pid_t pid = 1; pid <= 100; pid++)
    cordon_pid_list_add (&list, pid * 3);
  assert_int_equal (list.len, 100);
  assert_int_equal (list.pids[99], 300);
  assert_true (cordon_pid_list_contains (&list, 150));
  assert_false (cordon_pid_list_contains (&list, 151));
  cordon_pid_list_clear (&list);
  assert_null (list.pids);
  assert_int_equal (list.len, 0);
}

/* --- a tree of processes: A has B and C, B has D ----------------------- */

typedef struct
{
  int ready[2];     /* each node writes its word here */
  int release[2];   /* its end closed: every node exits */
  pid_t pid[4];     /* A, B, C, D */
} Tree;

typedef struct
{
  char tag;
  pid_t pid;
} Word;

static const char *
children_of (char tag)
{
  return tag == 'A' ? "BC" : tag == 'B' ? "D" : "";
}

/* In the child: its own children first, then its word, then it waits for
 * the release and reaps what it made. */
static pid_t
fork_node (Tree *t,
           char tag)
{
  Word word = { tag, 0 };
  char byte;
  pid_t pid = fork ();

  if (pid != 0)
    return pid;
  close (t->release[1]);
  close (t->ready[0]);
  for (const char *c = children_of (tag); *c != '\0'; c++)
    if (fork_node (t, *c) < 0)
      _exit (1);
  word.pid = getpid ();
  if (write (t->ready[1], &word, sizeof word) != sizeof word)
    _exit (1);
  while (read (t->release[0], &byte, 1) < 0 && errno == EINTR)
    ;
  while (wait (NULL) > 0 || errno == EINTR)
    ;
  _exit (0);
}

static int
tree_setup (void **state)
{
  Tree *t = g_new0 (Tree, 1);

  if (pipe (t->ready) != 0 || pipe (t->release) != 0 || fork_node (t, 'A') < 0)
    return -1;
  close (t->ready[1]);
  close (t->release[0]);
  for (int i = 0; i < 4; i++)
    {
      Word word;

      if (read (t->ready[0], &word, sizeof word) != sizeof word || word.tag < 'A' || word.tag > 'D')
        return -1;
      t->pid[word.tag - 'A'] = word.pid;
    }
  *state = t;
  return 0;
}

static int
tree_teardown (void **state)
{
  Tree *t = *state;

  close (t->release[1]);
  close (t->ready[0]);
  waitpid (t->pid[0], NULL, 0);
  g_free (t);
  return 0;
}

static int
compare_pids (const void *a,
              const void *b)
{
  return *(const pid_t *) a - *(const pid_t *) b;
}

/* The list, sorted, is exactly `n` pids of the tree, by their tags. */
static void
assert_pids_are (CordonPidList *list,
                 const Tree *t,
                 const char *tags)
{
  size_t n = strlen (tags);
  g_autofree pid_t *want = g_new (pid_t, n);

  assert_int_equal (list->len, n);
  for (size_t i = 0; i < n; i++)
    want[i] = t->pid[tags[i] - 'A'];
  /* (Nothing to sort of an empty list: its array is NULL.) */
  if (n > 0)
    {
      qsort (want, n, sizeof *want, compare_pids);
      qsort (list->pids, list->len, sizeof *list->pids, compare_pids);
      assert_memory_equal (list->pids, want, n * sizeof *want);
    }
  cordon_pid_list_clear (list);
}

static void
test_proc_children_are_the_direct_children_only (void **state)
{
  Tree *t = *state;
  CordonPidList list = { 0 };

  assert_int_equal (cordon_proc_children (t->pid[0], &list), 0);
  assert_pids_are (&list, t, "BC");
  assert_int_equal (cordon_proc_children (t->pid[3], &list), 0);
  assert_pids_are (&list, t, "");
}

static void
test_proc_descendants_are_every_process_below (void **state)
{
  Tree *t = *state;
  CordonPidList list = { 0 };

  cordon_proc_descendants (t->pid[0], &list);
  assert_pids_are (&list, t, "BCD");
  cordon_proc_descendants (t->pid[1], &list);
  assert_pids_are (&list, t, "D");
}

static void
test_proc_children_by_scan_find_the_same_as_the_lists (void **state)
{
  Tree *t = *state;
  CordonPidList list = { 0 };

  cordon_proc_children_by_scan (t->pid[0], 0, &list);
  assert_pids_are (&list, t, "BC");
  cordon_proc_children_by_scan (t->pid[0], 1, &list);
  assert_pids_are (&list, t, "BCD");
}

static void
test_proc_children_of_a_reaped_process_are_not_listed (void **state)
{
  CordonPidList list = { 0 };
  pid_t pid = fork ();

  if (pid == 0)
    _exit (0);
  assert_int_equal (waitpid (pid, NULL, 0), pid);
  assert_int_equal (cordon_proc_children (pid, &list), -1);
  assert_int_equal (list.len, 0);
  /* Nothing below it: the scan agrees. */
  cordon_proc_descendants (pid, &list);
  assert_int_equal (list.len, 0);
}

/* --- a child of another thread ----------------------------------------- */

typedef struct
{
  int release[2];
  int started[2];
  pid_t child;
} Forker;

/* A thread that forks, then stays: a thread's children are listed under
 * its own task, and go to another thread only when it ends. */
static void *
fork_from_thread (void *data)
{
  Forker *f = data;
  char byte;

  if ((f->child = fork ()) == 0)
    {
      close (f->release[1]);
      while (read (f->release[0], &byte, 1) < 0 && errno == EINTR)
        ;
      _exit (0);
    }
  if (write (f->started[1], "x", 1) != 1)
    {
      /* The test's read then sees end of file and fails, rather than
       * wait for a byte that will not come. */
      close (f->started[1]);
    }
  while (read (f->release[0], &byte, 1) < 0 && errno == EINTR)
    ;
  return NULL;
}

static void
test_proc_children_lists_the_children_of_every_thread (void **state)
{
  Forker f = { { -1, -1 }, { -1, -1 }, 0 };
  CordonPidList list = { 0 };
  pthread_t thread;
  char byte;

  assert_int_equal (pipe (f.release), 0);
  assert_int_equal (pipe (f.started), 0);
  assert_int_equal (pthread_create (&thread, NULL, fork_from_thread, &f), 0);
  assert_int_equal (read (f.started[0], &byte, 1), 1);
  assert_true (f.child > 0);
  assert_int_equal (cordon_proc_children (getpid (), &list), 0);
  assert_true (cordon_pid_list_contains (&list, f.child));
  cordon_pid_list_clear (&list);
  close (f.release[1]);
  pthread_join (thread, NULL);
  waitpid (f.child, NULL, 0);
  close (f.release[0]);
  close (f.started[0]);
  close (f.started[1]);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_proc_read_returns_the_whole_file_and_its_length),
    cmocka_unit_test (test_proc_read_of_a_reaped_process_fails_with_enoent),
    cmocka_unit_test (test_proc_status_field_reads_this_process_by_pid_and_as_self),
    cmocka_unit_test (test_proc_status_field_that_is_absent_is_enoent),
    cmocka_unit_test (test_proc_status_find_takes_a_field_only_at_the_start_of_a_line),
    cmocka_unit_test (test_proc_status_find_skips_blanks_and_stops_at_the_line_end),
    cmocka_unit_test (test_proc_status_find_of_nothing_is_null),
    cmocka_unit_test (test_proc_stat_parse_reads_after_the_last_parenthesis),
    cmocka_unit_test (test_proc_stat_parse_refuses_a_cut_text_and_writes_nothing),
    cmocka_unit_test (test_proc_stat_of_this_process_is_running_under_its_parent),
    cmocka_unit_test (test_pid_list_grows_and_finds_what_it_holds),
    cmocka_unit_test_setup_teardown (test_proc_children_are_the_direct_children_only, tree_setup, tree_teardown),
    cmocka_unit_test_setup_teardown (test_proc_descendants_are_every_process_below, tree_setup, tree_teardown),
    cmocka_unit_test_setup_teardown (test_proc_children_by_scan_find_the_same_as_the_lists, tree_setup,
                                     tree_teardown),
    cmocka_unit_test (test_proc_children_of_a_reaped_process_are_not_listed),
    cmocka_unit_test (test_proc_children_lists_the_children_of_every_thread),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
