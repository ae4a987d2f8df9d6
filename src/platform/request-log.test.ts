/** A request's logger is built only when the request logs, and then logs as pino's child would: with the request id. */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import Fastify, { LogController } from 'fastify';
import { lazyRequestLog } from './request-log.ts';

test("a request's logger is built on its first line, carries the request id, and answers to level and child", async () => {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const app = Fastify({
    logger: { level: 'info', stream },
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyRequestLog,
    genReqId: (req) => String(req.headers['x-request-id']),
  });
  let built = 0;
  let builtByLines = -1;
  // Counts every child built from the server's logger (and, through pino's prototypes, from its children).
  const child = app.log.child;
  app.log.child = function (this: typeof app.log, ...args: Parameters<typeof child>) {
    built++;
    return child.apply(this, args);
  };
  app.get('/quiet', async () => ({ ok: true }));
  app.get('/loud', async (req) => {
    req.log.info({ animal: 'ani_1' }, 'looked up');
    req.log.warn('twice');
    builtByLines = built;
    assert.equal(req.log.level, 'info');
    req.log.child({ step: 'inner' }).info('nested');
    return { ok: true };
  });
  try {
    for (let i = 0; i < 3; i++) assert.equal((await app.inject({ url: '/quiet', headers: { 'x-request-id': `q${i}` } })).statusCode, 200);
    assert.equal(built, 0, 'no request logged, so no child logger was built');
    assert.equal(lines.length, 0);
    assert.equal((await app.inject({ url: '/loud', headers: { 'x-request-id': 'r-1' } })).statusCode, 200);
    assert.equal(builtByLines, 1, 'one child for the request that logged, however many lines');
    assert.deepEqual(
      lines.map((l) => [l.reqId, l.msg, l.level, l.animal ?? l.step ?? null]),
      [
        ['r-1', 'looked up', 30, 'ani_1'],
        ['r-1', 'twice', 40, null],
        ['r-1', 'nested', 30, 'inner'],
      ],
    );
  } finally {
    await app.close();
  }
});
