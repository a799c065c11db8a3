// Draws the app icons (public/icons/icon-192.png, icon-512.png) as real PNGs without any
// image library: shapes are signed-distance functions, 4x4 supersampled, written with zlib.
// Run: node src/ui/icons/draw-icons.mjs  (the PNGs are committed; this is how they were made).
import { deflateSync } from 'node:zlib';
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const out = join(dirname(fileURLToPath(import.meta.url)), '../../../public/icons');

// The same drawing as public/favicon.svg, in a 0..1 unit square.
const NODES = [
  { x: 0.3, y: 0.34, r: 0.075, c: [255, 255, 255] },
  { x: 0.68, y: 0.28, r: 0.06, c: [199, 210, 254] },
  { x: 0.52, y: 0.56, r: 0.095, c: [253, 230, 138] },
  { x: 0.27, y: 0.72, r: 0.055, c: [167, 243, 208] },
  { x: 0.74, y: 0.72, r: 0.065, c: [255, 255, 255] },
];
const EDGES = [[0, 1], [0, 2], [1, 2], [2, 3], [2, 4], [1, 4], [0, 3]];
const TOP = [79, 70, 229]; // indigo-600
const BOTTOM = [13, 148, 136]; // teal-600

function sdRoundRect(px, py, half, radius) {
  const qx = Math.abs(px - 0.5) - half + radius;
  const qy = Math.abs(py - 0.5) - half + radius;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius;
}
function sdSegment(px, py, ax, ay, bx, by) {
  const pax = px - ax, pay = py - ay, bax = bx - ax, bay = by - ay;
  const h = Math.max(0, Math.min(1, (pax * bax + pay * bay) / (bax * bax + bay * bay)));
  return Math.hypot(pax - bax * h, pay - bay * h);
}
const over = (dst, src, a) => dst.map((d, i) => d * (1 - a) + src[i] * a);

function sample(x, y) {
  if (sdRoundRect(x, y, 0.5, 0.22) > 0) return [0, 0, 0, 0];
  const t = (x + y) / 2;
  let rgb = TOP.map((c, i) => c + (BOTTOM[i] - c) * t);
  for (const [a, b] of EDGES) {
    const d = sdSegment(x, y, NODES[a].x, NODES[a].y, NODES[b].x, NODES[b].y);
    if (d < 0.014) rgb = over(rgb, [255, 255, 255], 0.55);
  }
  for (const n of NODES) {
    const d = Math.hypot(x - n.x, y - n.y);
    if (d < n.r + 0.02) rgb = over(rgb, [30, 27, 75], 0.25); // soft ring
    if (d < n.r) rgb = n.c;
  }
  return [...rgb, 255];
}

function render(size) {
  const SS = 4;
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      const acc = [0, 0, 0, 0];
      for (let sy = 0; sy < SS; sy++)
        for (let sx = 0; sx < SS; sx++) {
          const s = sample((x + (sx + 0.5) / SS) / size, (y + (sy + 0.5) / SS) / size);
          // premultiply so transparent samples do not darken edges
          acc[0] += s[0] * s[3]; acc[1] += s[1] * s[3]; acc[2] += s[2] * s[3]; acc[3] += s[3];
        }
      const o = y * (size * 4 + 1) + 1 + x * 4;
      const a = acc[3] / (SS * SS);
      raw[o] = a ? Math.round(acc[0] / acc[3]) : 0;
      raw[o + 1] = a ? Math.round(acc[1] / acc[3]) : 0;
      raw[o + 2] = a ? Math.round(acc[2] / acc[3]) : 0;
      raw[o + 3] = Math.round(a);
    }
  }
  return png(size, size, raw);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
function png(w, h, raw) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

mkdirSync(out, { recursive: true });
for (const size of [192, 512]) {
  writeFileSync(join(out, `icon-${size}.png`), render(size));
  console.log(`wrote icons/icon-${size}.png`);
}
