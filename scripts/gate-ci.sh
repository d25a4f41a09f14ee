#!/usr/bin/env bash
# The pull-request gate, exactly as the workflow runs it (`npm run ci:gate`), against both real
# engines at the CI scale the verdicts were calibrated for (scorecards/calibration/): when the
# candidate engine's sources changed since the merge base (HEAD's parent on main itself), the
# candidate built there runs beside it and every read row is also judged against it. This step
# guards the landing: it fails on any non-zero status, 1 (a LOSE without a waiver), 2 (the run
# or the gate failed), 3 (coverage fell against main's last comparable run) or 4 (slower than the
# merge-base build: one row past the 25% fail margin, the read rows' median CPU per request, or a
# row counting 3% or more instructions per request under callgrind: the count check, after the
# bench and only with the merge-base build; scorecards/calibration/counts-*.json has its cost: the two
# builds' counts, 64.5 s of CPU each, run at once, 238-261 s of wall time on the shared 2-core box at
# load 9-11, plus two runner builds that compile the engine crate, about 150 s each; `npm run ci:gate -- --no-counts` skips it), and
# 5: Elasticsearch's own REST API tests, the candidate failing one it passed at the merge base or in
# the committed results (restsuite/results.json; waivers in restsuite/waivers.json).
set -uo pipefail
cd "$(dirname "$0")/.."
out="${GATE_OUT:-.runs/ci-gate}"
rm -rf "$out"
mkdir -p "$out"

npm run --silent ci:gate -- --out "$out/runs" --summary "$out/summary.md" --comment "$out/comment.md"
code=$?

# Elasticsearch's REST API tests on this build's candidate, held to main's and the committed results.
npm run --silent conformance -w packages/harness -- --candidate-only --against merge-base \
  --summary "$out/rest-suite.md" --report "$out/rest-suite-report.json"
rest=$?

fail() { echo "gate: $*" >&2; exit 1; }
[ -s "$out/summary.md" ] || fail "the gate wrote no job summary ($out/summary.md); exit $code"
[ -s "$out/comment.md" ] || fail "the gate wrote no pull-request comment ($out/comment.md); exit $code"
[ -s "$out/rest-suite.md" ] && cat "$out/rest-suite.md" >> "$out/summary.md"
sed -n '1,3p' "$out/summary.md"
if [ "$code" -ne 0 ]; then
  echo "gate: npm run ci:gate exited $code; the summary is $out/summary.md, the run in $out/runs" >&2
  exit "$code"
fi
if [ "$rest" -ne 0 ]; then
  echo "gate: Elasticsearch's REST API tests exited $rest (5: a test lost against main or the committed results); report $out/rest-suite-report.json" >&2
  exit "$rest"
fi
echo "gate: passed against both real engines; summary $out/summary.md"
