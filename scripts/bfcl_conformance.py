#!/usr/bin/env python3
"""BFCL's own verdicts on seeded model outputs, for mf's conformance test.

For every item of the given BFCL categories this writes a set of model outputs: the ground
truth and seeded perturbations of it (see PERTURBATIONS), and judges each with the
Berkeley Function Calling Leaderboard's own checker, unmodified: `ast_checker` from
bfcl_eval/eval_checker/ast_eval/ast_checker.py for the AST categories, and the irrelevance
rule of bfcl_eval/eval_checker/eval_runner.py (`is_empty_output` from bfcl_eval.utils: an
output with no call passes). The same outputs go to mf as a `scripted` model
(`{"$cases": {id: [answer per perturbation]}}`), so both judge identical calls.

Run with the interpreter of scripts/install-bfcl.sh (target/bfcl/bin/python):

    target/bfcl/bin/python scripts/bfcl_conformance.py OUT_DIR simple_python multiple ...

writes OUT_DIR/<category>.script.json (mf's scripted model) and
OUT_DIR/<category>.bfcl.json ({"perturbations": [...], "items": {id: [true | false | null]},
"reformattedEnum": [id, ...]}, null where a perturbation does not apply to the item;
reformattedEnum lists the items whose `string_reformatted` variant changed an `enum` parameter)
and prints the data folder used.

One shim: ast_checker imports `MODEL_CONFIG_MAPPING` from bfcl_eval.constants.model_config,
which imports every model handler (and their SDKs). Only `underscore_to_dot` is read from it
(whether the model saw `.` in function names as `_`), so a mapping with that one field stands
in for it: `True`, since `mf tasks import bfcl` renames `.` to `_` as BFCL does for
function-calling models (items where that would merge two names keep their dots: `False`).
"""

import json
import os
import random
import sys
import types

PERTURBATIONS = [
    "ground_truth",
    "wrong_type",
    "missing_required",
    "extra_parameter",
    "value_outside",
    "optional_omitted",
    "wrong_function",
    "extra_call",
    "repeated_call",
    "string_reformatted",
    "int_for_float",
    "list_reversed",
]

SEED = 21

# Items whose `string_reformatted` variant re-cased a parameter the schema limits with `enum`
# (BFCL does not read `enum`; mf validates it: docs/bfcl.md).
ENUM_HITS = set()


class _Config:
    def __init__(self, underscore_to_dot):
        self.underscore_to_dot = underscore_to_dot


def _install_shim():
    shim = types.ModuleType("bfcl_eval.constants.model_config")
    shim.MODEL_CONFIG_MAPPING = {
        "mf-underscores": _Config(True),
        "mf-dots": _Config(False),
    }
    sys.modules["bfcl_eval.constants.model_config"] = shim


_install_shim()
import bfcl_eval  # noqa: E402
from bfcl_eval.constants.enums import Language  # noqa: E402
from bfcl_eval.eval_checker.ast_eval.ast_checker import ast_checker  # noqa: E402
from bfcl_eval.utils import is_empty_output  # noqa: E402

DATA = os.path.join(os.path.dirname(bfcl_eval.__file__), "data")


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def importable(item):
    """Whether `mf tasks import bfcl` makes a case of the item (it lists the others as skipped):
    one turn of user (and system) messages, at least one function."""
    turns = item["question"]
    return (
        bool(item["function"])
        and len(turns) == 1
        and all(m.get("role") in ("user", "system") for m in turns[0])
    )


def mf_names(functions):
    """The names mf's importer gives an item's functions: `.` → `_` unless that merges two."""
    originals = [f["name"] for f in functions]
    renamed = [n.replace(".", "_") for n in originals]
    if len(set(renamed)) != len(renamed):
        return {n: n for n in originals}, "mf-dots"
    return dict(zip(originals, renamed)), "mf-underscores"


def first_accepted(values):
    """The first accepted value of a BFCL answer list, or None when only "" (omit) is listed."""
    for v in values:
        if v != "":
            return (v,)
    return None


