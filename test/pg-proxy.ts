/**
 * A TCP proxy in front of PostgreSQL for outage tests: `down()` cuts every open connection and refuses new ones
 * (each accepted socket is closed at once and counted), `up()` forwards again. It counts connections so a test
 * can see how often a client retried and how many connections it held at once.
 */
import net from 'node:net';

export interface PgProxy {
  /** postgres://... URL through the proxy (same user, password and database as the target). */
  url: string;
  /** Connections accepted so far (forwarded or refused). */
  readonly accepted: number;
  /** Connections open right now, and the most ever open at once since the last `resetPeak()`. */
  readonly open: number;
  readonly peak: number;
  resetPeak(): void;
  down(): void;
  up(): void;
  close(): Promise<void>;
}

export async function pgProxy(targetUrl: string): Promise<PgProxy> {
  const target = new URL(targetUrl);
  const sockets = new Set<net.Socket>();
  let isDown = false;
  let accepted = 0;
  let peak = 0;
  const server = net.createServer((socket) => {
    accepted++;
    socket.on('error', () => undefined);
    if (isDown) {
      socket.destroy();
      return;
    }
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    upstream.on('error', () => socket.destroy());
    socket.on('close', () => {
      upstream.destroy();
      sockets.delete(socket);
    });
    upstream.on('close', () => socket.destroy());
    sockets.add(socket);
    peak = Math.max(peak, sockets.size);
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    get accepted() {
      return accepted;
    },
    get open() {
      return sockets.size;
    },
    get peak() {
      return peak;
    },
    resetPeak() {
      peak = sockets.size;
    },
    down() {
      isDown = true;
      for (const s of sockets) s.destroy();
    },
    up() {
      isDown = false;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
