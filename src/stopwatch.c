/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* stopwatch: see stopwatch.h. */
#include "config.h"

#include "stopwatch.h"

static const char * const phase_names[CORDON_PHASE_MAX] = {
  [CORDON_PHASE_START] = "start",
  [CORDON_PHASE_POLICY] = "policy",
  [CORDON_PHASE_FACTS] = "facts",
  [CORDON_PHASE_COMPILE] = "compile",
  [CORDON_PHASE_PROBE] = "probe",
  [CORDON_PHASE_SECCOMP] = "seccomp",
  [CORDON_PHASE_SPAWN] = "spawn",
  [CORDON_PHASE_BWRAP_SETUP] = "bwrap_setup",
  [CORDON_PHASE_INSIDE_CHECKS] = "inside_checks",
  [CORDON_PHASE_OUTSIDE_CHECKS] = "outside_checks",
  [CORDON_PHASE_RELEASE] = "release",
  [CORDON_PHASE_RUN] = "run",
  [CORDON_PHASE_TEARDOWN] = "teardown",
  [CORDON_PHASE_AUDIT] = "audit",
  [CORDON_PHASE_TOTAL] = "total",
};

const char *
cordon_phase_name (CordonPhase phase)
{
  g_return_val_if_fail (phase < CORDON_PHASE_MAX, NULL);
  return phase_names[phase];
}

void
cordon_stopwatch_begin (CordonStopwatch *sw,
                        CordonPhase phase)
{
  g_return_if_fail (phase < CORDON_PHASE_MAX);
  cordon_stopwatch_begin_at (sw, phase, g_get_monotonic_time ());
}

void
cordon_stopwatch_begin_at (CordonStopwatch *sw,
                           CordonPhase phase,
                           gint64 us)
{
  g_return_if_fail (phase < CORDON_PHASE_MAX);
  if (sw != NULL)
    sw->began[phase] = MAX (us, 1);
}

void
cordon_stopwatch_end (CordonStopwatch *sw,
                      CordonPhase phase)
{
  g_return_if_fail (phase < CORDON_PHASE_MAX);
  if (sw == NULL || sw->began[phase] == 0)
    return;
  cordon_stopwatch_add (sw, phase, g_get_monotonic_time () - sw->began[phase]);
  sw->began[phase] = 0;
}

void
cordon_stopwatch_add (CordonStopwatch *sw,
                      CordonPhase phase,
                      gint64 us)
{
  g_return_if_fail (phase < CORDON_PHASE_MAX);
  if (sw == NULL)
    return;
  sw->spent[phase] += MAX (us, 0);
  sw->ended[phase] = TRUE;
}

void
cordon_stopwatch_hand_over (CordonStopwatch *sw,
                            CordonPhase from,
                            CordonPhase to)
{
  cordon_stopwatch_end (sw, from);
  cordon_stopwatch_begin (sw, to);
}

gboolean
cordon_stopwatch_get (const CordonStopwatch *sw,
                      CordonPhase phase,
                      gint64 *out_us)
{
  g_return_val_if_fail (phase < CORDON_PHASE_MAX, FALSE);
  if (sw == NULL || !sw->ended[phase])
    return FALSE;
  *out_us = sw->spent[phase];
  return TRUE;
}
