// The independent reference vectors of the bundled MiniLM (onnxruntime + tokenizers from PyPI,
// scripts/minilm-reference.py), shared by the Node unit tests and the Chromium e2e.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ReferenceText {
  text: string;
  tokens: number;
  vector: number[];
}

const file = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'e2e', 'fixtures', 'minilm-reference.json');

export function minilmReference(): ReferenceText[] {
  return (JSON.parse(readFileSync(file, 'utf8')) as { texts: ReferenceText[] }).texts;
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / Math.sqrt(na * nb);
}
