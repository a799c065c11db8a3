// Builds src/sample/memories.json from the hand-written sources in src/sample/source/*.txt.
// Run: node src/sample/build-memories.mjs
//
// Source format (one file per stretch of months, read in name order):
//   @@ 2026-05-02 08:15            a session starts (UTC); ids get a, b, c... per day in order
//   %% 0.6 | tag one, tag-two | +12 | src=voice-note
//                                  a memory: importance | tags | minutes after session start
//                                  (optional; default previous + 9) | optional source
//   !! caption text || alt text    a media caption attached to the current memory
//   any other line                 text of the current memory (blank lines kept inside)
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const srcDir = join(here, 'source');
const files = readdirSync(srcDir).filter((f) => f.endsWith('.txt')).sort();

const norm = (t) => t.trim().toLowerCase().replace(/\s+/g, '-');
const memories = [];
const perDay = new Map();
let session = null;
let current = null;
let lastOffset = 0;

function flush() {
  if (!current) return;
  const text = current.lines.join('\n').replace(/^\n+|\n+$/g, '');
  const m = {
    text,
    tags: current.tags,
    importance: current.importance,
    ...(current.source ? { source: current.source } : {}),
    createdAt: current.createdAt,
    sessionId: current.sessionId,
    ...(current.media.length ? { media: current.media } : {}),
  };
  memories.push(m);
  current = null;
}

for (const file of files) {
  const lines = readFileSync(join(srcDir, file), 'utf8').split('\n');
  lines.forEach((line, i) => {
    const where = `${file}:${i + 1}`;
    if (line.startsWith('@@ ')) {
      flush();
      const [, day, time] = line.trim().split(/\s+/);
      const n = perDay.get(day) ?? 0;
      perDay.set(day, n + 1);
      const start = Date.parse(`${day}T${time}:00Z`);
      if (Number.isNaN(start)) throw new Error(`${where}: bad session date ${line}`);
      session = { id: `s-${day}-${String.fromCharCode(97 + n)}`, start };
      lastOffset = -9;
    } else if (line.startsWith('%% ')) {
      flush();
      if (!session) throw new Error(`${where}: memory before any session`);
      const parts = line.slice(3).split('|').map((p) => p.trim());
      const importance = Number(parts[0]);
      const tags = parts[1].split(',').map(norm).filter(Boolean);
      let offset = lastOffset + 9;
      let source;
      for (const p of parts.slice(2)) {
        if (p.startsWith('+')) offset = Number(p.slice(1));
        else if (p.startsWith('src=')) source = p.slice(4);
        else if (p) throw new Error(`${where}: unknown header part ${p}`);
      }
      lastOffset = offset;
      current = {
        importance,
        tags: [...new Set(tags)],
        source,
        createdAt: new Date(session.start + offset * 60_000).toISOString(),
        sessionId: session.id,
        media: [],
        lines: [],
      };
    } else if (line.startsWith('!! ')) {
      if (!current) throw new Error(`${where}: media outside a memory`);
      const [caption, alt] = line.slice(3).split('||').map((s) => s.trim());
      current.media.push(alt ? { caption, alt } : { caption });
    } else if (current) {
      current.lines.push(line);
    } else if (line.trim() && !line.startsWith('//')) {
      throw new Error(`${where}: text outside a memory`);
    }
  });
  flush();
}

const out = JSON.stringify(memories, null, 1) + '\n';
writeFileSync(join(here, 'memories.json'), out);
console.log(`${memories.length} memories, ${new Set(memories.map((m) => m.sessionId)).size} sessions, ${(out.length / 1024).toFixed(1)} KB`);
