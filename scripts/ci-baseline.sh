#!/usr/bin/env bash
# Which baseline the gate runs against: the real Elasticsearch 8.13.4 when a server answers at
# --url (the workflow's service container; GitHub-hosted runners have Docker), else OpenSearch
# 2.19.1, which the harness builds from Maven Central and starts itself (no flag needed).
# Prints the bench flags, writes them as `flags=...` to --github-output and a line naming the
# baseline to --summary when given. Usage:
#   npm run ci:baseline -- [--url http://127.0.0.1:9200] [--github-output FILE] [--summary FILE]
set -euo pipefail
url="http://127.0.0.1:9200"
output=""
summary=""
while [ $# -gt 0 ]; do
  case "$1" in
    --url) url="${2:?--url needs a value, e.g. --url http://127.0.0.1:9200}"; shift 2 ;;
    --github-output) output="${2:?--github-output needs a file}"; shift 2 ;;
    --summary) summary="${2:?--summary needs a file}"; shift 2 ;;
    *) echo "ci:baseline: unknown flag $1; flags are --url, --github-output, --summary" >&2; exit 2 ;;
  esac
done

wanted="8.13.4"
root="$(curl -fsS --max-time 5 --retry 3 --retry-connrefused --retry-delay 2 "$url/" 2>/dev/null || true)"
# The root document names the distribution (OpenSearch says so) and the version number.
found="$(printf '%s' "$root" | node -e '
  let t = ""; process.stdin.on("data", (c) => (t += c)).on("end", () => {
    try { const j = JSON.parse(t); process.stdout.write(`${j.version?.distribution ?? "elasticsearch"} ${j.version?.number ?? ""}`); }
    catch { process.stdout.write(""); }
  });')"

if [ "$found" = "elasticsearch $wanted" ]; then
  flags="--baseline-url $url"
  line="Baseline: **Elasticsearch $wanted** (the real server, service container at $url)."
else
  flags=""
  why="nothing answered at $url"
  [ -n "$found" ] && why="$url answered as '$found', not elasticsearch $wanted"
  line="Baseline: **OpenSearch 2.19.1**, the real server built from Maven Central artifacts ($why)."
fi
echo "$line"
echo "bench flags: ${flags:-(none)}"
[ -z "$output" ] || echo "flags=$flags" >> "$output"
[ -z "$summary" ] || printf '%s\n\n' "$line" >> "$summary"
