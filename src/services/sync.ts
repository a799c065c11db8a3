// The engine follows the database: after each committed write this tab's engine is updated,
// and other tabs are told over a BroadcastChannel so theirs follow too (lists follow by Dexie
// live queries by themselves). The database is the truth: an engine that missed a change is
// rebuilt from it on restart, so a failure here is reported and never undoes the write.

import type { MemoryId } from '../core/types';
import { bulkGetMemories } from '../db/repo';
import type { FeedbackRow } from '../db/schema';
import type { EngineClient } from '../bridge/engine-bridge';
import { logError, type ServiceContext } from './context';
import { toFeedbackEvent } from './feedback';
import { readRecallDefaults, readSimilarityConfig, SETTING_KEYS } from './settings';
import type { StoredFeatures } from './stored-features';
import type { KnownEntities } from './entities';

/** What one tab tells the others (their engines follow; lists follow by Dexie live queries). */
export interface ChangeMessage {
  /** Memories written: re-read and re-index them. */
  ids?: MemoryId[];
  /** A stored feedback event: apply it to the engine's feedback state. */
  feedback?: FeedbackRow;
  /** A settings key changed (similarity config, recall defaults): re-read it. */
  setting?: string;
}

export function createEngineSync(
  ctx: ServiceContext,
  engine: EngineClient,
  stored: StoredFeatures,
  opts: { crossTab?: boolean; afterWrite?: (ids: MemoryId[], known?: KnownEntities) => Promise<void> } = {},
) {
  const { db } = ctx;
  let channel: BroadcastChannel | null = null;
  let closed = false;
  /** Changes from other tabs, applied one batch at a time in arrival order. */
  let syncing: Promise<void> = Promise.resolve();
  /** What to do when another tab changed a settings key (besides the engine's own keys below). */
  const onSettingHandlers = new Map<string, () => Promise<unknown>>();

  /** Runs an engine update after a committed write; a failure is reported, never thrown. */
  async function follow(fn: () => Promise<unknown>): Promise<void> {
    try {
      await fn();
    } catch (e) {
      ctx.report(e);
    }
  }

  function broadcast(msg: ChangeMessage): void {
    if (closed || !channel || Object.keys(msg).length === 0) return;
    try {
      channel.postMessage(msg);
    } catch (e) {
      // the other tabs' engines miss this change until they restart: logged, the write stands
      logError(e, 'could not tell the other tabs about a change');
    }
  }

  /** Another tab changed these memories: re-read them and bring this tab's engine up to date. */
  async function syncFromDb(ids: MemoryId[]): Promise<void> {
    const rows = await bulkGetMemories(db, ids);
    // gone (purged) or in the trash: out of the engine, all in one message (a "Delete all" is many)
    const gone = ids.filter((_, i) => !rows[i] || rows[i]!.deletedAt !== null);
    if (gone.length) await follow(() => engine.removeMany(gone));
    // the rest re-read with their vectors in one go, and indexed in one message
    const live = rows.filter((r): r is NonNullable<typeof r> => !!r && r.deletedAt === null);
    if (live.length) {
      const docs = await stored.storedDocs(live);
      await follow(() => engine.upsertMany(docs));
    }
  }

  function onMessage(msg: ChangeMessage): void {
    if (!msg || typeof msg !== 'object') return;
    const queue = (fn: () => Promise<unknown>) => {
      syncing = syncing.then(fn).then(
        () => undefined,
        (e) => ctx.report(e),
      );
    };
    const ids = msg.ids;
    if (Array.isArray(ids) && ids.length > 0 && ids.every((x) => typeof x === 'string')) queue(() => syncFromDb(ids));
    if (msg.feedback && typeof msg.feedback.memoryId === 'string') {
      const row = msg.feedback;
      queue(() => engine.recordFeedback(toFeedbackEvent(row)));
    }
    if (msg.setting === SETTING_KEYS.similarity) queue(async () => engine.setSimilarityConfig(await readSimilarityConfig(db)));
    if (msg.setting === SETTING_KEYS.recallDefaults) queue(async () => engine.setRecallDefaults(await readRecallDefaults(db)));
    const handler = typeof msg.setting === 'string' ? onSettingHandlers.get(msg.setting) : undefined;
    if (handler) queue(handler);
  }

  if (typeof BroadcastChannel !== 'undefined' && opts.crossTab !== false) {
    channel = new BroadcastChannel(`mnemograph-changes:${db.name}`);
    channel.onmessage = (ev: MessageEvent<ChangeMessage>) => onMessage(ev.data);
  }

  return {
    /**
     * After a committed write: the engine follows (`fn`), and other tabs are told which ids
     * changed (and `also`: a feedback row, a settings key) so their engines follow too.
     * `known`: entity mentions already found for some of the memories (their featurizing's E11).
     */
    async index(ids: MemoryId[], fn: () => Promise<unknown>, also: Omit<ChangeMessage, 'ids'> = {}, known?: KnownEntities): Promise<void> {
      broadcast({ ...(ids.length ? { ids } : {}), ...also });
      await follow(fn);
      // the entity index follows the same writes (a failure is reported, the write stands)
      const after = opts.afterWrite;
      if (ids.length && after) await follow(() => after(ids, known));
    },
    broadcast,
    syncFromDb,
    /** Runs `fn` (in order with the other changes) when another tab announces a change of settings key `key`. */
    onSetting(key: string, fn: () => Promise<unknown>): void {
      onSettingHandlers.set(key, fn);
    },
    /** Resolves when the changes announced by other tabs so far are in this tab's engine (tests). */
    whenSynced: (): Promise<void> => syncing,
    close(): void {
      closed = true;
      channel?.close();
    },
  };
}

export type EngineSync = ReturnType<typeof createEngineSync>;