def materialize(value, declared):
    """A concrete argument from an accepted value (dict answers list accepted values per key)."""
    if declared == "dict" and isinstance(value, dict):
        out = {}
        for k, vals in value.items():
            vals = vals if isinstance(vals, list) else [vals]
            got = first_accepted(vals)
            if got is not None:
                out[k] = got[0]
        return out
    if isinstance(value, list) and value and all(isinstance(x, dict) for x in value):
        return [materialize(x, "dict") for x in value]
    return value


def ground_truth_calls(item, answer, names):
    props_of = {f["name"]: f["parameters"].get("properties", {}) for f in item["function"]}
    calls = []
    for call in answer["ground_truth"]:
        (fname, params), = call.items()
        props = props_of[fname]
        args = {}
        for p, vals in params.items():
            if p not in props:
                continue
            got = first_accepted(vals)
            if got is not None:
                args[p] = materialize(got[0], props[p].get("type"))
        calls.append({"name": names[fname], "original": fname, "arguments": args})
    return calls


WRONG_TYPE = {
    "string": 12345,
    "any": 12345,
    "integer": "12345",
    "float": "1.5",
    "boolean": "true",
    "array": "not a list",
    "tuple": "not a list",
    "dict": "not an object",
}

PY_TYPE = {
    "string": str,
    "any": str,
    "integer": int,
    "float": (float, int),
    "boolean": bool,
    "array": list,
    "tuple": list,
    "dict": dict,
}


def perturb(kind, item, answer, calls, names, rng):
    """The calls of one perturbation, or None when it does not apply to the item."""
    fdocs = {names[f["name"]]: f for f in item["function"]}
    if answer is None:  # irrelevance: the truth is no call
        if kind == "ground_truth":
            return []
        if kind == "extra_call" and item["function"]:
            f = rng.choice(item["function"])
            return [{"name": names[f["name"]], "arguments": {}}]
        return None
    calls = [dict(c, arguments=dict(c["arguments"])) for c in calls]
    if kind == "ground_truth":
        return calls
    target = rng.randrange(len(calls))
    call = calls[target]
    doc = fdocs[call["name"]]
    props = doc["parameters"].get("properties", {})
    required = doc["parameters"].get("required", [])
    accepted = {}
    for c in answer["ground_truth"]:
        (fname, params), = c.items()
        if fname == call["original"]:
            accepted = params
            break
    present = sorted(call["arguments"])
    if kind == "wrong_type":
        options = [
            p for p in present
            if props[p].get("type") in WRONG_TYPE
            and isinstance(call["arguments"][p], PY_TYPE[props[p]["type"]])
            and not (props[p]["type"] in ("integer", "float") and isinstance(call["arguments"][p], bool))
        ]
        if not options:
            return None
        p = rng.choice(options)
        call["arguments"][p] = WRONG_TYPE[props[p]["type"]]
        return calls
    if kind == "missing_required":
        options = [p for p in present if p in required]
        if not options:
            return None
        del call["arguments"][rng.choice(options)]
        return calls
    if kind == "extra_parameter":
        call["arguments"]["mf_unexpected_param"] = "x"
        return calls
    if kind == "value_outside":
        options = []
        for p in present:
            t = props[p].get("type")
            v = call["arguments"][p]
            ok = [a for a in accepted.get(p, []) if a != ""]
            new = None
            if t in ("string", "any") and isinstance(v, str):
                new = "mf perturbed value %d" % rng.randrange(10**6)
            elif t == "integer" and isinstance(v, int) and not isinstance(v, bool):
                new = max([a for a in ok if isinstance(a, (int, float))] + [v]) + 7919
            elif t == "float" and isinstance(v, (int, float)) and not isinstance(v, bool):
                new = float(max([a for a in ok if isinstance(a, (int, float))] + [v])) + 1000.5
            elif t == "boolean" and isinstance(v, bool) and (not v) not in ok:
                new = not v
            elif t in ("array", "tuple") and isinstance(v, list) and v and not isinstance(v[0], (dict, list)):
                extra = "mf-extra" if isinstance(v[0], str) else 7919
                new = v + [extra]
            if new is not None and new not in ok:
                options.append((p, new))
        if not options:
            return None
        p, new = rng.choice(options)
        call["arguments"][p] = new
        return calls
    if kind == "optional_omitted":
        options = [p for p in present if p not in required]
        if not options:
            return None
        del call["arguments"][rng.choice(options)]
        return calls
    if kind == "wrong_function":
        others = [n for n in fdocs if n != call["name"]]
        call["name"] = rng.choice(others) if others else "mf_unknown_function"
        return calls
    if kind == "extra_call":
        expected = {c["name"] for c in calls}
        others = [n for n in fdocs if n not in expected]
        name = rng.choice(others) if others else "mf_extra_function"
        return calls + [{"name": name, "arguments": {}}]
    if kind == "repeated_call":
        return calls + [dict(calls[target], arguments=dict(calls[target]["arguments"]))]
    if kind == "string_reformatted":
        # The same words, cased and punctuated differently: BFCL's string normalization.
        options = [
            p for p in present
            if props[p].get("type") in ("string", "any")
            and isinstance(call["arguments"][p], str)
            and call["arguments"][p].strip()
        ]
        if not options:
            return None
        p = rng.choice(options)
        v = call["arguments"][p]
        call["arguments"][p] = (v.upper() if rng.random() < 0.5 else v.title()).replace(" ", "  ") + "."
        if "enum" in props[p]:
            ENUM_HITS.add(item["id"])
        return calls
    if kind == "int_for_float":
        options = [
            p for p in present
            if props[p].get("type") == "float"
            and isinstance(call["arguments"][p], float)
            and call["arguments"][p].is_integer()
        ]
        if not options:
            return None
        p = rng.choice(options)
        call["arguments"][p] = int(call["arguments"][p])
        return calls
    if kind == "list_reversed":
        options = [
            p for p in present
            if props[p].get("type") in ("array", "tuple")
            and isinstance(call["arguments"][p], list)
            and len(call["arguments"][p]) > 1
            and call["arguments"][p] != call["arguments"][p][::-1]
        ]
        if not options:
            return None
        p = rng.choice(options)
        call["arguments"][p] = call["arguments"][p][::-1]
        return calls
    raise ValueError(kind)


