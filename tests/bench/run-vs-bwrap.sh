#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# What "cordon run" costs over bwrap itself: hyperfine times
# "cordon run -p trial -- true" against bwrap started with the very
# options "cordon compile trial --format=nul" gives (through --args, as
# cordon passes them) on "true", with the fds they name: the filter of
# --format=seccomp at fd 8, --json-status-fd 4 to /dev/null; the probe
# cached.  Prints both medians and their ratio, then (TABLE=1, the
# default) the issue's whole table in the same sitting: (b) the ratio
# with --no-verify; (c) CPU (user+sys, of each launch and all it
# started) per launch; (d) throughput, 8 parallel launchers x 100
# launches each, launches/s and failures; (e) "cordon check" of each
# shipped policy, and "cordon --version", each against a C hello-world
# linked as cordon is; (f) the median of each phase of the report's
# durations_ms, over RUNS launches.  Not part of "make check": timings
# depend on the machine.  bwrap runs in a workdir where
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
# shellcheck disable=SC2086
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

[ "${TABLE:-1}" = 1 ] || exit 0

# --- the table --------------------------------------------------------------------------------
# (a) and (b) in one run.
hyperfine --style none --warmup 3 --runs "$runs" --export-json "$tmp/t.json" \
  -n a "$q_cordon run -p trial -- true" \
  -n b "$q_cordon run -p trial --no-verify -- true" \
  -n bwrap "env -i$envs $q_bwrap --args 3 -- true 3<$q_args 8<$q_filter 4>/dev/null" >/dev/null \
  || die "hyperfine failed"

# (c) CPU per launch: each launch spawned and waited for with wait4(2),
# whose rusage is the child's and every descendant it waited for (cordon
# reaps the keeper, the keeper bwrap, bwrap the sandbox): the mean of
# user + system over RUNS launches, in ms.
cpu_per_launch ()
{
  python3 - "$runs" "$@" <<'PY'
import os, sys
runs, argv = int(sys.argv[1]), sys.argv[2:]
fds = {}
while argv and argv[0].startswith("--fd="):
    n, path = argv.pop(0)[5:].split("=", 1)
    fds[int(n)] = path
total, failed = 0.0, 0
null = os.open("/dev/null", os.O_RDWR)
for _ in range(runs):
    actions = [(os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, null, 2)]
    for n, path in fds.items():
        actions.append((os.POSIX_SPAWN_OPEN, n, path, os.O_WRONLY if path == "/dev/null" else os.O_RDONLY, 0))
    pid = os.posix_spawn(argv[0], argv, os.environ if argv[0].endswith("cordon") else {
        k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "TERM")}, file_actions=actions)
    _, status, ru = os.wait4(pid, 0)
    failed += status != 0
    total += ru.ru_utime + ru.ru_stime
print("%.3f %d" % (total / runs * 1000, failed))
PY
}
cpu_cordon=$(cpu_per_launch "$cordon" run -p trial -- true)
cpu_bwrap=$(cpu_per_launch --fd=3="$tmp/args" --fd=8="$tmp/filter" --fd=4=/dev/null "$bwrap" --args 3 -- true)

# (d) throughput: `n` launchers side by side, `each` launches apiece;
# launches/s over the whole, and the launches that failed.
throughput ()
{
  rm -f "$tmp/fails"
  t0=$(date +%s%N)
  i=0
  while [ "$i" -lt 8 ]; do
    (
      j=0
      while [ "$j" -lt 100 ]; do
        eval "$1" >/dev/null 2>&1 || echo x >>"$tmp/fails"
        j=$((j + 1))
      done
    ) &
    i=$((i + 1))
  done
  wait
  t1=$(date +%s%N)
  fails=$( [ -f "$tmp/fails" ] && wc -l <"$tmp/fails" | tr -d ' ' || echo 0)
  awk -v ns="$((t1 - t0))" -v f="$fails" 'BEGIN { printf "%.1f %d\n", 800 / (ns / 1e9), f }'
}
tp_cordon=$(throughput "$q_cordon run -p trial -- true")
tp_bwrap=$(throughput "env -i$envs $q_bwrap --args 3 -- true 3<$q_args 8<$q_filter 4>/dev/null")

