#!/usr/bin/env bash
# Warm loads: the same folder loaded ROUNDS times in one process, by the
# reference pi (Node 22; jiti's module cache makes a second
# discoverAndLoadExtensions reuse the modules) and by pihost, both with
# cached factories (the same) and uncached (every module evaluated anew, as
# pi's /reload). Prints the first load, the warm medians, and the ratios.
#
#   benches/warm-side-by-side.sh [FOLDER]     (default: extensions-examples)
set -euo pipefail
cd "$(dirname "$0")/.."
folder="${1:-extensions-examples}"
rounds="${ROUNDS:-10}"
reference="${PI_REFERENCE_DIR:-$HOME/.cache/pi-reference/1.6.0}"
node="$reference/node_modules/.bin/node"
agent_dir="$(mktemp -d)"
cargo build --release --example reload_cost -q

median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

ref=$(REPEAT="$rounds" "$node" benches/reference-load.mjs "$reference" "$PWD" "$agent_dir" "$folder" 2>/dev/null)
ref_cold=$(echo "$ref" | sed -E 's/.*"loadMs":([0-9.]+).*/\1/')
ref_warm=$(echo "$ref" | sed -E 's/.*"warmLoadsMs":\[([^]]*)\].*/\1/' | tr ',' '\n' | median)
ours=$(target/release/examples/reload_cost "$folder" "$rounds")
our_cold=$(echo "$ours" | sed -E 's/.*"loadsMs":\[([0-9.]+).*/\1/')
our_warm=$(echo "$ours" | sed -E 's/.*"loadsMs":\[[0-9.]+,?([^]]*)\].*/\1/' | tr ',' '\n' | median)
cached=$(CACHED=1 target/release/examples/reload_cost "$folder" "$rounds")
our_cached=$(echo "$cached" | sed -E 's/.*"loadsMs":\[[0-9.]+,?([^]]*)\].*/\1/' | tr ',' '\n' | median)
printf 'folder %s, %s loads in one process each\n' "$folder" "$rounds"
printf '%-28s %12s %12s %8s\n' "" "reference" "pihost" "ratio"
printf '%-28s %10.1f ms %10.1f ms %7.1fx\n' "first load in the process" "$ref_cold" "$our_cold" "$(awk "BEGIN { print $ref_cold / $our_cold }")"
printf '%-28s %10.1f ms %10.1f ms %7.1fx\n' "warm load, cached (median)" "$ref_warm" "$our_cached" "$(awk "BEGIN { print $ref_warm / $our_cached }")"
printf '%-28s %12s %10.1f ms\n' "pihost warm, uncached" "" "$our_warm"
