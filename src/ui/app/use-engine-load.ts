// The search engine's staged start as the UI sees it: warm once the stored features are in (a
// fresh engine answers by words first). Unknown (no staged load told yet) counts as warm: the
// next recall starts the engine, and its answer says itself whether it was partial.
import { useSyncExternalStore } from 'react';
import { services } from '../../services';

function subscribe(listener: () => void): () => void {
  return services().onEngineLoad(() => listener());
}

const stageNow = (): string => services().engineLoad()?.stage ?? 'warm';

/** true once the engine has every stored feature (or no staged load is under way). */
export function useEngineWarm(): boolean {
  return useSyncExternalStore(subscribe, stageNow, stageNow) === 'warm';
}
