// The "keep your memories" half of the services (issue 9) as the Memories, Trash and Review views
// use it, with one seam for the views' unit tests (setKeepApiForTests).
import type { Observable } from 'dexie';
import { services } from '../../services';
import type { Memory, MemoryId, MemoryStatus } from '../../core/types';
import type { AddMemoryInput, UpdateMemoryInput } from '../../services';

// ---- mirrors of the services' types (replaced by re-exports once they land) --------------------
/** A memory with its version fields (set on an earlier version: what replaced it, and when). */
export type KeptMemory = Memory & { supersededBy?: MemoryId; supersededAt?: number; recordedAt?: number };
export type SaveOutcome = { kind: 'saved'; memory: KeptMemory } | { kind: 'already-saved'; memory: KeptMemory };
export interface MemoryVersion {
  memory: KeptMemory;
  current: boolean;
  recordedAt: number;
  supersededAt: number | null;
}
export interface DeleteReceipt {
  ids: MemoryId[];
  at: number;
}
export type BrowseStatus = 'current' | 'active' | 'quarantined' | 'archived' | 'trashed' | 'superseded' | 'all';
export type BrowseSort = 'newest' | 'oldest' | 'importance' | 'opened';
export interface BrowseQuery {
  tags?: string[];
  from?: number;
  to?: number;
  source?: string;
  sample?: boolean;
  importanceMin?: number;
  importanceMax?: number;
  status?: BrowseStatus;
  sort?: BrowseSort;
}
export interface MemoryHeader {
  id: MemoryId;
  title: string;
  length: number;
  createdAt: number;
  updatedAt: number;
  importance: number;
  tags: string[];
  source?: string;
  status: MemoryStatus;
  deletedAt: number | null;
  supersededBy?: MemoryId;
  supersededAt?: number;
  lastAccessedAt?: number;
  validFrom: number;
  validTo: number | null;
  sample: boolean;
}
export interface BrowsePage {
  total: number;
  offset: number;
  items: MemoryHeader[];
}
export interface TagCount {
  tag: string;
  count: number;
}
export type MemoryInput = AddMemoryInput & { createdAt?: number };
export type MemoryPatch = UpdateMemoryInput & { createdAt?: number };

/** What the views call; `services()` provides it. */
export interface KeepApi {
  browse(q: BrowseQuery, offset: number, limit: number): Promise<BrowsePage>;
  tagCounts(q: BrowseQuery): Promise<TagCount[]>;
  /** Emits whenever stored memories change (any tab): the views re-read what they show. */
  liveChanges(): Observable<unknown>;
  getMemory(id: MemoryId, opts?: { includeDeleted?: boolean }): Promise<KeptMemory>;
  history(id: MemoryId): Promise<MemoryVersion[]>;
  saveMemory(input: MemoryInput): Promise<SaveOutcome>;
  updateMemory(id: MemoryId, patch: MemoryPatch): Promise<KeptMemory>;
  deleteMemories(ids: MemoryId[]): Promise<DeleteReceipt>;
  undoDelete(receipt: DeleteReceipt): Promise<void>;
  restoreMemories(ids: MemoryId[]): Promise<void>;
  emptyTrash(): Promise<number>;
  deleteAll(): Promise<number>;
  removeSample(): Promise<number>;
  setStatus(ids: MemoryId[], status: MemoryStatus): Promise<void>;
  /** Discard (from review): the memories go to the trash. */
  discard(ids: MemoryId[]): Promise<DeleteReceipt>;
  addTags(ids: MemoryId[], tags: string[]): Promise<void>;
  exportMarkdownOf(ids: MemoryId[]): Promise<{ blob: Blob; fileName: string }>;
}

let override: KeepApi | null = null;

/** Tests (and only tests) put a fake in place; null restores the real one. */
export function setKeepApiForTests(api: KeepApi | null): void {
  override = api;
}

export function keepApi(): KeepApi {
  return override ?? (services() as unknown as KeepApi);
}

/** Days the trash keeps a memory before it is removed for good. */
export const TRASH_DAYS = 30;
