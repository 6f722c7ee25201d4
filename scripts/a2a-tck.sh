#!/usr/bin/env bash
# The official A2A TCK (github.com/a2aproject/a2a-tck) against Corvid: branch 0.3.x (A2A v0.3)
# and 1.0-dev (A2A v1.0), each category run with Debian's python3 (`/usr/bin/python3 -m pytest`)
# against scripts/a2a-tck-sut.mjs, the outcomes compared with test/a2a/fixtures/tck/baseline.yml.
# Fails on an unexpected failure, and on a baseline entry that now passes.
# Usage: bash scripts/a2a-tck.sh [0.3.x|1.0-dev|all]   (after npm run build; about 2 minutes, the
# branches in parallel, each against its own SUT)
# The TCK comes from a git mirror of the repository (A2A_TCK_MIRROR, default below), extracted into
# node_modules/.cache/a2a-tck/<branch>. Python packages come from Debian (apt-get, when root);
# what Debian lacks is shimmed by test/a2a/fixtures/tck/corvid_tck_plugin.py.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
fixtures="$root/test/a2a/fixtures/tck"
mirror=${A2A_TCK_MIRROR:-/work/.mirror/a2aproject+a2a-tck/repo}
cache=${CORVID_A2A_TCK_DIR:-$root/node_modules/.cache/a2a-tck}
python=/usr/bin/python3
which=${1:-all}
case "$which" in
  all) branches="0.3.x 1.0-dev" ;;
  0.3.x | 1.0-dev) branches=$which ;;
  *) echo "usage: bash scripts/a2a-tck.sh [0.3.x|1.0-dev|all]" >&2; exit 2 ;;
esac

for b in $branches; do
  if ! git -C "$mirror" rev-parse -q --verify "refs/heads/$b" >/dev/null 2>&1; then
    echo "A2A TCK: SKIPPED -- no git mirror of a2aproject/a2a-tck with branch $b at $mirror (git clone --mirror https://github.com/a2aproject/a2a-tck <dir>, then A2A_TCK_MIRROR=<dir>)"
    exit 0
  fi
done

# Debian's packages for what the branches' pyproject.toml files need (gherkin-official, Jinja2 and
# pytest-html serve the TCK's code generator and HTML reports, not its tests; googleapis-common-protos
# and protobuf >= 5 are shimmed by the plugin).
pkgs="python3-pytest python3-pytest-asyncio python3-httpx python3-requests python3-jsonschema python3-yaml python3-responses python3-deepdiff python3-packaging python3-dotenv python3-grpcio python3-protobuf python3-openssl"
if ! "$python" -c 'import pytest, pytest_asyncio, httpx, requests, jsonschema, yaml, responses, deepdiff, packaging, dotenv, grpc, google.protobuf, OpenSSL' 2>/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "A2A TCK: installing Debian packages: $pkgs"
    apt-get install -y -qq $pkgs >/dev/null || { apt-get update -qq >/dev/null && apt-get install -y -qq $pkgs >/dev/null; } || { echo "A2A TCK: apt-get install failed" >&2; exit 1; }
  else
    echo "A2A TCK: missing Python packages; install them with: apt-get install -y $pkgs" >&2
    exit 1
  fi
fi
[ -f "$root/dist/server/index.js" ] || { echo "A2A TCK: run npm run build first" >&2; exit 1; }

results=$(mktemp -d)
sut_pids=()
trap 'for p in "${sut_pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$results"' EXIT

# start_sut <name>: a SUT of its own on a free port (each branch runs against its own, in parallel:
# the SUT reads one request at a time, as the TCK sends them); prints its base URL.
start_sut() {
  local port
  port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
  SUT_PORT=$port node "$root/scripts/a2a-tck-sut.mjs" >"$results/sut-$1.log" 2>&1 &
  echo "$! http://127.0.0.1:$port"
}

# run <branch> <category> <pytest args...>: one category, outcomes to $results/<branch>--<category>.json
run() {
  local branch=$1 category=$2
  shift 2
  (cd "$cache/$branch" && CORVID_TCK_RESULT="$results/$branch--$category.json" PYTHONPATH="$fixtures:$cache/$branch" \
    "$python" -m pytest -c "$fixtures/pytest-$branch.ini" --rootdir="$cache/$branch" -p corvid_tck_plugin -p no:cacheprovider -q --tb=line "$@" >"$results/$branch--$category.log" 2>&1)
  [ -f "$results/$branch--$category.json" ] || { echo "A2A TCK: $branch $category did not run:" >&2; tail -20 "$results/$branch--$category.log" >&2; touch "$results/$branch--$category.missing"; }
}

# run_branch <branch> <base URL>: every category of the branch.
run_branch() {
  local b=$1 base=$2
  if [ "$b" = 0.3.x ]; then
    local common=(--sut-url="$base/a2a/tck" --test-scope=all)
    run "$b" mandatory-jsonrpc tests/mandatory/ -m "mandatory_jsonrpc or mandatory_protocol" --transports jsonrpc "${common[@]}"
    run "$b" mandatory-rest tests/mandatory/protocol/ -m mandatory_protocol --transports rest "${common[@]}"
    run "$b" capabilities tests/optional/capabilities/ "${common[@]}"
    run "$b" transport-equivalence tests/optional/multi_transport/ -m transport_equivalence "${common[@]}"
    run "$b" quality tests/optional/quality/ "${common[@]}"
    run "$b" features tests/optional/features/ "${common[@]}"
  else
    for category in agent_card core_operations jsonrpc http_json grpc; do
      run "$b" "$category" "tests/compatibility/$category" --sut-host="$base"
    done
  fi
}

jobs_=()
for b in $branches; do
  commit=$(git -C "$mirror" rev-parse "refs/heads/$b")
  if [ "$(cat "$cache/$b/.corvid-commit" 2>/dev/null)" != "$commit" ]; then
    rm -rf "${cache:?}/$b" && mkdir -p "$cache/$b"
    git -C "$mirror" archive "$commit" | tar -x -C "$cache/$b" && echo "$commit" >"$cache/$b/.corvid-commit"
  fi
  read -r pid base < <(start_sut "$b")
  sut_pids+=("$pid")
  for _ in $(seq 1 100); do
    grep -q READY "$results/sut-$b.log" 2>/dev/null && break
    sleep 0.1
  done
  grep -q READY "$results/sut-$b.log" || { echo "A2A TCK: the SUT did not start:" >&2; cat "$results/sut-$b.log" >&2; exit 1; }
  echo "== A2A TCK $b (${commit:0:12}) against scripts/a2a-tck-sut.mjs at $base"
  run_branch "$b" "$base" &
  jobs_+=("$!")
done
for j in "${jobs_[@]}"; do wait "$j"; done

status=0
node "$fixtures/compare.mjs" "$fixtures/baseline.yml" "$results" || status=1
if compgen -G "$results/*.missing" >/dev/null; then echo "A2A TCK: a category did not run (see above)"; status=1; fi
exit "$status"
