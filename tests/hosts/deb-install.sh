#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The Debian package, end to end: builds cordon's .deb from a clean clone
# of the repository's HEAD with dpkg-buildpackage (its make check
# included, unless --nocheck), holds it to lintian (an error or a warning
# that debian/cordon.lintian-overrides does not explain fails), then
# installs it in a clean Debian 12 made by debootstrap (minbase: nothing
# of cordon's dependencies is there) with dpkg -i and apt-get install -f,
# and runs the installed cordon there, as root and as an ordinary user
# made with useradd: --version, check trial, run -- true, a command's own
# exit status, and a write outside the workdir that must not land.
#
# The new system is not entered with chroot(8): the kernel refuses a
# user namespace to a chrooted process (clone(2), EPERM), and bwrap needs
# one. It gets a mount and pid namespace of its own instead, made with
# unshare(1), with the tree pivot_root'ed to "/" and the host's root
# detached, its own /proc, the host's /dev and /sys bound, tmpfs /run and
# /tmp. Every mount is in that namespace (debootstrap's too: it runs in
# one of its own) and goes with it; the cleanup still takes off anything
# left below the temporary directory, deepest first, before removing it.
#
#   deb-install.sh [--nocheck] [--debian DIR] [--install-deps] [--keep]
#
#   --nocheck       build with DEB_BUILD_OPTIONS=nocheck (no make check)
#   --debian DIR    use DIR as the clone's debian/ (one not committed yet)
#   --install-deps  apt-get install what the build and this script need
#                   (Build-Depends, debhelper, lintian, debootstrap)
#   --keep          leave the temporary directory (its path is printed)
#
# Environment: CORDON_SRCDIR (default: this repository), CORDON_DEB_MIRROR
# (default http://deb.debian.org/debian), CORDON_DEB_SECURITY_MIRROR
# (default http://deb.debian.org/debian-security), CORDON_DEB_RESULTS
# (each step's log, replaced by every run; default
# ${TMPDIR:-/tmp}/cordon-deb-results), TMPDIR. Runs as root.
# Output: the steps on stderr, the installed package's checks as TAP on
# stdout. Exit status: 0 all passed, 1 a failure or an error.
set -euo pipefail

prog=${0##*/}
here=$(cd "$(dirname "$0")" && pwd)

mirror=${CORDON_DEB_MIRROR:-http://deb.debian.org/debian}
security_mirror=${CORDON_DEB_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
suite=bookworm

say () { printf '%s: %s\n' "$prog" "$*" >&2; }
die () { say "error: $*"; exit 1; }

nocheck=
debian_dir=
install_deps=
keep=
while [ $# -gt 0 ]; do
  case $1 in
    --nocheck) nocheck=yes; shift ;;
    --debian) [ $# -ge 2 ] || die "--debian needs a directory"; debian_dir=$(cd "$2" && pwd); shift 2 ;;
    --install-deps) install_deps=yes; shift ;;
    --keep) keep=yes; shift ;;
    *) echo "usage: $prog [--nocheck] [--debian DIR] [--install-deps] [--keep]" >&2; exit 1 ;;
  esac
done

# --- cleanup -----------------------------------------------------------------
# The build and the namespaces run each in a session of their own (job_pid,
# its process group): on an interruption all of their processes are ended
# with them, before the tree they work in is removed. A process that left
# that group (a cordon of make check's that setsid'd away) is found by its
# program, one of the build tree's, and ended by its pid.

tmp=
job_pid=

