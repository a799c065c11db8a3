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
    res = r.get("reserve")
    merge = f'k{res["keep"]}s{res["slots"]}' if res else f'w{r["weight"]}'
    return (r["base"], r["reader"], r["pool"], merge, r["threshold"])


def index(rows):
    out = {}
    for r in rows:
        out.setdefault(key(r), {})[r["fold"]] = r
    return out


L, N = index(loc), index(notes)
# each base is read against its own answer without deep search: the judged base against the judged
# answer (base "none-judged"), the others against the refined answer ("none")
NONE = lambda b: "none-judged" if b == "judged" else "none"
bL = {(r["base"], r["fold"]): r for r in loc if r["base"].startswith("none")}
bN = {(r["base"], r["fold"]): r for r in notes if r["base"].startswith("none")}
only = lambda flag: next((a.split("=", 1)[1].split(",") for a in sys.argv if a.startswith(flag + "=")), None)
bases, readers = only("--bases"), only("--readers")
common = [k for k in L if k in N and not k[0].startswith("none") and (not bases or k[0] in bases) and (not readers or k[1] in readers)]


def fmt(r):
    return f'{r["r10"]}/{r["ndcg10"]}/{r["mrr10"]}/{r["top1"]} rec {r["recoveredShare"]} inv {r["invocationRate"]}'


for nb in ("none", "none-judged"):
    print(nb, "answer alone: LoCoMo", {f: fmt(bL[(nb, f)]) for f in ("all", "A", "B") if (nb, f) in bL}, "notes", {f: fmt(bN[(nb, f)]) for f in ("all", "A", "B") if (nb, f) in bN})
for fit, read in (("A", "B"), ("B", "A")):
    ok = [k for k in common if L[k][fit]["mrr10"] >= bL[(NONE(k[0]), fit)]["mrr10"] and N[k][fit]["mrr10"] >= bN[(NONE(k[0]), fit)]["mrr10"]]
    if not ok:
        print(f"fit on {fit}: no setting keeps both MRRs")
        continue
    best = max(ok, key=lambda k: (L[k][fit]["recoveredShare"], L[k][fit]["mrr10"] + N[k][fit]["mrr10"]))
    print(f"fit on {fit}: {best} (LoCoMo {fmt(L[best][fit])}; notes {fmt(N[best][fit])})")
    b = NONE(best[0])
    print(f"  read on {read}: LoCoMo {fmt(bL[(b, read)])} -> {fmt(L[best][read])}; notes {fmt(bN[(b, read)])} -> {fmt(N[best][read])}")
    print(f"  all: LoCoMo {fmt(bL[(b, 'all')])} -> {fmt(L[best]['all'])}; notes {fmt(bN[(b, 'all')])} -> {fmt(N[best]['all'])}")
    for k in sorted(ok, key=lambda k: (-L[k][fit]["recoveredShare"], -(L[k][fit]["mrr10"] + N[k][fit]["mrr10"])))[:int(next((a.split("=")[1] for a in sys.argv if a.startswith("--top=")), "0"))]:
        print("   ", k, "fit", fmt(L[k][fit]), "|", fmt(N[k][fit]), "; read", fmt(L[k][read]), "|", fmt(N[k][read]))
if "--all" in sys.argv:
    for k in sorted(common):
        print(k, "| LoCoMo", " ; ".join(f"{f} {fmt(L[k][f])}" for f in ("all", "A", "B")), "| notes", " ; ".join(f"{f} {fmt(N[k][f])}" for f in ("all", "A", "B")))
