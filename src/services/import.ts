// Importing files: previewImport parses them in the import worker and plans the write against
// the database (new / already stored / repeated in the file), keeping the plan under an id;
// runImport writes that plan in batches of ONE transaction each (memories + their features +
// links), featurizing each batch outside the transaction by the same code as capture. A closed
// tab or a crash leaves every committed batch whole and no half item; a re-run skips what is
// there (drafts by their stored import key, a backup's memories by id). Restores: see restore.ts.

import { AppError } from '../core/errors';
import { uuidv7 } from '../core/ids';
import type { MemoryId } from '../core/types';
import type { ValidMemoryInput } from '../core/validate';
import { storedIds, storedImportKeys, writeImportBatch } from '../db/transfer';
import { bulkGetMemories } from '../db/repo';
import type { LinkRow, MemoryRow } from '../db/schema';
import { batches, planImport, type ImportLink, type ImportProblem, type PlannedItem } from '../io';
import type { ImportParser } from '../protocol/io';
import type { EngineClient } from '../bridge/engine-bridge';
import type { ServiceContext } from './context';
import { newMemoryRow } from './ingest';
import { createRestore, reusedCurrent, type BackupPlan } from './restore';
import type { Session } from './session';
import type { StoredFeatures } from './stored-features';
import type { EngineSync } from './sync';
import type { KnownEntities } from './entities';
import type { ImportOutcome, ImportPreview, ImportPreviewProblem, ImportRequest, RunImportOptions } from './types';

export const DEFAULT_IMPORT_BATCH = 200;
/**
 * A restore whose every memory reuses its stored features (nothing to featurize) writes this many
 * per transaction: two feature blocks' worth (BLOCK_SIZE 512), so each block is written about
 * once instead of rewritten by every batch of 200 that fills it, and the engine and the entity
 * index take fewer, larger messages. Progress still comes after every batch.
 */
export const REUSED_RESTORE_BATCH = 1024;

const restoreBatchSize = (plan: BackupPlan): number => (plan.vectorsReused === plan.memories.length ? REUSED_RESTORE_BATCH : DEFAULT_IMPORT_BATCH);
const SAMPLES = 5;
const SAMPLE_CHARS = 400;

interface DraftPlan {
  kind: 'drafts';
  toWrite: PlannedItem[];
  /** Each importer handle (a note's path) -> the import key of its item, for the links. */
  keyOfRef: Map<string, string>;
  links: ImportLink[];
  quarantine: boolean;
  /** Drafts without a session of their own share this one (one session per import). */
  session: string;
  skippedAtPreview: number;
}

type Plan = DraftPlan | BackupPlan;

/** Where a problem came from, in words for the preview ("notes.csv, line 4"). */
export function whereOf(p: ImportProblem): string {
  const parts = [p.file, p.line !== undefined ? `line ${p.line}` : undefined, p.path || undefined];
  if (p.index !== undefined && !p.path && p.line === undefined) parts.push(`item ${p.index + 1}`);
  return parts.filter(Boolean).join(', ') || 'the file';
}

export const previewProblems = (errors: ImportProblem[]): ImportPreviewProblem[] =>
  errors.map((e) => ({ where: whereOf(e), message: e.message, severity: e.severity }));

export const sampleOf = (d: Pick<ValidMemoryInput, 'text' | 'tags' | 'createdAt'>) => ({
  text: d.text.length > SAMPLE_CHARS ? `${d.text.slice(0, SAMPLE_CHARS)}…` : d.text,
  tags: d.tags,
  ...(d.createdAt !== undefined ? { createdAt: d.createdAt } : {}),
});

interface ImportDeps {
  engine: EngineClient;
  stored: StoredFeatures;
  sync: EngineSync;
  session: Session;
  parser: ImportParser;
}

