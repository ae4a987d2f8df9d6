import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openStore, type Store } from '../platform/db/connect.ts';
import { migrate } from '../platform/db/migrate.ts';
import { AppError, invalid } from '../platform/errors.ts';
import { announceChange } from '../platform/cache-bus.ts';
import { SLUG_PATTERN, Tenancy } from '../platform/tenancy.ts';
import * as settings from '../modules/settings/service.ts';
import * as settingsRepo from '../modules/settings/repository.ts';
import { isEmail } from '../platform/validators.ts';
import {
  addPlatformSuppression,
  listPlatformSuppressions,
  removePlatformSuppression,
} from '../modules/communications/delivery.repository.ts';

const USAGE = `usage:
  ark org create <slug> --name <name> [--currency <ISO 4217>] [--time-zone <IANA>] [--country <ISO 3166-1 alpha-2>]
  ark role create <slug> <role-name> --grant <area>:<level> [--grant <area>:<level> ...]
  ark key create <slug> --role <role-name> [--label <text>]
  ark key list <slug>
  ark key revoke <slug> <key-id>
  ark member invite <slug> --email <address> --role <role-name> [--name <name>]
  ark migrate
  ark seed <slug>
  ark suppression add <address> [--reason <text>]    # platform-wide: no organization sends to it
  ark suppression remove <address>
  ark suppression list
  ark import asm3 <slug> --database <url> [--schema <name>] [--dry-run] [--mappings <file.json>]
  ark import asm3 <slug> --csv <dir> [--date-order mdy|dmy] [--dry-run] [--mappings <file.json>]
  ark import shelterluv <slug> <dir> [--dry-run] [--mappings <file.json>]
  ark import petpoint <slug> <dir> [--date-order mdy|dmy] [--dry-run] [--mappings <file.json>]`;

/** Where a command writes: a line of output, text for the error stream (progress, the one-line error), its environment. */
export interface CliIo {
  out(line: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
}

/** A bad argument: one line on stderr, exit 2. */
class UsageError extends Error {}

function opts(args: string[], options: NonNullable<Parameters<typeof parseArgs>[0]>['options'], positionals: number) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0] ?? 'bad arguments');
  }
  if (parsed.positionals.length !== positionals)
    throw new UsageError(
      `this command takes ${positionals} argument${positionals === 1 ? '' : 's'}, ` +
        `but ${parsed.positionals.length} ${parsed.positionals.length === 1 ? 'was' : 'were'} given; see ark --help`,
    );
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- parseArgs types values by the literal options
  return parsed as { values: Record<string, string | string[] | boolean | undefined>; positionals: string[] };
}

/** The i-th positional argument; opts() has already checked how many were given. */
function arg(positionals: string[], i: number): string {
  const value = positionals[i];
  if (value === undefined) throw new UsageError('an argument is missing; see ark --help');
  return value;
}

function slugArg(slug: string | undefined): string {
  if (!slug || !SLUG_PATTERN.test(slug))
    throw new UsageError(`organization slug ${JSON.stringify(slug ?? '')} must match ^[a-z0-9][a-z0-9-]{0,62}$`);
  return slug;
}

async function orgId(store: Store, slug: string): Promise<string> {
  const org = await settingsRepo.organizationBySlug(store.db, slug);
  if (!org) throw new UsageError(`there is no organization ${slug}; make it with: ark org create ${slug} --name <name>`);
  return org.id;
}

