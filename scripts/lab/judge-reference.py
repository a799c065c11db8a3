#!/usr/bin/env python3
"""One-off: the reference vectors scripts/build-judge.py checks its graph against.

Runs the judge graph exported by the torch-based path of the Fourth pass (torch 2.15 exporter +
weight-only int8, the file the quality figures in docs/research/quality.md were measured with; a
copy kept at /tmp/judge-ref/) through onnxruntime from PyPI, tokenised with the Hugging Face
`tokenizers` library (no padding, 384 tokens at most), and writes scripts/fixtures/judge-reference.json:
token ids and the mean-pooled, L2-normalised vector of each text. Not run by the build.
    ~/.cache/mnemograph/refvenv/bin/python scripts/lab/judge-reference.py /tmp/judge-ref/all-mpnet-base-v2-int8
"""
import json, pathlib, sys
import numpy as np, onnxruntime, tokenizers

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
OUT = ROOT / 'scripts' / 'fixtures' / 'judge-reference.json'
TEXTS = [
    'the mechanic replaced the timing belt',
    'fixing my automobile',
    'When did I last water the houseplants?',
    'Caroline: I went to a LGBTQ support group yesterday and it was so powerful. [image: a photo of a rainbow flag]',
    'Café au lait, naïve résumé — déjà vu?',
    # ~300 tokens: positions far past the relative bias's 128-token horizon
    ' '.join(f'day {i} in the garden, the beans grew' for i in range(40)),
]

folder = pathlib.Path(sys.argv[1])
tok = tokenizers.Tokenizer.from_file(str(folder / 'tokenizer.json'))
tok.no_padding()
tok.enable_truncation(384)
sess = onnxruntime.InferenceSession(str(folder / 'onnx' / 'model_quantized.onnx'), providers=['CPUExecutionProvider'])
out = []
for text in TEXTS:
    ids = tok.encode(text).ids
    t = np.array([ids], np.int64)
    h = sess.run(None, {'input_ids': t, 'attention_mask': np.ones_like(t)})[0][0].mean(0)
    out.append({'text': text, 'ids': ids, 'vector': [round(float(x), 7) for x in h / np.linalg.norm(h)]})
OUT.write_text(json.dumps({
    'about': 'Reference vectors for scripts/build-judge.py (all-mpnet-base-v2, mean-pooled, L2-normalised). '
             'Computed ONCE by scripts/lab/judge-reference.py with onnxruntime 1.32.0 (PyPI) on the torch-exported '
             'weight-only int8 graph of docs/research/quality.md "Fourth pass" (torch 2.15.0, transformers 4.57.6), '
             'tokenised by tokenizers (PyPI); one text at a time, no padding. The build runs its own graph on these ids '
             'as one padded batch and needs cosine >= 0.998 on every text.',
    'model': 'sentence-transformers/all-mpnet-base-v2 (revision e8c3b32e, Apache-2.0)',
    'texts': out,
}, indent=1) + '\n')
print(OUT, [len(o['ids']) for o in out])
