// Moving between views (the header's tabs, the command palette, the guide) and putting focus
// where the person will type next. Every view change is a history entry (src/ui/app/routes.ts).
import { currentRoute, pushRoute, useUi, type View } from '../../state/ui-store';
import { KEEP_VIEWS, route, type Route } from '../app/routes';
import { useExplore } from '../explore/explore-store';
import { useKeep } from '../memories/keep-store';
import { useShell } from './shell-store';

/** The page follows an address: the view, and in Explore the recall and the open memory. */
export function follow(r: Route): void {
  useUi.setState({ view: r.view });
  if (r.view === 'graph') useExplore.getState().applyRoute(r);
  if (KEEP_VIEWS.includes(r.view)) useKeep.getState().applyRoute(r);
}

/** A step to a view (a history entry); in Explore it also closes a memory left open. */
export function go(view: View): void {
  const r = route(view);
  pushRoute(r);
  follow(r);
}

/** Goes to Explore with a recall (the view runs it once the encoder is ready). */
export function goRecall(q: string, profile: Route['profile']): void {
  const r = route('graph', { q, profile });
  pushRoute(r);
  follow(r);
}

/** The current view, as the address says. */
export const currentView = (): View => currentRoute().view;

/**
 * Focuses the element `selector` names as soon as it is on the page (a view switch renders it on
 * the next frames); gives up after about half a second of frames if it never appears.
 */
export function focusWhenPresent(selector: string, frames = 30): void {
  const el = document.querySelector<HTMLElement>(selector);
  if (el && !(el as HTMLInputElement).disabled) {
    el.focus();
    el.scrollIntoView?.({ block: 'nearest' });
    return;
  }
  if (frames > 0) requestAnimationFrame(() => focusWhenPresent(selector, frames - 1));
}

/** The first-run guide asked for again (its dismissal already cleared): the Memories view, the guide unfolded, its title focused. */
export function openGuide(): void {
  useShell.getState().set({ guideOpen: true });
  if (useUi.getState().view !== 'memories') go('memories');
  requestAnimationFrame(() => focusWhenPresent('[data-testid="first-run-guide"] h2'));
}
