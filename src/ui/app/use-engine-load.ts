// The search engine's staged start as the UI sees it: warm once the stored features are in (a
// fresh engine answers by words first). Unknown (no staged load told yet) counts as warm: the
// next recall starts the engine, and its answer says itself whether it was partial.
import { useSyncExternalStore } from 'react';
import { services } from '../../services';

function subscribe(listener: () => void): () => void {
  return services().onEngineLoad(() => listener());
}

const stageNow = (): string => services().engineLoad()?.stage ?? 'warm';
const none = (): (() => void) => () => {};
const warm = (): string => 'warm';

/**
 * true once the engine has every stored feature (or no staged load is under way). `open` says
 * whether the services are running: a screen drawn before the database opens passes false (the
 * services throw NOT_READY until then) and counts as warm.
 */
export function useEngineWarm(open = true): boolean {
  return useSyncExternalStore(open ? subscribe : none, open ? stageNow : warm, open ? stageNow : warm) === 'warm';
}
