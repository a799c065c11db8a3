// @vitest-environment jsdom
// Leaving the page with an unsaved new memory asks first; with nothing typed (or after a save) it
// does not.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { hasUnsavedDraft, setUnsavedEdit, useCaptureDraft } from './capture-draft';
import { LeaveGuarded as Guarded, leaveAsks as leave } from '../../testing/leave-guard';

afterEach(() => {
  cleanup();
  useCaptureDraft.getState().clear();
});

describe('the leave guard', () => {
  it('asks before a close or reload drops an unsaved draft, and only then', () => {
    render(<Guarded />);
    expect(leave()).toBe(false); // nothing typed
    useCaptureDraft.getState().update({ text: 'Half a thought about the fence' });
    expect(leave()).toBe(true);
    useCaptureDraft.getState().clear(); // saved
    expect(leave()).toBe(false);
    useCaptureDraft.getState().update({ text: '   ', tags: 'garden' }); // tags alone are worth keeping too
    expect(leave()).toBe(true);
  });

  it('counts text, tags, source, a picture or its caption; blanks are nothing', () => {
    const base = useCaptureDraft.getState();
    expect(hasUnsavedDraft(base)).toBe(false);
    expect(hasUnsavedDraft({ ...base, text: ' \n ' })).toBe(false);
    expect(hasUnsavedDraft({ ...base, source: 'diary' })).toBe(true);
    expect(hasUnsavedDraft({ ...base, picture: { ...base.picture, caption: 'the pier' } })).toBe(true);
    expect(hasUnsavedDraft({ ...base, importance: 0.9 })).toBe(false); // a slider moved, nothing written
  });

  it('asks while the opened memory holds an unsaved edit', () => {
    render(<Guarded />);
    setUnsavedEdit(true);
    expect(leave()).toBe(true);
    setUnsavedEdit(false);
    expect(leave()).toBe(false);
  });

  it('stops asking once the page is gone (the listener is removed)', () => {
    const { unmount } = render(<Guarded />);
    useCaptureDraft.getState().update({ text: 'x' });
    unmount();
    expect(leave()).toBe(false);
  });
});
