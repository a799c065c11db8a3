// The model manager's state: the encoders on offer (re-read after every change), the switch of
// encoders as it runs, and a download with its progress and cancel.
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { services, type EncoderChoice, type EncoderSwitchStatus } from '../../services';
import type { DownloadProgress } from '../../embed/model-download';
import { toShown, type ShownError } from '../data/ActionError';

const IDLE: EncoderSwitchStatus = { state: 'idle', active: '', to: null, done: 0, total: 0, error: null, msPerMemory: null };

/** The switch of encoders as it runs (idle when none). */
export function useEncoderSwitch(): EncoderSwitchStatus {
  return useSyncExternalStore(
    (fn) => services().subscribeEncoderSwitch(fn),
    () => services().encoderSwitchStatus() ?? IDLE,
  );
}

/** The encoders on offer; `refresh` after any change (the switch's state changes refresh it too). */
export function useEncoderChoices(switchState: string, active: string) {
  const [choices, setChoices] = useState<EncoderChoice[] | null>(null);
  const [tick, setTick] = useState(0);
  const refresh = useCallback(() => setTick((t) => t + 1), []);
  useEffect(() => {
    let live = true;
    services()
      .listEncoders()
      .then((c) => live && setChoices(c))
      .catch(() => live && setChoices([]));
    return () => {
      live = false;
    };
  }, [tick, switchState, active]);
  return { choices, refresh };
}

export interface DownloadState {
  id: string;
  progress: DownloadProgress | null;
}

/** One download at a time: progress, cancel, and the outcome (done or the error to show). */
export function useDownload(onDone: () => void) {
  const [running, setRunning] = useState<DownloadState | null>(null);
  const [error, setError] = useState<(ShownError & { id: string }) | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const ac = useRef<AbortController | null>(null);
  const start = useCallback(
    async (id: string) => {
      ac.current?.abort();
      const ctl = new AbortController();
      ac.current = ctl;
      setError(null);
      setDone(null);
      setRunning({ id, progress: null });
      try {
        await services().downloadEncoder(id, { signal: ctl.signal, onProgress: (p) => setRunning({ id, progress: p }) });
        setDone(id);
      } catch (e) {
        const shown = toShown(e);
        if (shown.code !== 'ABORTED') setError({ ...shown, id });
      } finally {
        if (ac.current === ctl) ac.current = null;
        setRunning(null);
        onDone();
      }
    },
    [onDone],
  );
  const cancel = useCallback(() => ac.current?.abort(), []);
  useEffect(() => () => ac.current?.abort(), []);
  return { running, error, done, start, cancel };
}
