#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# [cache] use=go, measured: the second `go test` of a small module (one
# that builds net/http and encoding/json) under cordon with the go cache,
# against the same second run on the host with a cache of its own, and
# against cordon without the cache (each run cold).  Not part of make
# check: a benchmark, in one sitting, hyperfine's medians and their
# ratios.  RUNS (default 30) runs each.
#
#   sh tests/bench/cache-go.sh [CORDON]
set -eu

cordon=${1:-$(cd "$(dirname "$0")/../.." && pwd)/_build/src/cordon}
runs=${RUNS:-30}
command -v go >/dev/null || { echo "cache-go.sh: go is not installed (golang-go)" >&2; exit 77; }
command -v hyperfine >/dev/null || { echo "cache-go.sh: hyperfine is not installed" >&2; exit 77; }

tmp=$(mktemp -d /tmp/cordon-bench-cache.XXXXXX)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
mod=$tmp/mod
mkdir -p "$mod"
cat >"$mod/go.mod" <<'GO'
module example.org/benchmod

go 1.19
GO
cat >"$mod/serve.go" <<'GO'
package benchmod

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
)

func Answer() (map[string]int, error) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]int{"answer": 42})
	}))
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var out map[string]int
	return out, json.NewDecoder(resp.Body).Decode(&out)
}
GO
cat >"$mod/serve_test.go" <<'GO'
package benchmod

import "testing"

func TestAnswer(t *testing.T) {
	got, err := Answer()
	if err != nil || got["answer"] != 42 {
		t.Fatalf("got %v, %v", got, err)
	}
}
GO
printf '[policy]\ninclude=trial\n[cache]\nuse=go\n' >"$tmp/cache.policy"
# The cache of this policy file is new: the first run fills it.
"$cordon" run -p "$tmp/cache.policy" -C "$mod" -- go test ./... >/dev/null

export GOCACHE="$tmp/host-gocache" GOFLAGS=-count=1
hyperfine --style basic --runs "$runs" --warmup 2 --export-json "$tmp/h.json" \
  -n bare "cd $mod && go test ./..." \
  -n cordon-cache "$cordon run -p $tmp/cache.policy -C $mod -- env GOFLAGS=-count=1 go test ./..." \
  -n cordon-no-cache "$cordon run --no-cache -p $tmp/cache.policy -C $mod -- env GOFLAGS=-count=1 go test ./..." \
  >/dev/null
python3 - "$tmp/h.json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
bare = r["bare"]["median"]
print("%-16s %10s %8s" % ("", "median ms", "ratio"))
for name in ("bare", "cordon-cache", "cordon-no-cache"):
    m = r[name]["median"]
    print("%-16s %10.1f %8.2f" % (name, m * 1000, m / bare))
PY
