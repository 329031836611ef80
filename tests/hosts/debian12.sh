#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A real systemd host for the tests this machine cannot give them: boots a
# Debian 12 guest under qemu, with systemd as PID 1, a unified cgroup v2
# hierarchy and a lingering user (cordon-ci) whose user manager runs with
# its own D-Bus bus, and runs test scripts of the repository in it with
# the host-built cordon, as root and as that user. The source and build
# trees are shared read-only over 9p at the same absolute paths, so what
# the build baked in holds; each test's TAP and exit status come back
# through a writable share and are printed as one TAP stream, each line
# named "[USER] TEST: ...". The guest image is made once and cached
# outside the tree (a new clone reuses it); it is made again only when
# its recipe (the image_* functions and variables below) changes, and
# each run writes to a throwaway overlay, never to the image.
#
#   debian12.sh image                 make the cached image (or reuse it)
#   debian12.sh run [--as USER]... [--timeout S] TEST...
#                                     boot the guest, run each TEST (a path
#                                     relative to the source tree) once per
#                                     USER (root, cordon-ci; default both)
#
# Environment: CORDON_SRCDIR (default: this repository), CORDON_BUILDDIR
# (default: $CORDON_SRCDIR/_build), CORDON_GUEST_CACHE (default
# /var/cache/cordon/guest), CORDON_GUEST_RESULTS (default
# $CORDON_BUILDDIR/tests/hosts/results), CORDON_GUEST_TIMEOUT (boot and
# run, default 1200 s), CORDON_GUEST_ACCEL (default tcg,thread=multi: KVM
# is not usable where this was written), CORDON_GUEST_MIRROR,
# CORDON_GUEST_APPEND (more kernel arguments: systemd.unified_cgroup_
# hierarchy=0 boots it hybrid, which smoke.test must then fail).
# Exit status: 0 all passed, 1 a failure or an error, 77 (automake's skip)
# only when qemu-system-x86_64 or /dev/kvm is absent.
set -euo pipefail

