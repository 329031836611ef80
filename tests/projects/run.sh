#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Real projects build and pass their own test suites under cordon's
# shipped trial policy, as root and as an unprivileged user: the host's
# / read-only, only the project's tree writable, /tmp, /var/tmp, /run
# and $HOME empty, no network.  Everything that needs the network or
# root happens outside, once: deb-src is enabled, build dependencies
# are installed with apt-get build-dep, sources are fetched; each
# project's tree is then copied for each identity (root's copy owned by
# root, the user's by the user, both under a work dir outside /tmp) and
# its whole build and test suite run inside "cordon run -p trial".  A
# project passes when that run exits 0 and its test runner's own
# summary shows tests passed (a suite that ran nothing does not pass).
# What this machine's archive serves decided the sources:
#   jq        Debian source package jq (apt-get source): autoreconf,
#             configure, make, make check (4 suites)
#   libyaml   Debian source package libyaml: autoreconf, configure,
#             make, make check
#   xmltodict Debian source package python-xmltodict: pytest (Debian's
#             python3-pytest)
#   minimist  npm pack minimist@1.2.8 and npm install of its dev
#             dependencies outside (Debian's node-minimist tarballs are
#             not served here); npm test inside (eslint, tape under nyc,
#             aud)
#   num-traits the crate as Debian ships it in librust-num-traits-dev
#             (the rust-* source tarballs are not served here), with
#             Debian's cargo and a .cargo/config.toml that replaces
#             crates.io with /usr/share/cargo/registry: cargo test
#             --offline builds autocfg from there and runs a build script
# Two controls per identity show the harness can fail: a command's exit
# status 3 comes out of the sandbox, and xmltodict with one deliberately
# broken test is judged a failure by the same code that judges projects.
# Fetch or install failures are "not ok" with the reason, never a skip.
#
#   CORDON=_build/src/cordon tests/projects/run.sh [--user NAME]
#       [--only NAME[,NAME...]] [--workdir DIR] [--keep] [--list]
#
# Run as root (apt-get, and setpriv for --user).  --user NAME runs every
# project a second time as NAME (an ordinary account with a home).
# --workdir DIR is where the work dir is made (default /srv).

set -u

srcdir=$(cd "$(dirname "$0")/../.." && pwd)
CORDON=${CORDON:-$srcdir/_build/src/cordon}
. "$srcdir/tests/tap.sh"

all_projects="jq libyaml xmltodict minimist num-traits"
# The system's own PATH, for the sandbox and for the steps outside: a
# root caller's tools under /root (~/.cargo/bin, ~/.pyenv) are out of
# reach of its sandbox's host user (README, "Known problems"), and the
# projects are to be built with Debian's toolchains.
sys_path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# Each sandboxed build and test is killed after this many seconds.
run_timeout=900

user=
only=
parent=/srv
keep=no

usage ()
{
  sed -n '/^#   CORDON=/,/^# --workdir/p' "$0" | sed 's/^# \{0,1\}//'
}

while [ $# -gt 0 ]; do
  case $1 in
    --user) [ $# -ge 2 ] || { usage >&2; exit 2; }; user=$2; shift 2 ;;
    --user=*) user=${1#--user=}; shift ;;
    --only) [ $# -ge 2 ] || { usage >&2; exit 2; }; only=$2; shift 2 ;;
    --only=*) only=${1#--only=}; shift ;;
    --workdir) [ $# -ge 2 ] || { usage >&2; exit 2; }; parent=$2; shift 2 ;;
    --workdir=*) parent=${1#--workdir=}; shift ;;
    --keep) keep=yes; shift ;;
    --list) echo "$all_projects" | tr ' ' '\n'; exit 0 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "run.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
done

projects=$all_projects
if [ -n "$only" ]; then
  projects=$(echo "$only" | tr ',' ' ')
  for p in $projects; do
    case " $all_projects " in
      *" $p "*) ;;
      *) echo "run.sh: unknown project '$p' (one of: $all_projects)" >&2; exit 2 ;;
    esac
  done
fi

if [ "$(id -u)" != 0 ]; then
  echo "Bail out! run.sh must run as root (apt-get build-dep, setpriv)"
  exit 1
