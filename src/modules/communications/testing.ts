import { SMTPServer, type SMTPServerAddress } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';

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
