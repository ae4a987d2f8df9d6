/**
 * `npm run sql-stats`: how much of the server's data access is still hand-written SQL, per module (test files left out).
 *
 * - raw: calls of a Queryable's `query(` / `prepared(` (SQL text written by hand);
 * - $n: hand-numbered positional placeholders (`$1`, `$12`) in the source;
 * - numbered: raw statements whose text holds at least one `$n` (the query and its parameters counted as one);
 * - helpers: uses of the numbering helpers (`new Where(`, `setClause(`, `.param(`), which number placeholders at run time;
 * - row types: hand-written row shapes (an interface named `…Row`/`…Rows`, a type alias so named that is not derived from
 *   the generated schema, a built query or a TypeBox declaration, directly or through another alias of its file, nor the
 *   shapeless `Record<string, unknown>` bound of any row; or an
 *   inline `query<{ … }>` type argument; names in import lists are not declarations) — typed builder reads take theirs
 *   from src/platform/db/schema.generated.ts;
 * - kysely: statements built with the typed builder (`kx(`) or its `sql` tag.
 *
 * `--json` prints the figures as JSON.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Stats {
  raw: number;
  placeholders: number;
  numbered: number;
  helpers: number;
  rowTypes: number;
  kysely: number;
}
const zero = (): Stats => ({ raw: 0, placeholders: 0, numbered: 0, helpers: 0, rowTypes: 0, kysely: 0 });

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) files(full, out);
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.generated.ts')) out.push(full);
  }
  return out;
}

/** The text of each raw statement: from `query(`/`prepared(` to the end of its first string or template literal. */
function rawStatements(text: string): string[] {
  const out: string[] = [];
  const call = /\.(?:query|prepared)\s*(?:<[^()]*?>)?\s*\(/g;
  for (let m = call.exec(text); m; m = call.exec(text)) {
    let i = m.index + m[0].length;
    // a prepared statement's first argument is its name: skip it
    if (m[0].includes('prepared')) {
      const comma = text.indexOf(',', i);
      if (comma < 0) continue;
      i = comma + 1;
    }
    while (i < text.length && /\s/.test(text[i] ?? '')) i += 1;
    const quote = text[i];
    if (quote !== "'" && quote !== '`' && quote !== '"') {
      out.push(''); // SQL built elsewhere (a variable): counted as raw, its placeholders counted where written
      continue;
    }
    let j = i + 1;
    let depth = 0;
    for (; j < text.length; j += 1) {
      const ch = text[j];
      if (ch === '\\') j += 1;
      else if (quote === '`' && ch === '$' && text[j + 1] === '{') {
        depth += 1;
        j += 1;
      } else if (depth > 0 && ch === '}') depth -= 1;
      else if (depth === 0 && ch === quote) break;
    }
    out.push(text.slice(i, j + 1));
  }
  return out;
}

function measure(file: string): Stats {
  // comments left out (block comments and whole-line // comments)
  const text = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  const s = zero();
  const statements = rawStatements(text);
  s.raw = statements.length;
  s.numbered = statements.filter((t) => /\$\d/.test(t)).length;
  s.placeholders = (text.match(/(?<![\w\\{])\$\d+(?!\d)/g) ?? []).length;
  s.helpers = (text.match(/new Where\(|\bsetClause\(|\.param\(/g) ?? []).length;
  // Import and re-export lists name types declared elsewhere (`import { type InboxRow } from ...`): they declare none here.
  const declared = text.replace(/^\s*(?:import|export)\s+(?:type\s+)?\{[^}]*\}\s*from\s*['"][^'"]+['"];?/gm, '');
  // A type alias derived from the generated schema, a built query (Selectable<DB[...]>, InferResult, ReturnType) or a
  // TypeBox declaration (Static<typeof ...>) is not hand-written; nor is one derived from such an alias of the same file
  // (`type Stored = Selectable<DB['events']>; type EventRow = Omit<Stored, ...> & { ... }`), found to a fixed point.
  const all = [...declared.matchAll(/\btype\s+(\w+)\s*(?:<[^=]*?>)?\s*=([^;]*);/g)].map((m) => ({ name: m[1] ?? '', body: m[2] ?? '' }));
  const derived = new Set<string>();
  const derives = (body: string) =>
    /Selectable<|InferResult<|ReturnType<|DB\[|Static<typeof /.test(body) || [...derived].some((n) => new RegExp(`\\b${n}\\b`).test(body));
  for (let grew = true; grew; ) {
    grew = false;
    for (const a of all)
      if (!derived.has(a.name) && derives(a.body)) {
        derived.add(a.name);
        grew = true;
      }
  }
  // `type Row = Record<string, unknown>` (the kernel's bound for any row) names no columns: it is no hand-written shape.
  const shapeless = (body: string) => /^\s*Record<string,\s*unknown>\s*$/.test(body);
  const aliases = all.filter((a) => /Rows?$/.test(a.name) && !derived.has(a.name) && !shapeless(a.body));
  s.rowTypes =
    (declared.match(/\binterface\s+\w*Rows?\b/g) ?? []).length +
    aliases.length +
    (text.match(/\.(?:query|prepared)\s*<\s*\{/g) ?? []).length;
  s.kysely = (text.match(/\bkx\(|\bsql(?:<[^>]*>)?`/g) ?? []).length;
  return s;
}

function area(file: string): string {
  const rel = path.relative(path.join(root, 'src'), file).split(path.sep);
  if (rel[0] === 'modules') return rel[1] ?? 'modules';
  return rel[0] === 'platform' ? 'platform (kernel)' : (rel[0] ?? '?');
}

const per = new Map<string, Stats>();
for (const f of files(path.join(root, 'src'))) {
  const a = area(f);
  const s = per.get(a) ?? zero();
  const m = measure(f);
  for (const k of Object.keys(s) as (keyof Stats)[]) s[k] += m[k];
  per.set(a, s);
}
const total = zero();
for (const s of per.values()) for (const k of Object.keys(total) as (keyof Stats)[]) total[k] += s[k];

if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ total, areas: Object.fromEntries([...per].sort()) }, null, 2));
} else {
  const cols: [keyof Stats, string][] = [
    ['raw', 'raw'],
    ['numbered', 'numbered'],
    ['placeholders', '$n'],
    ['helpers', 'helpers'],
    ['rowTypes', 'row types'],
    ['kysely', 'kysely'],
  ];
  const line = (name: string, s: Stats) => name.padEnd(20) + cols.map(([k]) => String(s[k]).padStart(10)).join('');
  console.log(''.padEnd(20) + cols.map(([, h]) => h.padStart(10)).join(''));
  for (const [name, s] of [...per].sort(([a], [b]) => a.localeCompare(b))) console.log(line(name, s));
  console.log(line('total', total));
}
