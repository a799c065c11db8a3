# The judge's vectors for scripts/lab/judge-rerank.py (docs/research/quality.md, "Fourth pass"): every memory
# text and question of a dump-late.ts dump, embedded by an ONNX sentence encoder (mean pooling over the
# mask, L2) with onnxruntime on the CPU. A tool, not part of the app. Needs numpy, onnxruntime, tokenizers
# (the judge venv of scripts/fetch-judge.mjs has them).
#   ~/.cache/mnemograph/judge-venv/bin/python scripts/lab/judge-embed.py /tmp/dump public/models/all-mpnet-base-v2-int8 model_quantized.onnx /tmp/emb/mpnet-int8
import json, sys, time, numpy as np, onnxruntime as ort
from tokenizers import Tokenizer
d, md, onnxf, outp = sys.argv[1:5]
tok = Tokenizer.from_file(f'{md}/tokenizer.json'); tok.no_padding(); tok.enable_truncation(384)
so = ort.SessionOptions(); so.intra_op_num_threads = 2
s = ort.InferenceSession(f'{md}/onnx/{onnxf}', so, providers=['CPUExecutionProvider'])
names = [i.name for i in s.get_inputs()]
PAD = next((tok.token_to_id(t) for t in ['<pad>', '[PAD]'] if tok.token_to_id(t) is not None), 0)  # masked out either way
def embed(texts, bs=16):
    enc = [tok.encode(t) for t in texts]
    order = sorted(range(len(texts)), key=lambda i: len(enc[i].ids))
    out = None
    for k in range(0, len(order), bs):
        idx = order[k:k+bs]; L = max(len(enc[i].ids) for i in idx)
        ids = np.zeros((len(idx), L), dtype=np.int64) + PAD; am = np.zeros((len(idx), L), dtype=np.int64)
        for j, i in enumerate(idx): n = len(enc[i].ids); ids[j, :n] = enc[i].ids; am[j, :n] = 1
        feed = {'input_ids': ids, 'attention_mask': am}
        if 'token_type_ids' in names: feed['token_type_ids'] = np.zeros_like(ids)
        h = s.run(None, feed)[0]
        v = (h * am[..., None]).sum(1) / am.sum(1, keepdims=True)
        if out is None: out = np.zeros((len(texts), h.shape[-1]), dtype=np.float32)
        out[idx] = v / np.linalg.norm(v, axis=1, keepdims=True)
    return out
for name in sys.argv[5:] or ['paraphrase', 'locomo']:
    J = json.load(open(f'{d}/{name}.json'))
    texts, keys = [], []
    for c in J['conversations']:
        for m in c['memories']: keys.append(['m', c['sampleId'], m['id']]); texts.append(m['text'])
        for qi, q in enumerate(c['queries']): keys.append(['q', c['sampleId'], qi]); texts.append(q['question'])
    t0 = time.time(); V = embed(texts); dt = time.time() - t0
    print(name, len(texts), 'texts', round(dt, 1), 's', round(1000 * dt / len(texts), 1), 'ms/text (batched 16)', flush=True)
    np.save(f'{outp}-{name}.npy', V); json.dump(keys, open(f'{outp}-{name}.keys.json', 'w'))
