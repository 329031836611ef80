# SPDX-License-Identifier: LGPL-2.1-or-later
# run-lib.sh: what the "cordon run" integration scripts share (POSIX sh).
# Source it after tap.sh, then call run_lib_init NAME.  It is not a test
# of its own (make check runs only *.test); unprivileged.test copies it
# next to the scripts.
#
#   run_lib_init NAME      bail out unless bwrap and cordon are there; make
#                          $tmp (removed on exit) with a fresh config dir,
#                          runtime dir and home, exported as
#                          XDG_CONFIG_HOME, XDG_RUNTIME_DIR and HOME, and
#                          CORDON_POLICY_NOSYSTEM=1 (a script that clears
#                          the environment passes it on); make
#                          the workdir $wd; bail out unless
#                          "cordon run -- true" works
#   nap_marker N           a unique "sleep" argument: prints NNNN.PPPPPPPNN,
#                          fixed width, so no marker holds another
#   marker_pids MARK       pids whose cmdline holds MARK, cordon's excepted
#   sleeper_count MARK     how many processes are "sleep MARK"
#   wait_for_sleepers MARK N [SECONDS]
#                          poll until at least N are running (else 1)
#   wait_no_marker MARK [SECONDS]
#                          poll until no process holds MARK; prints the
#                          count left
#   report_get FILE EXPR   a Python expression over the report r, as JSON
#                          (the report is kept: see below)
#   report_is FILE EXPR EXPECTED DESC
#                          a TAP test: report_get is EXPECTED (a skip when
#                          there is no python3 to read JSON with)
#   wait_exit PID SECONDS  wait for our child PID, no longer than SECONDS
#                          (then it is killed); leaves $status
#   wait_file FILE SECONDS poll until FILE exists (else 1)
#   now_ms                 milliseconds since the epoch
#   kill_later PID         kill PID (by id) at cleanup if still alive
#
# Processes the scripts start are killed at cleanup only by pid: those
# passed to kill_later and those holding one of their sleep markers.
#
# Every report the script makes cordon write is kept, for
# tests/report-schema.test to validate against data/report.schema.json,
# when $CORDON_REPORTS_DIR is set (make check sets it): in
# $CORDON_REPORTS_DIR/NAME, emptied by run_lib_init NAME, one file per
# distinct content. A report is a file holding a JSON object with a
# "schema_version" or a "cordon_version" member: each one report_get
# reads (a report overwritten later is kept as it was read), and, at
# cleanup, each one left under $tmp (on $tmp's file system, regular
# files only: never a FIFO a test made).

if [ ! -x /usr/bin/bwrap ]; then
  echo "Bail out! /usr/bin/bwrap is missing (bubblewrap is required)"
  exit 1
fi
if [ ! -x "$CORDON" ]; then
  echo "Bail out! cordon binary not found at $CORDON"
  exit 1
fi

tmp=
wd=
run_lib_pids=
run_lib_reports=

run_lib_cleanup ()
{
  for p in $run_lib_pids; do
    kill -KILL "$p" 2>/dev/null
  done
  # Every marker of this script starts with this prefix (nap_marker runs
  # in a command substitution, so it cannot record its markers here).
  # The sandboxes first, so that their keepers remove what they made;
  # then whatever is left.
  kill_sandboxes "$(printf '4242.%07d' "$$")" 5
  for p in $(marker_pids "$(printf '4242.%07d' "$$")"); do
    kill -KILL "$p" 2>/dev/null
  done
  [ -z "$tmp" ] && return
  # A test stopped between a mount below $tmp and its umount (a bind of
  # /dev, of the workdir) must not have rm go through it: the mounts are
  # taken off first, deepest first, and rm stays on $tmp's file system.
  for m in $(awk -v t="$tmp/" 'index($5, t) == 1 { print length($5), $5 }' /proc/self/mountinfo 2>/dev/null \
             | sort -rn | cut -d' ' -f2); do
    umount -l "$m" 2>/dev/null
  done
  run_lib_keep_reports "$tmp"
  rm -rf --one-file-system "$tmp"
}

