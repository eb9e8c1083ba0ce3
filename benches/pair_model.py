#!/usr/bin/env python3
"""Could a model learned from the labels find unseen confusions? Leave-one-set-out over every labelled set.

For every tool pair within one server of the 13 labelled sets (tests/fixtures/real and
tests/fixtures/heldout*), computes 14 surface features (description, name and whole-text TF-IDF
cosines; name, parameter and required-parameter overlaps; verb group, same verb, opposite verbs,
head noun, name subset, equal objects, no parameters, server size). For each set in turn it trains
on the other 12 (labelled-true pairs positive; false and unlisted pairs negative; debatable left
out) and scores the held-out set's pairs, so every score comes from a model that never saw that
server. Then it prints, per threshold, the pairs flagged, their precision (true / (true + false +
unlisted), debatable left out) and the recall of the blind-labelled true pairs, as
benches/lint_quality.py counts them.

Usage: python3 benches/pair_model.py [--model lr|gb]
Needs numpy and scikit-learn (`pip install numpy scikit-learn`); not run by CI. The figures it
printed are in tests/fixtures/real/README.md.
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
from pair_signal import FIXTURES, name_words, text_words, tfidf  # noqa: E402

SETS = ["real", "heldout", "heldout-b", *(f"heldout-{c}" for c in "cdefghijkl")]
GROUPS = [set(g.split()) for g in (
    "get read fetch retrieve show describe view lookup find obtain load query inspect",
    "list enumerate browse", "search find query lookup filter",
    "create add new insert make post register generate",
    "update edit modify change set patch put rename move",
    "delete remove drop destroy clear purge erase",
    "start run execute launch begin trigger invoke open",
    "stop end cancel kill terminate close halt abort")]
OPPOSITE = {frozenset(p.split("/")) for p in (
    "create/delete add/remove start/stop open/close enable/disable lock/unlock "
    "subscribe/unsubscribe get/set upload/download import/export attach/detach follow/unfollow "
    "publish/unpublish archive/unarchive begin/end connect/disconnect pause/resume show/hide "
    "grant/revoke").split()}


def params(tool: dict) -> tuple[set[str], set[str]]:
    schema = tool.get("inputSchema") or {}
    norm = lambda k: re.sub(r"[^a-z0-9]", "", k.lower())  # noqa: E731
    return ({norm(k) for k in schema.get("properties") or {}},
            {norm(k) for k in schema.get("required") or []})


def jaccard(a: set, b: set) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def cos(a: dict, b: dict) -> float:
    return sum(x * b.get(w, 0.0) for w, x in a.items())


def rows():
    for s in SETS:
        labels = Labels(json.loads((FIXTURES / s / "labels.json").read_text())).pairs
        for snap in sorted((FIXTURES / s).glob("*.tools.json")):
            server = snap.name[: -len(".tools.json")]
            verdicts = {k: (p["verdict"], p.get("blind", True))
                        for k, p in labels.get(server, {}).items()}
            tools = json.loads(snap.read_text())["tools"]
            names = [name_words(t["name"]) for t in tools]
            first = Counter(n[0] for n in names if n)
            prefix = {w for w, c in first.items() if len(names) > 2 and c > len(names) / 2}
            names = [[w for w in n if w not in prefix] or n for n in names]
            descs = [text_words(t.get("description", "")) for t in tools]
            ps = [params(t) for t in tools]
            vn, vd = tfidf(names), tfidf(descs)
            va = tfidf([n + d + sorted(p[0]) for n, d, p in zip(names, descs, ps)])
            for i, j in itertools.combinations(range(len(tools)), 2):
                ni, nj = names[i], names[j]
                vi, vj = ni[0] if ni else "", nj[0] if nj else ""
                gi = {k for k, g in enumerate(GROUPS) if vi in g}
                gj = {k for k, g in enumerate(GROUPS) if vj in g}
                si, sj = set(ni), set(nj)
                f = [cos(vn[i], vn[j]), cos(vd[i], vd[j]), cos(va[i], va[j]), jaccard(si, sj),
                     jaccard(ps[i][0], ps[j][0]), jaccard(ps[i][1], ps[j][1]),
                     float(not ps[i][0] and not ps[j][0]),
                     float(bool(ni) and bool(nj) and ni[-1] == nj[-1]), float(vi == vj),
                     float(bool(gi & gj)), float(frozenset((vi, vj)) in OPPOSITE),
                     float(si <= sj or sj <= si),
                     float(len(ni) > 1 and set(ni[1:]) == set(nj[1:])), math.log(len(tools))]
                v, blind = verdicts.get(pair_key(tools[i]["name"], tools[j]["name"]),
                                        ("unlisted", True))
                yield s, f, v, blind


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", choices=("lr", "gb"), default="lr",
                    help="logistic regression (default) or gradient-boosted trees")
    args = ap.parse_args()
    try:
        import numpy as np
        from sklearn.ensemble import HistGradientBoostingClassifier
        from sklearn.linear_model import LogisticRegression
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler
    except ImportError:
        print("needs numpy and scikit-learn: pip install numpy scikit-learn", file=sys.stderr)
        return 0
    data = list(rows())
    sets = np.array([r[0] for r in data])
    x = np.array([r[1] for r in data])
    true = np.array([r[2] == "true" for r in data])
    debatable = np.array([r[2] == "debatable" for r in data])
    blind_true = np.array([r[2] == "true" and r[3] for r in data])

    def model():
        if args.model == "lr":
            return make_pipeline(StandardScaler(),
                                 LogisticRegression(class_weight="balanced", max_iter=2000))
        return HistGradientBoostingClassifier(max_depth=3, max_iter=200, learning_rate=0.05,
                                              class_weight="balanced", random_state=0)

    score = np.zeros(len(data))
    for s in sorted(set(sets)):
        train = (sets != s) & ~debatable
        held = sets == s
        score[held] = model().fit(x[train], true[train]).predict_proba(x[held])[:, 1]
    print(f"{len(data)} pairs, {true.sum()} labelled true ({blind_true.sum()} blind), "
          f"model {args.model}, each set scored by a model trained on the other 12\n")
    print(f"{'threshold':>9} {'flagged':>7} {'true':>5} {'not true':>8} {'precision':>9} "
          f"{'recall':>7}")
    for t in (0.5, 0.7, 0.8, 0.9, 0.95, 0.97, 0.98, 0.99):
        flagged = score >= t
        tp = int((flagged & true).sum())
        fp = int((flagged & ~true & ~debatable).sum())
        rec = (flagged & blind_true).sum() / max(1, blind_true.sum())
        prec = f"{tp / (tp + fp):.3f}" if tp + fp else "-"
        print(f"{t:9} {int(flagged.sum()):7} {tp:5} {fp:8} {prec:>9} {rec:7.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
