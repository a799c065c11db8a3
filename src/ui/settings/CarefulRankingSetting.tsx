// Settings' "Careful ranking" row: the switch (on by default when its model is present), one
// sentence on where it is ("has read 340 of 1,000 memories"), the figures under "details".
import { useEffect, useId, useState } from 'react';
import { services } from '../../services';
import type { CarefulRankingStatus } from '../../services/judge';
import { errorMessage } from '../app/format';
import { carefulFigures, carefulStatusWords } from './careful-words';

function useCarefulRanking(): CarefulRankingStatus | null {
  const [s, set] = useState<CarefulRankingStatus | null>(null);
  useEffect(() => services().onCarefulRanking(set), []);
  return s;
}

export function CarefulRankingSetting() {
  const id = useId();
  const s = useCarefulRanking();
  const [error, setError] = useState<string | null>(null);
  if (!s) return null;
  const usable = s.model !== 'none' && s.model !== 'unavailable';
  return (
    <div className="settings-row" data-testid="settings-careful">
      <label className="settings-row__label" htmlFor={`${id}-careful`}>
        Careful ranking
      </label>
      <div className="settings-row__control">
        <label className="settings-switch">
          <input
            id={`${id}-careful`}
            type="checkbox"
            role="switch"
            data-testid="settings-careful-switch"
            checked={s.on && usable}
            disabled={!usable}
            aria-describedby={`${id}-careful-status`}
            onChange={(e) => {
              setError(null);
              services()
                .setCarefulRanking(e.target.checked)
                .catch((err: unknown) => setError(errorMessage(err)));
            }}
          />
          {s.on && usable ? 'On' : 'Off'}
        </label>
        <p id={`${id}-careful-status`} className="field__hint" role="status" data-testid="settings-careful-status">
          {carefulStatusWords(s)}
        </p>
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <p className="field__hint settings-row__hint">A larger model reads the best answers a second time, to put the closest one first. It runs in this browser and reads your memories once, in the background.</p>
        {s.figures && (
          <details className="details">
            <summary>details</summary>
            <ul data-testid="settings-careful-figures">
              {carefulFigures(s).map((l) => (
                <li key={l}>{l}</li>
              ))}
            </ul>
          </details>
        )}
      </div>
    </div>
  );
}