# The Python both keepers share: keep(data) writes a report's bytes to
# $run_lib_reports, named by their hash, when they are one (see above).
run_lib_keeper='
import hashlib, json, os, sys
def keep(data, where):
    try:
        r = json.loads(data)
    except ValueError:
        return
    if not where or not isinstance(r, dict) or not ("schema_version" in r or "cordon_version" in r):
        return
    name = os.path.join(where, hashlib.sha256(data).hexdigest()[:20] + ".json")
    try:
        with open(name + ".part", "wb") as f:
            f.write(data)
        os.rename(name + ".part", name)
    except OSError as e:
        sys.stderr.write("cannot keep a report in %s: %s\n" % (where, e))
'

# run_lib_keep_reports DIR: each report under DIR, kept. On DIR's file
# system only, and only regular files, opened without following a link
# or blocking.
run_lib_keep_reports ()
{
  [ -n "$run_lib_reports" ] && [ "$have_python" = yes ] || return 0
  python3 -c "$run_lib_keeper"'
import stat, sys
top, where = sys.argv[1], sys.argv[2]
dev = os.lstat(top).st_dev
def same_fs(path):
    try:
        return os.lstat(path).st_dev == dev
    except OSError:
        return False
for root, dirs, files in os.walk(top):
    dirs[:] = [d for d in dirs if same_fs(os.path.join(root, d))]
    for name in files:
        path = os.path.join(root, name)
        try:
            st = os.lstat(path)
            if not stat.S_ISREG(st.st_mode) or st.st_dev != dev or not 0 < st.st_size <= 1 << 22:
                continue
            with os.fdopen(os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK), "rb") as f:
                data = f.read()
        except OSError:
            continue
        keep(data, where)
' "$1" "$run_lib_reports" || diag "could not keep the reports under $1 for tests/report-schema.test"
}

kill_later ()
{
  run_lib_pids="$run_lib_pids $1"
}

run_lib_init ()
{
  tmp=$(mktemp -d "/tmp/cordon-$1.XXXXXX") || { echo "Bail out! mktemp failed"; exit 1; }
  # A root caller's sandbox runs as another host user ([identity]
  # host-user=auto): what a test gives it is made reachable for that user,
  # as a trial runner's workdir is (identity.test covers directories it
  # cannot search).
  chmod 755 "$tmp"
  trap run_lib_cleanup EXIT
  trap 'exit 130' HUP INT
  trap 'exit 143' TERM
  if [ -n "${CORDON_REPORTS_DIR:-}" ]; then
    run_lib_reports=$CORDON_REPORTS_DIR/$1
    rm -rf "$run_lib_reports"
    mkdir -p "$run_lib_reports" || { echo "Bail out! cannot make $run_lib_reports for the reports"; exit 1; }
  fi
  mkdir "$tmp/config" "$tmp/runtime" "$tmp/home" "$tmp/wd" \
    || { echo "Bail out! cannot populate $tmp"; exit 1; }
  chmod 700 "$tmp/runtime"
  wd=$tmp/wd
  # No policy of the caller's or an installed one shadows the build's
  # (CORDON_POLICY_NOSYSTEM: not the system directories); the probe cache
  # starts empty; the home is ours (trial hides it under a tmpfs).
  XDG_CONFIG_HOME=$tmp/config
  XDG_RUNTIME_DIR=$tmp/runtime
  HOME=$tmp/home
  CORDON_POLICY_NOSYSTEM=1
  export XDG_CONFIG_HOME XDG_RUNTIME_DIR HOME CORDON_POLICY_NOSYSTEM
  unset CORDON_BWRAP
  if ! err=$("$CORDON" run -C "$wd" -- true 2>&1); then
    echo "Bail out! 'cordon run -- true' does not work: $err"
    exit 1
  fi
}

nap_marker ()
{
  printf '4242.%07d%02d\n' "$$" "$1"
}

# The sandbox's processes, seen from the host's /proc.  cordon's own
# cmdline holds the command too; it is left out (the scripts wait for
# cordon, and a zombie's cmdline is empty anyway).
marker_pids ()
{
  for f in $(grep -l -a -F -e "$1" /proc/[0-9]*/cmdline 2>/dev/null); do
    p=${f#/proc/}
    p=${p%/cmdline}
    [ "$p" = "$$" ] && continue
    # Gone since the grep (the grep itself, among others), or a zombie:
    # not a survivor.
    a0=$( { tr '\0' '\n' <"$f"; } 2>/dev/null | head -n 1)
    case $a0 in
      ""|cordon|*/cordon) continue ;;
    esac
    echo "$p"
  done
}

