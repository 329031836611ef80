/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* stopwatch: where the time of one run went, phase by phase, for the
 * report's durations_ms (issue 16: a regression pinned to a phase). Each
 * phase is timed on CLOCK_MONOTONIC between its begin and its end (the
 * rounds of a phase done twice, such as compile, are summed); a phase
 * never ended is unknown (null in the report). Measuring only: nothing
 * is decided by these times. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  CORDON_PHASE_START,           /* main() to the run: options, locale (before main() is not timed) */
  CORDON_PHASE_POLICY,          /* the policy loaded and checked */
  CORDON_PHASE_FACTS,           /* the host facts, the policy's paths and sockets scanned */
  CORDON_PHASE_COMPILE,         /* plan and bwrap argv (every round) */
  CORDON_PHASE_PROBE,           /* the probe, or its cached answer */
  CORDON_PHASE_SECCOMP,         /* the filters' BPF, made or read from the cache */
  CORDON_PHASE_SPAWN,           /* the launch to the keeper started, but for the filters */
  CORDON_PHASE_BWRAP_SETUP,     /* the keeper started to cordon-exec's first word */
  CORDON_PHASE_INSIDE_CHECKS,   /* that word to its "waiting": the checks inside */
  CORDON_PHASE_OUTSIDE_CHECKS,  /* what of cordon's checks from outside holds the release after "W" */
  CORDON_PHASE_RELEASE,         /* cordon's go to the command's exec ("R") */
  CORDON_PHASE_RUN,             /* the command's exec to bwrap's end */
  CORDON_PHASE_TEARDOWN,        /* bwrap's end to every process reaped, the cgroups gone */
  CORDON_PHASE_AUDIT,           /* the walk of the writable paths after the run */
  CORDON_PHASE_TOTAL,           /* main() to the report */
  CORDON_PHASE_MAX
} CordonPhase;

typedef struct
{
  gint64 began[CORDON_PHASE_MAX];   /* monotonic us of a phase begun and not yet ended; 0 */
  gint64 spent[CORDON_PHASE_MAX];   /* us, over every round ended */
  gboolean ended[CORDON_PHASE_MAX];
} CordonStopwatch;

/* Each accepts a NULL stopwatch, and does nothing then. */
void cordon_stopwatch_begin (CordonStopwatch *sw,
                             CordonPhase phase);
/* Begun at `us` (monotonic), before this stopwatch was there. */
void cordon_stopwatch_begin_at (CordonStopwatch *sw,
                                CordonPhase phase,
                                gint64 us);
void cordon_stopwatch_end (CordonStopwatch *sw,
                           CordonPhase phase);
/* `us` spent in `phase` (measured another way), as one round. */
void cordon_stopwatch_add (CordonStopwatch *sw,
                           CordonPhase phase,
                           gint64 us);
/* Ends `from` and begins `to`: phases that follow one another. */
void cordon_stopwatch_hand_over (CordonStopwatch *sw,
                                 CordonPhase from,
                                 CordonPhase to);
/* TRUE with the microseconds of `phase` when it ended at least once. */
gboolean cordon_stopwatch_get (const CordonStopwatch *sw,
                               CordonPhase phase,
                               gint64 *out_us);
const char *cordon_phase_name (CordonPhase phase);

G_END_DECLS