# (e) a C hello-world linked as cordon is: GLib, PCRE2, libcap and
# libseccomp statically where cordon holds them (configure's default),
# else dynamically; the C library dynamically. It calls into GLib, so
# that a static link holds some of it.
cat >"$tmp/hello.c" <<'EOF'
#include <glib.h>
int main (void) { g_print ("hello\n"); return 0; }
EOF
if ldd "$cordon" | grep -q libglib-2.0; then
  libs="-Wl,--no-as-needed $(pkg-config --libs glib-2.0 libcap libseccomp)"
  linked="dynamically"
else
  libs="-Wl,-Bstatic $(pkg-config --static --libs-only-l glib-2.0 libcap libseccomp | sed 's/-lm\b//g') -Wl,-Bdynamic -lm -pthread"
  linked="statically (the C library dynamically)"
fi
# shellcheck disable=SC2086
cc -O2 -o "$tmp/hello" "$tmp/hello.c" $(pkg-config --cflags glib-2.0) $libs 2>/dev/null || die "cannot build the hello-world"
echo "the hello-world of (e) links GLib, PCRE2, libcap and libseccomp $linked, as cordon does"
set -- -n hello "'$tmp/hello'" -n version "$q_cordon --version"
for p in trial minimal desktop-readonly-home; do
  set -- "$@" -n "check $p" "$q_cordon check $p"
done
hyperfine --style none -N --warmup 3 --runs "$runs" --export-json "$tmp/e.json" "$@" >/dev/null \
  || die "hyperfine failed"

# (f) where a launch's time goes: the report's durations_ms, median of
# each phase over RUNS launches (a report is written, so json-glib is
# loaded beside bwrap's setup; the run is otherwise (a)'s).
mkdir "$tmp/reports"
i=0
while [ "$i" -lt "$runs" ]; do
  "$cordon" run -p trial --report "$tmp/reports/$i.json" -- true || die "cordon run --report failed"
  i=$((i + 1))
done

python3 - "$tmp/t.json" "$tmp/e.json" "$tp_cordon" "$tp_bwrap" "$cpu_cordon" "$cpu_bwrap" "$tmp/reports" <<'EOF'
import glob, json, os, statistics, sys
t = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
e = {r["command"]: r for r in json.load(open(sys.argv[2]))["results"]}
ms = lambda r: r["median"] * 1000
tc, fc = sys.argv[3].split()
tb, fb = sys.argv[4].split()
cc, cfc = sys.argv[5].split()
cb, cfb = sys.argv[6].split()
print("")
print("| measure | cordon | bwrap / hello | ratio | target |")
print("|---|---|---|---|---|")
print("| (a) wall, median, `run -p trial -- true` | %.2f ms | %.2f ms | %.2f | <= 1.3 |"
      % (ms(t["a"]), ms(t["bwrap"]), ms(t["a"]) / ms(t["bwrap"])))
print("| (b) the same, `--no-verify` | %.2f ms | %.2f ms | %.2f | <= 1.1 |"
      % (ms(t["b"]), ms(t["bwrap"]), ms(t["b"]) / ms(t["bwrap"])))
print("| (c) CPU per launch (user+sys of all it waited for, mean) | %.2f ms%s | %.2f ms%s | %.2f | |"
      % (float(cc), ", %s failed" % cfc if cfc != "0" else "", float(cb), ", %s failed" % cfb if cfb != "0" else "",
         float(cc) / float(cb)))
print("| (d) throughput, 8 x 100 launches | %s/s, %s failed | %s/s, %s failed | %.2f | >= 0.8, 0 failed |"
      % (tc, fc, tb, fb, float(tc) / float(tb)))
for name in ["version", "check trial", "check minimal", "check desktop-readonly-home"]:
    print("| (e) `cordon %s` | %.2f ms | %.2f ms | %.2f | <= 1.5 |"
          % (name, ms(e[name]), ms(e["hello"]), ms(e[name]) / ms(e["hello"])))
reports = [json.load(open(f))["durations_ms"] for f in glob.glob(os.path.join(sys.argv[7], "*.json"))]
phases = ["start", "policy", "facts", "compile", "probe", "seccomp", "spawn", "bwrap_setup", "inside_checks",
          "outside_checks", "release", "run", "teardown", "audit", "total"]
print("")
print("| (f) phase of `run -p trial --report F -- true` (durations_ms, median of %d) | ms |" % len(reports))
print("|---|---|")
for p in phases:
    values = [r[p] for r in reports if r.get(p) is not None]
    print("| %s | %s |" % (p, "%.2f" % statistics.median(values) if values else "null"))
EOF