def bfcl_verdict(category, item, answer, calls, model_name):
    output = [{c["name"]: c["arguments"]} for c in calls]
    if answer is None:
        return bool(is_empty_output(output))
    result = ast_checker(
        item["function"], output, answer["ground_truth"], Language.PYTHON, category, model_name
    )
    return bool(result["valid"])


def main():
    out_dir, categories = sys.argv[1], sys.argv[2:]
    os.makedirs(out_dir, exist_ok=True)
    for category in categories:
        items = read_lines(os.path.join(DATA, "BFCL_v4_%s.json" % category))
        answer_path = os.path.join(DATA, "possible_answer", "BFCL_v4_%s.json" % category)
        answers = {}
        if os.path.exists(answer_path):
            answers = {a["id"]: a for a in read_lines(answer_path)}
        script, verdicts = {}, {}
        for item in items:
            if not importable(item):
                continue
            names, model_name = mf_names(item["function"])
            answer = answers.get(item["id"])
            calls = ground_truth_calls(item, answer, names) if answer else []
            rng = random.Random("%d:%s" % (SEED, item["id"]))
            answers_for_mf, judged = [], []
            for kind in PERTURBATIONS:
                variant = perturb(kind, item, answer, calls, names, rng)
                if variant is None:
                    answers_for_mf.append(None)
                    judged.append(None)
                    continue
                answers_for_mf.append(
                    {"calls": [{"name": c["name"], "arguments": c["arguments"]} for c in variant]}
                )
                judged.append(bfcl_verdict(category, item, answer, variant, model_name))
            script[item["id"]] = answers_for_mf
            verdicts[item["id"]] = judged
        with open(os.path.join(out_dir, "%s.script.json" % category), "w", encoding="utf-8") as f:
            json.dump({"$cases": script}, f)
        with open(os.path.join(out_dir, "%s.bfcl.json" % category), "w", encoding="utf-8") as f:
            json.dump(
                {
                    "perturbations": PERTURBATIONS,
                    "items": verdicts,
                    "reformattedEnum": sorted(ENUM_HITS & set(verdicts)),
                },
                f,
            )
    print(DATA)


if __name__ == "__main__":
    main()
