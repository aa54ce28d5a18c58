#!/usr/bin/env python3
"""The measuring half of benches/real-packages/side-by-side.sh (run that).

Loads the targets with pi 1.6.0 (benches/real-packages/pi-load.mjs on the
reference's Node 22) and with `pihost inspect --json`, each in a process of
its own, and measures the whole process: wall time and peak RSS (the
rusage os.wait4 returns for that child). For each run and each side:

  cold  fresh HOME, TMPDIR, XDG_CACHE_HOME (and the other XDG folders), an
        empty project folder and agent folder: no jiti cache (pi keeps it
        in os.tmpdir()/jiti), no Node compile cache (os.tmpdir()/
        node-compile-cache), no QuickJS bytecode cache ($XDG_CACHE_HOME/v8x),
        nothing pihost keeps under the platform cache folder (its
        transpiled modules). `pihost prepare` runs once before the runs:
        a build step that keeps pihost's startup snapshot and its
        platform's compiled code (its runtime, Deno's crates' modules, pi's
        packages: the same for every user of a build) beside the binary,
        as node carries its snapshot and its built-in modules compiled
        inside its binary; nothing of the extensions is in either, and a
        cold run's caches start empty (its engine cache folder is seeded
        from the prepared code). PREPARE=0 leaves both to each cold run,
        as a binary nobody prepared (an empty extension's first start
        0.37 s instead of 0.11 s);
  warm  a second process with the same folders right after the cold one:
        what a user sees at every start after the first.

The folders of every run are deleted when the whole benchmark ends, not
between runs (DELETE_BETWEEN=1 deletes them right after each run, as
before). On a filesystem without a journal (this machine's ext4 has none)
the kernel skips every inode deleted in the last minute or more when it
picks one for a new file, checking each: deleting one run's thousands of
cache files right before the next cold run made every file that run
created slow to create. A user's first start does not follow such a
deletion (and most ext4 filesystems have a journal, which turns the check
off); measured here, pihost's cold start 5.8 s right after one, 4.5 s
without, pi's within its noise.

The sides alternate (pi first in even runs, pihost first in odd ones);
medians over the runs, ratios pi / pihost (above 1: pihost is faster).
Each side's count of loaded extensions and load errors is checked, so a
broken load is not taken for a fast one.
"""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.join(ROOT, "benches", "real-packages")

# Variables that would send a cache elsewhere or change how either side runs.
SCRUBBED = ("NODE_OPTIONS", "NODE_COMPILE_CACHE", "NODE_DISABLE_COMPILE_CACHE", "PI_CODING_AGENT_DIR",
            "PI_PACKAGE_DIR", "PI_TIMING", "V82JSC_BC_CACHE_DIR", "V82JSC_NO_BC_CACHE")
SCRUBBED_PREFIXES = ("JITI_", "XDG_", "PIHOST_TRANSPILE_CACHE", "PIHOST_STARTUP_SNAPSHOT")


