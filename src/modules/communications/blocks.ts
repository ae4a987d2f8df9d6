import type { IOptions } from 'sanitize-html';
import type SanitizeHtml from 'sanitize-html';
import { lazyRequire } from '../../platform/lazy.ts';

const sanitizeHtml = lazyRequire<typeof SanitizeHtml>('sanitize-html');
import { escapeHtml } from '../../platform/html.ts';

/** Pure logic of message bodies: blocks, merge fields, rendering to safe HTML and plain text. */

/** `p` plus seven further types (the spec leaves them to us). */
export const BLOCK_TYPES = ['p', 'h1', 'h2', 'bullet', 'numbered', 'quote', 'button', 'divider'] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];
export const MAX_BLOCKS = 200;

export interface Run {
  text: string;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strike?: boolean;
  href?: string;
}
export interface Block {
  type: BlockType;
  runs: Run[];
}
/** A run as answered: every style flag present (false when not set); `href` only on links. */
export interface FullRun {
  text: string;
  bold: boolean;
  italic: boolean;
  underline: boolean;
  strike: boolean;
  href?: string;
}
export interface FullBlock {
  type: BlockType;
  runs: FullRun[];
}

export function fullRun(r: Run): FullRun {
  const run: FullRun = {
    text: r.text,
    bold: r.bold === true,
    italic: r.italic === true,
    underline: r.underline === true,
    strike: r.strike === true,
  };
  if (r.href !== undefined) run.href = r.href;
  return run;
}
/** Blocks with every run's style flags spelled out, as stored and answered. */
export function fullBlocks(blocks: Block[]): FullBlock[] {
  return blocks.map((b) => ({ type: b.type, runs: b.runs.map(fullRun) }));
}

/** `{{name}}`, spaces allowed inside the braces. */
const MERGE = /\{\{\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}/g;
const SAFE_SCHEMES = ['http:', 'https:', 'mailto:'];

/** Merge-field names in order of first appearance. */
export function mergeFieldsIn(texts: string[]): string[] {
  const seen: string[] = [];
  for (const t of texts) for (const m of t.matchAll(MERGE)) if (m[1] && !seen.includes(m[1])) seen.push(m[1]);
  return seen;
}

/** Every text a merge field may sit in, in reading order: subject, then each run's text and href. */
export function textsOf(subject: string, blocks: Block[]): string[] {
  const out = [subject];
  for (const b of blocks)
    for (const r of b.runs) {
      out.push(r.text);
      if (r.href !== undefined) out.push(r.href);
    }
  return out;
}

/** Replaces the merge fields that have a value; the others stay exactly as written. */
export function fillText(text: string, values: Record<string, string>): string {
  return text.replace(MERGE, (whole, name: string) => (Object.hasOwn(values, name) ? (values[name] ?? whole) : whole));
}

export function fillBlocks(blocks: Block[], values: Record<string, string>): FullBlock[] {
  return blocks.map((b) => ({
    type: b.type,
    runs: b.runs.map((r) => {
      const run = fullRun({ ...r, text: fillText(r.text, values) });
      if (r.href !== undefined) run.href = fillText(r.href, values);
      return run;
    }),
  }));
}

/** A link target we will put in mail: http, https or mailto only. */
export function isSafeHref(href: string): boolean {
  try {
    return SAFE_SCHEMES.includes(new URL(href).protocol);
  } catch {
    return false;
  }
}

/** Checks stored blocks; an href may still hold merge fields (checked again once filled). */
export function checkBlocks(blocks: Block[], field = 'body_template_blocks'): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (blocks.length > MAX_BLOCKS) errors[field] = [`must have at most ${MAX_BLOCKS} blocks`];
  blocks.forEach((b, i) => {
    if (!(BLOCK_TYPES as readonly string[]).includes(b.type)) errors[`${field}.${i}.type`] = [`must be one of: ${BLOCK_TYPES.join(', ')}`];
    if (b.type === 'button' && !b.runs.some((r) => r.href)) errors[`${field}.${i}.runs`] = ['a button needs a run with href'];
    b.runs.forEach((r, j) => {
      if (r.href === undefined) return;
      const probe = r.href.replace(MERGE, 'x');
      const ok = isSafeHref(r.href) || (mergeFieldsIn([r.href]).length > 0 && (r.href.trim().startsWith('{{') || isSafeHref(probe)));
      if (!ok) errors[`${field}.${i}.runs.${j}.href`] = ['must be an http, https or mailto address'];
    });
  });
  return errors;
}

/** Text form: blank lines part paragraphs. */
export function blocksFromText(text: string): Block[] {
  return text
    .replace(/\r\n/g, '\n')
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => ({ type: 'p' as const, runs: [{ text: p }] }));
}

function runHtml(r: Run): string {
  let h = escapeHtml(r.text).replace(/\n/g, '<br>');
  if (r.bold) h = `<strong>${h}</strong>`;
  if (r.italic) h = `<em>${h}</em>`;
  if (r.underline) h = `<u>${h}</u>`;
  if (r.strike) h = `<s>${h}</s>`;
  if (r.href && isSafeHref(r.href)) h = `<a href="${escapeHtml(r.href)}">${h}</a>`;
  return h;
}

