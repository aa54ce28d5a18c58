#!/usr/bin/env bash
# The cost of the sandbox's checks on file-heavy work: the same tool
# (benches/fixtures/permissions/file-heavy.ts: 42 file operations a round)
# without a sandbox and with `--sandbox --allow-read=DIR --allow-write=DIR`,
# then the same sandbox with a deny list (each check then asks the audit's
# mirror of the grants what settled it, src/permissions/audit.rs) and with
# every decision audited to a file (`--audit=all --audit-file`), RUNS fresh
# processes each, alternating; prints the medians of the tool's own timing
# and the ratios to the open run.
#
#   benches/sandbox-overhead.sh        (after cargo build --release)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${RUNS:-7}"
rounds="${ROUNDS:-500}"
pihost=target/release/pihost
[ -x "$pihost" ] || { echo "build first: cargo build --release" >&2; exit 2; }
dir="$(mktemp -d)"
audit_file="$(mktemp)"
trap 'rm -rf "$dir" "$audit_file"' EXIT
args="{\"dir\":\"$dir\",\"rounds\":$rounds}"
tool() {
  "$pihost" tool file_heavy -e "$PWD/benches/fixtures/permissions/file-heavy.ts" --cwd "$dir" --args "$args" "$@" 2>/dev/null \
    | sed -nE 's/.*"text": *"([0-9.]+)".*/\1/p' | head -1
}
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
grants=(--sandbox --allow-read="$dir" --allow-write="$dir")
open=(); sandboxed=(); denying=(); audited=()
for _ in $(seq "$runs"); do
  open+=("$(tool)")
  sandboxed+=("$(tool "${grants[@]}")")
  denying+=("$(tool "${grants[@]}" --deny-read="$dir/never")")
  audited+=("$(tool "${grants[@]}" --audit=all --audit-file="$audit_file")")
  : > "$audit_file"
done
o=$(printf '%s\n' "${open[@]}" | median)
ops=$((rounds * 42))
printf '%-36s %10s %14s\n' "$ops file operations" "median" "per operation"
for row in "open:${open[*]}" "sandboxed:${sandboxed[*]}" "sandboxed, a deny list:${denying[*]}" "sandboxed, --audit=all to a file:${audited[*]}"; do
  name="${row%%:*}"
  m=$(printf '%s\n' ${row#*:} | median)
  awk "BEGIN { printf \"%-36s %7.1f ms %8.2f us (%.2fx)\n\", \"$name\", $m, $m * 1000 / $ops, $m / $o }"
done
