// The "keep your memories" half of the services (issue 9: versions, trash, review, the full list)
// as the Memories, Trash and Review views use it: exactly the services' own methods and types
// (src/services/README.md, "Keeping memories"), with one seam for the views' unit tests.
import { services } from '../../services';
import type {
  AddMemoryInput,
  BrowsePage,
  BrowseQuery,
  BrowseSort,
  BrowseStatus,
  DeleteReceipt,
  ExportedFile,
  Memory,
  MemoryHeader,
  MemoryId,
  MemoryVersion,
  SaveOutcome,
  TagCount,
  UpdateMemoryInput,
  PreparedImage,
  StoredImage,
} from '../../services';

export type { PreparedImage, StoredImage };
export type { BrowsePage, BrowseQuery, BrowseSort, BrowseStatus, DeleteReceipt, MemoryHeader, MemoryVersion, SaveOutcome, TagCount };
/** A memory with its version fields (on an earlier version: what replaced it, and when). */
export type KeptMemory = Memory;
export type MemoryInput = AddMemoryInput;
export type MemoryPatch = UpdateMemoryInput;

/** What the views call; `services()` provides it. */
export interface KeepApi {
  browseMemories(query: BrowseQuery, window?: { offset?: number; limit?: number }): Promise<BrowsePage>;
  tagCounts(query?: BrowseQuery): Promise<TagCount[]>;
  /** A number that moves on every change of the stored memories (any tab): the views re-read what they show. */
  changeVersion(): number;
  subscribeChanges(fn: () => void): () => void;
  /** Reads a memory and records that it was opened (decay-aware ranking). */
  openMemory(id: MemoryId, opts?: { includeDeleted?: boolean }): Promise<Memory>;
  getMemory(id: MemoryId, opts?: { includeDeleted?: boolean }): Promise<Memory>;
  memoryHistory(id: MemoryId): Promise<MemoryVersion[]>;
  saveMemory(input: AddMemoryInput): Promise<SaveOutcome>;
  updateMemory(id: MemoryId, patch: UpdateMemoryInput): Promise<Memory>;
  deleteMemories(ids: MemoryId[]): Promise<DeleteReceipt>;
  undoDelete(receipt: DeleteReceipt): Promise<number>;
  restoreMemory(id: MemoryId): Promise<Memory>;
  emptyTrash(): Promise<number>;
  /** Removes these memories for good (the trash's "Delete selected for good"), with their earlier versions. */
  purgeMemories(ids: MemoryId[]): Promise<number>;
  deleteAll(opts?: { permanently?: boolean }): Promise<number>;
  /** Every memory to the trash; undoDelete(receipt) puts exactly those back. */
  trashAll(): Promise<DeleteReceipt>;
  removeSample(): Promise<DeleteReceipt>;
  countSample(): Promise<number>;
  markUnsure(ids: MemoryId[]): Promise<number>;
  validateMemories(ids: MemoryId[]): Promise<number>;
  discardMemories(ids: MemoryId[]): Promise<DeleteReceipt>;
  tagMemories(ids: MemoryId[], change: { add?: string[]; remove?: string[] }): Promise<number>;
  exportMarkdown(opts?: { ids?: MemoryId[] }): Promise<ExportedFile>;
  /** Checks a picked or pasted file and makes its thumbnail (nothing stored until the memory is saved). */
  prepareImage(file: Blob, name?: string): Promise<PreparedImage>;
  /** Stored pictures by id. */
  getImages(ids: string[]): Promise<StoredImage[]>;
}

let override: KeepApi | null = null;

/** Tests (and only tests) put a fake in place; null restores the real one. */
export function setKeepApiForTests(api: KeepApi | null): void {
  override = api;
}

export function keepApi(): KeepApi {
  return override ?? services();
}

/** Days the trash keeps a memory before it is removed for good. */
export const TRASH_DAYS = 30;