export function createImport(ctx: ServiceContext, deps: ImportDeps) {
  const { db } = ctx;
  const { engine, stored, sync, session, parser } = deps;
  const plans = new Map<string, Plan>();
  const running = new Set<string>();
  const restore = createRestore(ctx, { engine, stored, sync });

  /** The links of one batch: each goes with the batch that writes its later end, so both ends exist. */
  function linksByBatch(plan: DraftPlan, batchOfKey: Map<string, number>, idOfKey: Map<string, MemoryId>): Map<number, LinkRow[]> {
    const out = new Map<number, LinkRow[]>();
    for (const l of plan.links) {
      if (l.to === null) continue;
      const [kf, kt] = [plan.keyOfRef.get(l.from), plan.keyOfRef.get(l.to)];
      if (kf === undefined || kt === undefined) continue;
      const [from, to] = [idOfKey.get(kf), idOfKey.get(kt)];
      if (!from || !to || from === to) continue;
      const b = Math.max(batchOfKey.get(kf) ?? -1, batchOfKey.get(kt) ?? -1);
      if (b < 0) continue; // both ends were stored by an earlier run, which wrote the link with them
      const list = out.get(b) ?? [];
      list.push({ fromId: from, toId: to, kind: 'wikilink' });
      out.set(b, list);
    }
    return out;
  }

  async function runDrafts(planId: string, plan: DraftPlan, opts: RunImportOptions, size: number): Promise<ImportOutcome> {
    const t = ctx.now();
    // what an earlier run of this plan (cancelled, failed) or another tab stored is not featurized
    // again; the stored ids are also the ends of links to it
    const idOfKey = await storedImportKeys(db, [...plan.toWrite.map((i) => i.key), ...plan.keyOfRef.values()]);
    const todo = plan.toWrite.filter((i) => !idOfKey.has(i.key));
    const counts = new Map<string, number>();
    const places: { id: string; position: number }[] = [];
    for (const it of todo) places.push(await session.place(t, it.draft.sessionId ?? plan.session, counts));
    const groups = batches(
      todo.map((item, i) => ({ item, place: places[i], id: ctx.newId(item.draft.createdAt) })),
      size,
    );
    const batchOfKey = new Map<string, number>();
    groups.forEach((g, b) => g.forEach((x) => (batchOfKey.set(x.item.key, b), idOfKey.set(x.item.key, x.id))));
    const links = linksByBatch(plan, batchOfKey, idOfKey);
    const out: ImportOutcome = { written: 0, skipped: plan.skippedAtPreview + plan.toWrite.length - todo.length, batches: 0, cancelled: false };
    // Pipelined: the embed worker featurizes batch b + 1 while batch b is written and indexed (the
    // encoder is the slow step; the write, the engine and the entity index then cost no encoder
    // time). Batch b + 1 is still written after batch b, each in its own transaction.
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    opts.signal?.addEventListener('abort', onAbort);
    const featurize = (g: (typeof groups)[number]) => {
      const p = stored.featurizeAll(
        g.map((x) => ({ text: x.item.draft.text, createdAt: x.item.draft.createdAt ?? t, sessionPosition: x.place.position, media: x.item.draft.media })),
        { signal: stop.signal },
      );
      p.catch(() => undefined); // awaited below; a failure while the previous batch is written waits for it
      return p;
    };
    let ahead = groups.length > 0 && !opts.signal?.aborted ? featurize(groups[0]) : undefined;
    try {
      for (let b = 0; b < groups.length; b++) {
        if (opts.signal?.aborted || !ahead) return { ...out, cancelled: true };
        const g = groups[b];
        let got;
        try {
          got = await ahead;
        } catch (e) {
          if (opts.signal?.aborted) return { ...out, cancelled: true }; // nothing of this batch was written
          throw e;
        }
        ahead = b + 1 < groups.length && !opts.signal?.aborted ? featurize(groups[b + 1]) : undefined;
        const memories: MemoryRow[] = g.map((x, i) => {
          const m = newMemoryRow({ newId: () => x.id }, x.item.draft, got[i].item.truncated, t, x.place.id);
          return { ...m, ...(plan.quarantine ? { status: 'quarantined' as const } : {}), importKey: x.item.key };
        });
        const written = await writeImportBatch(db, {
          memories,
          vectors: memories.flatMap((m, i) => stored.rowsOf(m.id, got[i])),
          links: links.get(b),
        });
        const kept = new Set(written.map((m) => m.id));
        out.written += written.length;
        out.skipped += g.length - written.length;
        out.batches++;
        // the entity index takes the mentions E11 found in the featurized text (no second NER pass)
        const known: KnownEntities = new Map(memories.flatMap((m, i) => (got[i].item.entities ? [[m.id, { text: g[i].item.draft.text, mentions: got[i].item.entities! }] as const] : [])));
        await sync.index(
          written.map((m) => m.id),
          () => engine.upsertMany(memories.flatMap((m, i) => (kept.has(m.id) ? [stored.freshDoc(m, got[i])] : []))),
          {},
          known,
        );
        opts.onProgress?.({ written: out.written, total: todo.length });
      }
    } finally {
      opts.signal?.removeEventListener('abort', onAbort);
      stop.abort(); // a batch featurized ahead for a run that stopped (failure, cancel) is not needed
    }
    await session.persist();
    plans.delete(planId);
    return out;
  }

  return {
    /**
     * Parses the files in the import worker, then plans against the database: what would be
     * written, what is already stored (same import key; for a backup, same id), what repeats in
     * the file. Nothing is written. Rejects WRONG_PASSPHRASE (encrypted backup, wrong passphrase),
     * IMPORT_INVALID (not a file this format can read), ABORTED.
     */
    async previewImport(req: ImportRequest, signal?: AbortSignal): Promise<ImportPreview> {
      if (!req || !Array.isArray(req.files)) throw new AppError('INVALID_OPTION', 'Choose the files to import.');
      const { quarantine, ...parseReq } = req;
      const parsed = await parser.parse(parseReq, signal);
      if (signal?.aborted) throw new AppError('ABORTED');
      const planId = uuidv7();
      const problems = previewProblems(parsed.result.errors);
      if (parsed.format === 'backup') {
        if (!parsed.backup) return { planId, format: 'backup', total: 0, fresh: 0, existing: 0, repeated: 0, problems, samples: [], needsPassphrase: parsed.needsPassphrase };
        const there = await storedIds(db, parsed.backup.memories.map((m) => m.id));
        const plan = restore.plan(parsed.backup, there, there.size ? await bulkGetMemories(db, [...there]) : []);
        plans.set(planId, plan);
        return {
          planId,
          format: 'backup',
          total: parsed.backup.memories.length,
          fresh: plan.memories.length,
          existing: there.size,
          repeated: 0,
          problems,
          // the current memories first: an earlier version or one in the trash is not what a person looks for here
          samples: plan.memories.filter((m) => m.supersededBy === undefined && m.deletedAt === null).slice(0, SAMPLES).map(sampleOf),
          vectorsReused: reusedCurrent(plan),
          backupParts: {
            earlier: plan.memories.filter((m) => m.supersededBy !== undefined).length,
            trashed: plan.memories.filter((m) => m.supersededBy === undefined && m.deletedAt !== null).length,
            ...(plan.updates.length ? { updated: plan.updates.length } : {}),
            ...(plan.changedKept ? { changed: plan.changedKept } : {}),
          },
        };
      }
      const keys = planImport(parsed.result, new Set());
      const there = await storedImportKeys(db, keys.toWrite.map((i) => i.key));
      const plan = planImport(parsed.result, new Set(there.keys()));
      const keyOfRef = new Map<string, string>();
      for (const it of [...plan.toWrite, ...plan.alreadyThere, ...plan.repeatedInFile]) if (it.ref !== undefined) keyOfRef.set(it.ref, it.key);
      plans.set(planId, {
        kind: 'drafts',
        toWrite: plan.toWrite,
        keyOfRef,
        links: parsed.result.links ?? [],
        quarantine: quarantine === true,
        session: `import:${planId}`,
        skippedAtPreview: plan.counts.alreadyThere + plan.counts.repeatedInFile,
      });
      return {
        planId,
        format: parsed.format,
        total: plan.counts.read,
        fresh: plan.counts.toWrite,
        existing: plan.counts.alreadyThere,
        repeated: plan.counts.repeatedInFile,
        problems,
        samples: plan.toWrite.slice(0, SAMPLES).map((i) => sampleOf(i.draft)),
        ...(parsed.csvColumns ? { csvColumns: parsed.csvColumns } : {}),
      };
    },

    /**
     * Writes a previewed plan in batches of `batchSize` (default 200; a restore reusing every
     * memory's stored features: REUSED_RESTORE_BATCH), ONE transaction each,
     * featurizing each batch before its transaction. Progress after each batch; an abort stops
     * between batches (`cancelled`: the committed batches stay, whole). The plan is kept until it
     * has run to the end, so a cancelled or failed run can be run again (what is there is skipped).
     */
    async runImport(planId: string, opts: RunImportOptions = {}): Promise<ImportOutcome> {
      const plan = plans.get(planId);
      if (!plan) throw new AppError('NOT_FOUND', 'This import preview is no longer available; choose the files again.');
      if (running.has(planId)) throw new AppError('INVALID_OPTION', 'This import is already running.');
      const size = opts.batchSize ?? DEFAULT_IMPORT_BATCH;
      batches([], size); // INVALID_OPTION for a bad size, before anything runs
      running.add(planId);
      try {
        if (plan.kind === 'drafts') return await runDrafts(planId, plan, opts, size);
        const out = await restore.run(plan, opts, opts.batchSize ?? restoreBatchSize(plan));
        if (!out.cancelled) plans.delete(planId);
        return out;
      } finally {
        running.delete(planId);
      }
    },

    /** Forgets a preview that will not be run (the dialog was closed). */
    discardImport(planId: string): void {
      plans.delete(planId);
    },
  };
}
