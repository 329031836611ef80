#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# What "cordon run" costs over bwrap itself: hyperfine times
# "cordon run -p trial -- true" against bwrap started with the very
# options "cordon compile trial --format=nul" gives (through --args, as
# cordon passes them) on "true", with the fds they name: the filter of
# --format=seccomp at fd 8, --json-status-fd 4 to /dev/null; the probe
# cached.  Prints both medians and their ratio.  Not part of "make
# check": timings depend on the machine.  bwrap runs in a workdir where
# the placeholders of trial's absent protected paths are made already,
# as cordon-keeper makes them for each run of cordon.
#
#   tests/bench/run-vs-bwrap.sh [path/to/cordon]
#
# Default cordon: ./src/cordon (run from the build directory), else
# _build/src/cordon of the source tree.  RUNS (default 50, at least 30)
# sets the number of timed runs of each command.  LIMITS, when set, is
# given to a third command, "cordon run -p trial $LIMITS -- true" (such
# as LIMITS="--memory 2G --pids 4096": what a cgroup of the sandbox's
# costs), timed beside the two in the same sitting.  Needs hyperfine
# (Debian package "hyperfine").

set -u

here=$(cd "$(dirname "$0")" && pwd)
if [ $# -ge 1 ]; then
  cordon=$1
elif [ -x ./src/cordon ]; then
  cordon=./src/cordon
else
  cordon=$here/../../_build/src/cordon
fi
case $cordon in
  /*) ;;
  *) cordon=$PWD/$cordon ;;
esac
bwrap=${CORDON_BWRAP:-/usr/bin/bwrap}
runs=${RUNS:-50}

die ()
{
  echo "run-vs-bwrap: $*" >&2
  exit 1
}

[ -x "$cordon" ] || die "no cordon at $cordon (give its path as the argument)"
[ -x "$bwrap" ] || die "no bwrap at $bwrap (install bubblewrap)"
command -v hyperfine >/dev/null 2>&1 || die "hyperfine is not installed (apt-get install hyperfine)"
[ "$runs" -ge 30 ] 2>/dev/null || die "RUNS must be a number >= 30"

tmp=$(mktemp -d /tmp/cordon-bench.XXXXXX) || die "mktemp failed"
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 130' HUP INT
trap 'exit 143' TERM
mkdir "$tmp/wd" "$tmp/wd-bwrap" "$tmp/runtime" "$tmp/config"
chmod 700 "$tmp/runtime"
# A probe cache of the benchmark's own, warmed below; no caller policy
# shadows the shipped trial.
XDG_RUNTIME_DIR=$tmp/runtime
XDG_CONFIG_HOME=$tmp/config
export XDG_RUNTIME_DIR XDG_CONFIG_HOME
cd "$tmp/wd" || die "cannot enter $tmp/wd"

# bwrap runs in a workdir of its own, as cordon-keeper leaves it for a
# run: trial's absent protected paths (.vscode, .idea, ...; "--tmpfs P
# --remount-ro P" in the workdir) made as placeholders, empty and 0555,
# so that bwrap finds its mount points where a run of cordon does, and
# leaves none in the workdir cordon's runs use (there, they would be
# protected paths that exist, bound read-only, and no placeholder would
# be made and removed: the cost this compares would not be measured).
"$cordon" compile -C "$tmp/wd-bwrap" trial --format=nul >"$tmp/args0" || die "cordon compile trial failed"
tr '\0' '\n' <"$tmp/args0" | awk -v wd="$tmp/wd-bwrap/" \
  'prev == "--remount-ro" && index($0, wd) == 1 { print } { prev = $0 }' >"$tmp/placeholders"
while IFS= read -r p; do
  mkdir -m 0555 "$p" || die "cannot make the placeholder $p"
done <"$tmp/placeholders"
"$cordon" compile -C "$tmp/wd-bwrap" trial --format=nul >"$tmp/args" || die "cordon compile trial failed"
cmp -s "$tmp/args0" "$tmp/args" || die "the options changed once the placeholders were made"
"$cordon" compile -C "$tmp/wd-bwrap" trial --format=seccomp >"$tmp/filter" \
  || die "cordon compile trial --format=seccomp failed"
# Warm up: the first run probes and fills the cache; the second must be
# answered from it.
"$cordon" run -p trial -- true || die "cordon run -p trial -- true failed"
"$cordon" run -p trial --report "$tmp/report.json" -- true || die "cordon run failed"
grep -q '"cached" *: *true' "$tmp/report.json" \
  || echo "run-vs-bwrap: warning: the probe was not cached after a warm-up run" >&2
# bwrap gets the allowlisted environment, as from cordon.
envs=
for v in PATH HOME LANG TERM; do
  eval "[ -n \"\${$v+x}\" ]" && envs="$envs $v=\"\$$v\""
done
"$bwrap" --args 3 -- true 3<"$tmp/args" 8<"$tmp/filter" 4>/dev/null || die "bwrap with trial's options failed"
[ -z "$(ls -A "$tmp/wd")" ] || die "a run of cordon left something in its workdir: $(ls -A "$tmp/wd")"

q_cordon="'$cordon'"
q_bwrap="'$bwrap'"
q_args="'$tmp/args'"
q_filter="'$tmp/filter'"
limits=${LIMITS:-}
if [ -n "$limits" ]; then
  # shellcheck disable=SC2086
  "$cordon" run -p trial $limits -- true || die "cordon run -p trial $limits -- true failed"
  set -- -n "cordon run -p trial $limits -- true" "$q_cordon run -p trial $limits -- true"
else
  set --
fi
hyperfine --style basic --warmup 3 --runs "$runs" --export-json "$tmp/h.json" \
  -n "cordon run -p trial -- true" "$q_cordon run -p trial -- true" \
  -n "bwrap (trial's options) -- true" "env -i$envs $q_bwrap --args 3 -- true 3<$q_args 8<$q_filter 4>/dev/null" \
  "$@" || die "hyperfine failed"

medians=$(sed -n 's/.*"median": *\([0-9.eE+-]*\).*/\1/p' "$tmp/h.json")
set -- $medians
[ $# = 2 ] || [ $# = 3 ] || die "could not read the medians from hyperfine's JSON"
awk -v c="$1" -v b="$2" -v l="${3:-}" 'BEGIN {
  printf "median cordon run: %.2f ms\n", c * 1000
  printf "median bwrap:      %.2f ms\n", b * 1000
  printf "ratio cordon/bwrap: %.2f\n", c / b
  if (l != "") {
    printf "median cordon run with the limits: %.2f ms\n", l * 1000
    printf "ratio with the limits/cordon: %.2f (%+.2f ms)\n", l / c, (l - c) * 1000
  }
}'
