/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-stopwatch: the report's durations by phase: a phase is known only
 * once ended, its rounds add up, one handed over ends as the next begins,
 * and a NULL stopwatch is let be. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>
#include <string.h>

#include "stopwatch.h"

static void
test_stopwatch_knows_no_phase_before_it_ends (void **state)
{
  CordonStopwatch sw = { 0 };
  gint64 us = -1;

  assert_false (cordon_stopwatch_get (&sw, CORDON_PHASE_COMPILE, &us));
  cordon_stopwatch_begin (&sw, CORDON_PHASE_COMPILE);
  assert_false (cordon_stopwatch_get (&sw, CORDON_PHASE_COMPILE, &us));
  assert_int_equal (us, -1);
  cordon_stopwatch_end (&sw, CORDON_PHASE_COMPILE);
  assert_true (cordon_stopwatch_get (&sw, CORDON_PHASE_COMPILE, &us));
  assert_true (us >= 0);
}

static void
test_stopwatch_adds_up_the_rounds_of_a_phase (void **state)
{
  CordonStopwatch sw = { 0 };
  gint64 us = 0;

  cordon_stopwatch_add (&sw, CORDON_PHASE_COMPILE, 2500);
  cordon_stopwatch_add (&sw, CORDON_PHASE_COMPILE, 500);
  assert_true (cordon_stopwatch_get (&sw, CORDON_PHASE_COMPILE, &us));
  assert_int_equal (us, 3000);
}

static void
test_stopwatch_times_a_phase_between_its_begin_and_end (void **state)
{
  CordonStopwatch sw = { 0 };
  gint64 us = 0;

  cordon_stopwatch_begin_at (&sw, CORDON_PHASE_START, g_get_monotonic_time () - 20000);
  g_usleep (1000);
  cordon_stopwatch_end (&sw, CORDON_PHASE_START);
  assert_true (cordon_stopwatch_get (&sw, CORDON_PHASE_START, &us));
  assert_true (us >= 21000);
}

static void
test_stopwatch_ending_an_unbegun_phase_records_nothing (void **state)
{
  CordonStopwatch sw = { 0 };
  gint64 us = 0;

  cordon_stopwatch_end (&sw, CORDON_PHASE_RELEASE);
  assert_false (cordon_stopwatch_get (&sw, CORDON_PHASE_RELEASE, &us));
}

static void
test_stopwatch_hands_a_phase_over_to_the_next (void **state)
{
  CordonStopwatch sw = { 0 };
  gint64 us = 0;

  cordon_stopwatch_begin (&sw, CORDON_PHASE_RUN);
  cordon_stopwatch_hand_over (&sw, CORDON_PHASE_RUN, CORDON_PHASE_TEARDOWN);
  assert_true (cordon_stopwatch_get (&sw, CORDON_PHASE_RUN, &us));
  assert_false (cordon_stopwatch_get (&sw, CORDON_PHASE_TEARDOWN, &us));
  cordon_stopwatch_end (&sw, CORDON_PHASE_TEARDOWN);
  assert_true (cordon_stopwatch_get (&sw, CORDON_PHASE_TEARDOWN, &us));
  /* A phase never begun hands over nothing, but the next still begins. */
  cordon_stopwatch_hand_over (&sw, CORDON_PHASE_RELEASE, CORDON_PHASE_AUDIT);
  assert_false (cordon_stopwatch_get (&sw, CORDON_PHASE_RELEASE, &us));
  cordon_stopwatch_end (&sw, CORDON_PHASE_AUDIT);
  assert_true (cordon_stopwatch_get (&sw, CORDON_PHASE_AUDIT, &us));
}

static void
test_stopwatch_lets_a_null_stopwatch_be (void **state)
{
  gint64 us = 0;

  cordon_stopwatch_begin (NULL, CORDON_PHASE_SPAWN);
  cordon_stopwatch_end (NULL, CORDON_PHASE_SPAWN);
  cordon_stopwatch_add (NULL, CORDON_PHASE_SPAWN, 5);
  cordon_stopwatch_hand_over (NULL, CORDON_PHASE_SPAWN, CORDON_PHASE_RUN);
  assert_false (cordon_stopwatch_get (NULL, CORDON_PHASE_SPAWN, &us));
}

static void
test_stopwatch_names_every_phase_once (void **state)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < CORDON_PHASE_MAX; i++)
    {
      const char *name = cordon_phase_name (i);

      assert_non_null (name);
      assert_false (g_hash_table_contains (seen, name));
      g_hash_table_add (seen, (gpointer) name);
    }
  assert_string_equal (cordon_phase_name (CORDON_PHASE_BWRAP_SETUP), "bwrap_setup");
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_stopwatch_knows_no_phase_before_it_ends),
    cmocka_unit_test (test_stopwatch_adds_up_the_rounds_of_a_phase),
    cmocka_unit_test (test_stopwatch_times_a_phase_between_its_begin_and_end),
    cmocka_unit_test (test_stopwatch_ending_an_unbegun_phase_records_nothing),
    cmocka_unit_test (test_stopwatch_hands_a_phase_over_to_the_next),
    cmocka_unit_test (test_stopwatch_lets_a_null_stopwatch_be),
    cmocka_unit_test (test_stopwatch_names_every_phase_once),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
