import { Db } from './src/platform/db/db.ts';
import { buildApp } from './src/app.ts';
import { loadConfig } from './src/config.ts';
import { createOrganization } from './src/modules/settings/service.ts';
const db = new Db('postgres://postgres@127.0.0.1:5432/pubdbg', 3);
const config = { ...loadConfig({}) };
const { app } = await buildApp({ config, db, logger: true } as any);
const slug = 'o' + Date.now();
await createOrganization(db, { slug, name: 'Test' });
const host = `${slug}.${config.baseDomain}`;
for (const url of ['/animals', '/', '/sitemap.xml']) {
  const r = await app.inject({ method: 'GET', url, headers: { host } });
  console.log(url, r.statusCode, r.headers['etag'], r.body.slice(0, 100));
}
process.exit(0);
