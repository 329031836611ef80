/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-launch: the keeper's first word, as cordon reads it from the
 * keeper's socket: bwrap's pid, why bwrap could not be started, or where
 * the stage failed (the reason cordon prints and the report keeps); and
 * anything else, or nothing, is the keeper's failure. Starting bwrap is
 * the integration suite's. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "launch.h"

/* The word `text` (written whole, then EOF) as cordon_launch_read_keeper_word
 * reads it; *out_pid is left at -7 unless it succeeds. */
static gboolean
read_word (const char *text,
           pid_t *out_pid,
           GError **error)
{
  int fds[2];
  gboolean ok;

  assert_int_equal (pipe (fds), 0);
  assert_int_equal (write (fds[1], text, strlen (text)), (ssize_t) strlen (text));
  close (fds[1]);
  *out_pid = -7;
  ok = cordon_launch_read_keeper_word (fds[0], "/b", out_pid, error);
  close (fds[0]);
  return ok;
}

static void
test_launch_reads_bwrap_s_pid (void **state)
{
  g_autoptr(GError) error = NULL;
  pid_t pid;

  assert_true (read_word ("P4242\n", &pid, &error));
  assert_int_equal (pid, 4242);
  assert_null (error);
}

static void
test_launch_says_why_bwrap_could_not_be_started (void **state)
{
  g_autoptr(GError) error = NULL;
  pid_t pid;

  assert_false (read_word ("E2\n", &pid, &error));
  assert_int_equal (pid, -7);
  assert_string_equal (error->message, "cannot start /b: No such file or directory");
}

/* The keeper's reason is cordon's message: not a line on stderr apart. */
static void
test_launch_says_where_the_stage_failed (void **state)
{
  g_autoptr(GError) with = NULL;
  g_autoptr(GError) without = NULL;
  pid_t pid;

  assert_false (read_word ("S13 cannot attach /srv/work\n", &pid, &with));
  assert_string_equal (with->message, "cordon-keeper could not prepare the sandbox's mounts or become "
                                      "its host user: cannot attach /srv/work: Permission denied");
  assert_false (read_word ("S13\n", &pid, &without));
  assert_string_equal (without->message, "cordon-keeper could not prepare the sandbox's mounts or "
                                         "become its host user: Permission denied");
  assert_int_equal (pid, -7);
}

static void
test_launch_takes_no_other_word_for_a_pid (void **state)
{
  const char *bad[] = { "", "P", "P0\n", "P-3\n", "Pabc\n", "P12 x\n", "P12", "E0\n", "E2 why\n",
                        "S0 x\n", "X12\n", "\n", NULL };

  for (guint i = 0; bad[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      pid_t pid;

      if (read_word (bad[i], &pid, &error))
        fail_msg ("'%s' was taken for pid %d", bad[i], (int) pid);
      assert_int_equal (pid, -7);
      assert_non_null (error);
      if (strcmp (error->message, "cordon-keeper failed before starting /b") != 0)
        fail_msg ("'%s': %s", bad[i], error->message);
    }
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_launch_reads_bwrap_s_pid),
    cmocka_unit_test (test_launch_says_why_bwrap_could_not_be_started),
    cmocka_unit_test (test_launch_says_where_the_stage_failed),
    cmocka_unit_test (test_launch_takes_no_other_word_for_a_pid),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
