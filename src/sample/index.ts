// The built-in sample collection: about six months of one person's memories, written by hand
// for Mnemograph (see README.md for the designed lateral pairs, associative chains and
// corrections). The JSON is loaded with a dynamic import so bundlers put it in its own chunk,
// fetched only when a user asks for the sample.

/** One sample memory as shipped in memories.json (createdAt is an ISO 8601 UTC string). */
export interface SampleMemory {
  text: string;
  tags: string[];
  importance: number;
  source?: string;
  createdAt: string /* ISO */;
  sessionId: string;
  media?: { caption: string; alt?: string }[];
}

/** Loads the sample collection (about 300 memories, in chronological order, sessions contiguous). */
export async function loadSampleMemories(): Promise<SampleMemory[]> {
  const mod = await import('./memories.json');
  const data = (mod as { default: SampleMemory[] }).default;
  // Hand out copies so a caller mutating the result cannot alter the cached module value.
  return data.map((m) => ({
    ...m,
    tags: [...m.tags],
    ...(m.media ? { media: m.media.map((x) => ({ ...x })) } : {}),
  }));
}
