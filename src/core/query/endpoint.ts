// The language-model endpoint the person configures: only this computer (loopback) is allowed,
// so nothing leaves the device unless the person runs the model themselves. The
// Content-Security-Policy's connect-src allows the same hosts (vite.config.ts).

import { AppError } from '../errors';

export interface ModelEndpoint {
  /** e.g. http://localhost:11434/v1 (Ollama); the chat call goes to `${baseUrl}/chat/completions`. */
  baseUrl: string;
  model: string;
  /** Optional bearer key; stored only on this device. */
  apiKey?: string;
}

/**
 * localhost or 127.0.0.1: the loopback hosts the Content-Security-Policy can name
 * (vite.config.ts LOOPBACK_SOURCES; a policy has no form for an IPv6 literal such as [::1]). Other 127.x.x.x addresses are loopback too, but a
 * policy cannot list the whole 127.0.0.0/8 range, so they are refused here with the same reason
 * rather than failing later as a blocked request.
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '127.0.0.1';
}

/** The endpoint with its base URL normalised (no trailing slash), or INVALID_CONFIG saying why not. */
export function checkModelEndpoint(e: { baseUrl: unknown; model: unknown; apiKey?: unknown }): ModelEndpoint {
  if (typeof e.baseUrl !== 'string' || !e.baseUrl.trim()) throw new AppError('INVALID_CONFIG', 'Enter the address of the language model, e.g. http://localhost:11434/v1.');
  const url = /^(https?):\/\/(?:([^@/?#]*)@)?(\[[^\]]*\]|[^:/?#]*)(:\d{1,5})?(\/[^?#]*)?([?#].*)?$/i.exec(e.baseUrl.trim());
  if (!url) {
    if (!/^https?:\/\//i.test(e.baseUrl.trim())) throw new AppError('INVALID_CONFIG', 'The address must start with http:// or https://, e.g. http://localhost:11434/v1.');
    throw new AppError('INVALID_CONFIG', `"${e.baseUrl}" is not a web address. Use one like http://localhost:11434/v1.`);
  }
  const [, scheme, userinfo, host, port = '', path = '', rest] = url;
  if (userinfo !== undefined) throw new AppError('INVALID_CONFIG', 'Put the key in the key field, not in the address.');
  if (rest) throw new AppError('INVALID_CONFIG', 'The address must not carry a query or a fragment (the part after ? or #).');
  if (!host) throw new AppError('INVALID_CONFIG', `"${e.baseUrl}" names no computer. Use one like http://localhost:11434/v1.`);
  if (host.replace(/^\[|\]$/g, '') === '::1')
    throw new AppError('INVALID_CONFIG', 'Use http://localhost with the same port instead of [::1]: the browser cannot be allowed to reach [::1] by address.');
  if (!isLoopbackHost(host))
    throw new AppError(
      'INVALID_CONFIG',
      `Only a language model running on this computer can be used (localhost or 127.0.0.1); "${host}" is another machine, and your memories would leave this device.`,
    );
  if (typeof e.model !== 'string' || !e.model.trim()) throw new AppError('INVALID_CONFIG', 'Enter the model name, e.g. llama3.2.');
  const apiKey = typeof e.apiKey === 'string' && e.apiKey.trim() ? e.apiKey.trim() : undefined;
  const baseUrl = `${scheme.toLowerCase()}://${host.toLowerCase()}${port}${path.replace(/\/+$/, '')}`;
  return { baseUrl, model: e.model.trim().slice(0, 200), ...(apiKey ? { apiKey } : {}) };
}
