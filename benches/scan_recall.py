#!/usr/bin/env python3
"""Measure `mf scan` recall on the scan corpus (tests/fixtures/scan-corpus/).

For each server of the chosen set's manifest.tsv, runs `MF scan <scan_root> --json --no-write`,
reads `report.tools[].name` (deduplicated) and compares it with the names the live server served
(`<name>.tools.json`, captured by scripts/capture-scan-corpus.sh). Prints a per-server table, then
pooled recall (sum found-true / sum truth), mean per-server recall, per-pattern recall (pooled over
the servers labelled with that pattern), false names (reported but not served, excluding the
manifest's `disabled` names, which are counted separately), and how servers read as zero tools
were reported: with or without a warning, and with exit 3 or 0.

"Warned" means `report.unread` is a non-empty list, or any entry of `report.warnings` has
`code == "server-unread"`. Absent fields are treated as empty.

The `blind` set is never to be used for tuning the scanner: run it to report the headline figure,
not to look at what it misses.

Usage: benches/scan_recall.py [--mf PATH] [--set tuned|blind|all] [--json OUT] [--timeout S]
Exit 0 always (a measurement, not a gate), unless a manifest cannot be read (exit 2).
Standard library only.
"""
import argparse
import json
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(REPO, "tests", "fixtures", "scan-corpus")


def read_manifest(set_name):
    path = os.path.join(CORPUS, set_name, "manifest.tsv")
    rows = []
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    if not lines:
        raise ValueError(f"{path}: empty")
    header = lines[0].split("\t")
    need = ["name", "registry", "package", "version", "scan_root", "patterns", "tools", "disabled"]
    missing = [c for c in need if c not in header]
    if missing:
        raise ValueError(f"{path}: missing columns {missing}")
    for line in lines[1:]:
        if not line.strip():
            continue
        cells = line.split("\t")
        cells += [""] * (len(header) - len(cells))
        row = dict(zip(header, cells))
        row["set"] = set_name
        row["patterns"] = [p for p in row["patterns"].split(",") if p]
        row["disabled"] = [d for d in row["disabled"].split(",") if d]
        rows.append(row)
    return rows


def truth_names(row):
    path = os.path.join(CORPUS, row["set"], row["name"] + ".tools.json")
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    return {t["name"] for t in data.get("tools", []) if isinstance(t, dict) and "name" in t}


def as_list(v):
    return v if isinstance(v, list) else []


def run_mf(mf, row, timeout):
    """Return dict: names (set), exit code, warned (bool), error (str or None)."""
    roots = [r for r in row["scan_root"].split(",") if r]
    names, warned, codes, errors = set(), False, [], []
    for root in roots:
        root_abs = root if os.path.isabs(root) else os.path.join(REPO, root)
        if not os.path.exists(root_abs):
            errors.append(f"scan root missing: {root} (run scripts/capture-scan-corpus.sh --set {row['set']})")
            continue
        try:
            proc = subprocess.run([mf, "scan", root_abs, "--json", "--no-write"], capture_output=True,
                                  text=True, timeout=timeout, cwd=REPO)
        except subprocess.TimeoutExpired:
            errors.append(f"timeout after {timeout}s")
            continue
        except OSError as e:
            errors.append(str(e))
            continue
        codes.append(proc.returncode)
        try:
            report = json.loads(proc.stdout) if proc.stdout.strip() else None
        except json.JSONDecodeError:
            report = None
        if not isinstance(report, dict):
            if proc.returncode not in (0, 3):
                errors.append(f"exit {proc.returncode}: {proc.stderr.strip()[:200]}")
            continue
        # The report may be the top-level object or nested under "report".
        rep = report.get("report") if isinstance(report.get("report"), dict) else report
        for t in as_list(rep.get("tools")):
            if isinstance(t, dict) and isinstance(t.get("name"), str):
                names.add(t["name"])
        if as_list(rep.get("unread")):
            warned = True
        for w in as_list(rep.get("warnings")):
            if isinstance(w, dict) and w.get("code") == "server-unread":
                warned = True
    code = max(codes) if codes else None
    return {"names": names, "exit": code, "warned": warned, "error": "; ".join(errors) or None}


