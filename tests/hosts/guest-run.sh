#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The guest's half of tests/hosts/debian12.sh (POSIX sh), run by the
# guest's cordon-guest.service from the control share the host mounts at
# /run/cordon-ctl: mounts the source and build trees read-only at the
# host's own paths, waits for the lingering user's manager, and runs each
# test of /run/cordon-ctl/tests as each user of $guest_users with the
# environment automake's harness gives a test, from the build tree. Each
# test's stdout (its TAP), stderr and exit status go to
# /run/cordon-ctl/USER/TEST.{tap,stderr,rc}; "done" is written last, and
# the unit then powers the guest off.

# shellcheck disable=SC1091,SC2154 # $ctl/env, the host's, sets guest_user(s)
set -u

ctl=/run/cordon-ctl
test_timeout=900
. "$ctl/env"

log () { echo "cordon-guest: $*"; }

awk '{ print int($1) }' /proc/uptime >"$ctl/boot-seconds"
log "up after $(cat "$ctl/boot-seconds") s"

# share TAG DIR: DIR made and the host's share mounted on it, read-only.
share ()
{
  mkdir -p "$2" && mount -t 9p -o ro,trans=virtio,version=9p2000.L,msize=262144,cache=loose "$1" "$2"
}
# The guest's own directories above the shares are opened up for the
# lingering user: a tree under the host's /root (the guest's is 0700)
# still reaches it. Then the shorter path first: one tree may hold the
# other (the usual _build).
mkdir -p "$CORDON_SRCDIR" "$CORDON_BUILDDIR"
for p in "$CORDON_SRCDIR" "$CORDON_BUILDDIR"; do
  p=${p%/*}
  while [ -n "$p" ]; do
    chmod o+x "$p"
    p=${p%/*}
  done
done
if [ "${#CORDON_SRCDIR}" -le "${#CORDON_BUILDDIR}" ]; then
  share cordon-src "$CORDON_SRCDIR" && share cordon-build "$CORDON_BUILDDIR"
else
  share cordon-build "$CORDON_BUILDDIR" && share cordon-src "$CORDON_SRCDIR"
fi || { log "cannot mount the shared trees"; exit 1; }

uid=$(id -u "$guest_user")
gid=$(id -g "$guest_user")
home=$(getent passwd "$guest_user" | cut -d: -f6)

# as USER CMD...: CMD with the environment of a test run by make check,
# from the build tree; as the lingering user, inside its user session's
# environment (its runtime dir and user bus), with its groups.
as ()
{
  u=$1
  shift
  set -- PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 SHELL=/bin/sh \
    CORDON="$CORDON_BUILDDIR/src/cordon" CORDON_SRCDIR="$CORDON_SRCDIR" CORDON_BUILDDIR="$CORDON_BUILDDIR" \
    G_DEBUG=fatal-warnings G_SLICE=always-malloc CMOCKA_MESSAGE_OUTPUT=TAP "$@"
  if [ "$u" = root ]; then
    set -- env -i HOME=/root USER=root LOGNAME=root "$@"
  else
    set -- setpriv --reuid="$uid" --regid="$gid" --init-groups \
      env -i HOME="$home" USER="$u" LOGNAME="$u" \
      XDG_RUNTIME_DIR="/run/user/$uid" DBUS_SESSION_BUS_ADDRESS="unix:path=/run/user/$uid/bus" "$@"
  fi
  (cd "$CORDON_BUILDDIR" && exec "$@")
}

# The user's manager is started by linger at boot; a test may need it
# ready (systemd-run --user), not just started.
case " $guest_users " in
  *" $guest_user "*)
    tries=240
    until systemctl is-active --quiet "user@$uid.service" && [ -S "/run/user/$uid/bus" ]; do
      tries=$((tries - 1))
      [ "$tries" -gt 0 ] || { log "user@$uid.service did not start"; break; }
      sleep 0.5
    done
    as "$guest_user" timeout 120 systemctl --user is-system-running --wait >/dev/null
    log "user@$uid.service is $(systemctl is-active "user@$uid.service"), its manager $(as "$guest_user" systemctl --user is-system-running)"
    ;;
esac

for u in $guest_users; do
  while IFS= read -r t; do
    [ -n "$t" ] || continue
    out=$ctl/$u/$t
    mkdir -p "${out%/*}"
    log "[$u] $t"
    start=$(date +%s)
    as "$u" timeout -k 10 "$test_timeout" /bin/sh "$CORDON_SRCDIR/$t" </dev/null >"$out.tap" 2>"$out.stderr"
    echo $? >"$out.rc"
    log "[$u] $t: exit $(cat "$out.rc") after $(( $(date +%s) - start )) s"
  done <"$ctl/tests"
done

journalctl -b --no-pager -o short-monotonic >"$ctl/journal.txt" 2>&1
date +%s >"$ctl/done"
sync
