// The divergence store: the core's evidence gate decides whether the banner shows, and a Dismiss
// holds for the rest of that topic. Real featurizers (real resources) over the hashed embedder, so
// sentences about different things share no E1 dimension (cosine 0) and no key words.
import 'fake-indexeddb/auto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LexicalResources } from '../core/features';
import { loadNodeResources } from '../../scripts/lib/resources-node';
import { services } from './index';
import { startServices } from '../testing/services';

let resources: LexicalResources;
beforeAll(async () => {
  resources = await loadNodeResources();
}, 60_000);

const MIN = 60_000;

describe('divergence: shown only on strong evidence, Dismiss holds for the topic', () => {
  it('stays quiet on the first step of a sitting and with one recent memory, then shows; dismiss holds until the recent topic changes', async () => {
    let t = 1_700_000_000_000;
    await startServices({ dim: 512, resources, now: () => t });
    const s = services();
    await s.addMemory({ text: 'Simmered a tomato sauce with basil and garlic', tags: ['cooking'] });
    t += 2 * MIN;
    // one recent memory (the window excludes the capture itself): a topic switch is not shown
    await s.addMemory({ text: 'Deployed the kubernetes cluster with helm charts' });
    expect(s.latestDivergence()).toMatchObject({ show: false, reason: 'window-too-small' });
    // back on cooking: the window now holds both memories
    t += 2 * MIN;
    await s.addMemory({ text: 'Roasted garlic for the tomato sauce', tags: ['cooking'] });
    t += 2 * MIN;
    const out = await s.recall('quarterly tax return paperwork deadline');
    expect(out.divergence).toMatchObject({ show: true, reason: 'strong', windowHours: 2 });
    expect(out.divergence!.agreeing).toEqual(expect.arrayContaining(['E1', 'E6', 'E13']));
    // the tag two of the three recent memories share, then the key phrase the app suggested for both
    expect(out.divergence!.topic).toBe('cooking and tomato sauce');
    expect(out.divergence!.best.E1).toBeLessThan(0.25);
    // a query on the recent topic: quiet
    t += MIN;
    const same = (await s.recall('tomato sauce with basil')).divergence!;
    expect(same.show).toBe(false);
    expect(['no-alerts', 'meaning-close']).toContain(same.reason);

    // Dismiss: the next far query about the same recent work stays quiet
    t += MIN;
    await s.recall('quarterly tax return paperwork deadline');
    s.clearDivergence();
    expect(s.latestDivergence()).toBeNull();
    t += MIN;
    // the same evidence as the alert that was shown: held
    expect((await s.recall('quarterly tax return paperwork deadline')).divergence).toMatchObject({ show: false, reason: 'dismissed' });

    // the recent work moves on (three hours later, a new sitting on another topic): a far query shows again
    t += 3 * 60 * MIN;
    await s.addMemory({ text: 'Marathon training: ran twenty miles along the river', tags: ['running'] });
    t += MIN;
    await s.addMemory({ text: 'Long run recovery: stretched hamstrings after the river run', tags: ['running'] });
    t += MIN;
    const again = await s.recall('quarterly tax return paperwork deadline');
    expect(again.divergence).toMatchObject({ show: true, topic: 'running' });
  });

  it('a new sitting (reload: fresh services on the same database) never shows on its first step', async () => {
    let t = 1_700_000_000_000;
    const { dbName } = await startServices({ dim: 512, resources, now: () => t });
    await services().addMemory({ text: 'Simmered a tomato sauce with basil and garlic' });
    t += MIN;
    await services().addMemory({ text: 'Roasted garlic for the tomato sauce' });
    t += MIN;
    await startServices({ dim: 512, resources, now: () => t, dbName });
    const first = await services().recall('quarterly tax return paperwork deadline');
    expect(first.divergence).toMatchObject({ show: false, reason: 'session-just-started' });
    t += MIN;
    expect((await services().recall('quarterly tax return paperwork deadline')).divergence).toMatchObject({ show: true });
  });
});
