import { useId, useState } from 'react';
import { services } from '../../services';
import { ActionError, toShown, type ShownError } from '../data/ActionError';

/** Adds a model from a folder on this device (config.json, tokenizer.json, onnx/*.onnx). */
export function FolderPicker({ onAdded }: { onAdded(): void }) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | null>(null);
  const [added, setAdded] = useState<string | null>(null);

  async function pick(list: FileList | null) {
    if (!list || list.length === 0) return;
    setBusy(true);
    setError(null);
    setAdded(null);
    try {
      const files = [...list];
      const top = (files[0].webkitRelativePath || files[0].name).split('/')[0];
      // only the files a model needs are read (a picked folder may hold much more)
      const wanted = files.filter((f) => /(^|\/)(config\.json|tokenizer(_config)?\.json|special_tokens_map\.json|README\.md|config_sentence_transformers\.json|1_Pooling\/config\.json|onnx\/[^/]+\.onnx)$/.test(f.webkitRelativePath || f.name));
      const picked = await Promise.all(wanted.map(async (f) => ({ path: f.webkitRelativePath || f.name, bytes: new Uint8Array(await f.arrayBuffer()) })));
      const entry = await services().addEncoderFromFolder(top, picked);
      setAdded(entry.label);
      onAdded();
    } catch (e) {
      setError(toShown(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card models-card" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`} className="models__group">
        Add a model from a folder
      </h3>
      <p className="field__hint">
        A folder laid out like the model hub’s: config.json, tokenizer.json and an onnx folder with the weights. It is kept on
        this device.
      </p>
      <label className="btn btn--secondary data__picker">
        {busy ? 'Reading the folder…' : 'Choose a folder'}
        <input
          type="file"
          className="sr-only"
          data-testid="model-folder-input"
          disabled={busy}
          // the folder picker: every file under the chosen folder, with its relative path
          {...({ webkitdirectory: '', directory: '' } as Record<string, string>)}
          multiple
          onChange={(e) => void pick(e.currentTarget.files)}
        />
      </label>
      {added && (
        <p className="data__ok" data-testid="model-folder-added">
          Added “{added}”. You can use it now.
        </p>
      )}
      <ActionError error={error} testId="model-folder-error" />
    </section>
  );
}
