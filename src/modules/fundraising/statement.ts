import type PDFKit from 'pdfkit';
import { lazyRequire } from '../../platform/lazy.ts';

const pdfkit = lazyRequire<typeof PDFKit>('pdfkit');
import { currencyDigits } from '../../platform/validators.ts';
import { amount, deductiblePart, formatMoney } from './money.ts';
import type { StatementGiftRow } from './donors.repository.ts';
import type { StatementOut } from './schemas.ts';
import { escapeHtml } from '../../platform/html.ts';

export interface StatementInput {
  org: { name: string; email: string | null; phone: string | null; website: string | null };
  donor: { person_id: string; first_name: string; last_name: string; email: string | null; address: Record<string, unknown> | null };
  year: number;
  issuedOn: string;
  gifts: StatementGiftRow[];
}

function addressLines(a: Record<string, unknown> | null): string[] | null {
  if (!a) return null;
  const s = (k: string) => (typeof a[k] === 'string' && a[k] ? a[k] : null);
  const cityLine = [s('city'), [s('state'), s('postalCode')].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  const lines = [s('line1'), s('line2'), cityLine || null, s('country')].filter((x): x is string => !!x);
  return lines.length ? lines : null;
}

/** The year-end statement: amounts exact from minor units; auction wins carry their fair market value (DOMAIN §10). */
export function buildStatement(i: StatementInput): StatementOut {
  const totals = new Map<string, { amount: bigint; goods: bigint; deductible: bigint; count: number }>();
  const gifts = i.gifts.map((g) => {
    const paid = BigInt(g.amount_minor);
    const isWin = g.source === 'auction';
    const fmv = isWin ? BigInt(g.fair_market_value_minor ?? 0) : 0n;
    const deductible = isWin ? deductiblePart(paid, fmv) : paid;
    const goodsValue = fmv;
    const t = totals.get(g.currency) ?? { amount: 0n, goods: 0n, deductible: 0n, count: 0 };
    t.amount += paid;
    t.goods += goodsValue;
    t.deductible += deductible;
    t.count += 1;
    totals.set(g.currency, t);
    const described = isWin
      ? `Auction item: ${g.lot_title ?? 'lot'}${g.lot_number ? ` (lot ${g.lot_number}` : ' ('}` +
        `${g.auction_name ? `, ${g.auction_name})` : ')'}${g.fair_market_value_minor === null ? ', fair market value not stated' : ''}`
      : null;
    return {
      donation_id: g.id,
      date: g.date,
      currency: g.currency,
      amount: amount(paid, g.currency) ?? 0,
      type: isWin ? 'auction purchase' : g.type,
      payment_method: g.payment_method,
      campaign: g.campaign,
      goods_or_services: described,
      goods_or_services_value: amount(fmv, g.currency) ?? 0,
      deductible_amount: amount(deductible, g.currency) ?? 0,
      _goods: goodsValue,
      _deductible: deductible,
    };
  });
  const goodsProvided = gifts.some((g) => g.goods_or_services !== null);
  const org = i.org.name;
  const acknowledgement = goodsProvided
    ? `${org} acknowledges with thanks the contributions listed above. No goods or services were provided in exchange for these ` +
      `contributions, except as listed: for each auction purchase, ${org} provided the item described, whose fair market value is ` +
      `shown. The amount deductible for federal income tax purposes is limited to the excess of the amount paid over the fair market ` +
      `value of the goods or services provided, shown as the deductible amount for each gift. Please keep this written acknowledgement ` +
      `for your tax records.`
    : `${org} acknowledges with thanks the contributions listed above. No goods or services were provided in exchange for these ` +
      `contributions. Please keep this written acknowledgement for your tax records.`;
  const donorName = `${i.donor.first_name} ${i.donor.last_name}`.trim();
  const out: StatementOut = {
    organization: i.org,
    donor: { person_id: i.donor.person_id, name: donorName, email: i.donor.email, address: addressLines(i.donor.address) },
    year: i.year,
    issued_on: i.issuedOn,
    gifts: gifts.map(({ _goods: _g, _deductible: _d, ...g }) => g),
    totals: [...totals.entries()].map(([currency, t]) => ({
      currency,
      amount: amount(t.amount, currency) ?? 0,
      goods_or_services_value: amount(t.goods, currency) ?? 0,
      deductible_amount: amount(t.deductible, currency) ?? 0,
      count: t.count,
    })),
    goods_or_services_provided: goodsProvided,
    acknowledgement,
    text: '',
  };
  const lines: string[] = [
    org,
    ...[i.org.email, i.org.phone, i.org.website].filter((x): x is string => !!x),
    '',
    `Year-end giving statement for ${i.year}`,
    `Issued ${i.issuedOn}`,
    '',
    donorName,
    ...(out.donor.address ?? []),
    '',
  ];
  lines.push(
    `Dear ${i.donor.first_name || donorName},`,
    '',
    `Thank you for supporting ${org}. This statement lists the contributions you made in ${i.year}.`,
    '',
  );
  if (!i.gifts.length) lines.push(`No contributions are recorded for ${i.year}.`);
  for (const [k, g] of i.gifts.entries()) {
    const shown = gifts[k];
    if (!shown) continue;
    lines.push(
      `${g.date}  ${formatMoney(g.amount_minor, g.currency)}  ${shown.type}${g.campaign ? `  (${g.campaign})` : ''}  receipt ${g.id}`,
    );
    if (shown.goods_or_services)
      lines.push(
        `    Goods or services received: ${shown.goods_or_services}; value ${formatMoney(shown._goods, g.currency)}; deductible ` +
          `amount ${formatMoney(shown._deductible, g.currency)}`,
      );
  }
  lines.push('');
  for (const [currency, t] of totals) {
    lines.push(
      `Total ${formatMoney(t.amount, currency)} in ${t.count} gift${t.count === 1 ? '' : 's'}; goods or services ` +
        `received ${formatMoney(t.goods, currency)}; deductible ${formatMoney(t.deductible, currency)}.`,
    );
  }
  lines.push('', acknowledgement, '', `With gratitude,`, org);
  out.text = lines.join('\n');
  return out;
}

/** A wire number (exact in its decimal text) shown with the currency's decimals. */
const shown = (n: number, currency: string) => `${currency} ${n.toFixed(currencyDigits(currency))}`;

export function statementHtml(s: StatementOut): string {
  const rows = s.gifts
    .map(
      (g) =>
        `<tr><td>${escapeHtml(g.date)}</td><td>${escapeHtml(shown(g.amount, g.currency))}</td><td>${escapeHtml(g.type)}</td>` +
        `<td>${escapeHtml(g.campaign ?? '')}</td><td>${escapeHtml(g.goods_or_services ?? 'None')}</td>` +
        `<td>${escapeHtml(shown(g.goods_or_services_value, g.currency))}</td>` +
        `<td>${escapeHtml(shown(g.deductible_amount, g.currency))}</td>` +
        `<td>${escapeHtml(g.donation_id)}</td></tr>`,
    )
    .join('\n');
  const totals = s.totals
    .map(
      (t) =>
        `<li>Total ${escapeHtml(shown(t.amount, t.currency))}, ` +
        `goods or services ${escapeHtml(shown(t.goods_or_services_value, t.currency))}, ` +
        `deductible ${escapeHtml(shown(t.deductible_amount, t.currency))} (${t.count} gift${t.count === 1 ? '' : 's'})</li>`,
    )
    .join('');
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(s.organization.name)}: giving ` +
    `statement ${s.year}</title></head><body>
<h1>${escapeHtml(s.organization.name)}</h1>
<p>${[s.organization.email, s.organization.phone, s.organization.website]
      .filter((x): x is string => !!x)
      .map(escapeHtml)
      .join(' · ')}</p>
<h2>Year-end giving statement for ${s.year}</h2><p>Issued ${escapeHtml(s.issued_on)}</p>
<address>${[s.donor.name, ...(s.donor.address ?? [])].map(escapeHtml).join('<br>')}</address>
<table><thead><tr><th>Date</th><th>Amount</th><th>Type</th><th>Campaign</th><th>Goods or services received</th><th>Their ` +
    `value</th><th>Deductible</th><th>Receipt</th></tr></thead><tbody>
${rows}
</tbody></table>
<ul>${totals}</ul>
<p>${escapeHtml(s.acknowledgement)}</p>
</body></html>`
  );
}

export function statementPdf(s: StatementOut): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new (pdfkit())({ size: 'LETTER', margin: 56, info: { Title: `${s.organization.name}: giving statement ${s.year}` } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    const [title, ...rest] = s.text.split('\n');
    doc
      .font('Helvetica-Bold')
      .fontSize(16)
      .text(title ?? s.organization.name);
    doc.font('Helvetica').fontSize(10);
    for (const line of rest) doc.text(line || ' ');
    doc.end();
  });
}
