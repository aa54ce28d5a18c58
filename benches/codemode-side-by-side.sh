#!/usr/bin/env bash
# Codemode scripts side by side: pi 1.6.0 runs each script in QuickJS
# compiled to WebAssembly, in a worker thread; pihost in a sandbox runtime
# of its own on a thread of its own (src/ops/codemode_sandbox.rs). The same
# cases (benches/codemode/cases.mjs), median milliseconds per tool call, and
# the ratio. Needs a release build (cargo build --release) and the reference.
#
#   benches/codemode-side-by-side.sh
set -euo pipefail
cd "$(dirname "$0")/.."
reference="${PI_REFERENCE_DIR:-$HOME/.cache/pi-reference/1.6.0}"
pihost="${PIHOST:-target/release/pihost}"
[ -x "$pihost" ] || { echo "build first: cargo build --release" >&2; exit 2; }
ref=$("$reference/node_modules/.bin/node" benches/codemode/reference.mjs "$reference")
ours=$("$pihost" tool codemode_bench --cpu-limit-ms 0 --timeout-ms 600000 -e benches/codemode/extension.ts |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["result"]["content"][0]["text"])')
python3 - "$ref" "$ours" <<'PY'
import json, sys
ref, ours = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print(f"{'case':42} {'pi 1.6.0':>10} {'pihost':>10} {'pihost/pi':>10}")
for case in ref:
    print(f"{case:42} {ref[case]:8.2f}ms {ours[case]:8.2f}ms {ours[case] / ref[case]:9.2f}x")
PY
