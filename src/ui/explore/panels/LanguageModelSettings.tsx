// Settings: "Use a language model running on this computer" (issue 11). Off by default; the
// address must be this computer (localhost, 127.0.0.1): anything else is refused with the
// reason, before anything is stored or sent. The key is stored on this device only (never in
// backups) and never shown again. "Let it read deeper searches" (off by default) makes it deep
// search's reader (docs/ARCHITECTURE.md, "Deep search with the language model").
import { useEffect, useId, useState } from 'react';
import { services } from '../../../services';
import type { LanguageModelSetting } from '../../../services/language-model';
import { errorMessage } from '../../app/format';

export function LanguageModelSettings() {
  const id = useId();
  const [loaded, setLoaded] = useState<LanguageModelSetting | null>(null);
  const [enabled, setEnabled] = useState(false);
  const [baseUrl, setBaseUrl] = useState('');
  const [model, setModel] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [deepReader, setDeepReader] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    services()
      .languageModel()
      .then((s) => {
        if (!live) return;
        setLoaded(s);
        setEnabled(s.enabled);
        setBaseUrl(s.baseUrl);
        setModel(s.model);
        setDeepReader(s.deepReader);
      })
      .catch((e: unknown) => live && setError(errorMessage(e)));
    return () => {
      live = false;
    };
  }, []);

  const save = async () => {
    setError(null);
    setNotice(null);
    try {
      const s = await services().saveLanguageModel({ enabled, baseUrl, model, deepReader, ...(apiKey ? { apiKey } : {}) });
      setLoaded(s);
      setBaseUrl(s.baseUrl);
      setDeepReader(s.deepReader);
      setApiKey('');
      setNotice(
        s.enabled ? `Recall can now ask ${s.model} at ${s.baseUrl}${s.deepReader ? ', and it reads deeper searches' : ''}.` : 'The language model is off.',
      );
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  const forgetKey = async () => {
    setError(null);
    try {
      setLoaded(await services().saveLanguageModel({ enabled, baseUrl, model, deepReader, apiKey: '' }));
      setNotice('The key was removed from this device.');
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  return (
    <div className="mg-x" data-testid="language-model-settings">
      <p className="field__hint">
        Off unless you turn it on. Only a model running on this computer can be used (for example Ollama), so your memories never leave this
        device. It helps only when you ask for reworded searches or a sketched answer in the recall options, or when you let it read deeper
        searches.
      </p>
      <label className="mg-check">
        <input type="checkbox" data-testid="language-model-enabled" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
        <span>Use a language model running on this computer</span>
      </label>
      <div className="mg-field">
        <label htmlFor={`${id}-url`}>Address</label>
        <input
          id={`${id}-url`}
          className="mg-input"
          data-testid="language-model-url"
          type="url"
          value={baseUrl}
          placeholder="http://localhost:11434/v1"
          onChange={(e) => setBaseUrl(e.target.value)}
        />
      </div>
      <div className="mg-field">
        <label htmlFor={`${id}-model`}>Model name</label>
        <input
          id={`${id}-model`}
          className="mg-input"
          data-testid="language-model-name"
          value={model}
          placeholder="llama3.2"
          onChange={(e) => setModel(e.target.value)}
        />
      </div>
      <div className="mg-field">
        <label htmlFor={`${id}-key`}>Key (optional)</label>
        <input
          id={`${id}-key`}
          className="mg-input"
          data-testid="language-model-key"
          type="password"
          autoComplete="off"
          value={apiKey}
          placeholder={loaded?.hasKey ? 'A key is stored on this device' : 'Most local models need none'}
          onChange={(e) => setApiKey(e.target.value)}
        />
      </div>
      <label className="mg-check">
        <input
          type="checkbox"
          data-testid="language-model-deep-reader"
          checked={enabled && deepReader}
          disabled={!enabled}
          onChange={(e) => setDeepReader(e.target.checked)}
        />
        <span>Let the language model on this computer read deeper searches</span>
      </label>
      <div className="actions">
        <button type="button" className="btn btn--primary" data-testid="language-model-save" onClick={save}>
          Save language model
        </button>
        {loaded?.hasKey && (
          <button type="button" className="btn btn--ghost" onClick={forgetKey}>
            Remove the key
          </button>
        )}
      </div>
      {error && (
        <p className="alert alert--error" role="alert" data-testid="language-model-error">
          {error}
        </p>
      )}
      {notice && (
        <p className="note" role="status" data-testid="language-model-notice">
          {notice}
        </p>
      )}
      <details className="mg-details mg-small">
        <summary>Details</summary>
        <p className="mg-muted">
          Any server speaking the OpenAI chat API (POST /v1/chat/completions) on localhost or 127.0.0.1: Ollama (http://localhost:11434/v1),
          llama.cpp server (http://localhost:8080/v1), LM Studio (http://localhost:1234/v1). Calls time out after 10 s; recall then uses your
          memories alone and says so. Reading deeper searches: when your first results look unsure, the model is sent the question and up to
          50 nearby memories (about 8,000 tokens at most), once per deeper search; its reasons show on the memories it adds. If it is busy or
          answers something unreadable, deeper search reads without it; if it is slower than deeper search's time limit, you get your first
          results.
        </p>
      </details>
    </div>
  );
}
