// The lateral evaluator's status as the engine reports it, refreshed after whatever can change it
// (a recall, a reinforce, a suppress, a re-enable).
import { useCallback, useEffect, useState } from 'react';
import { lateralStatus, reEnableLateral } from '../../services';
import type { LateralStatus } from '../../core/recall';
import { toastError } from '../app/report';

export interface UseLateralStatus {
  status: LateralStatus | null;
  refresh(): void;
  reEnable(): void;
}

export function useLateralStatus(): UseLateralStatus {
  const [status, setStatus] = useState<LateralStatus | null>(null);
  const refresh = useCallback(() => {
    lateralStatus().then(setStatus, (e: unknown) => toastError(e));
  }, []);
  const reEnable = useCallback(() => {
    reEnableLateral().then(setStatus, (e: unknown) => toastError(e));
  }, []);
  useEffect(refresh, [refresh]);
  return { status, refresh, reEnable };
}
