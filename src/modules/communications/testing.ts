import { SMTPServer, type SMTPServerAddress } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';
import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { testApp, type TestApp } from '../../../test/harness.ts';
import { startInboundListener, type InboundListener } from './inbound.ts';

/** A real SMTP server on loopback (port 0) standing in for a provider in tests. */
export interface FakeProvider {
  url: string;
  port: number;
  received: ParsedMail[];
  raw: string[];
  envelopes: string[][];
  close(): Promise<void>;
}

export async function fakeProvider(
  opts: { name?: string; failMailFrom?: number; rejectRcpt?: (address: string) => number | null } = {},
): Promise<FakeProvider> {
  const received: ParsedMail[] = [];
  const raw: string[] = [];
  const envelopes: string[][] = [];
  let n = 0;
  const fail = (code: number, text: string) => Object.assign(new Error(text), { responseCode: code });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    disableReverseLookup: true,
    onMailFrom(_a: SMTPServerAddress, _s, cb) {
      if (opts.failMailFrom) return cb(fail(opts.failMailFrom, opts.failMailFrom >= 500 ? 'Account suspended' : 'Try again later'));
      cb();
    },
    onRcptTo(a: SMTPServerAddress, _s, cb) {
      const code = opts.rejectRcpt?.(a.address) ?? null;
      if (code) return cb(fail(code, code >= 500 ? 'No such user here' : 'Mailbox busy'));
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        raw.push(text);
        envelopes.push(session.envelope.rcptTo.map((r) => r.address));
        void simpleParser(text).then((m) => {
          received.push(m);
          n += 1;
          cb(null, `Message queued as ${opts.name ?? 'fake'}-${n}`);
        });
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}?name=${opts.name ?? 'fake'}`,
    port,
    received,
    raw,
    envelopes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The inbound-mail test bench: a fake provider, an app sending through it, the inbound SMTP listener
 * on loopback, and `mail` to deliver a message to that listener. Call from `before`; `close` in `after`.
 */
export interface InboundBench {
  app: TestApp;
  provider: FakeProvider;
  listener: InboundListener;
  /** Fields as nodemailer's `sendMail` takes them; `text` defaults to a short greeting. */
  mail(message: Record<string, unknown>): Promise<SMTPTransport.SentMessageInfo>;
  close(): Promise<void>;
}

export async function inboundBench(): Promise<InboundBench> {
  const provider = await fakeProvider({ name: 'good' });
  const app = await testApp({ smtpProviders: provider.url });
  const listener = await startInboundListener(app.db, app.ctx.config, { port: 0, host: '127.0.0.1' });
  return {
    app,
    provider,
    listener,
    async mail(message) {
      const c = nodemailer.createTransport({ host: '127.0.0.1', port: listener.port, secure: false, ignoreTLS: true });
      try {
        return await c.sendMail({ text: 'Hello there', ...message });
      } finally {
        c.close();
      }
    },
    async close() {
      await listener.close();
      await app.close();
      await provider.close();
    },
  };
}
