# One-off (lab): the built judge graphs (fp32 --fp32 --no-check, and int8) against the torch-exported int8 graph
# over 200 random turns / questions of both dev files, one at a time and in padded batches of 8 (docs/research/quality.md,
# "The torch-free build"). Paths as in that run: /tmp/judge-ref (the torch graph), /tmp/jb-out-{int8,fp32} (build-judge.py's).
# Needs numpy, onnxruntime, tokenizers.
# one-off: my fp32 / int8 graphs vs the torch-exported int8 reference over ~200 texts, one padded batch of 8 at a time
import json, random, sys, numpy as np, onnxruntime as ort, tokenizers
sys.path.insert(0, '/work/wt-s6-jbuild/scripts')
texts = []
for f in ['locomo-dev.json', 'paraphrase-dev.json']:
    for conv in json.load(open('/work/shared/data/' + f)):
        c = conv['conversation']
        for k, v in c.items():
            if k.startswith('session_') and isinstance(v, list):
                texts += [f"{t['speaker']}: {t['text']}" for t in v]
        texts += [q['question'] for q in conv['qa']]
random.seed(7); texts = random.sample(texts, 200)
tok = tokenizers.Tokenizer.from_file('/tmp/judge-ref/all-mpnet-base-v2-int8/tokenizer.json'); tok.no_padding(); tok.enable_truncation(384)
ids = [tok.encode(t).ids for t in texts]
def vecs(path, batch):
    s = ort.InferenceSession(path, providers=['CPUExecutionProvider'])
    out = []
    for i in range(0, len(ids), batch):
        b = ids[i:i+batch]; n = max(map(len, b))
        x = np.ones((len(b), n), np.int64); m = np.zeros_like(x)
        for j, t in enumerate(b): x[j, :len(t)] = t; m[j, :len(t)] = 1
        h = s.run(None, {'input_ids': x, 'attention_mask': m})[0]
        v = (h * m[:, :, None]).sum(1) / m.sum(1, keepdims=True)
        out.append(v / np.linalg.norm(v, axis=1, keepdims=True))
    return np.concatenate(out)
ref = vecs('/tmp/judge-ref/all-mpnet-base-v2-int8/onnx/model_quantized.onnx', 1)
for name, p in [('int8 (new)', '/tmp/jb-out-int8/onnx/model_quantized.onnx'), ('fp32 (new)', '/tmp/jb-out-fp32/onnx/model.onnx')]:
    for b in (1, 8):
        c = (vecs(p, b) * ref).sum(1)
        print(f'{name} batch {b} vs reference int8 (batch 1): min {c.min():.6f} mean {c.mean():.6f} over {len(c)} texts, max tokens {max(map(len, ids))}')
c = (vecs('/tmp/judge-ref/all-mpnet-base-v2-int8/onnx/model_quantized.onnx', 8) * ref).sum(1)
print(f'reference batch 8 vs reference batch 1: min {c.min():.6f} mean {c.mean():.6f}')
