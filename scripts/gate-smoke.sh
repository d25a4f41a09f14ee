#!/usr/bin/env bash
# The pull-request gate, run exactly as the workflow runs it (`npm run ci:gate`), at a small scale
# against the two real engines, so a broken gate cannot land. It checks the machinery, not the
# candidate: at this scale a row can LOSE on noise, so exit 1 (a LOSE) and 3 (coverage) are
# accepted and printed; exit 2 (the run or the gate failed) or a missing summary fails the tests.
set -uo pipefail
cd "$(dirname "$0")/.."
out="$(mktemp -d -t everycell-gate-smoke.XXXXXX)"
trap 'rm -rf "$out"' EXIT

npm run --silent ci:gate -- --out "$out/runs" --summary "$out/summary.md" --comment "$out/comment.md" \
  --docs 3000 --iterations 60 --rounds 4 --max-rounds 4 --prewarm 20 --warmup 5 --rate 200 \
  --families query.term,query.match,metric.avg,bucket.terms
code=$?

fail() { echo "gate smoke: $*" >&2; exit 1; }
case "$code" in
  0 | 1 | 3) ;;
  *) fail "npm run ci:gate exited with $code (2 = the run or the gate failed); see the output above" ;;
esac
[ -s "$out/summary.md" ] || fail "the gate wrote no job summary ($out/summary.md)"
[ -s "$out/comment.md" ] || fail "the gate wrote no pull-request comment ($out/comment.md)"
grep -q "everycell gate" "$out/summary.md" || fail "the job summary has no gate headline"
ls "$out"/runs/*/scorecard.json > /dev/null 2>&1 || fail "no scorecard.json in $out/runs"
echo "gate smoke: ci:gate exited $code against the real engines; summary and comment written"
