// The e2e fixture e2e/fixtures/minilm-tokens.json: Node's token matrices (the eval's, scripts/lib/
// token-cache.ts) of two texts, which e2e/encoder.spec.ts compares with the embed worker's.
// npx tsx scripts/lab/late-node-tokens.ts
import { writeFileSync } from 'node:fs';
import { MINILM } from '../../src/embed/encoders';
import { tokenMatrices } from '../lib/token-cache';
const texts = ['I took my car to the garage to get the engine fixed.', 'Caroline: I went to a support group yesterday.'];
const ms = await tokenMatrices(MINILM, texts);
const out = ms.map((m, i) => ({ text: texts[i], ids: Array.from(m.ids), dim: m.dim, vectors: Buffer.from(m.vectors.buffer, m.vectors.byteOffset, m.vectors.byteLength).toString('base64') }));
writeFileSync('e2e/fixtures/minilm-tokens.json', JSON.stringify(out) + '\n');
console.log(out.map((o) => o.ids.length));