fi
if [ ! -x "$CORDON" ]; then
  echo "Bail out! cordon binary not found at $CORDON"
  exit 1
fi
if [ ! -x /usr/bin/bwrap ]; then
  echo "Bail out! /usr/bin/bwrap is missing (bubblewrap is required)"
  exit 1
fi
identities=root
if [ -n "$user" ]; then
  if ! uid=$(id -u "$user" 2>/dev/null); then
    echo "Bail out! no user '$user' (useradd --create-home --shell /bin/sh $user)"
    exit 1
  fi
  if [ "$uid" = 0 ]; then
    echo "Bail out! '$user' is root; the point is an unprivileged user"
    exit 1
  fi
  user_home=$(getent passwd "$user" | cut -d: -f6)
  if [ -z "$user_home" ] || [ ! -d "$user_home" ]; then
    echo "Bail out! '$user' has no home directory (useradd --create-home)"
    exit 1
  fi
  command -v setpriv >/dev/null 2>&1 || { echo "Bail out! setpriv (util-linux) is needed for --user"; exit 1; }
  identities="root user"
fi

# --- the work dir ------------------------------------------------------------

mkdir -p "$parent" || { echo "Bail out! cannot make $parent"; exit 1; }
w=$(mktemp -d "$parent/cordon-projects.XXXXXX") || { echo "Bail out! mktemp in $parent failed"; exit 1; }
cleanup ()
{
  if [ "$keep" = yes ]; then
    echo "# kept the work dir $w" >&2
  else
    rm -rf --one-file-system "$w"
  fi
}
trap cleanup EXIT
trap 'exit 130' HUP INT
trap 'exit 143' TERM
# Searchable by the sandbox's host user (uid 99999 for root) and by the
# test user; writable by root only, except each identity's own parts.
chmod 755 "$w"
mkdir "$w/bin" "$w/fetch" "$w/src" "$w/logs" "$w/root" "$w/config-root" \
  || { echo "Bail out! cannot populate $w"; exit 1; }
# cordon and the helpers it finds beside itself, where every identity can
# run them (the build tree may sit under a 0700 home).
for b in cordon cordon-exec cordon-keeper; do
  f=$(dirname "$CORDON")/$b
  [ "$b" = cordon ] && f=$CORDON
  [ -f "$f" ] || continue
  cp "$f" "$w/bin/$b" && chmod 755 "$w/bin/$b" || { echo "Bail out! cannot copy $f"; exit 1; }
done
if [ "$identities" = "root user" ]; then
  mkdir "$w/user" "$w/config-user" && chown "$user:" "$w/user" "$w/config-user" \
    || { echo "Bail out! cannot make $w/user for $user"; exit 1; }
fi
# No policy of the caller's shadows the shipped trial (XDG_CONFIG_HOME
# is looked in first); cordon's helpers and bwrap are its own.
unset CORDON_BWRAP CORDON_EXEC_HELPER CORDON_KEEPER_HELPER
PATH=$sys_path
DEBIAN_FRONTEND=noninteractive
export PATH DEBIAN_FRONTEND

# --- outside the sandbox: deb-src, build dependencies, sources ---------------

apt_log=$w/logs/apt.log
apt_ready=
apt_why=

# Quietly, to the apt log; on failure $why holds this command's last
# error lines.
apt_run ()
{
  echo "+ apt-get $*" >>"$apt_log"
  apt-get "$@" >"$w/logs/apt.last" 2>&1 </dev/null
  rc=$?
  cat "$w/logs/apt.last" >>"$apt_log"
  [ "$rc" = 0 ] && return 0
  why="apt-get $* failed ($rc): $(grep -E '^(E|Err):' "$w/logs/apt.last" | tail -n 3 | tr '\n' ' ')"
  return 1
}

# deb-src for bookworm main, beside the machine's deb entries (deb822 in
# sources.list.d, or a one-line sources.list): the first deb URI found.
enable_deb_src ()
{
  if apt-cache showsrc libyaml 2>/dev/null | grep -q '^Package:'; then
    return 0
  fi
  uri=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v security | head -n 1)
  [ -n "$uri" ] || uri=$(sed -n 's/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\) .*/\2/p' /etc/apt/sources.list 2>/dev/null | grep -v security | head -n 1)
  [ -n "$uri" ] || uri=http://deb.debian.org/debian
  diag "enabling deb-src for bookworm main from $uri (/etc/apt/sources.list.d/cordon-projects-src.sources)"
  cat >/etc/apt/sources.list.d/cordon-projects-src.sources <<EOF
