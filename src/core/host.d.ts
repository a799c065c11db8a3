// The core compiles without DOM or Node types (tsconfig.core.json), yet every place it runs (the
// page, a worker, Node) provides these two host objects; this is all of them the core may use.
export {};

declare global {
  const console: {
    warn(...data: unknown[]): void;
    info(...data: unknown[]): void;
    error(...data: unknown[]): void;
  };

  class TextDecoder {
    constructor(label?: string);
    decode(input?: ArrayBufferView | ArrayBuffer): string;
  }
}
