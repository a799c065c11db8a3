// A stand-in for the model hub, for tests: a real HTTP server on the loopback interface that
// serves real model files in the hub's URL layout (`/<org>/<name>/resolve/<rev>/<file>`), with
// the faults a download must survive: a missing file (404), a truncated file (fewer bytes than
// published: its checksum fails), and a connection that drops mid-file (going offline).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { EncoderEntry, ModelDtype } from '../embed/catalogue';
import { hubEncoderId } from '../embed/catalogue';
import { sha256Hex } from '../embed/model-store';

export type Fault = 'missing' | 'truncate' | 'drop';

export interface HubServer {
  /** e.g. http://127.0.0.1:41234 */
  base: string;
  /** Requests seen, by path. */
  requests: string[];
  /** Make one file (path inside the repo) misbehave; `undefined` makes it well again. */
  fault(file: string, fault: Fault | undefined): void;
  /** Bytes per write and an optional pause between writes (ms), so progress and cancel can be seen. */
  pace(chunkBytes: number, pauseMs?: number): void;
  close(): Promise<void>;
}

export interface HubRepo {
  repo: string;
  revision: string;
  files: Map<string, Uint8Array>;
}

/** Every file under `dir`, by its path relative to it ('onnx/model_quantized.onnx'). */
export function readFolder(dir: string): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (name.startsWith('.')) continue; // .source.json and the like: not model files
      if (statSync(p).isDirectory()) walk(p);
      else out.set(relative(dir, p).split('\\').join('/'), new Uint8Array(readFileSync(p)));
    }
  };
  walk(dir);
  return out;
}

/** A catalogue entry for a served repo, its checksums computed from the files (as the real catalogue pins them). */
export async function entryFor(r: HubRepo, extra: Partial<EncoderEntry> & { dtype?: ModelDtype } = {}): Promise<EncoderEntry> {
  const files = await Promise.all([...r.files].map(async ([path, bytes]) => ({ path, sha256: await sha256Hex(bytes), bytes: bytes.byteLength })));
  const dtype = extra.dtype ?? 'q8';
  return {
    id: hubEncoderId(r.repo, r.revision, dtype),
    label: `Test copy of ${r.repo}`,
    name: r.repo,
    provenance: 'the test hub',
    summary: 'served by the test hub',
    source: 'hub',
    runtime: 'transformers',
    dim: 384,
    pooling: 'mean',
    queryPrefix: '',
    documentPrefix: '',
    dtype,
    bytes: files.reduce((n, f) => n + f.bytes, 0),
    licence: 'Apache-2.0',
    maxTokens: 256,
    folder: `hub/${r.repo.replace('/', '_')}`,
    hub: { repo: r.repo, revision: r.revision },
    files,
    ...extra,
  };
}

export async function startHubServer(repos: HubRepo[]): Promise<HubServer> {
  const faults = new Map<string, Fault>();
  const requests: string[] = [];
  let chunk = 64 * 1024;
  let pauseMs = 0;

  function send(res: ServerResponse, body: Uint8Array, declared: number, stopAt: number): void {
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': String(declared),
      // the hub answers cross-origin requests (the app fetches from its own origin)
      'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin',
    });
    let at = 0;
    const next = () => {
      if (res.destroyed) return;
      if (at >= stopAt) {
        if (stopAt < body.byteLength && declared > stopAt) res.destroy(); // the connection drops mid-file
        else res.end();
        return;
      }
      const end = Math.min(stopAt, at + chunk);
      res.write(body.subarray(at, end));
      at = end;
      if (pauseMs > 0) setTimeout(next, pauseMs);
      else setImmediate(next);
    };
    next();
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    requests.push(path);
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET', 'access-control-allow-headers': '*' });
      res.end();
      return;
    }
    for (const r of repos) {
      const prefix = `/${r.repo}/resolve/${r.revision}/`;
      if (!path.startsWith(prefix)) continue;
      const file = path.slice(prefix.length);
      const body = r.files.get(file);
      const fault = faults.get(file);
      if (!body || fault === 'missing') break;
      if (fault === 'truncate') {
        const cut = Math.floor(body.byteLength / 2);
        send(res, body.subarray(0, cut), cut, cut); // a well-formed answer with half the file
      } else if (fault === 'drop') {
        send(res, body, body.byteLength, Math.floor(body.byteLength / 2));
      } else send(res, body, body.byteLength, body.byteLength);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' });
    res.end('Entry not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    requests,
    fault: (file, f) => (f ? faults.set(file, f) : faults.delete(file)),
    pace(c, p = 0) {
      chunk = Math.max(1, c);
      pauseMs = p;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