Types: deb-src
URIs: $uri
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  apt_run update
}

# Once, before the first project: a fresh machine has no package lists.
apt_prepare ()
{
  [ -n "$apt_ready" ] && { why=$apt_why; [ "$apt_ready" = yes ]; return; }
  why=
  if apt_run update && enable_deb_src; then
    apt_ready=yes
  else
    apt_ready=no
    apt_why=$why
  fi
  [ "$apt_ready" = yes ]
}

# fetch_deb_source PKG NAME: apt-get source PKG (unpacked, Debian's
# patches applied), its tree moved to $w/src/NAME.
fetch_deb_source ()
{
  d=$w/fetch/$1
  mkdir -p "$d" || { why="cannot make $d"; return 1; }
  # apt downloads as _apt where that user can write (else it warns and
  # downloads as root).
  id _apt >/dev/null 2>&1 && chown _apt "$d"
  cd "$d" || return 1
  apt_run source "$1"
  rc=$?
  cd "$w" || return 1
  [ "$rc" = 0 ] || return 1
  t=$(find "$d" -mindepth 1 -maxdepth 1 -type d | head -n 1)
  [ -n "$t" ] || { why="apt-get source $1 made no tree"; return 1; }
  mv "$t" "$w/src/$2"
}

# prepare_NAME: installs what NAME needs and leaves its tree at
# $w/src/NAME, or fails with the reason in $why.
prepare_jq ()
{
  apt_prepare && apt_run build-dep -y jq && fetch_deb_source jq jq
}

prepare_libyaml ()
{
  apt_prepare && apt_run build-dep -y libyaml && fetch_deb_source libyaml libyaml
}

prepare_xmltodict ()
{
  apt_prepare && apt_run build-dep -y python-xmltodict && apt_run install -y python3-pytest \
    && fetch_deb_source python-xmltodict xmltodict
}

prepare_minimist ()
{
  if ! command -v npm >/dev/null 2>&1; then
    apt_prepare && apt_run install -y nodejs npm || return 1
  fi
  d=$w/fetch/minimist
  log=$w/logs/npm.log
  mkdir -p "$d/tree" || return 1
  # A cache of the run's own, not root's ~/.npm.
  if ! (cd "$d" && npm pack --cache "$w/npm-cache" minimist@1.2.8) >>"$log" 2>&1; then
    why="npm pack minimist@1.2.8 failed: $(tail -n 3 "$log" | tr '\n' ' ')"
    return 1
  fi
  tar -xzf "$d/minimist-1.2.8.tgz" -C "$d/tree" --strip-components=1 || { why="cannot unpack minimist"; return 1; }
  if ! (cd "$d/tree" && npm install --cache "$w/npm-cache" --no-audit --no-fund) >>"$log" 2>&1; then
    why="npm install (minimist's dev dependencies) failed: $(tail -n 3 "$log" | tr '\n' ' ')"
    return 1
  fi
  mv "$d/tree" "$w/src/minimist"
}

prepare_num_traits ()
{
  apt_prepare && apt_run install -y --no-install-recommends cargo rustc librust-num-traits-dev || return 1
  reg=/usr/share/cargo/registry
  c=$(find "$reg" -mindepth 1 -maxdepth 1 -name 'num-traits-*' | sort | tail -n 1)
  [ -n "$c" ] || { why="librust-num-traits-dev installed no crate in $reg"; return 1; }
  cp -a "$c" "$w/src/num-traits" && mkdir "$w/src/num-traits/.cargo" || return 1
  # crates.io replaced by Debian's registry of packaged crates, as
  # dh-cargo does: autocfg and libm come from there.
  cat >"$w/src/num-traits/.cargo/config.toml" <<EOF
[source.crates-io]
replace-with = "debian"

[source.debian]
directory = "$reg"

[net]
offline = true
EOF
}

# --- each project: inside the sandbox ----------------------------------------

