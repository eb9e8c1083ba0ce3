#!/usr/bin/env python3
"""How far two blind labellers agree on confusable pairs: the ceiling any pair scorer is judged under.

For every held-out set with a second blind labelling (tests/fixtures/heldout-*/labels.second.json),
reads the second labeller's pair verdicts as if they were a scorer's flags and scores them against
the first labelling (labels.json, blind pairs only) exactly as benches/lint_quality.py scores mf:
precision = true / (true + false), where a flagged pair the first labeller did not list counts as
false and a debatable one is left out; recall = first-labeller true pairs flagged / all of them.

Two readings of the second labelling:
  strict   flags the pairs it called true;
  liberal  flags the pairs it called true or debatable.
Then the verdict cross-table (second labeller's verdict x first labeller's).

Usage: python3 benches/label_agreement.py [--json]
Python 3.11, standard library only. Exit status 0 (this measures, it does not gate).
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lint_quality import Labels  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
VERDICTS = ("true", "debatable", "false")


def blind_pairs(path: Path) -> dict[tuple[str, tuple[str, str]], str]:
    labels = Labels(json.loads(path.read_text()))
    return {
        (server, key): p["verdict"]
        for server, pairs in labels.pairs.items()
        for key, p in pairs.items()
        if p.get("blind", True)
    }


def score(first: dict, flagged: list) -> dict:
    tp = sum(first.get(k) == "true" for k in flagged)
    fp = sum(first.get(k, "false") == "false" for k in flagged)
    deb = sum(first.get(k) == "debatable" for k in flagged)
    truth = sum(v == "true" for v in first.values())
    return {"flagged": len(flagged), "true": tp, "false": fp, "debatable": deb,
            "first_true": truth}


def ratio(n: int, d: int) -> str:
    return f"{n / d:.3f}" if d else "-"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    sets = sorted(p.parent for p in FIXTURES.glob("*/labels.second.json"))
    if not sets:
        print("no tests/fixtures/*/labels.second.json found", file=sys.stderr)
        return 0
    report = {}
    totals = {m: Counter() for m in ("strict", "liberal")}
    cross = Counter()
    for d in sets:
        first = blind_pairs(d / "labels.json")
        second = blind_pairs(d / "labels.second.json")
        row = {}
        for mode, keep in (("strict", {"true"}), ("liberal", {"true", "debatable"})):
            s = score(first, [k for k, v in second.items() if v in keep])
            row[mode] = s
            totals[mode].update(s)
        for k, v in second.items():
            cross[(v, first.get(k, "unlisted"))] += 1
        for k, v in first.items():
            if k not in second:
                cross[("unlisted", v)] += 1
        report[d.name] = row
    if args.json:
        print(json.dumps({"sets": report, "totals": {m: dict(c) for m, c in totals.items()},
                          "cross": {f"{a}/{b}": n for (a, b), n in sorted(cross.items())}},
                         indent=1))
        return 0
    print("second blind labeller scored against the first (labels.json), as lint_quality scores mf\n")
    print(f"{'set':12} {'reading':8} {'flagged':>7} {'true':>5} {'false':>5} {'debat.':>6} "
          f"{'precision':>9} {'recall':>12}")
    for name, row in [*report.items(), ("all", totals)]:
        for mode in ("strict", "liberal"):
            s = row[mode]
            print(f"{name:12} {mode:8} {s['flagged']:7} {s['true']:5} {s['false']:5} "
                  f"{s['debatable']:6} {ratio(s['true'], s['true'] + s['false']):>9} "
                  f"{s['true']:>4}/{s['first_true']:<3} {ratio(s['true'], s['first_true'])}")
    print("\nverdicts, second labeller (rows) x first labeller (columns):")
    cols = (*VERDICTS, "unlisted")
    print(f"{'':10}" + "".join(f"{c:>10}" for c in cols))
    for r in (*VERDICTS, "unlisted"):
        print(f"{r:10}" + "".join(f"{cross[(r, c)]:10}" for c in cols))
    print("\nstrict: the pairs the second labeller called true; liberal: true or debatable.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