prog=${0##*/}
here=$(cd "$(dirname "$0")" && pwd)
self=$here/$prog

cache=${CORDON_GUEST_CACHE:-/var/cache/cordon/guest}
mirror=${CORDON_GUEST_MIRROR:-http://deb.debian.org/debian}
accel=${CORDON_GUEST_ACCEL:-tcg,thread=multi}
guest_timeout=${CORDON_GUEST_TIMEOUT:-1200}

say () { printf '%s: %s\n' "$prog" "$*" >&2; }
die () { say "error: $*"; exit 1; }

# --- cleanup -----------------------------------------------------------------
# Everything this run makes outside the cache's final directory and the
# results: temporary directories (a half-built image among them) and the
# processes it started. The image is built in a session of its own
# (build_pid, its process group), so that all of debootstrap's and the
# chroot's processes are ended with it; qemu runs under timeout, which
# passes the signal on. A mount left below a temporary directory (a
# chroot's /proc) is taken off, deepest first, before rm, which stays on
# the directory's own file system.

cleanup_dirs=()
qemu_pid=
build_pid=

cleanup ()
{
  local d m tries
  if [ -n "$qemu_pid" ]; then
    kill -TERM "$qemu_pid" 2>/dev/null || true
    wait "$qemu_pid" 2>/dev/null || true
  fi
  if [ -n "$build_pid" ]; then
    kill -TERM -- "-$build_pid" 2>/dev/null || true
    tries=50
    while pgrep -g "$build_pid" >/dev/null && [ "$tries" -gt 0 ]; do
      sleep 0.2
      tries=$((tries - 1))
    done
    kill -KILL -- "-$build_pid" 2>/dev/null || true
    wait "$build_pid" 2>/dev/null || true
  fi
  for d in "${cleanup_dirs[@]}"; do
    [ -d "$d" ] || continue
    for m in $(awk -v t="$d/" 'index($5, t) == 1 { print length($5), $5 }' /proc/self/mountinfo \
               | sort -rn | cut -d' ' -f2); do
      umount -l "$m" 2>/dev/null || true
    done
    rm -rf --one-file-system "$d"
  done
}
trap cleanup EXIT
trap 'exit 130' HUP INT
trap 'exit 143' TERM

# --- the image's recipe ----------------------------------------------------------
# Everything that decides what the image holds is in the image_* variables
# and functions: their text is hashed (image_recipe_hash) and the image is
# kept under that hash. Change one and the next run makes a new image.

image_suite=bookworm
image_user=cordon-ci
# The runtime libraries are those the host-built cordon links against.
image_packages=(
  systemd systemd-sysv dbus dbus-user-session libpam-systemd udev kmod
  linux-image-amd64 initramfs-tools
  bubblewrap python3 procps util-linux make
  libglib2.0-0 libjson-glib-1.0-0 libseccomp2 libcap2
)
# The initramfs needs only what finds and mounts the root (virtio disk,
# ext4); 9p is for the shares, mounted later from the image's own modules,
# but listed so a share never waits on a module load.
image_initrd_modules=(virtio_pci virtio_blk ext4 9p 9pnet_virtio)
# Free space on the root for the tests' temporary files (the guest's /tmp).
image_free_mib=2048
# Units a test run has no use for, masked so the boot is shorter and the
# console shows only what matters (no getty: nobody logs in; no
# first-boot prompt: the machine-id is set in the image).
image_masked_units=(
  getty@.service serial-getty@.service console-getty.service
  systemd-firstboot.service apt-daily.timer apt-daily-upgrade.timer
  e2scrub_all.timer e2scrub_reap.service fstrim.timer man-db.timer
  systemd-timesyncd.service
)

# image_debootstrap ROOT: the base system.
image_debootstrap ()
{
  local IFS=,
  debootstrap --variant=minbase --include="${image_packages[*]}" \
    "$image_suite" "$1" "$mirror"
}

# image_configure ROOT: what makes it the host the tests need.
image_configure ()
{
  local root=$1 u

  echo cordon-guest >"$root/etc/hostname"
  printf '127.0.0.1\tlocalhost\n127.0.1.1\tcordon-guest\n' >"$root/etc/hosts"
  printf '/dev/vda\t/\text4\trw,errors=remount-ro\t0\t0\n' >"$root/etc/fstab"
  # A fixed machine-id: each run's boot is then no first boot.
  printf '%s\n' 5f1c0c2a9b6e4d0f8a3b7c6d2e1f0a9b >"$root/etc/machine-id"
  ln -sf /lib/systemd/system/multi-user.target "$root/etc/systemd/system/default.target"
  for u in "${image_masked_units[@]}"; do
    ln -sf /dev/null "$root/etc/systemd/system/$u"
  done

  # The lingering user: its user@UID.service starts at boot, with its
  # D-Bus user bus (dbus-user-session) at /run/user/UID/bus.
  chroot "$root" useradd --create-home --shell /bin/sh "$image_user"
  mkdir -p "$root/var/lib/systemd/linger"
  : >"$root/var/lib/systemd/linger/$image_user"

  # systemd's default OOMPolicy=stop stops a whole unit once the kernel
  # kills one of its processes for memory; since the kernel counts an OOM
  # kill in every ancestor's memory.events, one test's deliberate OOM kill
  # could stop user@UID.service itself, and the tests after it with it.
  # cordon sets OOMPolicy=continue on its own units; here the managers'
  # default does the same for everything else.
  mkdir -p "$root/etc/systemd/system.conf.d" "$root/etc/systemd/user.conf.d"
  printf '[Manager]\nDefaultOOMPolicy=continue\n' >"$root/etc/systemd/system.conf.d/cordon-oom.conf"
  printf '[Manager]\nDefaultOOMPolicy=continue\n' >"$root/etc/systemd/user.conf.d/cordon-oom.conf"

  # The test unit: mounts the run's control share and runs the script
  # the host put there (tests/hosts/guest-run.sh), then powers off, on
  # success or failure, for the host's qemu to return.
  mkdir -p "$root/usr/local/libexec"
  cat >"$root/usr/local/libexec/cordon-guest-boot" <<'EOF'
#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Mounts the host's control share and runs its guest-run.sh.
set -eu
mkdir -p /run/cordon-ctl
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 cordon-ctl /run/cordon-ctl
exec /bin/sh /run/cordon-ctl/guest-run.sh
EOF
  chmod 755 "$root/usr/local/libexec/cordon-guest-boot"
  cat >"$root/etc/systemd/system/cordon-guest.service" <<'EOF'
[Unit]
Description=cordon: the host's tests
After=multi-user.target
SuccessAction=poweroff-force
FailureAction=poweroff-force

[Service]
Type=oneshot
ExecStart=/usr/local/libexec/cordon-guest-boot
StandardOutput=journal+console
StandardError=journal+console
TimeoutStartSec=infinity

[Install]
WantedBy=multi-user.target
EOF
  mkdir -p "$root/etc/systemd/system/multi-user.target.wants"
  ln -sf ../cordon-guest.service "$root/etc/systemd/system/multi-user.target.wants/cordon-guest.service"

  # The guest's own kernel (the cloud kernel lacks 9p), with an initramfs
  # of the listed modules only: small and quick to load under emulation.
  printf 'MODULES=list\nCOMPRESS=gzip\n' >"$root/etc/initramfs-tools/conf.d/cordon.conf"
  printf '%s\n' "${image_initrd_modules[@]}" >"$root/etc/initramfs-tools/modules"
  chroot "$root" update-initramfs -u -k all

  # Nothing of apt's downloads in the image.
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
}

# image_disk ROOT FILE: an ext4 file system of ROOT's tree, made without a
# loop device or a mount (mke2fs -d keeps owners, modes and links).
image_disk ()
{
  local used
  used=$(du -sm --apparent-size "$1" | cut -f1)
  truncate -s "$((used + used / 4 + image_free_mib))M" "$2"
  mkfs.ext4 -q -F -L cordon-root -d "$1" "$2"
}

image_recipe_hash ()
{
  {
    declare -p image_suite image_user image_packages image_initrd_modules \
      image_free_mib image_masked_units
    declare -f image_debootstrap image_configure image_disk
  } | sha256sum | cut -c1-16
}

# --- making the image ------------------------------------------------------------

# image_dir: the cache directory of the current recipe's image.
image_dir ()
{
  echo "$cache/debian12-$(image_recipe_hash)"
}

# build_image TMPD: the image made in TMPD/image from a tree in
# TMPD/root (removed once on the disk), each step's log in TMPD.
build_image ()
{
  local tmpd=$1
  image_debootstrap "$tmpd/root" >"$tmpd/debootstrap.log" 2>&1 \
    || { tail -n 30 "$tmpd/debootstrap.log" >&2; die "debootstrap failed"; }
  image_configure "$tmpd/root" >"$tmpd/configure.log" 2>&1 \
    || { tail -n 30 "$tmpd/configure.log" >&2; die "configuring the image failed"; }
  mkdir "$tmpd/image"
  # The kernel and initramfs are booted directly (no boot loader).
  cp "$(ls -1 "$tmpd"/root/boot/vmlinuz-* | sort -V | tail -n 1)" "$tmpd/image/vmlinuz"
  cp "$(ls -1 "$tmpd"/root/boot/initrd.img-* | sort -V | tail -n 1)" "$tmpd/image/initrd.img"
  image_disk "$tmpd/root" "$tmpd/image/root.img"
  rm -rf --one-file-system "$tmpd/root"
  chmod a-w "$tmpd/image/root.img"
}

# cmd_image: make the image unless the current recipe's is there. It is
# made under a temporary name and renamed whole when complete, so a build
# that was interrupted is never taken for an image; a lock keeps two runs
# from making it at once.
cmd_image ()
{
  local dir tmpd start old rc
  dir=$(image_dir)
  mkdir -p "$cache"
  exec 9>"$cache/.lock"
  flock 9
  if [ -f "$dir/recipe.sha256" ]; then
    say "image: reusing $dir"
    exec 9>&-
    return 0
  fi
  [ "$(id -u)" = 0 ] || die "making the guest image needs root (debootstrap, chroot)"
  command -v debootstrap >/dev/null || die "debootstrap is missing (apt-get install debootstrap)"
  command -v mkfs.ext4 >/dev/null || die "mkfs.ext4 is missing (apt-get install e2fsprogs)"

  start=$(date +%s)
  tmpd=$(mktemp -d "$cache/.build.XXXXXX")
  cleanup_dirs+=("$tmpd")
  say "image: making $dir (debootstrap $image_suite from $mirror)"
  setsid -w "$BASH" "$self" __build "$tmpd" </dev/null &
  build_pid=$!
  rc=0
  wait "$build_pid" || rc=$?
  build_pid=
  [ "$rc" = 0 ] || die "making the image failed (status $rc)"
  image_recipe_hash >"$tmpd/image/recipe.sha256"
  mv -T "$tmpd/image" "$dir"
  # Images of older recipes are of no more use.
  for old in "$cache"/debian12-*; do
    [ "$old" = "$dir" ] || rm -rf --one-file-system "$old"
  done
  say "image: made in $(( $(date +%s) - start )) s: $(du -sh "$dir/root.img" | cut -f1) used of $(du -sh --apparent-size "$dir/root.img" | cut -f1)"
  exec 9>&-
}

# --- running tests ---------------------------------------------------------------

# merge_tap USER TEST DIR: the TAP of TEST as USER (DIR/TEST.tap, its exit
# status in DIR/TEST.rc) appended to the combined stream (the array out),
# renumbered from $n and named "[USER] TEST: ". A script that bailed out,
# that has no plan or one its tests do not match, or that exited non-zero
# adds a failure of its own; a "not ok" counts as failed unless a TODO.
out=()
n=0
failed=0
merge_tap ()
{
  local label="[$1] $2:" tap=$3/$2.tap rcf=$3/$2.rc rc line planned='' ran=0 bailed='' rest
  if [ ! -f "$tap" ] || [ ! -f "$rcf" ]; then
    n=$((n + 1)); failed=$((failed + 1))
    out+=("not ok $n - $label did not run (no result from the guest)")
    return
  fi
  rc=$(cat "$rcf")
  while IFS= read -r line || [ -n "$line" ]; do
    if [[ $line =~ ^(not\ )?ok([[:space:]]+[0-9]+)?([[:space:]]+-)?([[:space:]].*)?$ ]]; then
      ran=$((ran + 1)); n=$((n + 1))
      rest=${BASH_REMATCH[4]}
      rest=${rest#"${rest%%[![:space:]]*}"}
      if [ -n "${BASH_REMATCH[1]}" ]; then
        out+=("not ok $n - $label${rest:+ $rest}")
        shopt -s nocasematch
        [[ $rest =~ \#[[:space:]]*TODO ]] || failed=$((failed + 1))
        shopt -u nocasematch
      else
        out+=("ok $n - $label${rest:+ $rest}")
      fi
    elif [[ $line =~ ^1\.\.([0-9]+)(.*)$ ]]; then
      planned=${BASH_REMATCH[1]}
      if [ "$planned" = 0 ]; then
        n=$((n + 1))
        rest=${BASH_REMATCH[2]}
        shopt -s nocasematch
        if [[ $rest =~ \#[[:space:]]*SKIP ]]; then
          out+=("ok $n - $label # SKIP${rest#*[Ss][Kk][Ii][Pp]}")
        else
          out+=("ok $n - $label # SKIP no tests planned")
        fi
        shopt -u nocasematch
      fi
    elif [[ $line =~ ^Bail\ out! ]]; then
      bailed=$line
    elif [[ $line =~ ^# ]]; then
      out+=("$line")
    elif [ -n "$line" ]; then
      out+=("# $line")
    fi
  done <"$tap"
  if [ -n "$bailed" ]; then
    n=$((n + 1)); failed=$((failed + 1))
    out+=("not ok $n - $label $bailed")
  elif [ -z "$planned" ]; then
    n=$((n + 1)); failed=$((failed + 1))
    out+=("not ok $n - $label no plan (ran $ran tests)")
  elif [ "$planned" != 0 ] && [ "$planned" != "$ran" ]; then
    n=$((n + 1)); failed=$((failed + 1))
    out+=("not ok $n - $label planned $planned tests, ran $ran")
  fi
  # As automake's TAP driver: a non-zero exit fails, unless bailed out.
  if [ -n "$bailed" ]; then
    :
  elif [ "$rc" = 124 ]; then
    n=$((n + 1)); failed=$((failed + 1))
    out+=("not ok $n - $label timed out in the guest")
  elif [ "$rc" != 0 ]; then
    n=$((n + 1)); failed=$((failed + 1))
    out+=("not ok $n - $label exited with status $rc")
  fi
}

# share_args TAG DIR [ro]: qemu's arguments for a 9p share of DIR.
share_args ()
{
  local ro=
  [ "${3:-}" = ro ] && ro=,readonly=on
  printf '%s\n' -virtfs "local,path=$2,mount_tag=$1,security_model=none$ro"
}

# reachable_by_others DIR [TOP]: DIR, and each directory above it up to
# TOP, searchable by others, else an error: the guest's user, another uid,
# must reach the shared trees. Only the shares' own directories matter:
# the guest opens up its own directories above them (/root among them).
reachable_by_others ()
{
  local d=$1
  while :; do
    [ "$(( 0$(stat -c %a "$d") & 1 ))" = 1 ] \
      || die "$image_user cannot reach $1: $d is not searchable by others (chmod o+x, or run --as root)"
    if [ -z "${2:-}" ] || [ "$d" = "$2" ] || [[ $d != "$2"/* ]]; then
      break
    fi
    d=${d%/*}
  done
}

cmd_run ()
{
  local users=() tests=() t u srcdir builddir results dir start rc qemu_args run_tmp
  while [ $# -gt 0 ]; do
    case $1 in
      --as) [ $# -ge 2 ] || die "--as needs a user"
            case $2 in root|"$image_user") users+=("$2") ;; *) die "--as: root or $image_user, not '$2'" ;; esac
            shift 2 ;;
      --as=*) set -- --as "${1#--as=}" "${@:2}" ;;
      --timeout) [ $# -ge 2 ] || die "--timeout needs seconds"; guest_timeout=$2; shift 2 ;;
      --) shift; tests+=("$@"); break ;;
      -*) die "unknown option '$1'" ;;
      *) tests+=("$1"); shift ;;
    esac
  done
  [ ${#users[@]} -gt 0 ] || users=(root "$image_user")
  mapfile -t users < <(printf '%s\n' "${users[@]}" | awk '!seen[$0]++')
  [ ${#tests[@]} -gt 0 ] || die "run: name at least one test script"

  # The only reasons to skip: no qemu, no /dev/kvm (this harness's
  # requirement of a virtualising host). Anything else missing fails.
  if ! command -v qemu-system-x86_64 >/dev/null; then
    echo "SKIP: qemu-system-x86_64 is not installed (apt-get install qemu-system-x86)"
    exit 77
  fi
  if [ ! -e /dev/kvm ]; then
    echo "SKIP: /dev/kvm is absent"
    exit 77
  fi

  srcdir=$(cd "${CORDON_SRCDIR:-$here/../..}" && pwd) || die "no source tree"
  builddir=$(cd "${CORDON_BUILDDIR:-$srcdir/_build}" && pwd) || die "no build tree at ${CORDON_BUILDDIR:-$srcdir/_build}"
  [ -x "$builddir/src/cordon" ] || die "no cordon at $builddir/src/cordon: build it first"
  if [[ " ${users[*]} " == *" $image_user "* ]]; then
    reachable_by_others "$srcdir"
    reachable_by_others "$builddir" "$srcdir"
    [ "$(( 0$(stat -c %a "$builddir/src/cordon") & 1 ))" = 1 ] \
      || die "$image_user cannot run $builddir/src/cordon (chmod o+rx, or run --as root)"
  fi
  for t in "${tests[@]}"; do
    case $t in /*|*..*) die "'$t': name tests by their path in the source tree" ;; esac
    [ -f "$srcdir/$t" ] || die "no test '$t' in $srcdir"
  done

  cmd_image
  dir=$(image_dir)

  results=${CORDON_GUEST_RESULTS:-$builddir/tests/hosts/results}
  case $results in
    /|"$srcdir"|"$builddir"|"$cache"*) die "CORDON_GUEST_RESULTS='$results': a directory of its own, please" ;;
  esac
  rm -rf --one-file-system "$results"
  mkdir -p "$results"
  cp "$here/guest-run.sh" "$results/guest-run.sh"
  {
    printf 'CORDON_SRCDIR=%q\nCORDON_BUILDDIR=%q\n' "$srcdir" "$builddir"
    printf 'guest_users=%q\nguest_user=%q\n' "${users[*]}" "$image_user"
  } >"$results/env"
  printf '%s\n' "${tests[@]}" >"$results/tests"

  # qemu's -snapshot overlay goes to TMPDIR: a directory of this run's.
  run_tmp=$(mktemp -d "${TMPDIR:-/tmp}/cordon-guest.XXXXXX")
  cleanup_dirs+=("$run_tmp")

  mapfile -t qemu_args < <(
    share_args cordon-ctl "$results"
    share_args cordon-src "$srcdir" ro
    share_args cordon-build "$builddir" ro
  )
  say "run: booting the guest ($accel; console: $results/console.log; timeout ${guest_timeout} s)"
  start=$(date +%s)
  TMPDIR=$run_tmp timeout -k 10 "$guest_timeout" \
    qemu-system-x86_64 -nodefaults -no-user-config -no-reboot \
      -accel "$accel" -cpu max -smp 2 -m 2048 \
      -display none -monitor none -serial "file:$results/console.log" \
      -kernel "$dir/vmlinuz" -initrd "$dir/initrd.img" \
      -append "root=/dev/vda rw console=ttyS0 loglevel=4 panic=1 fsck.mode=skip systemd.unified_cgroup_hierarchy=1${CORDON_GUEST_APPEND:+ $CORDON_GUEST_APPEND}" \
      -drive "file=$dir/root.img,format=raw,if=virtio,snapshot=on" \
      "${qemu_args[@]}" \
      </dev/null >"$results/qemu.log" 2>&1 &
  qemu_pid=$!
  rc=0
  wait "$qemu_pid" || rc=$?
  qemu_pid=
  local total=$(( $(date +%s) - start )) guest_ok=yes
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    say "run: the guest did not finish within ${guest_timeout} s"
    guest_ok=no
  elif [ "$rc" != 0 ]; then
    say "run: qemu exited with status $rc: $(head -c 2000 "$results/qemu.log")"
    guest_ok=no
  elif [ ! -f "$results/done" ]; then
    say "run: the guest stopped before it had run every test"
    guest_ok=no
  fi

  for u in "${users[@]}"; do
    for t in "${tests[@]}"; do
      merge_tap "$u" "$t" "$results/$u"
    done
  done
  if [ "$guest_ok" = no ]; then
    n=$((n + 1)); failed=$((failed + 1))
    out+=("not ok $n - the guest ran to its end (see $results/console.log)")
  fi
  echo "1..$n"
  printf '%s\n' "${out[@]}"
  echo "# debian12: guest booted to its test unit in $(cat "$results/boot-seconds" 2>/dev/null || echo '?') s (guest uptime); boot, tests and poweroff took $total s"
  echo "# debian12: results, console log and journal in $results"
  if [ "$failed" != 0 ]; then
    for u in "${users[@]}"; do
      for t in "${tests[@]}"; do
        [ -s "$results/$u/$t.stderr" ] || continue
        grep -qx 0 "$results/$u/$t.rc" 2>/dev/null && continue
        echo "----- [$u] $t: stderr (last 40 lines) -----" >&2
        tail -n 40 "$results/$u/$t.stderr" >&2
      done
    done
    echo "----- guest console: $results/console.log -----" >&2
    cat "$results/console.log" >&2 || true
    say "run: $failed failed"
    return 1
  fi
}

case ${1:-} in
  image) shift; [ $# = 0 ] || die "image takes no arguments"; cmd_image ;;
  run) shift; cmd_run "$@" ;;
  # Internal: cmd_image runs the build so, in a session of its own.
  __build) [ $# = 2 ] || die "__build TMPD"; build_image "$2" ;;
  *) echo "usage: $prog image | run [--as root|$image_user]... [--timeout SECONDS] TEST..." >&2; exit 1 ;;
esac
