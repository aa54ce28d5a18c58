#!/usr/bin/env bash
# Loads the same extensions with the reference pi (Node 22) and with pihost,
# each in a fresh process, RUNS times, and prints the medians and the ratio.
#
#   benches/side-by-side.sh [FOLDER]     (default: extensions-examples)
#   PIHOST=path/to/pihost benches/side-by-side.sh   (another build, e.g. an
#   older commit's, side by side)
#
# Needs a release build of pihost (cargo build --release) and the reference
# (scripts/install-reference).
set -euo pipefail
cd "$(dirname "$0")/.."
folder="${1:-extensions-examples}"
runs="${RUNS:-10}"
reference="${PI_REFERENCE_DIR:-$HOME/.cache/pi-reference/1.6.0}"
node="$reference/node_modules/.bin/node"
pihost="${PIHOST:-target/release/pihost}"
[ -x "$pihost" ] || { echo "build first: cargo build --release" >&2; exit 2; }
agent_dir="$(mktemp -d)"

now_ns() { date +%s%N; }
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

ref_wall=(); ref_load=(); pi_wall=(); pi_load=()
for _ in $(seq "$runs"); do
  start=$(now_ns)
  out=$("$node" benches/reference-load.mjs "$reference" "$PWD" "$agent_dir" "$folder" 2>/dev/null)
  end=$(now_ns)
  ref_wall+=("$(( (end - start) / 1000 ))")
  import_ms=$(echo "$out" | sed -E 's/.*"loaderImportMs":([0-9.]+).*/\1/')
  load_ms=$(echo "$out" | sed -E 's/.*"loadMs":([0-9.]+).*/\1/')
  ref_load+=("$(awk "BEGIN { print $import_ms + $load_ms }")")

  start=$(now_ns)
  out=$("$pihost" inspect --json --cwd "$PWD" --agent-dir "$agent_dir" "$folder" 2>/dev/null || true)
  end=$(now_ns)
  pi_wall+=("$(( (end - start) / 1000 ))")
  pi_load+=("$(echo "$out" | sed -nE 's/^  "totalLoadMs": ([0-9.]+).*/\1/p')")
done

rw=$(printf '%s\n' "${ref_wall[@]}" | median); rl=$(printf '%s\n' "${ref_load[@]}" | median)
pw=$(printf '%s\n' "${pi_wall[@]}" | median); pl=$(printf '%s\n' "${pi_load[@]}" | median)
extensions=$("$pihost" inspect --json --cwd "$PWD" --agent-dir "$agent_dir" "$folder" 2>/dev/null | grep -c '"resolvedPath"' || true)
printf 'folder %s (%s extensions), median of %s fresh processes each\n' "$folder" "$extensions" "$runs"
printf '%-32s %12s %12s\n' "" "reference" "pihost"
printf '%-32s %10.1f ms %10.1f ms\n' "whole process (wall)" "$(awk "BEGIN { print $rw / 1000 }")" "$(awk "BEGIN { print $pw / 1000 }")"
printf '%-32s %10.1f ms %10.1f ms\n' "in-process: loader + load" "$rl" "$pl"
echo "(in-process: the reference's loader import plus discoverAndLoadExtensions; pihost's runtime creation, discovery and load)"
printf 'ratio reference/pihost: %.1fx wall, %.1fx load\n' "$(awk "BEGIN { print $rw / $pw }")" "$(awk "BEGIN { print $rl / $pl }")"
