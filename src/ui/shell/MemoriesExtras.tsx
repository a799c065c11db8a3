// Two small parts of the Memories view that the shell owns: on a phone the capture form folds
// behind a "New memory" button (search comes first), and an empty store is offered the sample.
import { useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { services } from '../../services';
import { CaptureForm } from '../components/CaptureForm';
import { CAPTURE_BOX } from './actions';
import { focusWhenPresent } from './navigate';
import { SampleJobCard } from './SampleJobCard';
import { useSampleJob } from './sample-job';
import { useShell } from './shell-store';

export const PHONE_QUERY = '(max-width: 640px)';

/** True on a phone-sized window, following resizes and rotation. */
export function usePhone(): boolean {
  const get = () => typeof matchMedia === 'function' && matchMedia(PHONE_QUERY).matches;
  const [phone, setPhone] = useState(get);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const mq = matchMedia(PHONE_QUERY);
    const on = () => setPhone(mq.matches);
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, []);
  return phone;
}

/** The capture form; on a phone folded behind "New memory" until asked for. */
export function CaptureSlot({ disabled, phone }: { disabled: boolean; phone: boolean }) {
  const { captureOpen, set } = useShell();
  if (phone && !captureOpen)
    return (
      <button
        type="button"
        className="btn btn--primary new-memory"
        data-testid="new-memory"
        aria-expanded="false"
        onClick={() => {
          set({ captureOpen: true });
          focusWhenPresent(CAPTURE_BOX);
        }}
      >
        <span aria-hidden="true">+ </span>New memory
      </button>
    );
  return (
    <div className="capture-slot">
      {phone && (
        <button type="button" className="btn btn--ghost btn--small capture-slot__fold" aria-expanded="true" onClick={() => set({ captureOpen: false })}>
          Fold the new-memory form
        </button>
      )}
      <CaptureForm disabled={disabled} />
    </div>
  );
}

/** The sample collection, offered while the store is empty (and while it loads). */
export function EmptySample() {
  const count = useLiveQuery(() => services().countMemories(), [], undefined);
  const job = useSampleJob();
  if (count !== 0 && job.state !== 'running') return null;
  return <SampleJobCard hero className="memories__sample" />;
}
