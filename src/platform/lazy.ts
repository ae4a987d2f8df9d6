import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);

/**
 * A CommonJS package loaded on its first use instead of at start-up. Large packages that only some
 * requests need (PDF, images, mail parsing, HTML sanitizing) cost every process, and every test
 * file, their load time otherwise. Use: `const pdf = lazyRequire<typeof import('pdfkit')>('pdfkit')`,
 * then `new (pdf())(...)`.
 */
export function lazyRequire<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= requireHere(name) as T);
}
