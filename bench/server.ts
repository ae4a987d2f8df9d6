/**
 * The benchmark's server process: the whole Ark app on one port, and the two ceilings on
 * another (a bare node:http constant-JSON route, and a bare route reading one animal row by
 * primary key with a prepared statement and no kernel). Prints "ready <appPort> <barePort>".
 */
import http from 'node:http';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { Db } from '../src/platform/db/db.ts';

const url = process.env.BENCH_DATABASE_URL as string;
const orgId = process.env.BENCH_ORG_ID as string;
const config = { ...loadConfig({}), rateLimitPerMinute: 100_000_000, dbPoolSize: 20 };
const db = new Db(url, 20);
const { app } = await buildApp({ config, db });
await app.listen({ port: 0, host: '127.0.0.1' });
const appPort = (app.server.address() as { port: number }).port;

const pool = new pg.Pool({ connectionString: url, max: 20 });
const constant = JSON.stringify({ hello: 'world', ok: true });
const bare = http.createServer((req, res) => {
  if (req.url === '/const') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(constant);
    return;
  }
  const id = req.url?.slice('/animal/'.length) ?? '';
  pool
    // The same whole row GET /api/v1/animals/{id} reads, by primary key, with no kernel.
    .query({
      name: 'bare_by_id',
      text: `SELECT id, name, public_name, species, breed, status_id, location_id, intake_date, date_of_birth, sex, weight, microchip_number,
                    is_public, notes, custom_fields, created_at, updated_at FROM animals WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL`,
      values: [orgId, id],
    })
    .then((r) => {
      res.writeHead(r.rows.length ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(r.rows[0] ?? null));
    })
    .catch(() => {
      res.writeHead(500);
      res.end();
    });
});
bare.listen(0, '127.0.0.1', () => {
  const barePort = (bare.address() as { port: number }).port;
  console.log(`ready ${appPort} ${barePort}`);
});
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
