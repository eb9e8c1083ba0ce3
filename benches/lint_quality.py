#!/usr/bin/env python3
"""Lint quality benchmark: how often mf's warn/error findings are right, and which real confusions it misses.

Runs an mf binary (`mf lint SNAPSHOT --format json`) on every snapshot of the labelled corpus
(tests/fixtures/real/*.tools.json), matches the warn/error findings against
tests/fixtures/real/labels.json (format: tests/fixtures/real/README.md) and prints, per rule code:
flagged, true, false, debatable, unlabelled, precision = true / (true + false) (debatable and
unlabelled findings are left out of precision), and for the pair rules their recall of the
labelled-true pairs. Then the overall pair line (a pair flagged by several pair rules counts once),
pair recall (labelled-true pairs flagged at warn/error by any pair rule / all labelled-true pairs),
and the overall warn/error precision. Unlabelled findings are listed so a labeller can add them.

A pair label with `"blind": false` was written after seeing mf's findings (tests/fixtures/heldout/):
it counts in precision but not in recall, whose denominator is the blind-labelled true pairs only.

Usage: python3 benches/lint_quality.py [--mf PATH] [--corpus DIR] [--json] [--misses] [--by-server]
Exit status is always 0: this measures, it does not gate (when mf cannot be run, it says so on stderr).
Python 3.11, standard library only.
"""
from __future__ import annotations

import argparse
import fnmatch
import json
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VERDICTS = ("true", "false", "debatable")


def default_mf() -> str:
    for p in ("target/release/mf", "target/debug/mf"):
        if (ROOT / p).exists():
            return str(ROOT / p)
    return "target/release/mf"


class BenchError(Exception):
    pass


def run_lint(mf: str, snapshot: Path) -> list[dict]:
    try:
        proc = subprocess.run([mf, "lint", str(snapshot), "--format", "json", "--fail-on", "never"],
                              capture_output=True, text=True)
    except OSError as e:
        raise BenchError(f"cannot run {mf}: {e}") from e
    if proc.returncode not in (0, 2):
        raise BenchError(f"{mf} lint {snapshot} exited {proc.returncode}: {proc.stderr.strip()[:500]}")
    try:
        return json.loads(proc.stdout)["findings"]
    except (ValueError, KeyError) as e:
        raise BenchError(f"{mf} lint {snapshot}: no JSON lint report on stdout ({e})") from e


def match(value: str, pattern: str) -> bool:
    """Exact, or a glob where only `*` and `?` are special (`[` is literal: param paths use `x[].y`)."""
    return value == pattern or fnmatch.fnmatchcase(value, pattern.replace("[", "[[]"))


def pair_key(a: str, b: str) -> tuple[str, str]:
    return tuple(sorted((a, b)))  # type: ignore[return-value]


class Labels:
    def __init__(self, doc: dict):
        self.pairs: dict[str, dict[tuple[str, str], dict]] = {}
        self.findings: dict[str, list[dict]] = {}
        self.problems: list[str] = []
        for server, s in doc.get("servers", {}).items():
            pairs = {}
            for p in s.get("pairs", []):
                k = pair_key(p["a"], p["b"])
                if p.get("verdict") not in VERDICTS:
                    self.problems.append(f"{server}: pair {k} has verdict {p.get('verdict')!r}")
                if k in pairs:
                    self.problems.append(f"{server}: pair {k} labelled twice")
                pairs[k] = p
            self.pairs[server] = pairs
            fs = s.get("findings", [])
            for f in fs:
                if f.get("verdict") not in VERDICTS:
                    self.problems.append(f"{server}: finding {f.get('code')} {f.get('tool')} has verdict {f.get('verdict')!r}")
            self.findings[server] = fs

    def finding_label(self, server: str, code: str, tool: str | None, param: str | None) -> dict | None:
        """The most specific label: an exact tool beats a pattern, then an exact param beats a pattern;
        among equally specific labels the last one in the file wins (general first, exceptions after)."""
        best, best_rank = None, None
        for i, f in enumerate(self.findings.get(server, [])):
            if f.get("code") != code:
                continue
            lt, lp = f.get("tool"), f.get("param")
            lps = f.get("params")  # a list of param names or patterns
            if lt is None and tool is not None:
                continue
            if lt is not None and (tool is None or not match(tool, lt)):
                continue
            if lps is not None:
                if param is None or not any(match(param, x) for x in lps):
                    continue
                exact_p = param in lps
            elif lp is not None:
                if param is None or not match(param, lp):
                    continue
                exact_p = lp == param
            else:
                exact_p = param is None
            exact_t = lt == tool
            rank = (0 if exact_t else 1, 0 if exact_p else 1, -i)
            if best_rank is None or rank < best_rank:
                best, best_rank = f, rank
        return best


