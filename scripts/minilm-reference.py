#!/usr/bin/env python3
"""Independent reference vectors for the bundled MiniLM encoder (issue 8).

Runs the same model folder the app serves (public/models/all-MiniLM-L6-v2-int8/, built by
`npm run prepare-assets`) through onnxruntime and the Hugging Face `tokenizers` library from PyPI,
not through Transformers.js or onnxruntime-web, and writes e2e/fixtures/minilm-reference.json.
The Node unit test (scripts/lib/node-transformers.test.ts) and the Chromium e2e
(e2e/encoder.spec.ts) compare their vectors with it.

One-off, in a virtualenv outside the repository:
    python3 -m venv ~/.cache/mnemograph/refvenv
    ~/.cache/mnemograph/refvenv/bin/pip install onnxruntime tokenizers numpy
    ~/.cache/mnemograph/refvenv/bin/python scripts/minilm-reference.py
"""
import json
import pathlib

import numpy as np
import onnxruntime
import tokenizers

ROOT = pathlib.Path(__file__).resolve().parent.parent
MODEL = ROOT / "public" / "models" / "all-MiniLM-L6-v2-int8"
OUT = ROOT / "e2e" / "fixtures" / "minilm-reference.json"

TEXTS = [
    "the mechanic replaced the timing belt",
    "fixing my automobile",
    "the neighbour fixed my bike chain",
    "I took my car to the garage to get the engine fixed.",
    "Café au lait, naïve résumé — déjà vu? 東京 😀",
    # 400 words: past the model's 256-token window, so truncation must agree too
    " ".join(["memory"] * 200 + ["garden"] * 200),
]


def main() -> None:
    tok = tokenizers.Tokenizer.from_file(str(MODEL / "tokenizer.json"))
    # the wheel's tokenizer.json pads and truncates to 128 by itself; sentence-transformers (and
    # our tokenizer_config.json) read 256 tokens and pad nothing
    tok.no_padding()
    tok.enable_truncation(max_length=256)
    session = onnxruntime.InferenceSession(str(MODEL / "onnx" / "model_quantized.onnx"), providers=["CPUExecutionProvider"])
    vectors = []
    for text in TEXTS:
        enc = tok.encode(text)
        ids = np.array([enc.ids], dtype=np.int64)
        mask = np.array([enc.attention_mask], dtype=np.int64)
        types = np.array([enc.type_ids], dtype=np.int64)
        (hidden,) = session.run(["last_hidden_state"], {"input_ids": ids, "attention_mask": mask, "token_type_ids": types})
        m = mask[..., None].astype(np.float32)
        pooled = (hidden * m).sum(axis=1) / m.sum(axis=1)
        v = pooled[0] / np.linalg.norm(pooled[0])
        vectors.append({"text": text, "tokens": len(enc.ids), "vector": [float(f"{x:.7g}") for x in v.astype(np.float32)]})
    OUT.write_text(
        json.dumps(
            {
                "model": "all-MiniLM-L6-v2-int8",
                "by": f"onnxruntime {onnxruntime.__version__}, tokenizers {tokenizers.__version__}, numpy {np.__version__} (scripts/minilm-reference.py)",
                "pooling": "mean over the attention mask, then L2 normalisation",
                "texts": vectors,
            },
            ensure_ascii=False,
        )
        + "\n"
    )
    print(f"wrote {OUT} ({len(vectors)} texts)")


if __name__ == "__main__":
    main()
