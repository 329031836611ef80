/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-protocol: the tables cordon and cordon-exec both read. A check id
 * two checks shared, or a verb two lines shared, would have one side take
 * a result or a line for another's; an entry left out of a table would
 * be a check with no name. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "protocol.h"

static void
test_protocol_names_every_check_once (void **state)
{
  for (unsigned i = 0; i < CORDON_CHECK_MAX; i++)
    {
      assert_non_null (cordon_checks[i].id);
      assert_true (cordon_checks[i].id[0] != '\0');
      /* A numbered id is a spec line's: a fixed one never looks like it. */
      assert_false (cordon_checks[i].id[0] >= '0' && cordon_checks[i].id[0] <= '9');
      assert_true (strcmp (cordon_checks[i].id, CORDON_SPEC_UNKNOWN_ID) != 0);
      for (unsigned j = 0; j < i; j++)
        assert_true (strcmp (cordon_checks[i].id, cordon_checks[j].id) != 0);
    }
}

static void
test_protocol_says_what_every_check_proves (void **state)
{
  for (unsigned i = 0; i < CORDON_CHECK_MAX; i++)
    {
      /* outside-identity's names the plan's host user: verify makes it. */
      if (i == CORDON_CHECK_OUTSIDE_IDENTITY)
        assert_null (cordon_checks[i].expect);
      else
        assert_true (cordon_checks[i].expect != NULL && cordon_checks[i].expect[0] != '\0');
    }
}

static void
test_protocol_finds_each_verb_by_its_word_and_fields (void **state)
{
  for (unsigned i = 0; i < CORDON_SPEC_MAX; i++)
    {
      const CordonSpecVerbInfo *verb = &cordon_spec_verbs[i];

      assert_non_null (verb->word);
      /* cordon-exec splits a line into at most 6 fields. */
      assert_true (verb->n_fields >= 1 && verb->n_fields <= 5);
      assert_int_equal (cordon_spec_verb_find (verb->word, verb->n_fields), i);
      /* The same word with a field more or less is no line of this verb. */
      assert_int_not_equal (cordon_spec_verb_find (verb->word, verb->n_fields + 1), i);
      assert_int_not_equal (cordon_spec_verb_find (verb->word, verb->n_fields - 1), i);
    }
  assert_int_equal (cordon_spec_verb_find ("sockets", 3), CORDON_SPEC_MAX);
  assert_int_equal (cordon_spec_verb_find ("", 1), CORDON_SPEC_MAX);
}

static void
test_protocol_gives_a_check_to_each_line_with_an_id (void **state)
{
  for (unsigned i = 0; i < CORDON_SPEC_MAX; i++)
    {
      /* socket ID PATH, namespace ID NAME INODE, cgroup ID LEAF PARENT
       * FILE, pinned ID PATH, hidden ID PATH SHOWN: the id is the second
       * field, and the line's check says what it proves. */
      int numbered = i <= CORDON_SPEC_NAMESPACE || i == CORDON_SPEC_CGROUP || i == CORDON_SPEC_PINNED
                     || i == CORDON_SPEC_HIDDEN;

      assert_int_equal (cordon_spec_verbs[i].expect != NULL, numbered);
      if (numbered)
        assert_true (cordon_spec_verbs[i].n_fields >= 3);
    }
}

static void
test_protocol_keeps_the_fd_numbers_launch_gives (void **state)
{
  /* bwrap keeps the fds below the keeper's own, from the first on. */
  const int bwraps[] = { CORDON_FD_ARGS, CORDON_FD_JSON, CORDON_EXEC_STATUS_FD, CORDON_FD_SPEC,
                         CORDON_EXEC_GO_FD, CORDON_FD_SECCOMP };

  for (size_t i = 0; i < sizeof bwraps / sizeof bwraps[0]; i++)
    {
      assert_int_equal (bwraps[i], CORDON_FD_ARGS + (int) i);
      assert_true (bwraps[i] < CORDON_FD_LIFE);
    }
  assert_true (CORDON_FD_ARGS > 2);
  assert_int_equal (CORDON_FD_STAGE, CORDON_FD_LIFE + 1);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_protocol_names_every_check_once),
    cmocka_unit_test (test_protocol_says_what_every_check_proves),
    cmocka_unit_test (test_protocol_finds_each_verb_by_its_word_and_fields),
    cmocka_unit_test (test_protocol_gives_a_check_to_each_line_with_an_id),
    cmocka_unit_test (test_protocol_keeps_the_fd_numbers_launch_gives),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
