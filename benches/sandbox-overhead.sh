#!/usr/bin/env bash
# The cost of the sandbox's checks on file-heavy work: the same tool
# (benches/fixtures/permissions/file-heavy.ts: 42 file operations a round)
# without a sandbox and with `--sandbox --allow-read=DIR --allow-write=DIR`,
# RUNS fresh processes each, alternating; prints the medians of the tool's
# own timing and the ratio.
#
#   benches/sandbox-overhead.sh        (after cargo build --release)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${RUNS:-7}"
rounds="${ROUNDS:-500}"
pihost=target/release/pihost
[ -x "$pihost" ] || { echo "build first: cargo build --release" >&2; exit 2; }
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
args="{\"dir\":\"$dir\",\"rounds\":$rounds}"
tool() {
  "$pihost" tool file_heavy -e "$PWD/benches/fixtures/permissions/file-heavy.ts" --cwd "$dir" --args "$args" "$@" 2>/dev/null \
    | sed -nE 's/.*"text": *"([0-9.]+)".*/\1/p' | head -1
}
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
open=(); sandboxed=()
for _ in $(seq "$runs"); do
  open+=("$(tool)")
  sandboxed+=("$(tool --sandbox --allow-read="$dir" --allow-write="$dir")")
done
o=$(printf '%s\n' "${open[@]}" | median)
s=$(printf '%s\n' "${sandboxed[@]}" | median)
ops=$((rounds * 42))
printf '%-28s %10s %10s\n' "" "open" "sandboxed"
printf '%-28s %7.1f ms %7.1f ms\n' "$ops file operations" "$o" "$s"
awk "BEGIN { printf \"per operation: %.2f us open, %.2f us sandboxed (%.2fx)\n\", $o * 1000 / $ops, $s * 1000 / $ops, $s / $o }"
