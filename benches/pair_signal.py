#!/usr/bin/env python3
"""How much lexical similarity says about a labelled confusion: the pairs of every labelled set by band.

For every tool pair within one server of the blind-labelled held-out sets (tests/fixtures/heldout-c
to heldout-l, whose labellers listed every pair they judged worth a verdict before mf ran), computes
two surface-weighted lexical similarities:
  desc   TF-IDF cosine of the descriptions' words, the IDF taken over that server's tools;
  name   Jaccard overlap of the name words, the server prefix dropped;
and prints, per band, how many pairs the labels call true, debatable, false or leave unlisted, and
the share that is true among the non-debatable ones (true / (true + false + unlisted)): the best
precision a scorer flagging that whole band could reach. A band whose share stays far below the
bar (0.60) while holding few of the true pairs shows that lexical similarity alone cannot carry a
scorer to the bar.

Usage: python3 benches/pair_signal.py [--sets c,d,...]
Python 3.11, standard library only. Exit status 0 (this measures, it does not gate).
"""
from __future__ import annotations

import argparse
import itertools
import json
import math
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lint_quality import Labels, pair_key  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
STOP = set("a an the of to in on for and or by with from is are be this that it its as at into "
           "any all your you can will which when use used using returns return given if not no "
           "optional required eg etc".split())
BANDS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1.01)


def stem(w: str) -> str:
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    for suf in ("es", "s"):
        if len(w) > 4 and w.endswith(suf):
            return w[: -len(suf)]
    return w


def name_words(name: str) -> list[str]:
    name = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    return [stem(t.lower()) for t in re.split(r"[^A-Za-z0-9]+", name) if t]


def text_words(text: str) -> list[str]:
    text = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text or "")
    return [stem(w) for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in STOP and len(w) > 1]


def tfidf(docs: list[list[str]]) -> list[dict[str, float]]:
    n = len(docs)
    df = Counter(w for d in docs for w in set(d))
    out = []
    for d in docs:
        v = {w: (1 + math.log(c)) * math.log((n + 1) / (df[w] + 0.5)) for w, c in Counter(d).items()}
        norm = math.sqrt(sum(x * x for x in v.values())) or 1.0
        out.append({w: x / norm for w, x in v.items()})
    return out


def band(x: float) -> str:
    for lo, hi in zip(BANDS, BANDS[1:]):
        if x < hi:
            return f"{lo:.1f}-{min(hi, 1.0):.1f}"
    return "1.0"


def pairs(set_dir: Path):
    labels = Labels(json.loads((set_dir / "labels.json").read_text())).pairs
    for snap in sorted(set_dir.glob("*.tools.json")):
        server = snap.name[: -len(".tools.json")]
        verdicts = {k: p["verdict"] for k, p in labels.get(server, {}).items()
                    if p.get("blind", True)}
        tools = json.loads(snap.read_text())["tools"]
        names = [name_words(t["name"]) for t in tools]
        first = Counter(n[0] for n in names if n)
        prefix = {w for w, c in first.items() if len(names) > 2 and c > len(names) / 2}
        names = [[w for w in n if w not in prefix] or n for n in names]
        desc = tfidf([text_words(t.get("description", "")) for t in tools])
        for i, j in itertools.combinations(range(len(tools)), 2):
            a, b = set(names[i]), set(names[j])
            yield (sum(x * desc[j].get(w, 0.0) for w, x in desc[i].items()),
                   len(a & b) / max(1, len(a | b)),
                   verdicts.get(pair_key(tools[i]["name"], tools[j]["name"]), "unlisted"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="c,d,e,f,g,h,i,j,k,l",
                    help="held-out set letters (default: the blind-labelled c to l)")
    args = ap.parse_args()
    rows = [r for s in args.sets.split(",") for r in pairs(FIXTURES / f"heldout-{s.strip()}")]
    all_true = sum(r[2] == "true" for r in rows)
    print(f"{len(rows)} pairs, {all_true} labelled true, sets {args.sets}\n")
    for title, key in (("description TF-IDF cosine", 0), ("name-word Jaccard", 1)):
        counts: dict[str, Counter] = {}
        for r in rows:
            counts.setdefault(band(r[key]), Counter())[r[2]] += 1
        print(f"{title:26} {'true':>5} {'debat.':>6} {'false':>6} {'unlisted':>8} "
              f"{'true share':>10} {'true pairs here':>15}")
        for b in sorted(counts):
            c = counts[b]
            rest = c["true"] + c["false"] + c["unlisted"]
            share = f"{c['true'] / rest:.3f}" if rest else "-"
            print(f"{b:26} {c['true']:5} {c['debatable']:6} {c['false']:6} {c['unlisted']:8} "
                  f"{share:>10} {c['true'] / max(1, all_true):15.2f}")
        print()
    print("true share = true / (true + false + unlisted): the precision of flagging the whole band.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