# kill_strays: end every process running a program of $tmp; their pids.
kill_strays ()
{
  local p e pids=()
  for p in /proc/[0-9]*; do
    e=$(readlink "$p/exe" 2>/dev/null) || continue
    [[ $e == "$tmp"/* ]] && pids+=("${p#/proc/}")
  done
  [ ${#pids[@]} -gt 0 ] || return 0
  kill -KILL "${pids[@]}" 2>/dev/null || true
  echo "${pids[*]}"
}

cleanup ()
{
  local m tries
  if [ -n "$job_pid" ]; then
    kill -TERM -- "-$job_pid" 2>/dev/null || true
    tries=50
    while pgrep -g "$job_pid" >/dev/null && [ "$tries" -gt 0 ]; do
      sleep 0.2
      tries=$((tries - 1))
    done
    kill -KILL -- "-$job_pid" 2>/dev/null || true
    wait "$job_pid" 2>/dev/null || true
  fi
  [ -n "$tmp" ] && [ -d "$tmp" ] || return 0
  kill_strays >/dev/null
  for m in $(awk -v t="$tmp/" 'index($5, t) == 1 { print length($5), $5 }' /proc/self/mountinfo \
             | sort -rn | cut -d' ' -f2); do
    umount -l "$m" 2>/dev/null || true
  done
  if [ -n "$keep" ]; then
    say "kept $tmp"
  else
    rm -rf --one-file-system "$tmp"
  fi
}
trap cleanup EXIT
trap 'exit 130' HUP INT
trap 'exit 143' TERM

# job LOG CMD [ARG...]: CMD in a session of its own, its output in LOG;
# its exit status.
job ()
{
  local log=$1 rc=0
  shift
  setsid -w "$@" </dev/null >"$log" 2>&1 &
  job_pid=$!
  wait "$job_pid" || rc=$?
  job_pid=
  return "$rc"
}

# --- preparing ---------------------------------------------------------------

[ "$(id -u)" = 0 ] || die "run me as root (debootstrap, namespaces, mounts)"
srcdir=$(cd "${CORDON_SRCDIR:-$here/../..}" && pwd)
head=$(git -C "$srcdir" rev-parse HEAD) || die "$srcdir is not a git repository"
start=$(date +%s)

# Searchable by others: as root, make check runs the integration suite
# again as an unprivileged user, who must reach the build tree.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cordon-deb.XXXXXX")
chmod 755 "$tmp"
results=${CORDON_DEB_RESULTS:-${TMPDIR:-/tmp}/cordon-deb-results}
case $results in
  /|"$srcdir"|"$srcdir"/*) die "CORDON_DEB_RESULTS='$results': a directory of its own, outside the tree, please" ;;
esac
rm -rf --one-file-system "$results"
mkdir -p "$results"
say "clone of $srcdir at ${head:0:12} in $tmp/src"
git clone -q "$srcdir" "$tmp/src"
git -C "$tmp/src" checkout -q --detach "$head"
if [ -n "$debian_dir" ]; then
  say "debian/ from $debian_dir, not the commit's"
  rm -rf "$tmp/src/debian"
  cp -a "$debian_dir" "$tmp/src/debian"
fi
[ -f "$tmp/src/debian/control" ] || die "HEAD has no debian/ (commit it, or name one with --debian DIR)"

need_tools=()
for t in dpkg-buildpackage:dpkg-dev dh:debhelper lintian:lintian debootstrap:debootstrap unshare:util-linux; do
  command -v "${t%%:*}" >/dev/null || need_tools+=("${t#*:}")
done
if [ ${#need_tools[@]} -gt 0 ] || ! (cd "$tmp/src" && dpkg-checkbuilddeps >/dev/null 2>&1); then
  [ -n "$install_deps" ] || die "missing: ${need_tools[*]} $(cd "$tmp/src" && dpkg-checkbuilddeps 2>&1 | sed 's/.*: //') (--install-deps installs them)"
  say "installing ${need_tools[*]:-nothing else} and the Build-Depends (apt-get)"
  if ! { apt-get update -q \
         && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need_tools[@]}" \
         && (cd "$tmp/src" && DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -q ./); } \
       >"$results/apt.log" 2>&1; then
    tail -n 20 "$results/apt.log" >&2
    die "apt-get failed"
  fi
fi

# --- the package -------------------------------------------------------------

t0=$(date +%s)
if [ -n "$nocheck" ]; then
  export DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:+$DEB_BUILD_OPTIONS }nocheck"
fi
say "dpkg-buildpackage -us -uc -b${DEB_BUILD_OPTIONS:+ (DEB_BUILD_OPTIONS=$DEB_BUILD_OPTIONS)}"
if ! job "$results/build.log" env -C "$tmp/src" dpkg-buildpackage -us -uc -b; then
  # make check's failures with their diagnostics, then the end of the log.
  awk '/^not ok/ { p = 1; print; next } p && /^#/ { print; next } { p = 0 }' "$results/build.log" \
    | head -n 200 >&2
  tail -n 30 "$results/build.log" >&2
  die "dpkg-buildpackage failed (log: $results/build.log)"
fi
t_build=$(( $(date +%s) - t0 ))
strays=$(kill_strays)
[ -z "$strays" ] || say "warning: the build left processes of its tree running, now killed: $strays"
grep -E '^# (TOTAL|PASS|SKIP|FAIL|ERROR|XPASS|XFAIL):' "$results/build.log" | sed 's/^/make check: /' >&2 || true
deb=$(ls "$tmp"/cordon_*.deb)
changes=$(ls "$tmp"/cordon_*.changes)
version=$(dpkg-deb -f "$deb" Version)
say "built ${deb##*/} in $t_build s"

t0=$(date +%s)
say "lintian ${changes##*/}"
# As nobody: lintian warns when it runs as root, and needs nothing of it.
if ! setpriv --reuid=nobody --regid=nogroup --clear-groups env HOME=/nonexistent \
       lintian --pedantic --fail-on error,warning "$changes" >"$results/lintian.log" 2>&1; then
  cat "$results/lintian.log" >&2
  die "lintian: an error or a warning (explain it in debian/cordon.lintian-overrides and debian/README.source, or fix it)"
fi
sed 's/^/lintian: /' "$results/lintian.log" >&2
t_lintian=$(( $(date +%s) - t0 ))

# --- a clean Debian 12 -------------------------------------------------------

t0=$(date +%s)
root=$tmp/root
say "debootstrap --variant=minbase $suite from $mirror"
job "$results/debootstrap.log" unshare --mount --propagation private \
  debootstrap --variant=minbase "$suite" "$root" "$mirror" \
  || { tail -n 30 "$results/debootstrap.log" >&2; die "debootstrap failed"; }
t_debootstrap=$(( $(date +%s) - t0 ))
cat >"$root/etc/apt/sources.list" <<EOF
deb $mirror $suite main
deb $mirror $suite-updates main
deb $security_mirror $suite-security main
EOF
cp /etc/resolv.conf "$root/etc/resolv.conf"
mkdir "$root/root/deb-install"
cp "$deb" "$tmp/src/tests/tap.sh" "$root/root/deb-install/"

# What runs in the new system, as its root: installs the package and
# tries it, as root and as the ordinary user "dev" (POSIX sh, TAP).
cat >"$root/root/deb-install/inside.sh" <<'EOF'
# shellcheck disable=SC1091,SC2154 # tap.sh, copied beside it, sets tap_failed
set -u
cd /root/deb-install || exit 1
. ./tap.sh
deb=$(ls cordon_*.deb)
version=$1
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 PATH=/usr/sbin:/usr/bin:/sbin:/bin

bail () { echo "Bail out! $1"; [ -f log ] && tail -n 20 log | sed 's/^/# /'; exit 1; }

# as USER CMD...: CMD as USER (root or dev), from that user's workdir
# (the trial policy refuses "/" and the home, its tmpfs, as workdirs).
as ()
{
  a_user=$1
  shift
  if [ "$a_user" = root ]; then
    (cd /root/work && env -i PATH="$PATH" HOME=/root USER=root LC_ALL=C.UTF-8 "$@")
  else
    (cd /home/dev/project && setpriv --reuid=dev --regid=dev --init-groups \
       env -i PATH="$PATH" HOME=/home/dev USER=dev LC_ALL=C.UTF-8 "$@")
  fi
}

# expect USER STATUS DESC CMD...: CMD as USER exits with STATUS.
expect ()
{
  e_user=$1 e_status=$2 e_desc=$3
  shift 3
  as "$e_user" "$@" >out 2>err
  e_got=$?
  if [ "$e_got" = "$e_status" ]; then
    ok "[$e_user] $e_desc"
  else
    not_ok "[$e_user] $e_desc (exit $e_got, not $e_status)"
    diag "stdout: $(cat out)" "stderr: $(cat err)"
  fi
}

plan 17

apt-get update -q >log 2>&1 || bail "apt-get update failed"
if dpkg -i "$deb" >log 2>&1; then
  not_ok "dpkg -i alone leaves cordon unconfigured: bubblewrap and the libraries are not in minbase"
else
  ok "dpkg -i alone leaves cordon unconfigured: bubblewrap and the libraries are not in minbase"
fi
apt-get install -f -y -q >log 2>&1 || bail "apt-get install -f failed"
is "$(dpkg-query -W -f '${Status} ${Version}' cordon)" "install ok installed $version" \
  "apt-get install -f installs its dependencies and configures cordon"
is "$(command -v cordon)" /usr/bin/cordon "cordon is /usr/bin/cordon"

mkdir -p /root/work
useradd --create-home --shell /bin/sh dev
mkdir /home/dev/project && chown dev:dev /home/dev/project
for u in root dev; do
  as "$u" cordon --version >out 2>err
  is "$(cat out)" "cordon ${version%-*}" "[$u] cordon --version names the package's version"
  expect "$u" 0 "cordon check trial" cordon check trial
  expect "$u" 0 "cordon run -- true" cordon run -- true
  expect "$u" 7 "cordon run exits with the command's own status" cordon run -- sh -c 'exit 7'
  # A write outside the workdir, where the user could write on this
  # system (root: /usr/local, read-only in the sandbox; dev: the home,
  # a scratch tmpfs there), does not land, though the command ran; one
  # in the workdir does.
  case $u in root) bait=/usr/local/cordon-bait ;; *) bait=/home/dev/cordon-bait ;; esac
  as "$u" cordon run -- sh -c "echo bait >$bait; echo ran" >out 2>err
  if [ "$(cat out)" = ran ] && [ ! -e "$bait" ]; then
    ok "[$u] the command ran, and its write to $bait did not land on the system"
  else
    not_ok "[$u] the command ran, and its write to $bait did not land on the system"
    diag "stdout: $(cat out)" "stderr: $(cat err)" "$bait: $(ls -l "$bait" 2>&1)"
    rm -f "$bait"
  fi
  expect "$u" 0 "control: a write in the workdir exits 0" cordon run -- sh -c 'echo kept >kept'
  check "[$u] control: ... and it lands in the workdir" grep -qx kept "$(as "$u" pwd)/kept"
done
[ "$tap_failed" = 0 ]
EOF

# The mount and pid namespace the new system runs in (see the top).
# shellcheck disable=SC2016 # expanded by the sh it is given to
enter='
set -e
root=$1; shift
mount --bind "$root" "$root"
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"
mount --rbind /sys "$root/sys"
mount -t tmpfs -o mode=755,nosuid,nodev tmpfs "$root/run"
mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$root/tmp"
cd "$root"
mkdir -p .host
pivot_root . .host
cd /
umount -l /.host
rmdir /.host
exec /bin/sh "$@"
'
t0=$(date +%s)
say "dpkg -i, apt-get install -f and cordon in the new system"
rc=0
job "$results/inside.tap" unshare --mount --pid --fork --kill-child --propagation private \
  /bin/sh -c "$enter" sh "$root" /root/deb-install/inside.sh "$version" || rc=$?
cat "$results/inside.tap"
t_inside=$(( $(date +%s) - t0 ))
echo "# deb-install: ${head:0:12}: build $t_build s, lintian $t_lintian s, debootstrap $t_debootstrap s, install and run $t_inside s; $(( $(date +%s) - start )) s in all"
[ "$rc" = 0 ] || die "the installed package failed (status $rc)"