# What one project runs inside, and the line of its test runner's
# summary that shows it ran tests that passed.
project_desc ()
{
  case $1 in
    jq) echo "jq make check" ;;
    libyaml) echo "libyaml make check" ;;
    xmltodict) echo "xmltodict pytest" ;;
    minimist) echo "minimist npm test" ;;
    num-traits) echo "num-traits cargo test --offline" ;;
  esac
}

project_cmd ()
{
  case $1 in
    # valgrind (a build dependency, found by configure) would have jq's
    # suites take minutes; the suites themselves are the same.
    jq) echo 'autoreconf -fi && ./configure --disable-docs --disable-valgrind && make -j2 && make -j2 check' ;;
    libyaml) echo 'autoreconf -fi && ./configure && make -j2 && make -j2 check' ;;
    xmltodict) echo 'python3 -m pytest tests' ;;
    minimist) echo 'npm test' ;;
    num-traits) echo 'cargo test --offline' ;;
  esac
}

project_proof ()
{
  case $1 in
    jq|libyaml) echo '^# PASS: +[1-9]' ;;
    xmltodict) echo ' [1-9][0-9]* passed' ;;
    minimist) echo '^# pass +[1-9]' ;;
    num-traits) echo '^test result: ok\. [1-9]' ;;
  esac
}

# in_sandbox IDENTITY DIR LOG CMD: CMD under sh -c in trial, workdir DIR,
# as IDENTITY; output to LOG; leaves $status.
in_sandbox ()
{
  id_=$1 dir_=$2 log_=$3 cmd_=$4
  if [ "$id_" = root ]; then
    XDG_CONFIG_HOME=$w/config-root "$w/bin/cordon" run -p trial --timeout="$run_timeout" \
      -C "$dir_" -- sh -c "$cmd_" >"$log_" 2>&1 </dev/null
    status=$?
  else
    # The user's own environment, not root's (HOME, the config dir).
    setpriv --reuid="$user" --regid="$user" --init-groups \
      env -i PATH="$sys_path" HOME="$user_home" USER="$user" LOGNAME="$user" \
      LANG="${LANG:-C.UTF-8}" XDG_CONFIG_HOME="$w/config-user" \
      "$w/bin/cordon" run -p trial --timeout="$run_timeout" \
      -C "$dir_" -- sh -c "$cmd_" >"$log_" 2>&1 </dev/null
    status=$?
  fi
}

# copy_for IDENTITY NAME [AS]: a fresh copy of $w/src/NAME for IDENTITY,
# at $w/IDENTITY/AS; prints its path.
copy_for ()
{
  dst=$w/$1/${3:-$2}
  rm -rf "$dst"
  cp -a "$w/src/$2" "$dst" || return 1
  if [ "$1" = user ]; then
    chown -R "$user:" "$dst" || return 1
  fi
  echo "$dst"
}

# judge NAME LOG: the run passed ($status 0) and the suite's summary is
# in LOG; else $why says what was wrong.
judge ()
{
  if [ "$status" != 0 ]; then
    why="the sandboxed build and test exited $status"
    return 1
  fi
  if ! grep -Eq "$(project_proof "$1")" "$2"; then
    why="exit 0 but no test summary matching '$(project_proof "$1")' in the log"
    return 1
  fi
  return 0
}

# show_log LOG: what cordon said (degradations, audit findings) and the
# tail of the output, as TAP comments.
show_log ()
{
  grep '^cordon:' "$1" | head -n 20 | sed 's/^/# /'
  diag "last lines of $1:"
  tail -n 25 "$1" | sed 's/^/#   /'
}

results=
add_result ()
{
  results="$results
$1"
}

