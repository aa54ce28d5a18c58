#!/usr/bin/env bash
# Dispatch side by side (issue 3): the same five extensions (ten tool_call
# handlers, five context handlers), the same events, timed in the reference
# pi on Node 22 and in pihost (release build), with the ratio per case.
#
#   benches/dispatch-side-by-side.sh
set -euo pipefail
cd "$(dirname "$0")/.."
reference="${PI_REFERENCE_DIR:-$HOME/.cache/pi-reference/1.6.0}"
fixtures="$PWD/benches/fixtures/dispatch"
ref=$("$reference/node_modules/.bin/node" benches/dispatch-reference.mjs "$reference" "$fixtures")
ours=$(cargo run --quiet --release --example dispatch_timing)
python3 - "$ref" "$ours" <<'PY'
import json, sys
ref, ours = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print(f"{'case':36} {'reference':>12} {'pihost':>12} {'pihost/ref':>11}")
for case in ref:
    print(f"{case:36} {ref[case]:10.2f}us {ours[case]:10.2f}us {ours[case] / ref[case]:10.2f}x")
PY
