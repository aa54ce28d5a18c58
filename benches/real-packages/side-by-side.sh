#!/usr/bin/env bash
# Real pi packages from the npm registry (benches/real-packages/package.json,
# installed by scripts/setup), loaded by the reference pi 1.6.0 on Node 22
# and by pihost side by side: all the targets of targets.txt in ONE process
# each, whole-process wall time and peak RSS, cold (fresh HOME, TMPDIR and
# XDG folders: no jiti cache, no Node compile cache, no QuickJS bytecode
# cache) and warm (a second process with the folders of the cold one),
# alternating pi and pihost, RUNS times, medians and ratios pi/pihost.
#
#   benches/real-packages/side-by-side.sh                 all targets, RUNS=5
#   PER_PACKAGE=1 benches/real-packages/side-by-side.sh   each target alone, RUNS=3
#
#   RUNS=N          runs per side (default 5, or 3 with PER_PACKAGE=1)
#   OUT=path.json   also write every raw number there
#   PI_MODE=dist    time pi's unbundled loader (benches/reference-load.mjs's)
#                   instead of the bundle the `pi` command runs (default
#                   bundle; pi-load.mjs says how they differ)
#   PIHOST=path     another pihost build; PIHOST_ARGS="--cpu-limit-ms 0 ..."
#                   extra `inspect` options (default: none, pihost's defaults)
#   TARGETS=file    another list of targets; TIMEOUT=s per process (900)
#   PREPARE=0       do not run `pihost prepare` first (its startup snapshot
#                   and platform bytecode are then made by each cold run;
#                   bench.py says why it is a build step)
#   KEEP=1          keep the HOME/cache folders of each run (their paths go
#                   to stderr) to look at what the caches hold
#   DELETE_BETWEEN=1 delete each run's folders right after it, not at the
#                   end (bench.py says why the default waits)
#
# Needs a release build of pihost (cargo build --release), the reference
# (scripts/install-reference) and the packages (scripts/setup).
set -euo pipefail
cd "$(dirname "$0")/../.."
reference="${PI_REFERENCE_DIR:-$HOME/.cache/pi-reference/1.6.0}"
node="$reference/node_modules/.bin/node"
pihost="${PIHOST:-target/release/pihost}"
[ -x "$pihost" ] || { echo "build first: cargo build --release" >&2; exit 2; }
[ -x "$node" ] || { echo "install the reference first: scripts/install-reference 1.6.0" >&2; exit 2; }
[ -d benches/real-packages/node_modules ] || { echo "install the packages first: scripts/setup" >&2; exit 2; }
NODE="$node" REFERENCE="$reference" PIHOST="$(realpath "$pihost")" exec python3 benches/real-packages/bench.py