def prepare_pihost(config):
    """Makes the binary's startup snapshot and platform bytecode beside it
    (`pihost prepare`), as its build would; what prepare printed."""
    env = {k: v for k, v in os.environ.items() if k not in SCRUBBED and not k.startswith(SCRUBBED_PREFIXES)}
    done = subprocess.run([config["pihost"], "prepare"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)
    if done.returncode != 0:
        sys.exit(f"pihost prepare failed: {done.stderr.strip()}")
    print(f"pihost prepared:\n{done.stdout.strip()}", file=sys.stderr)
    return done.stdout.strip()


def read_targets(path):
    targets = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                targets.append(line if os.path.isabs(line) else os.path.join(ROOT, line))
    return targets


def target_name(path):
    """The package a target belongs to, plus the file when it is not the folder."""
    rel = os.path.relpath(path, os.path.join(HERE, "node_modules"))
    if rel.startswith(".."):
        return os.path.relpath(path, ROOT)
    parts = rel.split(os.sep)
    n = 2 if parts[0].startswith("@") else 1
    name = "/".join(parts[:n])
    rest = "/".join(parts[n:])
    return f"{name} ({rest})" if rest else name


class Folders:
    """A fresh HOME and caches for one side of one run (cold, then warm)."""

    def __init__(self, side):
        self.base = tempfile.mkdtemp(prefix=f"real-packages-{side}-")
        for sub in ("home", "tmp", "cache", "config", "data", "state", "project", "agent"):
            os.mkdir(os.path.join(self.base, sub))

    def path(self, sub):
        return os.path.join(self.base, sub)

    def env(self):
        env = {k: v for k, v in os.environ.items() if k not in SCRUBBED and not k.startswith(SCRUBBED_PREFIXES)}
        env.update(HOME=self.path("home"), TMPDIR=self.path("tmp"), XDG_CACHE_HOME=self.path("cache"),
                   XDG_CONFIG_HOME=self.path("config"), XDG_DATA_HOME=self.path("data"),
                   XDG_STATE_HOME=self.path("state"), PI_CODING_AGENT_DIR=self.path("agent"))
        return env

    def caches(self):
        """Size and file count of every top-level entry the processes left in these folders."""
        found = {}
        for sub in ("home", "tmp", "cache", "config", "data", "state", "agent", "project"):
            top = self.path(sub)
            for entry in sorted(os.listdir(top)):
                size = files = 0
                for dirpath, _, filenames in os.walk(os.path.join(top, entry)):
                    for name in filenames:
                        try:
                            size += os.lstat(os.path.join(dirpath, name)).st_size
                            files += 1
                        except OSError:
                            pass
                if os.path.isfile(os.path.join(top, entry)):
                    size, files = os.lstat(os.path.join(top, entry)).st_size, 1
                found[f"{sub}/{entry}"] = {"bytes": size, "files": files}
        return found

    def remove(self):
        shutil.rmtree(self.base, ignore_errors=True)


def run_process(argv, env, cwd, timeout):
    """Runs argv; returns wall ms, peak RSS in MB, exit code, stdout, stderr."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        timed_out = threading.Event()

        def kill():
            timed_out.set()
            proc.kill()

        timer = threading.Timer(timeout, kill)
        timer.start()
        _, status, rusage = os.wait4(proc.pid, 0)
        wall_ms = (time.perf_counter() - start) * 1000
        timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return {
            "wallMs": round(wall_ms, 1),
            "peakRssMb": round(rusage.ru_maxrss / 1024, 1),
            "exitCode": proc.returncode,
            "timedOut": timed_out.is_set(),
            "stdout": out.read().decode("utf-8", "replace"),
            "stderr": err.read().decode("utf-8", "replace"),
        }


class Pi:
    name = "pi"

    def __init__(self, config):
        self.config = config

    def argv(self, targets, folders):
        c = self.config
        return [c["node"], os.path.join(HERE, "pi-load.mjs"), c["reference"], folders.path("project"),
                folders.path("agent"), *targets]

    def env(self, folders):
        env = folders.env()
        env["PI_MODE"] = self.config["pi_mode"]
        return env

    def parse(self, result):
        lines = [l for l in result["stdout"].splitlines() if l.startswith("{")]
        if not lines:
            return None
        data = json.loads(lines[-1])
        return {
            "inProcessMs": round(data["importMs"] + data["loadMs"], 1),
            "importMs": round(data["importMs"], 1),
            "loadMs": round(data["loadMs"], 1),
            "extensions": data["extensions"],
            "loaded": data["loadedPaths"],
            "errors": data["errors"],
        }


class Pihost:
    name = "pihost"

    def __init__(self, config):
        self.config = config

    def argv(self, targets, folders):
        c = self.config
        return [c["pihost"], "inspect", "--json", "--cwd", folders.path("project"), "--agent-dir",
                folders.path("agent"), *c["pihost_args"], *targets]

    def env(self, folders):
        return folders.env()

    def parse(self, result):
        try:
            data = json.loads(result["stdout"])
        except ValueError:
            return None
        return {
            "inProcessMs": round(data["totalLoadMs"], 1),
            "extensions": len(data["extensions"]),
            "loaded": [e["resolvedPath"] for e in data["extensions"]],
            "loadTimes": {e["resolvedPath"]: e.get("loadTimeMs") for e in data["extensions"]},
            "errors": [{"path": e["path"], "error": e["error"].split("\n")[0]} for e in data["errors"]],
        }


def measure(side, targets, folders, config):
    result = run_process(side.argv(targets, folders), side.env(folders), folders.path("project"), config["timeout"])
    parsed = side.parse(result)
    record = {k: result[k] for k in ("wallMs", "peakRssMb", "exitCode", "timedOut")}
    if parsed is None:
        tail = (result["stderr"] or result["stdout"]).strip().splitlines()[-5:]
        record.update(failed=True, output="\n".join(tail))
    else:
        record.update(parsed)
    return record


# Folders of finished runs, deleted when the benchmark ends (see the top).
SPENT = []


def cold_and_warm(side, targets, config):
    folders = Folders(side.name)
    try:
        before = folders.caches()
        assert not before, f"fresh folders are not empty: {before}"
        cold = measure(side, targets, folders, config)
        cold["cachesAfter"] = folders.caches()
        warm = measure(side, targets, folders, config)
        return cold, warm
    finally:
        if config["keep"]:
            print(f"  (kept {folders.base})", file=sys.stderr)
        elif config["delete_between"]:
            folders.remove()
        else:
            SPENT.append(folders)


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def summarize(records):
    """Medians of one side in one state over the runs."""
    ok = [r for r in records if not r.get("failed")]
    return {
        "wallMs": median([r["wallMs"] for r in records]),
        "peakRssMb": median([r["peakRssMb"] for r in records]),
        "inProcessMs": median([r.get("inProcessMs") for r in ok]),
        "extensions": max((r["extensions"] for r in ok), default=0),
        "errors": max((len(r["errors"]) for r in ok), default=0),
        "failedRuns": len(records) - len(ok),
        "timedOutRuns": sum(1 for r in records if r["timedOut"]),
    }


def ratio(a, b):
    return round(a / b, 2) if a is not None and b else None


def bench_set(targets, runs, sides, config, label):
    raw = {s.name: {"cold": [], "warm": []} for s in sides}
    for run in range(runs):
        order = sides if run % 2 == 0 else list(reversed(sides))
        for side in order:
            cold, warm = cold_and_warm(side, targets, config)
            raw[side.name]["cold"].append(cold)
            raw[side.name]["warm"].append(warm)
            print(f"  {label} run {run + 1}/{runs} {side.name}: cold {cold['wallMs']:.0f} ms "
                  f"{cold['peakRssMb']:.0f} MB, warm {warm['wallMs']:.0f} ms {warm['peakRssMb']:.0f} MB"
                  f"{describe_load(cold)}", file=sys.stderr, flush=True)
    medians = {name: {state: summarize(recs) for state, recs in states.items()} for name, states in raw.items()}
    return raw, medians


def describe_load(record):
    if record.get("failed"):
        return f"  FAILED (exit {record['exitCode']}): {record['output']}"
    return f"  ({record['extensions']} loaded, {len(record['errors'])} errors)"


def load_counts(side):
    """`loaded/errors` of the cold runs, and of the warm ones when they differ."""
    cold = f"{side['cold']['extensions']}/{side['cold']['errors']}"
    warm = f"{side['warm']['extensions']}/{side['warm']['errors']}"
    return cold if cold == warm else f"{cold} (warm {warm})"


def fmt(value, unit=""):
    if value is None:
        return "-"
    return f"{value:,.0f}{unit}" if abs(value) >= 10 else f"{value:.1f}{unit}"


def fmt_ratio(value):
    return "-" if value is None else f"{value:.2f}x"


def print_whole_table(medians, runs, targets, config):
    pi, ph = medians["pi"], medians["pihost"]
    print(f"\nAll {len(targets)} targets in one process, medians of {runs} run(s) each "
          f"(pi 1.6.0, PI_MODE={config['pi_mode']}; pihost {config['pihost']})")
    header = f"{'':30} {'pi 1.6.0':>12} {'pihost':>12} {'pi/pihost':>10}"
    print(header)
    print("-" * len(header))
    for state in ("cold", "warm"):
        for key, label, unit in (("wallMs", "wall (ms)", ""), ("peakRssMb", "peak RSS (MB)", ""),
                                 ("inProcessMs", "in-process load (ms)", "")):
            a, b = pi[state][key], ph[state][key]
            print(f"{state + ' ' + label:30} {fmt(a):>12} {fmt(b):>12} {fmt_ratio(ratio(a, b)):>10}")
    for state in ("cold", "warm"):
        a, b = pi[state], ph[state]
        print(f"{state + ' loaded / errors':30} {str(a['extensions']) + ' / ' + str(a['errors']):>12} "
              f"{str(b['extensions']) + ' / ' + str(b['errors']):>12}")
    print("(in-process: pi's import of its build plus discoverAndLoadExtensions; pihost's totalLoadMs:"
          " runtime creation, discovery and load)")


def print_slowest(raw, count=8):
    """pihost's slowest extensions (its per-extension loadTimeMs, medians over the runs)."""
    for state in ("cold", "warm"):
        times = {}
        for record in raw["pihost"][state]:
            for path, ms in (record.get("loadTimes") or {}).items():
                if ms is not None:
                    times.setdefault(path, []).append(ms)
        ranked = sorted(((statistics.median(v), p) for p, v in times.items()), reverse=True)[:count]
        print(f"  {state}: " + ", ".join(f"{target_name(p)} {ms:,.0f}" for ms, p in ranked))


def print_errors(raw):
    for name, states in raw.items():
        seen = {}
        for state in ("cold", "warm"):
            for record in states[state]:
                if record.get("failed"):
                    seen.setdefault(f"(the process, exit {record['exitCode']})", set()).add(record["output"])
                    continue
                for error in record["errors"]:
                    seen.setdefault(error["path"], set()).add(error["error"])
        for path, messages in seen.items():
            for message in sorted(messages):
                print(f"  {name}: {os.path.relpath(path, ROOT) if os.path.isabs(path) else path}: {message}")


def check_same_entries(raw):
    """Warns when the two sides did not load the same entry files."""
    def entries(name):
        found = set()
        for record in raw[name]["cold"] + raw[name]["warm"]:
            found.update(record.get("loaded", []))
        return found
    pi, ph = entries("pi"), entries("pihost")
    for path in sorted(pi - ph):
        print(f"  only pi loaded {os.path.relpath(path, ROOT)}")
    for path in sorted(ph - pi):
        print(f"  only pihost loaded {os.path.relpath(path, ROOT)}")


def print_caches(raw):
    for name in ("pi", "pihost"):
        cold = next((r for r in raw[name]["cold"] if "cachesAfter" in r), None)
        if cold is None:
            continue
        parts = [f"{k} {v['files']} files {v['bytes'] / 1048576:.1f} MB" for k, v in cold["cachesAfter"].items()]
        print(f"  {name}: {'; '.join(parts) or 'nothing'}")


def main():
    config = {
        "node": os.environ["NODE"],
        "reference": os.environ["REFERENCE"],
        "pihost": os.environ["PIHOST"],
        "pi_mode": os.environ.get("PI_MODE", "bundle"),
        "pihost_args": os.environ.get("PIHOST_ARGS", "").split(),
        "timeout": float(os.environ.get("TIMEOUT", "900")),
        "keep": os.environ.get("KEEP") == "1",
        "delete_between": os.environ.get("DELETE_BETWEEN") == "1",
    }
    config["prepared"] = prepare_pihost(config) if os.environ.get("PREPARE", "1") != "0" else None
    targets = read_targets(os.environ.get("TARGETS", os.path.join(HERE, "targets.txt")))
    missing = [t for t in targets if not os.path.exists(t)]
    if missing:
        sys.exit(f"missing targets (run scripts/setup): {', '.join(missing)}")
    per_package = os.environ.get("PER_PACKAGE") == "1"
    runs = int(os.environ.get("RUNS") or (3 if per_package else 5))
    sides = [Pi(config), Pihost(config)]
    report = {
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "runs": runs,
        "piMode": config["pi_mode"],
        "pihost": config["pihost"],
        "pihostArgs": config["pihost_args"],
        "pihostPrepared": config["prepared"],
        "targets": [os.path.relpath(t, ROOT) for t in targets],
    }

    if not per_package:
        raw, medians = bench_set(targets, runs, sides, config, "all targets")
        report.update(mode="all", medians=medians, raw=raw)
        print_whole_table(medians, runs, targets, config)
        print("\npihost's slowest extensions, ms (its loadTimeMs; failed loads are not listed):")
        print_slowest(raw)
        print("\nCaches the cold run left (they are the warm run's):")
        print_caches(raw)
        print("\nLoad errors, and entries only one side loaded:")
        print_errors(raw)
        check_same_entries(raw)
    else:
        rows = []
        report.update(mode="per-package", packages=[])
        for target in targets:
            raw, medians = bench_set([target], runs, sides, config, target_name(target))
            report["packages"].append({"target": os.path.relpath(target, ROOT), "medians": medians, "raw": raw})
            rows.append((target, raw, medians))
        print(f"\nEach target alone, whole process wall (ms), medians of {runs} run(s) each "
              f"(pi 1.6.0, PI_MODE={config['pi_mode']})")
        header = (f"{'package':52} | {'pi cold':>8} | {'pihost cold':>11} | {'pi warm':>8} | {'pihost warm':>11} | "
                  f"{'cold ratio':>10} | {'warm ratio':>10} | {'loaded/errors pi, pihost':>30} | ")
        print(header)
        print("-" * len(header))
        slower = []
        for target, raw, m in rows:
            pi, ph = m["pi"], m["pihost"]
            rc, rw = ratio(pi["cold"]["wallMs"], ph["cold"]["wallMs"]), ratio(pi["warm"]["wallMs"], ph["warm"]["wallMs"])
            flags = []
            if rc is not None and rc < 1:
                flags.append("SLOWER cold")
            if rw is not None and rw < 1:
                flags.append("SLOWER warm")
            if ph["cold"]["errors"] or ph["warm"]["errors"] or ph["cold"]["failedRuns"] or ph["warm"]["failedRuns"]:
                flags.append("pihost ERRORS")
            if pi["cold"]["errors"] or pi["warm"]["errors"] or pi["cold"]["failedRuns"] or pi["warm"]["failedRuns"]:
                flags.append("pi ERRORS")
            if flags:
                slower.append(target)
            counts = f"{load_counts(pi)}, {load_counts(ph)}"
            print(f"{target_name(target):52} | {fmt(pi['cold']['wallMs']):>8} | {fmt(ph['cold']['wallMs']):>11} | "
                  f"{fmt(pi['warm']['wallMs']):>8} | {fmt(ph['warm']['wallMs']):>11} | {fmt_ratio(rc):>10} | "
                  f"{fmt_ratio(rw):>10} | {counts:>30} | {', '.join(flags)}")
        print("(ratio: pi / pihost, above 1 means pihost is faster)")
        if slower:
            print(f"flagged: {', '.join(target_name(t) for t in slower)}")
        print("\nLoad errors, and entries only one side loaded:")
        for target, raw, _ in rows:
            print_errors(raw)
            check_same_entries(raw)

    out = os.environ.get("OUT")
    if out:
        with open(out, "w") as f:
            json.dump(report, f, indent=1)
        print(f"\nraw numbers: {out}")


if __name__ == "__main__":
    try:
        main()
    finally:
        for spent in SPENT:
            spent.remove()
