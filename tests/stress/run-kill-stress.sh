#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# 200 "cordon run"s, each killed with SIGKILL at a random moment of its
# startup (probe, launch, verification, or just after the command
# started), must leave no process behind and no file cordon made: not in
# the probe cache directory, $TMPDIR, the workdir, the report directory,
# $HOME or /dev/shm.  A quarter of the runs re-probe, so the probe cache
# is being rewritten when some of the kills land.  The delays are spread
# over the measured startup time, so most kills land before the command
# runs (counted, and asserted: the test must exercise startup, not only
# a running command).  CORDON_STRESS_SEED replays a run's delays.
#
# Not part of "make check" yet, because it fails: `make check-stress`
# runs it (as the caller; run it again through runuser/setpriv for an
# unprivileged user).  About 1 run in 10 leaves bwrap's child, pid 1 of
# the new namespaces, blocked for ever reading the eventfd on which the
# outer bwrap releases it: the outer bwrap died with cordon (through
# --die-with-parent, or a write to cordon's closed pipe) between its
# clone() and that write, and the child sets its own parent-death
# signal only after the read.  Nothing of cordon's runs there, so the
# fix is a keeper: a subreaper ancestor of bwrap that outlives cordon
# long enough to kill what is orphaned.  See README, "Known problems".

set -u

srcdir=${CORDON_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
CORDON=${CORDON:-$srcdir/_build/src/cordon}
. "$srcdir/tests/tap.sh"
. "$srcdir/tests/integration/run-lib.sh"

run_lib_init run-kill-stress

plan 5

if [ "$have_python" = no ]; then
  echo "Bail out! python3 is needed to time the kills"
  exit 1
fi

runs=${CORDON_STRESS_RUNS:-200}
nap=$(nap_marker 1)
mkdir "$tmp/tmpdir" "$tmp/reports" || { echo "Bail out! mkdir failed"; exit 1; }
TMPDIR=$tmp/tmpdir
export TMPDIR

# Warm the probe cache, so the snapshot holds the cache file.
"$CORDON" run -C "$wd" -- true || { echo "Bail out! cordon run -- true failed"; exit 1; }

snapshot ()
{
  for d in "$XDG_RUNTIME_DIR" "$TMPDIR" "$wd" "$tmp/reports" "$HOME"; do
    find "$d" -mindepth 1 -user "$(id -u)" 2>/dev/null
  done
  find /dev/shm -mindepth 1 -maxdepth 1 -user "$(id -u)" 2>/dev/null
}
snapshot | sort >"$tmp/before"

python3 - "$CORDON" "$wd" "$tmp/reports" "$nap" "$runs" >"$tmp/driver.out" 2>"$tmp/driver.err" <<'EOF'
import os, random, subprocess, sys, time

cordon, wd, reports, nap, runs = sys.argv[1:6]
runs = int(runs)
seed = int(os.environ.get("CORDON_STRESS_SEED") or time.time_ns() % 1000000007)
rng = random.Random(seed)

def argv(i, reprobe):
    a = [cordon, "run", "-C", wd, "--report", "%s/r%d.json" % (reports, i)]
    if reprobe:
        a.append("--reprobe")
    # The command leaves started-I in the workdir, then sleeps on the marker.
    return a + ["--", "sh", "-c", "echo >started-%d; exec sleep %s" % (i, nap)]

# Startup time: until the command has left its file, median of 5.
samples = []
for i in range(5):
    t0 = time.monotonic()
    p = subprocess.Popen(argv(runs + i, i == 0), stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    path = os.path.join(wd, "started-%d" % (runs + i))
    while not os.path.exists(path) and time.monotonic() - t0 < 10:
        time.sleep(0.0002)
    samples.append(time.monotonic() - t0)
    p.kill()
    p.wait()
samples.sort()
startup = samples[2]

early = 0
statuses = {}
for i in range(runs):
    reprobe = i % 4 == 0
    delay = rng.uniform(0, startup * (1.6 if reprobe else 1.0))
    p = subprocess.Popen(argv(i, reprobe), stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(delay)
    p.kill()
    st = p.wait()
    statuses[st] = statuses.get(st, 0) + 1
    if not os.path.exists(os.path.join(wd, "started-%d" % i)):
        early += 1

print("seed=%d startup_ms=%.1f early=%d statuses=%s"
      % (seed, startup * 1000, early, sorted(statuses.items())))
EOF
dst=$?
is "$dst" 0 "the driver ran $runs runs"
[ -s "$tmp/driver.err" ] && diag "$(cat "$tmp/driver.err")"
line=$(cat "$tmp/driver.out")
diag "$line"
early=$(printf '%s\n' "$line" | sed -n 's/.* early=\([0-9]*\) .*/\1/p')
killed=$(printf '%s\n' "$line" | sed -n 's/.*statuses=\[(-9, \([0-9]*\))\]$/\1/p')

is "$killed" "$runs" "every run was killed by SIGKILL (none ended on its own)"
check "at least half of the kills landed before the command started ($early of $runs)" \
  [ "${early:-0}" -ge $((runs / 2)) ]

left=$(wait_no_marker "$nap" 5)
is "$left" 0 "within 5 s, no process of any of the killed runs is left"
if [ "$left" != 0 ]; then
  for p in $(marker_pids "$nap"); do
    diag "left: $p $(tr '\0' ' ' </proc/"$p"/cmdline 2>/dev/null) ($(grep -E '^(State|PPid|NSpid)' /proc/"$p"/status 2>/dev/null | tr '\n\t' '  '))"
  done
fi

# The command's own files (started-I) are its doing, not cordon's.
snapshot | grep -v "^$wd/started-[0-9]*\$" | sort >"$tmp/after"
stray=$(comm -13 "$tmp/before" "$tmp/after")
is "$(printf '%s' "$stray" | grep -c .)" 0 "no stray file is left by the killed runs"
[ -z "$stray" ] || diag "stray: $stray"
