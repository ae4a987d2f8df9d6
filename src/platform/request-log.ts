import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

/**
 * A request's logger, built the first time the request logs. Per-request access logs are off, so most answers log
 * nothing; building pino's child logger (its bindings written out as JSON) on every request cost about 1% of a keyed
 * GET's CPU for a logger that was never used. Once built, every call goes to the same child: its lines carry the
 * request id exactly as before.
 */
export class RequestLog implements FastifyBaseLogger {
  #child: FastifyBaseLogger | undefined;
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }
  get #log(): FastifyBaseLogger {
    return (this.#child ??= this.#parent.child(this.#bindings, this.#options));
  }
  get level(): string {
    return this.#log.level;
  }
  set level(level: string) {
    this.#log.level = level;
  }
  // Methods on the prototype: a request's logger is one small object, not one closure per level.
  fatal(...args: unknown[]): void {
    Reflect.apply(this.#log.fatal, this.#log, args);
  }
  error(...args: unknown[]): void {
    Reflect.apply(this.#log.error, this.#log, args);
  }
  warn(...args: unknown[]): void {
    Reflect.apply(this.#log.warn, this.#log, args);
  }
  info(...args: unknown[]): void {
    Reflect.apply(this.#log.info, this.#log, args);
  }
  debug(...args: unknown[]): void {
    Reflect.apply(this.#log.debug, this.#log, args);
  }
  trace(...args: unknown[]): void {
    Reflect.apply(this.#log.trace, this.#log, args);
  }
  silent(...args: unknown[]): void {
    Reflect.apply(this.#log.silent, this.#log, args);
  }
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#log.child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: each request's logger is a `RequestLog`. */
export function lazyRequestLog(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new RequestLog(logger, bindings, options);
}
