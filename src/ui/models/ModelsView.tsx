import { useCallback, useId, useState } from 'react';
import { bootStatus } from '../app/boot';
import { useExternal } from '../app/use-store';
import { services, type EncoderChoice } from '../../services';
import { ActionError, toShown, type ShownError } from '../data/ActionError';
import { ModelItem } from './ModelItem';
import { SwitchPanel } from './SwitchPanel';
import { FolderPicker } from './FolderPicker';
import { useDownload, useEncoderChoices, useEncoderSwitch } from './use-models';
import './models.css';

/** "Search model": the encoder in use, a switch under way, the encoders on offer, a model from a folder. */
export function ModelsView() {
  const boot = useExternal(bootStatus);
  if (boot.state !== 'ready') {
    return (
      <p className="field__hint" data-testid="models-waiting">
        {boot.state === 'starting' ? 'Opening your memories…' : 'Your memories could not be opened, so the search model cannot be changed.'}
      </p>
    );
  }
  return <ModelsReady />;
}

function ModelsReady() {
  const id = useId();
  const sw = useEncoderSwitch();
  const { choices, refresh } = useEncoderChoices(sw.state, sw.active);
  const download = useDownload(refresh);
  const [error, setError] = useState<ShownError | null>(null);
  const act = useCallback(
    async (fn: () => Promise<unknown>) => {
      setError(null);
      try {
        await fn();
      } catch (e) {
        setError(toShown(e));
      } finally {
        refresh();
      }
    },
    [refresh],
  );
  const nameOf = (encoderId: string | null) => choices?.find((c) => c.entry.id === encoderId)?.entry.label ?? encoderId ?? '';
  const switching = sw.state !== 'idle';
  const groups: { title: string; items: EncoderChoice[] }[] = choices
    ? [
        { title: 'Comes with the app', items: choices.filter((c) => c.entry.source === 'bundled') },
        { title: 'Download when you want (needs the internet once)', items: choices.filter((c) => c.entry.source === 'hub') },
        { title: 'Added from a folder', items: choices.filter((c) => c.entry.source === 'folder') },
      ].filter((g) => g.items.length > 0)
    : [];

  return (
    <div className="models-view" data-testid="models-view">
      <section className="card models-card" aria-labelledby={`${id}-h`}>
        <h2 id={`${id}-h`} className="card__title">
          Search model
        </h2>
        <p className="field__hint">
          The search model turns each memory into numbers that capture its meaning, so you can find a memory by what it means
          and not only by its words. It runs on this device. Changing it prepares every memory again in the background; search
          keeps working with the current model until that is done.
        </p>
        <p className="models__active" data-testid="model-active" data-model-id={sw.active}>
          In use: <strong>{nameOf(sw.active)}</strong>
        </p>
        {switching && (
          <SwitchPanel
            status={sw}
            toName={nameOf(sw.to)}
            fromName={nameOf(sw.active)}
            onPause={() => act(() => services().pauseEncoderSwitch())}
            onResume={() => act(() => services().resumeEncoderSwitch())}
            onCancel={() => act(() => services().cancelEncoderSwitch())}
          />
        )}
        <ActionError error={error} testId="model-error" />
      </section>

      {choices === null ? (
        <p className="field__hint">Looking for models…</p>
      ) : (
        groups.map((g) => (
          <section key={g.title} className="card models-card" aria-label={g.title}>
            <h3 className="models__group">{g.title}</h3>
            <ul className="models__list">
              {g.items.map((c) => (
                <ModelItem
                  key={c.entry.id}
                  choice={c}
                  switching={switching}
                  download={download.running?.id === c.entry.id ? download.running : null}
                  downloadBusy={!!download.running}
                  downloadError={download.error?.id === c.entry.id ? download.error : null}
                  justDownloaded={download.done === c.entry.id}
                  onDownload={() => void download.start(c.entry.id)}
                  onCancelDownload={download.cancel}
                  onUse={() => act(() => services().switchEncoder(c.entry.id))}
                  onRemove={() => act(() => services().removeEncoder(c.entry.id))}
                />
              ))}
            </ul>
          </section>
        ))
      )}

      <FolderPicker onAdded={refresh} />
      <p className="field__hint models__privacy">
        Downloading a model is the only time Mnemograph goes online, and only when you press Download. The files come from
        huggingface.co, are checked against the checksums this version of the app expects, and are kept on this device so the
        model works offline. Your memories are never sent anywhere.
      </p>
    </div>
  );
}