async function run(argv: string[], io: CliIo): Promise<void> {
  const [group, action, ...rest] = argv;
  if (!group || group === '--help' || group === '-h' || group === 'help') {
    io.out(USAGE);
    return;
  }
  const config = loadConfig(io.env);
  const cmd = `${group}${action && !action.startsWith('-') && group !== 'migrate' && group !== 'seed' ? ` ${action}` : ''}`;
  const args = cmd.includes(' ') ? rest : argv.slice(1);

  // Check arguments before touching the database.
  let plan: (store: Store) => Promise<void>;
  switch (cmd) {
    case 'org create': {
      const { values, positionals } = opts(
        args,
        { name: { type: 'string' }, currency: { type: 'string' }, 'time-zone': { type: 'string' }, country: { type: 'string' } },
        1,
      );
      const slug = slugArg(positionals[0]);
      const name = values.name as string | undefined;
      if (!name?.trim()) throw new UsageError('--name <name> is required');
      plan = async (store) => {
        const org = await settings.createOrganization(store.db, {
          slug,
          name,
          currency: values.currency as string | undefined,
          timeZone: values['time-zone'] as string | undefined,
          country: values.country as string | undefined,
        });
        io.out(`Created organization ${org.slug} (${org.id}): ${org.name}, ${org.currency}, ${org.time_zone}, ${org.country}`);
        io.out(`Roles: admin, staff, read-only. Address: http://${org.slug}.${config.baseDomain}:${config.port}`);
      };
      break;
    }
    case 'role create': {
      const { values, positionals } = opts(args, { grant: { type: 'string', multiple: true } }, 2);
      const slug = slugArg(positionals[0]);
      const roleName = arg(positionals, 1);
      const list = (values.grant as string[] | undefined) ?? [];
      if (!list.length) throw new UsageError('at least one --grant <area>:<level> is required');
      const grants = settings.parseGrants(list);
      plan = async (store) => {
        const id = await orgId(store, slug);
        const role = await store.db.tx((q) => settings.createRole(q, id, roleName, grants, 'cli'));
        io.out(
          `Created role ${role.name} (${role.id}): ${Object.entries(role.grants)
            .map(([a, l]) => `${a}:${l}`)
            .join(' ')}`,
        );
      };
      break;
    }
    case 'key create': {
      const { values, positionals } = opts(args, { role: { type: 'string' }, label: { type: 'string' } }, 1);
      const slug = slugArg(positionals[0]);
      const role = values.role as string | undefined;
      if (!role) throw new UsageError('--role <role-name> is required');
      plan = async (store) => {
        const id = await orgId(store, slug);
        const made = await store.db.tx((q) => settings.createKey(q, id, role, (values.label as string | undefined) ?? null, 'cli'));
        io.out(`Created key ${made.row.id} with role ${made.row.role_name} for ${slug}. It is shown once; keep it safe:`);
        io.out(made.key);
      };
      break;
    }
    case 'key list': {
      const { positionals } = opts(args, {}, 1);
      const slug = slugArg(positionals[0]);
      plan = async (store) => {
        const keys = await settingsRepo.listKeys(store.db, await orgId(store, slug));
        if (!keys.length) io.out('no keys');
        for (const k of keys) {
          io.out(
            [
              k.id,
              k.role_name,
              `${k.key_start}…`,
              k.revoked_at ? `revoked ${k.revoked_at.toISOString()}` : 'active',
              k.last_used_at ? `last used ${k.last_used_at.toISOString()}` : 'never used',
              k.label ?? '',
            ]
              .join('\t')
              .trimEnd(),
          );
        }
      };
      break;
    }
    case 'key revoke': {
      const { positionals } = opts(args, {}, 2);
      const slug = slugArg(positionals[0]);
      const keyId = arg(positionals, 1);
      plan = async (store) => {
        const id = await orgId(store, slug);
        if (!(await settingsRepo.keyById(store.db, id, keyId))) throw new UsageError(`there is no key ${keyId} in ${slug}`);
        await store.db.tx(async (q) => {
          await settings.revokeKey(q, id, keyId, 'cli');
          await announceChange(q, id);
        });
        io.out(`Revoked key ${keyId}`);
      };
      break;
    }
    case 'member invite': {
      const { values, positionals } = opts(args, { email: { type: 'string' }, role: { type: 'string' }, name: { type: 'string' } }, 1);
      const slug = slugArg(positionals[0]);
      const email = values.email as string | undefined;
      const role = values.role as string | undefined;
      if (!email) throw new UsageError('--email <address> is required');
      if (!isEmail(email)) throw new UsageError(`${email} is not an email address`);
      if (!role) throw new UsageError('--role <role-name> is required');
      const name = (values.name as string | undefined)?.trim() || (email.split('@')[0] ?? email);
      plan = async (store) => {
        const org = await new Tenancy(store.db, config.baseDomain).bySlug(slug);
        if (!org) throw new UsageError(`there is no organization ${slug}; make it with: ark org create ${slug} --name <name>`);
        // Loaded here: the members area (password hashing, mail) is not needed by other commands.
        const { inviteMember } = await import('../modules/members/service.ts');
        const made = await inviteMember(store.db, config, org, 'cli', { name, email, role });
        io.out(
          `Invited ${made.member.email} (${made.member.id}) as ${made.member.role} of ${slug}` +
            `${made.emailed ? '; the link was also emailed' : ''}. The link works once, until ${made.expires_at.toISOString()}:`,
        );
        io.out(made.sign_in_url);
      };
      break;
    }
    case 'migrate': {
      opts(args, {}, 0);
      plan = async (store) => {
        const applied = await migrate(store.db);
        io.out(applied.length ? `Applied ${applied.join(', ')}` : 'Up to date');
      };
      break;
    }
    case 'seed': {
      const { positionals } = opts(args, {}, 1);
      const slug = slugArg(positionals[0]);
      plan = async (store) => {
        // Seeding loads every module: only this command pays for it (the others start in a fraction of the time).
        const { seedOrganization } = await import('./seed.ts');
        const summary = await seedOrganization(store.db, slug);
        io.out(`Seeded ${slug}: ${summary}`);
      };
      break;
    }
    case 'suppression add':
    case 'suppression remove': {
      const { values, positionals } = opts(args, cmd === 'suppression add' ? { reason: { type: 'string' } } : {}, 1);
      const address = arg(positionals, 0);
      if (!isEmail(address)) throw new UsageError(`${address} is not an email address`);
      plan = async (store) => {
        if (cmd === 'suppression add') {
          await addPlatformSuppression(store.db, address, (values.reason as string | undefined) ?? 'manual (platform)', 'cli');
          io.out(`Suppressed ${address} for every organization`);
        } else {
          io.out(
            (await removePlatformSuppression(store.db, address))
              ? `Removed ${address} from the platform list`
              : `${address} was not on the platform list`,
          );
        }
      };
      break;
    }
    case 'suppression list': {
      opts(args, {}, 0);
      plan = async (store) => {
        const rows = await listPlatformSuppressions(store.db);
        if (!rows.length) io.out('no platform-wide suppressions');
        for (const r of rows) io.out([r.address, r.reason, r.source, r.created_at.toISOString()].join('\t'));
      };
      break;
    }
    case 'import asm3':
    case 'import shelterluv':
    case 'import petpoint': {
      const source = cmd.split(' ')[1] as 'asm3' | 'shelterluv' | 'petpoint';
      const common = {
        'dry-run': { type: 'boolean' },
        'date-order': { type: 'string' },
        mappings: { type: 'string' },
      } as const;
      const { values, positionals } =
        source === 'asm3'
          ? opts(args, { ...common, database: { type: 'string' }, csv: { type: 'string' }, schema: { type: 'string' } }, 1)
          : opts(args, common, 2);
      const slug = slugArg(positionals[0]);
      const order = (values['date-order'] as string | undefined) ?? 'mdy';
      if (order !== 'mdy' && order !== 'dmy') throw new UsageError('--date-order is mdy or dmy');
      if (source === 'asm3' && !values.database === !values.csv) throw new UsageError('give one of --database <url> or --csv <dir>');
      const importPlan = {
        source,
        slug,
        dir: source === 'asm3' ? (values.csv as string | undefined) : positionals[1],
        database: values.database as string | undefined,
        schema: values.schema as string | undefined,
        dryRun: values['dry-run'] === true,
        dateOrder: order,
        mappings: values.mappings as string | undefined,
      } as const;
      plan = async (store) => {
        const { runImport } = await import('./moving.ts');
        await runImport(store, config, importPlan, io);
      };
      break;
    }
    default:
      throw new UsageError(`ark ${argv.slice(0, 2).join(' ')} is not a command; see ark --help`);
  }
  const store = await openStore(config, { migrate: cmd !== 'migrate' });
  try {
    await plan(store);
  } finally {
    await store.close();
  }
}

/**
 * Runs one `ark` command and answers its exit code: 0 done, 2 a bad argument or a refused request (one line on
 * stderr, nothing half-made), 1 anything else. `src/cli/main.ts` runs it on the process's own arguments and streams;
 * the tests call it in their own process with their own streams.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    await run(argv, io);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`ark: ${err.message}\n`);
      return 2;
    }
    if (err instanceof AppError) {
      // Each problem as the sentence the API would answer (field first only where the message needs a subject).
      const sentences = err.fields
        ? Object.entries(err.fields).flatMap(([f, msgs]) => msgs.map((m) => invalid({ [f]: [m] }).message))
        : [err.message];
      const detail = sentences.map((s) => (s.charAt(0).toLowerCase() + s.slice(1)).replace(/\.$/, '')).join('; ');
      io.err(`ark: ${detail}\n`);
      return 2;
    }
    io.err(`ark: ${(err as Error).message}\n`);
    return 1;
  }
}