# run_project IDENTITY NAME: one TAP test.
run_project ()
{
  label=$(project_desc "$2")
  [ "$1" = root ] && who=root || who="$user"
  desc="$label under trial as $who"
  eval "ready=\${ready_$(echo "$2" | tr - _)}"
  if [ "$ready" != yes ]; then
    not_ok "$desc"
    eval "diag \"not fetched: \${why_$(echo "$2" | tr - _)}\""
    add_result "$2 $who FAIL(fetch) -"
    return
  fi
  log=$w/logs/$1-$2.log
  if ! dir=$(copy_for "$1" "$2"); then
    not_ok "$desc"
    diag "cannot copy the tree of $2 for $who"
    add_result "$2 $who FAIL(copy) -"
    return
  fi
  t0=$(date +%s)
  in_sandbox "$1" "$dir" "$log" "$(project_cmd "$2")"
  secs=$(( $(date +%s) - t0 ))
  if judge "$2" "$log"; then
    ok "$desc"
    grep '^cordon:' "$log" | head -n 20 | sed 's/^/# /'
    add_result "$2 $who pass ${secs}s"
  else
    not_ok "$desc"
    diag "$why (after ${secs} s)"
    show_log "$log"
    add_result "$2 $who FAIL ${secs}s"
  fi
  diag "$2 as $who: ${secs} s"
}

# The controls: what shows the harness can say "not ok".
run_controls ()
{
  [ "$1" = root ] && who=root || who="$user"
  d=$w/$1/control-exit
  mkdir -p "$d" && { [ "$1" = root ] || chown "$user:" "$d"; }
  in_sandbox "$1" "$d" "$w/logs/$1-control-exit.log" 'exit 3'
  is "$status" 3 "control: a command that exits 3 under trial as $who gives status 3"

  desc="control: xmltodict with a deliberately broken test is judged failed under trial as $who"
  if [ "$ready_xmltodict" != yes ]; then
    not_ok "$desc"
    diag "not fetched: $why_xmltodict"
    return
  fi
  if ! dir=$(copy_for "$1" xmltodict control-xmltodict); then
    not_ok "$desc"
    diag "cannot copy xmltodict for the control"
    return
  fi
  cat >"$dir/tests/test_cordon_control.py" <<'EOF'
def test_cordon_control_is_broken():
    assert 1 + 1 == 3, "deliberately broken: run.sh must judge this suite failed"
EOF
  [ "$1" = root ] || chown "$user:" "$dir/tests/test_cordon_control.py"
  log=$w/logs/$1-control-xmltodict.log
  in_sandbox "$1" "$dir" "$log" "$(project_cmd xmltodict)"
  # Failed by the broken test, not by anything else: pytest ran and
  # counted exactly that one failure.
  if ! judge xmltodict "$log" && grep -Eq '(^| )1 failed' "$log" && grep -q test_cordon_control_is_broken "$log"; then
    ok "$desc"
  else
    not_ok "$desc"
    diag "status $status; expected a failed judgement with pytest's '1 failed'"
    show_log "$log"
  fi
}

# --- the run -----------------------------------------------------------------

n_id=$(echo "$identities" | wc -w)
n_proj=$(echo "$projects" | wc -w)
plan $(( n_id * (n_proj + 2) ))
diag "cordon: $CORDON; work dir: $w; identities: root${user:+ and $user}"
start=$(date +%s)

# Each project's readiness and, if not ready, why not.
ready= ready_jq=no ready_libyaml=no ready_xmltodict=no ready_minimist=no ready_num_traits=no
why_jq= why_libyaml= why_xmltodict= why_minimist= why_num_traits=
# xmltodict is fetched for the control even when --only leaves it out.
to_prepare=$projects
case " $projects " in *" xmltodict "*) ;; *) to_prepare="$to_prepare xmltodict" ;; esac
for p in $to_prepare; do
  v=$(echo "$p" | tr - _)
  why=
  t0=$(date +%s)
  if "prepare_$v"; then
    eval "ready_$v=yes"
    diag "prepared $p outside the sandbox in $(( $(date +%s) - t0 )) s"
  else
    [ -n "$why" ] || why="preparing $p failed"
    eval "ready_$v=no; why_$v=\$why"
    diag "could not prepare $p: $why"
  fi
done

for i in $identities; do
  for p in $projects; do
    run_project "$i" "$p"
  done
  run_controls "$i"
done

total=$(( $(date +%s) - start ))
diag "" "project     identity  result  time"
echo "$results" | sed '/^$/d' | while read -r p who res secs; do
  printf '#   %-11s %-9s %-7s %s\n' "$p" "$who" "$res" "$secs"
done
diag "total: ${total} s"
echo "$((tap_count - tap_failed)) passed, $tap_failed failed"
[ "$tap_failed" = 0 ]
