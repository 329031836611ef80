# SPDX-License-Identifier: LGPL-2.1-or-later
# tap.sh: a minimal TAP producer for cordon's shell tests (POSIX sh).
# Source it:  . "$CORDON_SRCDIR/tests/tap.sh"
#
#   plan N                 print the plan "1..N" (first, or last if unknown)
#   ok DESC / not_ok DESC  report a passing / failing test
#   check DESC CMD [ARG..] run CMD; pass if it exits 0
#   is GOT EXPECTED DESC   pass if the two strings are equal, else show both
#   skip DESC REASON       report a skipped test
#   skip_all REASON        plan no tests, say why, exit 0
#   diag MSG...            a comment line, on stdout where the driver keeps it
#
# The counter is a shell variable: call these from the test's own shell,
# not from a subshell or the right-hand side of a pipeline.

tap_count=0
tap_failed=0

plan ()
{
  echo "1..$1"
}

diag ()
{
  printf '%s\n' "$@" | sed 's/^/# /'
}

ok ()
{
  tap_count=$((tap_count + 1))
  echo "ok $tap_count - $1"
}

not_ok ()
{
  tap_count=$((tap_count + 1))
  tap_failed=$((tap_failed + 1))
  echo "not ok $tap_count - $1"
}

check ()
{
  tap_desc=$1
  shift
  if "$@"; then ok "$tap_desc"; else not_ok "$tap_desc"; fi
}

is ()
{
  if [ "$1" = "$2" ]; then
    ok "$3"
  else
    not_ok "$3"
    diag "got:      '$1'" "expected: '$2'"
  fi
}

skip ()
{
  tap_count=$((tap_count + 1))
  echo "ok $tap_count - $1 # SKIP $2"
}

skip_all ()
{
  echo "1..0 # SKIP $1"
  exit 0
}
