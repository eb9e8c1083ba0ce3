#!/usr/bin/env python3
"""Independent reference for mf's tool-order permutation `mf-perm-v1` (SCHEMA.md).

Usage: permutation_reference.py SEED CASE_ID TRIAL N  → prints the order as JSON.
The pinned values in src/eval/plan.rs were produced with this script.
"""
import hashlib, json, struct, sys

def permutation(seed, case_id, trial, n):
    key = hashlib.sha256(b"mf-perm-v1" + b"\0" + struct.pack("<Q", seed) + case_id.encode() + b"\0" + struct.pack("<I", trial)).digest()
    words, counter = [], 0
    def next_word():
        nonlocal counter
        if not words:
            block = hashlib.sha256(key + struct.pack("<Q", counter)).digest()
            counter += 1
            words.extend(struct.unpack("<4Q", block))
        return words.pop(0)
    order = list(range(n))
    for i in range(n - 1, 0, -1):
        bound = i + 1
        r = (2**64) % bound
        while True:
            w = next_word()
            if w < 2**64 - r:
                break
        j = w % bound
        order[i], order[j] = order[j], order[i]
    return order

if __name__ == "__main__":
    seed, case_id, trial, n = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    print(json.dumps(permutation(seed, case_id, trial, n)))
