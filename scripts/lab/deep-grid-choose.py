#!/usr/bin/env python3
"""Held-out choice over the deep-search grid (docs/research/quality.md, "Fifth pass").

  python3 scripts/lab/deep-grid-choose.py LOCOMO.json NOTES.json
(the --json outputs of DEEP_GRID=1 ... scripts/eval-locomo.ts --deep-only on both dev files).
Rule: on one half (A or B) of BOTH files, among the settings whose MRR@10 is at least the refined
answer's on both files' half, take the one with the highest LoCoMo recoveredShare (ties: the higher
summed MRR); then read it on the other half. Also prints every setting's rows side by side.
"""
import json
import sys

loc = json.load(open(sys.argv[1]))["deepSearch"]["grid"]
notes = json.load(open(sys.argv[2]))["deepSearch"]["grid"]


def key(r):
    return (r["base"], r["reader"], r["pool"], r["weight"], r["threshold"])


def index(rows):
    out = {}
    for r in rows:
        out.setdefault(key(r), {})[r["fold"]] = r
    return out


L, N = index(loc), index(notes)
baseL = {r["fold"]: r for r in loc if r["base"] == "none"}
baseN = {r["fold"]: r for r in notes if r["base"] == "none"}
common = [k for k in L if k in N and k[0] != "none"]


def fmt(r):
    return f'{r["r10"]}/{r["ndcg10"]}/{r["mrr10"]}/{r["top1"]} rec {r["recoveredShare"]} inv {r["invocationRate"]}'


print("refined answer alone: LoCoMo", {f: fmt(baseL[f]) for f in baseL}, "notes", {f: fmt(baseN[f]) for f in baseN})
for fit, read in (("A", "B"), ("B", "A")):
    ok = [k for k in common if L[k][fit]["mrr10"] >= baseL[fit]["mrr10"] and N[k][fit]["mrr10"] >= baseN[fit]["mrr10"]]
    if not ok:
        print(f"fit on {fit}: no setting keeps both MRRs")
        continue
    best = max(ok, key=lambda k: (L[k][fit]["recoveredShare"], L[k][fit]["mrr10"] + N[k][fit]["mrr10"]))
    print(f"fit on {fit}: {best} (LoCoMo {fmt(L[best][fit])}; notes {fmt(N[best][fit])})")
    print(f"  read on {read}: LoCoMo {fmt(baseL[read])} -> {fmt(L[best][read])}; notes {fmt(baseN[read])} -> {fmt(N[best][read])}")
if "--all" in sys.argv:
    for k in sorted(common):
        print(k, "| LoCoMo", " ; ".join(f"{f} {fmt(L[k][f])}" for f in ("all", "A", "B")), "| notes", " ; ".join(f"{f} {fmt(N[k][f])}" for f in ("all", "A", "B")))
