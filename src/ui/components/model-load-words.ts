// The encoder's download in plain words (pure, tested in model-load-words.test.ts). A percent is
// shown only when the whole download's size is known: Transformers.js fetches the model's files
// one after another and the total it reports is the sum of the files started so far (991 B of
// config at first, then the weights), so "991 B / 991 B" would claim a finished download that
// has hardly begun. Until the total covers the catalogue's size of the model, there is no percent;
// the words say only that it is loading (always: the percent and the bytes are one click away).
import type { EmbedLoadProgress } from '../../embed/types';
import type { EncoderMeta } from '../../embed/encoders';
import { formatBytes } from '../app/format';

/**
 * The header's words while the model downloads: the same short words from the first byte to the
 * last, so the header keeps one row at 1024 px and does not jump as a percent grows; the percent
 * and the bytes are under "details" and the bar (AppHeader, ModelStatus).
 */
export const LOADING = 'Loading the model…';

/** A reported total this close to the catalogue's size holds the weights: it is the whole download. */
const WHOLE_SHARE = 0.9;

export interface LoadWords {
  label: string;
  /** 0-100 when the total is known, else null (no bar). */
  pct: number | null;
  /** The bytes, for the details disclosure. */
  detail: string;
}

/** Words for the 'fetching-model' phase. `meta`: the encoder being loaded, when the worker named it. */
export function modelLoadWords(p: Pick<EmbedLoadProgress, 'loaded' | 'total'>, meta: Pick<EncoderMeta, 'runtime' | 'bytes'> | undefined): LoadWords {
  const loaded = p.loaded ?? 0;
  const total = p.total;
  // USE-lite (tfjs) reports its total from the manifest before the first weight byte: known at once
  const known = total !== undefined && total > 0 && total >= loaded && (meta === undefined || meta.runtime === 'tfjs' || total >= WHOLE_SHARE * meta.bytes);
  if (!known) {
    // the catalogue's size is an estimate (rounded): said as "about", never turned into a percent
    const about = meta ? ` (the model is about ${formatBytes(meta.bytes)})` : '';
    return { label: LOADING, pct: null, detail: loaded > 0 ? `${formatBytes(loaded)} fetched so far${about}` : `Starting the download${about}` };
  }
  const pct = Math.min(100, Math.floor((100 * loaded) / total));
  return { label: LOADING, pct, detail: `${pct}%: ${formatBytes(loaded)} of ${formatBytes(total)}` };
}
