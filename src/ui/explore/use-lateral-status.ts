// The lateral evaluator's status as the engine reports it: a recall brings its own (`set`); a
// reinforce, a suppress or a re-enable asks again.
import { useCallback, useEffect, useState } from 'react';
import { services } from '../../services';
import type { LateralStatus } from '../../core/recall';
import { toastError } from '../app/report';

export interface UseLateralStatus {
  status: LateralStatus | null;
  refresh(): void;
  /** The status a recall returned with its results. */
  set(status: LateralStatus): void;
  reEnable(): void;
}

export function useLateralStatus(): UseLateralStatus {
  const [status, setStatus] = useState<LateralStatus | null>(null);
  const refresh = useCallback(() => {
    services().lateralStatus().then(setStatus, (e: unknown) => toastError(e));
  }, []);
  const reEnable = useCallback(() => {
    services().reEnableLateral().then(setStatus, (e: unknown) => toastError(e));
  }, []);
  useEffect(refresh, [refresh]);
  return { status, refresh, set: setStatus, reEnable };
}