sleeper_count ()
{
  n=0
  for f in $(grep -l -a -F -e "$1" /proc/[0-9]*/cmdline 2>/dev/null); do
    if [ "$( { tr '\0' ' ' <"$f"; } 2>/dev/null)" = "sleep $1 " ]; then
      n=$((n + 1))
    fi
  done
  echo "$n"
}

wait_for_sleepers ()
{
  tries=$(( ${3:-10} * 10 ))
  while [ "$tries" -gt 0 ]; do
    [ "$(sleeper_count "$1")" -ge "$2" ] && return 0
    sleep 0.1
    tries=$((tries - 1))
  done
  return 1
}

wait_no_marker ()
{
  tries=$(( ${2:-5} * 10 ))
  while :; do
    left=$(marker_pids "$1" | wc -l | tr -d ' ')
    if [ "$left" = 0 ] || [ "$tries" -le 0 ]; then
      echo "$left"
      return
    fi
    sleep 0.1
    tries=$((tries - 1))
  done
}

have_python=no
command -v python3 >/dev/null 2>&1 && have_python=yes

report_get ()
{
  python3 -c "$run_lib_keeper"'
import sys
with open(sys.argv[1], "rb") as f:
    data = f.read()
r = json.loads(data)
keep(data, sys.argv[3])
try:
    v = eval(sys.argv[2], {"r": r})
except (KeyError, IndexError, TypeError) as e:
    v = "<missing: %s>" % e
print(json.dumps(v, sort_keys=True))
' "$1" "$2" "$run_lib_reports" 2>&1
}

report_is ()
{
  if [ "$have_python" = no ]; then
    skip "$4" "python3 is needed to read the JSON report"
  elif [ ! -s "$1" ]; then
    not_ok "$4"
    diag "no report was written at $1"
  else
    is "$(report_get "$1" "$2")" "$3" "$4"
  fi
}

wait_exit ()
{
  tries=$(( $2 * 10 ))
  while [ "$tries" -gt 0 ]; do
    state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)
    [ "$state" = Z ] || [ -z "$state" ] && break
    sleep 0.1
    tries=$((tries - 1))
  done
  if [ "$tries" = 0 ]; then
    diag "pid $1 still running after $2 s; killing it"
    kill -KILL "$1" 2>/dev/null
  fi
  wait "$1"
  # shellcheck disable=SC2034 # read by the caller
  status=$?
}

wait_file ()
{
  tries=$(( $2 * 10 ))
  while [ "$tries" -gt 0 ]; do
    [ -e "$1" ] && return 0
    sleep 0.1
    tries=$((tries - 1))
  done
  return 1
}

now_ms ()
{
  echo $(( $(date +%s%N) / 1000000 ))
}

# status_is GOT EXPECTED DESC: `is` for a run's exit status; a mismatch
# also shows the run's stderr ($tmp/err), so that a failure that shows
# up once in CI says why.
status_is ()
{
  is "$1" "$2" "$3"
  if [ "$1" != "$2" ] && [ -f "$tmp/err" ]; then
    diag "stderr: $(head -c 1500 "$tmp/err")"
  fi
}

# kill_sandboxes MARKER [SECONDS]: SIGKILL to each process whose command
# line holds MARKER but cordon-keeper (whose does too: it holds bwrap's
# argv), then wait until all are gone: each keeper ends once its sandbox
# has, after removing what it made for it (the cgroups of trial's limits).
kill_sandboxes ()
{
  for p in $(marker_pids "$1"); do
    case $( { tr '\0' '\n' <"/proc/$p/cmdline"; } 2>/dev/null | head -n 1) in
      */cordon-keeper|cordon-keeper) continue ;;
    esac
    kill -KILL "$p" 2>/dev/null
  done
  wait_no_marker "$1" "${2:-10}" >/dev/null
}