def main() -> int:
    try:
        return measure()
    except BenchError as e:
        # It measures, it does not gate: report why nothing was measured and still exit 0.
        print(f"lint_quality: nothing measured: {e}", file=sys.stderr)
        if "--json" in sys.argv:
            print(json.dumps({"error": str(e)}))
        return 0


def measure() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mf", default=os.environ.get("MF", default_mf()), help="mf binary (default target/release/mf, else target/debug/mf)")
    ap.add_argument("--corpus", default=str(ROOT / "tests/fixtures/real"), help="folder of *.tools.json and labels.json")
    ap.add_argument("--json", action="store_true", help="machine-readable output")
    ap.add_argument("--misses", action="store_true", help="also list the labelled-true pairs no pair rule flags")
    ap.add_argument("--by-server", action="store_true", help="also print pairs and non-pair findings per server")
    args = ap.parse_args()

    corpus = Path(args.corpus)
    labels = Labels(json.loads((corpus / "labels.json").read_text()))
    snapshots = sorted(corpus.glob("*.tools.json"))

    # per rule: list of (unit key, verdict or None); units are deduplicated per rule
    per_rule: dict[str, dict[tuple, str | None]] = defaultdict(dict)
    pair_units: dict[tuple, str | None] = {}   # (server, a, b) -> verdict, any pair rule
    pair_rules: set[str] = set()
    flagged_pairs_by_rule: dict[str, set] = defaultdict(set)
    unlabelled: list[dict] = []
    stale: list[str] = list(labels.problems)

    for snap in snapshots:
        server = snap.name[: -len(".tools.json")]
        tools = {t["name"] for t in json.loads(snap.read_text())["tools"]}
        for (a, b) in labels.pairs.get(server, {}):
            for t in (a, b):
                if t not in tools:
                    stale.append(f"{server}: labelled pair ({a}, {b}) names `{t}`, not in the snapshot")
        for f in labels.findings.get(server, []):
            t = f.get("tool")
            if t and not any(ch in t for ch in "*?[") and t not in tools:
                stale.append(f"{server}: finding label {f.get('code')} names tool `{t}`, not in the snapshot")

        for f in run_lint(args.mf, snap):
            if f.get("severity") not in ("warn", "error"):
                continue
            code = f["code"]
            if f.get("pair"):
                a, b = pair_key(*f["pair"])
                pair_rules.add(code)
                lab = labels.pairs.get(server, {}).get((a, b))
                v = lab["verdict"] if lab else None
                key = (server, a, b)
                if key not in per_rule[code]:
                    per_rule[code][key] = v
                    flagged_pairs_by_rule[code].add(key)
                    if v is None:
                        unlabelled.append({"server": server, "code": code, "pair": [a, b], "message": f.get("message", "")})
                pair_units[key] = v
            else:
                tool, param = f.get("tool"), f.get("param")
                lab = labels.finding_label(server, code, tool, param)
                v = lab["verdict"] if lab else None
                key = (server, code, tool, param)
                if key not in per_rule[code]:
                    per_rule[code][key] = v
                    if v is None:
                        unlabelled.append({"server": server, "code": code, "tool": tool, "param": param, "message": f.get("message", "")})

    # Recall's denominator: the true pairs labelled blind. A label with `"blind": false` was added after
    # the labeller saw mf's findings (only findings mf made can get one), so it counts for precision
    # but would inflate recall; a label without the key is blind.
    all_true = {(s, a, b) for s, ps in labels.pairs.items() for (a, b), p in ps.items() if p["verdict"] == "true"
                and (corpus / f"{s}.tools.json").exists()}
    true_pairs = {k for k in all_true if labels.pairs[k[0]][(k[1], k[2])].get("blind", True) is not False}
    late_true = len(all_true) - len(true_pairs)

    def tally(units: dict) -> dict:
        c = {"flagged": len(units), "true": 0, "false": 0, "debatable": 0, "unlabelled": 0}
        for v in units.values():
            c[v if v else "unlabelled"] += 1
        judged = c["true"] + c["false"]
        c["precision"] = round(c["true"] / judged, 3) if judged else None
        return c

    rows = {}
    for code in sorted(per_rule):
        r = tally(per_rule[code])
        if code in pair_rules:
            hit = len(true_pairs & flagged_pairs_by_rule[code])
            r["recall"] = round(hit / len(true_pairs), 3) if true_pairs else None
        rows[code] = r
    pairs_row = tally(pair_units)
    hit = true_pairs & set(pair_units)
    pairs_row["recall"] = round(len(hit) / len(true_pairs), 3) if true_pairs else None
    nonpair = {k: v for code, units in per_rule.items() if code not in pair_rules for k, v in units.items()}
    nonpair_row = tally(nonpair)
    overall = tally({**{("pair",) + k: v for k, v in pair_units.items()}, **nonpair})
    misses = sorted(true_pairs - set(pair_units))

    servers_rows = {}
    for snap in snapshots:
        server = snap.name[: -len(".tools.json")]
        sp = tally({k: v for k, v in pair_units.items() if k[0] == server})
        st = {(s_, a, b) for (s_, a, b) in true_pairs if s_ == server}
        sp["recall"] = round(len(st & set(pair_units)) / len(st), 3) if st else None
        sp["labelledTrue"] = len(st)
        sn = tally({k: v for k, v in nonpair.items() if k[0] == server})
        servers_rows[server] = {"pairs": sp, "nonPairFindings": sn}

    result = {
        "mf": args.mf,
        "servers": len(snapshots),
        "labelledTruePairs": len(true_pairs),
        "lateTruePairs": late_true,
        "rules": rows,
        "pairs": pairs_row,
        "nonPairFindings": nonpair_row,
        "overall": overall,
        "perServer": servers_rows,
        "missedTruePairs": [{"server": s, "pair": [a, b]} for s, a, b in misses],
        "unlabelled": unlabelled,
        "labelProblems": stale,
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0

    def fmt(x):
        return "-" if x is None else f"{x:.3f}" if isinstance(x, float) else str(x)

    head = f"{'rule':<30} {'flagged':>7} {'true':>5} {'false':>5} {'debat.':>6} {'unlab.':>6} {'precision':>9} {'recall':>6}"
    late = f"; {late_true} more labelled after the run, left out of recall" if late_true else ""
    print(f"lint quality of {args.mf} on {len(snapshots)} servers ({len(true_pairs)} labelled-true pairs{late})")
    print()
    print(head)
    print("-" * len(head))
    for name, r in list(rows.items()) + [("", None), ("all pairs (each pair once)", pairs_row),
                                          ("all non-pair findings", nonpair_row), ("overall warn/error", overall)]:
        if r is None:
            print("-" * len(head))
            continue
        print(f"{name:<30} {r['flagged']:>7} {r['true']:>5} {r['false']:>5} {r['debatable']:>6} {r['unlabelled']:>6} "
              f"{fmt(r['precision']):>9} {fmt(r.get('recall')):>6}")
    print()
    print("precision = true / (true + false): debatable and unlabelled findings are excluded.")
    print("recall (pair rules) = labelled-true pairs the rule flags at warn/error / all labelled-true pairs.")
    if late_true:
        print('recall counts only pairs labelled blind (labels with "blind": false are in precision, not in recall).')
    print(f"pair recall: {len(hit)} of {len(true_pairs)} labelled-true pairs flagged by any pair rule"
          f" ({fmt(pairs_row['recall'])}).")
    if args.by_server:
        print()
        h2 = f"{'server':<20} {'pairs':>5} {'true':>4} {'false':>5} {'debat.':>6} {'prec.':>6} {'recall':>6} {'of':>3} | {'other':>5} {'true':>4} {'false':>5} {'debat.':>6} {'prec.':>6}"
        print(h2)
        print("-" * len(h2))
        for server, r in servers_rows.items():
            p_, n_ = r["pairs"], r["nonPairFindings"]
            print(f"{server:<20} {p_['flagged']:>5} {p_['true']:>4} {p_['false']:>5} {p_['debatable']:>6} {fmt(p_['precision']):>6} "
                  f"{fmt(p_['recall']):>6} {p_['labelledTrue']:>3} | {n_['flagged']:>5} {n_['true']:>4} {n_['false']:>5} {n_['debatable']:>6} {fmt(n_['precision']):>6}")
    if args.misses and misses:
        print()
        print(f"missed true pairs ({len(misses)}):")
        for s, a, b in misses:
            print(f"  {s}: {a} / {b}  -- {labels.pairs[s][(a, b)].get('reason', '')}")
    if unlabelled:
        print()
        print(f"unlabelled findings ({len(unlabelled)}): add them to labels.json")
        for u in unlabelled:
            what = " / ".join(u["pair"]) if "pair" in u else f"{u.get('tool')}{'.' + u['param'] if u.get('param') else ''}"
            print(f"  {u['server']}: {u['code']} {what}")
    if stale:
        print()
        print("label problems:")
        for s in stale:
            print(f"  {s}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