def pct(num, den):
    return f"{100.0 * num / den:5.1f}%" if den else "   - "


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mf", default=os.path.join(REPO, "target", "debug", "mf"))
    ap.add_argument("--set", default="tuned", choices=["tuned", "blind", "all"])
    ap.add_argument("--json", dest="json_out")
    ap.add_argument("--timeout", type=float, default=300.0)
    args = ap.parse_args()

    sets = ["tuned", "blind"] if args.set == "all" else [args.set]
    rows = []
    try:
        for s in sets:
            rows += read_manifest(s)
    except (OSError, ValueError) as e:
        print(f"scan_recall.py: cannot read manifest: {e}", file=sys.stderr)
        return 2

    results = []
    for row in rows:
        try:
            truth = truth_names(row)
        except (OSError, ValueError) as e:
            print(f"scan_recall.py: {row['set']}/{row['name']}: cannot read truth: {e}", file=sys.stderr)
            continue
        r = run_mf(args.mf, row, args.timeout)
        disabled = set(row["disabled"])
        found = r["names"]
        hit = found & truth
        false_names = sorted(found - truth - disabled)
        disabled_reported = sorted((found - truth) & disabled)
        results.append({
            "set": row["set"], "name": row["name"], "registry": row["registry"],
            "package": row["package"], "version": row["version"], "patterns": row["patterns"],
            "truth": len(truth), "found": len(found), "found_true": len(hit),
            "recall": (len(hit) / len(truth)) if truth else None,
            "missed": sorted(truth - found), "false_names": false_names,
            "disabled_reported": disabled_reported, "zero": len(found) == 0,
            "warned": r["warned"], "exit": r["exit"], "error": r["error"],
        })

    # Per-server table: reported = distinct names mf reported, found = those the server serves.
    w = max([len(f"{x['set']}/{x['name']}") for x in results] + [6])
    print(f"{'server':<{w}}  truth  reported  found  recall  false  disabled  zero  warned  exit")
    for x in results:
        print(f"{x['set'] + '/' + x['name']:<{w}}  {x['truth']:5d}  {x['found']:8d}  {x['found_true']:5d}  "
              f"{pct(x['found_true'], x['truth'])}  {len(x['false_names']):5d}  {len(x['disabled_reported']):8d}  "
              f"{'yes' if x['zero'] else 'no':>4}  {'yes' if x['warned'] else 'no':>6}  "
              f"{'' if x['exit'] is None else x['exit']:>4}" + (f"  ERROR: {x['error']}" if x['error'] else ""))

    total_truth = sum(x["truth"] for x in results)
    total_hit = sum(x["found_true"] for x in results)
    recalls = [x["recall"] for x in results if x["recall"] is not None]
    mean_recall = sum(recalls) / len(recalls) if recalls else 0.0
    pattern_stats = {}
    for x in results:
        for p in x["patterns"]:
            s = pattern_stats.setdefault(p, {"servers": 0, "truth": 0, "found_true": 0})
            s["servers"] += 1
            s["truth"] += x["truth"]
            s["found_true"] += x["found_true"]
    zero = [x for x in results if x["zero"]]
    summary = {
        "mf": args.mf, "sets": sets, "servers": len(results),
        "pooled_recall": (total_hit / total_truth) if total_truth else None,
        "truth_tools": total_truth, "found_true": total_hit,
        "mean_server_recall": mean_recall,
        "false_names": sum(len(x["false_names"]) for x in results),
        "disabled_names_reported": sum(len(x["disabled_reported"]) for x in results),
        "zero_tool_servers": len(zero),
        "zero_tool_warned": sum(1 for x in zero if x["warned"]),
        "zero_tool_unwarned": sum(1 for x in zero if not x["warned"]),
        "zero_tool_exit3": sum(1 for x in zero if x["exit"] == 3),
        "zero_tool_exit0": sum(1 for x in zero if x["exit"] == 0),
        "servers_with_errors": sum(1 for x in results if x["error"]),
        "per_pattern": {p: dict(s, recall=(s["found_true"] / s["truth"]) if s["truth"] else None)
                        for p, s in sorted(pattern_stats.items())},
    }

    print()
    print(f"servers: {len(results)} ({', '.join(sets)})   mf: {args.mf}")
    print(f"pooled recall:          {pct(total_hit, total_truth)}  ({total_hit}/{total_truth} tools)")
    print(f"mean per-server recall: {100.0 * mean_recall:5.1f}%")
    print(f"false names:            {summary['false_names']} (reported, not served; disabled names excluded)")
    print(f"disabled names reported:{summary['disabled_names_reported']:>3} (defined in source, not served by default)")
    print(f"zero-tool servers:      {len(zero)}: warned {summary['zero_tool_warned']}, "
          f"unwarned {summary['zero_tool_unwarned']}; exit 3: {summary['zero_tool_exit3']}, "
          f"exit 0: {summary['zero_tool_exit0']}")
    if summary["servers_with_errors"]:
        print(f"servers with errors:    {summary['servers_with_errors']}")
    print()
    print("per pattern (pooled over servers labelled with it):")
    for p, s in summary["per_pattern"].items():
        print(f"  {p:<22} servers {s['servers']:3d}  recall {pct(s['found_true'], s['truth'])}  "
              f"({s['found_true']}/{s['truth']})")

    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as f:
            json.dump({"summary": summary, "servers": results}, f, indent=2)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
