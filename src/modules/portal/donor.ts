import type PDFKitModule from 'pdfkit';
import { lazyRequire } from '../../platform/lazy.ts';
import { moneyText } from '../../platform/money.ts';
import type { Organization } from '../../platform/tenancy.ts';
import type { PersonSummary } from '../people/public.ts';
import { day, html, type Raw } from './html.ts';

/** Loaded on first use (the PDF library is hundreds of modules). */
const pdfkit = lazyRequire<typeof PDFKitModule>('pdfkit');

export interface Gift {
  id: string;
  date: string;
  amount_minor: string;
  currency: string;
  type: string;
}

const TYPE: Record<string, string> = { 'one-off': 'Gift', recurring: 'Recurring gift', 'post-adoption': 'Gift after adoption' };

/** Totals per year and currency, newest year first. */
export function byYear(gifts: Gift[]): { year: number; totals: { currency: string; minor: bigint }[]; count: number }[] {
  const years = new Map<number, { totals: Map<string, bigint>; count: number }>();
  for (const g of gifts) {
    const y = Number(g.date.slice(0, 4));
    const e = years.get(y) ?? { totals: new Map(), count: 0 };
    e.totals.set(g.currency, (e.totals.get(g.currency) ?? 0n) + BigInt(g.amount_minor));
    e.count++;
    years.set(y, e);
  }
  return [...years.entries()]
    .sort((a, b) => b[0] - a[0])
    .map(([year, e]) => ({ year, count: e.count, totals: [...e.totals.entries()].map(([currency, minor]) => ({ currency, minor })) }));
}

export function giftsPage(gifts: Gift[]): Raw {
  const years = byYear(gifts);
  return html`<h1>Your gifts</h1>
${
  years.length
    ? html`<div class="stack two">${years.map(
        (y) => html`<section class="box" aria-labelledby="y${y.year}"><h2 id="y${y.year}">${y.year}</h2>
<p>${y.count} gift(s): <strong>${y.totals.map((t) => moneyText(t.minor, t.currency)).join(' + ')}</strong></p>
<ul class="items">${gifts
          .filter((g) => g.date.startsWith(String(y.year)))
          .map(
            (g) => html`<li><span class="t">${moneyText(g.amount_minor, g.currency)}</span> · ${TYPE[g.type] ?? g.type}<br>
<span class="muted">${day(g.date)}</span></li>`,
          )}</ul>
<p><a class="btn" href="/portal/gifts/statement/${y.year}">Statement for ${y.year} (PDF)</a></p></section>`,
      )}</div>`
    : html`<p class="muted">No gift is recorded for you yet. Thank you for thinking of us.</p>`
}`;
}

/** The year-end statement: every gift of the year, the total per currency, the organization's name and contacts. */
export function statementPdf(org: Organization, person: PersonSummary, year: number, gifts: Gift[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const PDFDocument = pdfkit();
    const doc = new PDFDocument({
      size: 'LETTER',
      margin: 56,
      info: { Title: `${org.name}: gifts of ${year}`, CreationDate: new Date(0) },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.font('Helvetica-Bold').fontSize(18).text(org.name);
    const contact = [org.email, org.phone, org.website].filter(Boolean).join(' · ');
    if (contact) doc.font('Helvetica').fontSize(10).fillColor('#555').text(contact);
    doc.moveDown().fillColor('#000').font('Helvetica-Bold').fontSize(14).text(`Statement of gifts for ${year}`);
    doc
      .font('Helvetica')
      .fontSize(11)
      .text(`For ${person.display_name}${person.email ? ` (${person.email})` : ''}`);
    doc.moveDown();
    for (const g of [...gifts].reverse())
      doc.text(`${day(g.date)}    ${TYPE[g.type] ?? g.type}    ${moneyText(g.amount_minor, g.currency)}`);
    doc.moveDown();
    const totals = byYear(gifts)[0]?.totals ?? [];
    doc
      .font('Helvetica-Bold')
      .text(`Total: ${totals.length ? totals.map((t) => moneyText(t.minor, t.currency)).join(' + ') : moneyText(0, org.currency)}`);
    doc.moveDown().font('Helvetica').fontSize(10).fillColor('#555').text(`Thank you for your support. Issued by ${org.name}.`);
    doc.end();
  });
}
