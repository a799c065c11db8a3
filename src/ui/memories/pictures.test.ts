// The editor's picture change: what an edit sends for each thing a person can do with the picker.
import { describe, expect, it } from 'vitest';
import type { Memory } from '../../core/types';
import { pictureChange } from './MemoryEditor';
import { emptyPicture, pictureOf } from './pictures';
import type { PreparedImage } from './keep-api';

const memory = (media?: Memory['media']): Memory => ({
  id: 'm',
  text: 'x',
  tags: [],
  suggestedTags: [],
  importance: 0.5,
  createdAt: 0,
  updatedAt: 0,
  validFrom: 0,
  validTo: null,
  sessionId: 's',
  status: 'active',
  deletedAt: null,
  embedTruncated: false,
  ...(media ? { media } : {}),
});
const prepared = { id: 'p2', mime: 'image/png' } as PreparedImage;

describe('the editor and the picture', () => {
  const withPicture = memory([{ caption: 'old words', mime: 'audio/ogg' }, { caption: 'the door', imageId: 'p1', mime: 'image/png' }]);

  it('starts from the stored picture (not from other media)', () => {
    expect(pictureOf(withPicture.media)).toEqual({ prepared: null, keptId: 'p1', caption: 'the door' });
    expect(pictureOf(memory().media)).toEqual(emptyPicture);
  });

  it('sends nothing when untouched, the caption when only it changed, null when removed, the file when replaced', () => {
    expect(pictureChange(withPicture, pictureOf(withPicture.media))).toBeUndefined();
    expect(pictureChange(withPicture, { ...pictureOf(withPicture.media), caption: '  the door  ' })).toBeUndefined(); // spaces only
    expect(pictureChange(withPicture, { ...pictureOf(withPicture.media), caption: 'the blue door' })).toEqual({ caption: 'the blue door' });
    expect(pictureChange(withPicture, emptyPicture)).toBeNull();
    expect(pictureChange(withPicture, { prepared, keptId: null, caption: 'new' })).toEqual({ prepared, caption: 'new' });
    expect(pictureChange(memory(), emptyPicture)).toBeUndefined(); // none before, none now
    expect(pictureChange(memory(), { prepared, keptId: null, caption: 'first' })).toEqual({ prepared, caption: 'first' });
  });
});
