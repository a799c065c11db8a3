// The model reader (seed 003 C): the person's language model on this computer reads the question
// and the numbered pool and ranks it (src/core/deep/model-answer.ts parses the answer, loose or
// partial). Same endpoint rules, timeout and errors as the model transformer. Recall uses it through
// language-model.ts's deepModelReader, which the engine calls on escalation (workers/engine-deep.ts).

import { AppError } from '../core/errors';
import { parseReaderAnswer, readerPrompt, type Reader } from '../core/deep';
import type { ModelEndpoint } from '../core/query';
import { createModelChat, type ModelTransformerOptions } from './model-transformer';

export function createModelReader(endpoint: ModelEndpoint, opts: ModelTransformerOptions = {}): Reader {
  const chat = createModelChat(endpoint, opts);
  return {
    kind: 'model',
    async read(query, pool, ctx = {}) {
      if (pool.length === 0) return [];
      const content = await chat(
        'You judge which personal notes answer a question. Answer with a JSON array only.',
        readerPrompt(query.text, pool),
        { signal: ctx.signal },
      );
      const scores = parseReaderAnswer(content, pool.map((c) => c.id));
      if (!scores)
        throw new AppError('LANGUAGE_MODEL_FAILED', 'The language model on this computer sent a ranking that could not be read. Recall used your memories alone.', content.slice(0, 200));
      return scores;
    },
  };
}
