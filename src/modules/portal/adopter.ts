import { day, html, type Raw } from './html.ts';

export interface AdopterView {
  applications: { id: string; stage_name: string; stage_kind: string; decision: string | null; submitted_at: Date }[];
  contracts: { id: string; title: string }[];
  animals: {
    id: string;
    name: string;
    species: string;
    /** null: the organization does not share this record. */
    chips: string[] | null;
    altered: { altered: boolean; altered_on: string | null } | null | undefined;
    vaccines: { name: string; given_at: Date }[] | null;
  }[];
}

const DECISION: Record<string, string> = {
  approved: 'approved',
  denied: 'not approved',
  withdrawn: 'withdrawn',
  adopted: 'adopted',
  closed: 'closed',
};

const alteredText = (a: { altered: boolean; altered_on: string | null } | null) =>
  a?.altered ? (a.altered_on ? `yes, on ${day(a.altered_on)}` : 'yes') : 'not recorded';

export function adopterPage(v: AdopterView, zone: string): Raw {
  return html`<h1>Your adoptions</h1>
<div class="stack two">
<section class="box" aria-labelledby="h-apps"><h2 id="h-apps">Your applications</h2>
${
  v.applications.length
    ? html`<ul class="items">${v.applications.map(
        (a) => html`<li><span class="t">${a.decision ? (DECISION[a.decision] ?? a.decision) : a.stage_name}</span><br>
<span class="muted">sent ${day(a.submitted_at, zone)}</span></li>`,
      )}</ul>`
    : html`<p class="muted">No application yet.</p>`
}
${v.contracts.map(
  (c) => html`<form method="post" action="/portal/contracts/${c.id}/sign"><p>${c.title} waits for your signature.</p>
<button class="btn" type="submit">Read and sign</button></form>`,
)}
</section>
${v.animals.map(
  (a) => html`<section class="box" aria-labelledby="h-${a.id}"><h2 id="h-${a.id}">${a.name}</h2><p class="muted">${a.species}</p>
${
  a.chips || a.altered !== undefined
    ? html`<dl class="facts">${a.chips ? html`<dt>Microchip</dt><dd>${a.chips.length ? a.chips.join(', ') : 'none recorded'}</dd>` : ''}
${a.altered !== undefined ? html`<dt>Spayed or neutered</dt><dd>${alteredText(a.altered)}</dd>` : ''}</dl>`
    : ''
}
${
  a.vaccines
    ? html`<h3>Vaccinations</h3>
${
  a.vaccines.length
    ? html`<ul class="items">${a.vaccines.map(
        (x) => html`<li><span class="t">${x.name}</span><br><span class="muted">${day(x.given_at, zone)}</span></li>`,
      )}</ul>`
    : html`<p class="muted">None recorded.</p>`
}`
    : ''
}</section>`,
)}
</div>`;
}
