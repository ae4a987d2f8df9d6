/**
 * Platform-wide suppression list (all organizations), managed only here and by hard bounces:
 *   node --import tsx src/modules/communications/cli.ts suppress add <address> [--reason <text>]
 *   node --import tsx src/modules/communications/cli.ts suppress remove <address>
 *   node --import tsx src/modules/communications/cli.ts suppress list
 * Same DATABASE_URL / ARK_DATA_DIR as the server. Bad arguments: one line on stderr, exit 2.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../../config.ts';
import { openStore } from '../../platform/db/connect.ts';
import { isEmail } from '../../platform/validators.ts';
import { addPlatformSuppression, listPlatformSuppressions, removePlatformSuppression } from './suppress.ts';

const [group, action, ...rest] = process.argv.slice(2);
const { values, positionals } = parseArgs({ args: rest, options: { reason: { type: 'string' } }, allowPositionals: true, strict: false });
const address = positionals[0];
const fail = (msg: string) => {
  console.error(`ark: ${msg}`);
  process.exit(2);
};
if (group !== 'suppress' || !['add', 'remove', 'list'].includes(action ?? '')) fail('usage: suppress add <address> [--reason <text>] | suppress remove <address> | suppress list');
if (action !== 'list' && (!address || !isEmail(address))) fail('an email address is required');
const store = await openStore(loadConfig());
try {
  if (action === 'add') {
    await addPlatformSuppression(store.db, address, typeof values.reason === 'string' ? values.reason : 'manual (platform)', 'cli');
    console.log(`Suppressed ${address} for every organization`);
  } else if (action === 'remove') {
    console.log((await removePlatformSuppression(store.db, address)) ? `Removed ${address}` : `${address} was not on the platform list`);
  } else {
    for (const s of await listPlatformSuppressions(store.db)) console.log([s.address, s.reason, s.source, s.created_at.toISOString()].join('\t'));
  }
} finally {
  await store.close();
}
