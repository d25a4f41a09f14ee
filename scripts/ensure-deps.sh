#!/usr/bin/env bash
# Installs the system packages that `npm run bench` and `npm test` need and that npm cannot:
# a JDK + Maven (the OpenSearch baseline is built from Maven Central artifacts), wrk and, for the
# browser tests, Debian's chromium (Playwright's own browser download needs the open internet).
# Usage: scripts/ensure-deps.sh [bench|test]
set -euo pipefail
want=${1:-bench}
missing=()
command -v cargo >/dev/null || { echo "error: cargo not found: install Rust (https://rustup.rs) and re-run" >&2; exit 2; }
command -v java >/dev/null || missing+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null || missing+=(maven)
# wrk is the reference load generator `npm run bench:harness` compares the harness's own client with.
command -v wrk >/dev/null || missing+=(wrk)
# valgrind runs the gate's count check (each read row's instructions per request under callgrind).
command -v valgrind >/dev/null || missing+=(valgrind)
if [ "$want" = test ] && [ ! -x /usr/bin/chromium ]; then missing+=(chromium); fi
# actionlint checks the workflows in the test suite; built from the Go module proxy once.
if [ "$want" = test ] && ! command -v actionlint >/dev/null && [ ! -x "$(go env GOPATH 2>/dev/null)/bin/actionlint" ]; then
  command -v go >/dev/null || { echo "error: go not found: install Go (apt-get install -y golang) to build actionlint" >&2; exit 2; }
  echo "installing actionlint"
  go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.7
fi
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "error: missing system packages: run 'sudo apt-get install -y ${missing[*]}' and re-run" >&2
    exit 2
  fi
  echo "installing system packages: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