const SANITIZE: IOptions = {
  allowedTags: ['p', 'h1', 'h2', 'ul', 'ol', 'li', 'blockquote', 'hr', 'a', 'strong', 'em', 'u', 's', 'br', 'div'],
  allowedAttributes: { a: ['href', 'style'], div: ['style'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
};

/** Safe HTML: every text escaped, only http/https/mailto links, then sanitize-html as a second guard. */
export function renderHtml(blocks: Block[]): string {
  const parts: string[] = [];
  let list: 'ul' | 'ol' | null = null;
  const close = () => {
    if (list) parts.push(`</${list}>`);
    list = null;
  };
  for (const b of blocks) {
    const inner = b.runs.map(runHtml).join('');
    const want = b.type === 'bullet' ? 'ul' : b.type === 'numbered' ? 'ol' : null;
    if (want !== list) {
      close();
      if (want) parts.push(`<${want}>`);
      list = want;
    }
    switch (b.type) {
      case 'p':
        parts.push(`<p>${inner}</p>`);
        break;
      case 'h1':
        parts.push(`<h1>${inner}</h1>`);
        break;
      case 'h2':
        parts.push(`<h2>${inner}</h2>`);
        break;
      case 'bullet':
      case 'numbered':
        parts.push(`<li>${inner}</li>`);
        break;
      case 'quote':
        parts.push(`<blockquote>${inner}</blockquote>`);
        break;
      case 'divider':
        parts.push('<hr>');
        break;
      case 'button': {
        const link = b.runs.find((r) => r.href && isSafeHref(r.href));
        const label = escapeHtml(b.runs.map((r) => r.text).join(''));
        parts.push(
          link?.href
            ? `<div><a href="${escapeHtml(link.href)}" style="display:inline-block;padding:10px ` +
                `18px;background:#2f6f4f;color:#ffffff;text-decoration:none;border-radius:4px">${label}</a></div>`
            : `<p>${label}</p>`,
        );
        break;
      }
    }
  }
  close();
  return sanitizeHtml()(parts.join('\n'), SANITIZE);
}

/** Plain-text alternative for the email. */
export function renderText(blocks: Block[]): string {
  const lines: string[] = [];
  let n = 0;
  for (const b of blocks) {
    const text = b.runs
      .map((r) => (r.href && isSafeHref(r.href) && r.href !== r.text && b.type !== 'button' ? `${r.text} (${r.href})` : r.text))
      .join('');
    n = b.type === 'numbered' ? n + 1 : 0;
    switch (b.type) {
      case 'p':
        lines.push(text, '');
        break;
      // Headings keep their words as written: upper-casing would turn {{first_name}} into a field nothing fills.
      case 'h1':
        lines.push(text, '');
        break;
      case 'h2':
        lines.push(text, '');
        break;
      case 'bullet':
        lines.push(`- ${text}`);
        break;
      case 'numbered':
        lines.push(`${n}. ${text}`);
        break;
      case 'quote':
        lines.push(...text.split('\n').map((l) => `> ${l}`), '');
        break;
      case 'divider':
        lines.push('----------', '');
        break;
      case 'button': {
        const link = b.runs.find((r) => r.href && isSafeHref(r.href));
        lines.push(link?.href ? `${text}: ${link.href}` : text, '');
        break;
      }
    }
  }
  return (
    lines
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim() + '\n'
  );
}

/** The stored text form of a template body (merge fields as written). */
export function bodyTemplateText(blocks: Block[]): string {
  return renderText(blocks).trimEnd();
}

/** "Ana", "Ana and Ben", "Ana, Ben and Cy". */
export function listJoin(items: string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** A person as the merge fields read them. */
export interface MergePerson {
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
}
/** An animal as the merge fields read them. */
export interface MergeAnimal {
  name: string;
  species: string;
  breed: string | null;
  sex: string;
  microchip_number: string | null;
}

/**
 * The one filler of record merge fields (pure), for messages and adoption contracts alike: the people's names,
 * email and phone, the animals' name, species, breed, sex and Pet ID (the microchip number: Ark's own ids are
 * internal and never reach a recipient), and the organization's name. Several people or animals fill as a list
 * ("A, B and C").
 *
 * By default a field with no value stays unfilled, so a message's preview shows what is missing. A document that
 * is frozen once filled (a contract) passes `complete`: every field gets a value, an unknown fact reading
 * "unknown", a missing microchip "none", a missing phone nothing; it also fills `microchip`. Without
 * people the person fields stay unfilled in both.
 */
export function recordMergeValues(
  people: MergePerson[],
  animals: MergeAnimal[],
  orgName: string,
  opts: { complete?: boolean } = {},
): Record<string, string> {
  const v: Record<string, string> = { org_name: orgName };
  const complete = opts.complete === true;
  const put = (name: string, items: (string | null)[], absent: string) => {
    const values = complete
      ? items.map((x) => (x && x.trim() !== '' ? x : absent))
      : items.filter((x): x is string => !!x && x.trim() !== '');
    if (values.length || complete) v[name] = listJoin(values);
  };
  if (people.length) {
    put(
      'first_name',
      people.map((p) => p.first_name),
      '',
    );
    put(
      'last_name',
      people.map((p) => p.last_name),
      '',
    );
    put(
      'full_name',
      people.map((p) => `${p.first_name} ${p.last_name}`.trim()),
      '',
    );
    put(
      'email',
      people.map((p) => p.email),
      '',
    );
    put(
      'phone',
      people.map((p) => p.phone),
      '',
    );
  }
  if (animals.length || complete) {
    put(
      'animal_name',
      animals.map((a) => a.name),
      'unknown',
    );
    put(
      'animal_species',
      animals.map((a) => a.species),
      'unknown',
    );
    put(
      'animal_breed',
      animals.map((a) => a.breed),
      'unknown',
    );
    put(
      'animal_sex',
      animals.map((a) => a.sex),
      'unknown',
    );
    put(
      'animal_id',
      animals.map((a) => a.microchip_number),
      'none',
    );
    if (complete)
      put(
        'microchip',
        animals.map((a) => a.microchip_number),
        'none',
      );
  }
  return v;
}
