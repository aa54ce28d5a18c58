#!/usr/bin/env bash
# What confining programs costs a spawn: the same tool
# (benches/fixtures/permissions/spawn-heavy.ts: `true` started ROUNDS times
# through spawnSync and ROUNDS times through pi.exec) in a sandbox that
# grants `true`, with --confine=off (programs start as they are) and with
# the default (each starts through pihost's launcher, which applies
# Landlock, src/confine.rs), RUNS fresh processes each, alternating; prints
# the medians of the tool's own timing, per spawn, and the ratio.
#
#   benches/confine-overhead.sh        (after cargo build --release)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${RUNS:-7}"
rounds="${ROUNDS:-100}"
pihost="${PIHOST:-target/release/pihost}"
[ -x "$pihost" ] || { echo "build first: cargo build --release" >&2; exit 2; }
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
tool() {
  "$pihost" tool spawn_heavy -e "$PWD/benches/fixtures/permissions/spawn-heavy.ts" --cwd "$dir" \
    --args "{\"rounds\":$rounds}" --sandbox --allow-run=true "$@" 2>/dev/null \
    | sed -nE 's/.*"text": *"([0-9.]+)".*/\1/p' | head -1
}
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
plain=(); confined=()
for _ in $(seq "$runs"); do
  plain+=("$(tool --confine=off)")
  confined+=("$(tool)")
done
p=$(printf '%s\n' "${plain[@]}" | median)
c=$(printf '%s\n' "${confined[@]}" | median)
spawns=$((rounds * 2))
printf '%-24s %12s %12s\n' "" "unconfined" "confined"
printf '%-24s %9.1f ms %9.1f ms\n' "$spawns spawns" "$p" "$c"
awk "BEGIN { printf \"per spawn: %.0f us unconfined, %.0f us confined (%.2fx)\n\", $p * 1000 / $spawns, $c * 1000 / $spawns, $c / $p }"
