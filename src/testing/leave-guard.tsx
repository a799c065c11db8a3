// The page's leave guard in a test: mount <LeaveGuarded /> beside what is tested, then leaveAsks()
// sends the event a close or reload of the tab sends and says whether the page asked to stay.
import { useLeaveGuard } from '../ui/components/capture-draft';

export function LeaveGuarded() {
  useLeaveGuard();
  return null;
}

/** true when the page asked the browser to stay (it would show "Leave site?"). */
export function leaveAsks(): boolean {
  const e = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(e);
  return e.defaultPrevented;
}
