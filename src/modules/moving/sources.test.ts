import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import sharp from 'sharp';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { runDueJobs } from '../../platform/jobs.ts';
import { GENERIC_PLAN, genericFiles, petpointFiles, shelterluvFiles } from './fixtures/others.ts';
import { photoFetchOptions } from './photos.ts';

let t: TestApp;
let photoServer: Server;
let photoBase = '';
/** Requests the loopback photo server answered, per path. */
const hits = new Map<string, number>();

/** A stand-in photo as a PNG: a two-colour picture made from SVG (no fonts, no files). */
const png = (colour: string) =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="48"><rect width="64" height="48" fill="${colour}"/>` +
        '<circle cx="32" cy="24" r="14" fill="#ffffff" opacity=".5"/></svg>',
    ),
  )
    .png()
    .toBuffer();

before(async () => {
  t = await testApp();
  // The photos the sources name are served here, on loopback (the move refuses internal addresses unless told).
  photoFetchOptions.allowInternal = true;
  const pictures = [await png('#c0392b'), await png('#2e86c1')];
  photoServer = createServer((req, res) => {
    const path = req.url ?? '';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path.endsWith('/page.html')) res.writeHead(200, { 'content-type': 'text/html' }).end('<p>not a photo</p>');
    else if (path.endsWith('/huge.png')) res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(200 * 1048576) }).end();
    else if (path.endsWith('/missing.png') || !path.endsWith('.png')) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'image/png' }).end(pictures[path.length % 2]);
  });
  await new Promise<void>((ok) => photoServer.listen(0, '127.0.0.1', ok));
  photoBase = `http://127.0.0.1:${(photoServer.address() as AddressInfo).port}/pics`;
});
after(async () => {
  photoFetchOptions.allowInternal = false;
  await new Promise((ok) => photoServer.close(ok));
  await t.close();
});

type Counts = Record<string, { new: number; updated: number; unchanged: number; matched: number; refused: number }>;
const sum = (c: Counts, f: 'new' | 'updated' | 'unchanged' | 'matched' | 'refused') => Object.values(c).reduce((n, k) => n + k[f], 0);

/** Dry run, real run, second real run: the counts of the first run are the dry run's; the second changes nothing. */
async function moveTwice(org: TestOrg, body: Record<string, unknown>) {
  const dry = await org.req('POST', '/api/moving/dry-run', { body });
  assert.equal(dry.status, 200, JSON.stringify(dry.body).slice(0, 1500));
  const runs = [];
  for (let k = 0; k < 2; k += 1) {
    const run = await org.req('POST', '/api/moving/runs', { body });
    assert.equal(run.status, 202, JSON.stringify(run.body).slice(0, 1500));
    await runDueJobs(t.ctx, { orgId: org.id });
    const done = await org.req('GET', `/api/moving/runs/${run.body.id}`);
    assert.equal(done.body.status, 'done', JSON.stringify(done.body).slice(0, 1500));
    runs.push(done.body.report);
  }
  const [first, second] = runs;
  // The dry run fetches no photo: it counts those it would fetch, which the run then fetches or refuses one by one.
  assert.deepEqual({ ...first.counts, photo: null }, { ...dry.body.counts, photo: null });
  assert.equal(first.counts.photo.new + first.counts.photo.refused, dry.body.counts.photo.new + dry.body.counts.photo.refused);
  assert.equal(sum(second.counts, 'new'), 0, JSON.stringify(second.counts));
  assert.equal(sum(second.counts, 'updated'), 0, JSON.stringify(second.counts));
  return { dry: dry.body, first, second };
}

test('Shelterluv API JSON: animals, people and events; returned adoption; duplicate people; found by either id', async () => {
  const org = await makeOrg(t);
  const { dry, first, second } = await moveTwice(org, { source: 'shelterluv', files: shelterluvFiles(120, photoBase) });
  assert.ok(dry.counts.animal.new >= 110, JSON.stringify(dry.counts));
  assert.equal(dry.counts.person.matched, 1, 'the second record of the same email is linked, not made');
  assert.equal(dry.mappings.intake.OwnerSurrender, 'relinquished');
  assert.equal(dry.mappings.intake.Stray, 'stray');
  assert.equal(dry.mappings.intake.AdoptionReturn, 'relinquished');
  assert.equal(dry.mappings.outcome.Adoption, 'adoption');
  assert.equal(dry.mappings.outcome.Euthanasia, 'shelter_euthanasia');
  assert.equal(dry.counts.foster.new, 4, 'Outcome.Foster then Intake.FosterReturn: a finished foster placement');
  assert.equal(dry.mappings.outcome.Foster, undefined, 'a foster event is no outcome: the animal stays in care');
  const byShort = await org.req('GET', '/api/moving/external-ids?source=shelterluv&id=10&kind=animal');
  const byInternal = await org.req('GET', '/api/moving/external-ids?source=shelterluv&id=100010&kind=animal');
  assert.equal(byShort.body.results.length, 1);
  assert.equal(byShort.body.results[0].ark_id, byInternal.body.results[0].ark_id);
  // Animal 10: adopted, returned (an adoption return), transferred out: two stays.
  const stays = await org.req('GET', `/api/animals/${byShort.body.results[0].ark_id}/stays`);
  assert.equal(stays.status, 200, JSON.stringify(stays.body).slice(0, 500));
  type Stay = { intake: { type: string; adoption_return: boolean }; outcome: { type: string } | null };
  const list = (stays.body.results ?? stays.body.data ?? stays.body) as Stay[];
  assert.equal(list.length, 2, JSON.stringify(stays.body).slice(0, 800));
  assert.ok(list.some((x) => x.intake.adoption_return && x.intake.type === 'relinquished' && x.outcome?.type === 'transfer_out'));
  assert.ok(list.some((x) => !x.intake.adoption_return && x.outcome?.type === 'adoption'));

  // Adoptions: each adoption event with its adopter is an adoption record; animal 10's came back, so it shows returned.
  const adopted = await org.req('GET', `/api/animals/adoptions?animal_id=${byShort.body.results[0].ark_id}`);
  assert.equal(adopted.status, 200);
  assert.equal(adopted.body.results.length, 1, JSON.stringify(adopted.body).slice(0, 800));
  assert.equal(adopted.body.results[0].status, 'returned');
  assert.ok(adopted.body.results[0].returned_at?.startsWith('2026-01-05'), adopted.body.results[0].returned_at);
  assert.equal(adopted.body.results[0].fee_minor, 0, 'Shelterluv events carry no fee');
  const all = await org.req('GET', '/api/animals/adoptions?limit=100');
  assert.equal(all.body.results.length, first.counts.adoption.new);
  assert.equal(first.counts.adoption.new, 60 - 3, 'every second animal adopted, less those with no intake (refused)');
  assert.equal(second.counts.adoption.new, 0);

  // Photos, fetched from their addresses by the run: a missing file, a page that is not an image and a file too large
  // are refused row by row (and tried again next time); each photo is fetched and stored once, the second run fetches none.
  assert.equal(dry.counts.photo.new, first.counts.photo.new + 3, JSON.stringify(first.counts.photo));
  assert.equal(first.counts.photo.refused, 3);
  const reasons = first.refused.filter((r: { kind: string }) => r.kind === 'photo').map((r: { reason: string }) => r.reason);
  assert.ok(
    reasons.some((r: string) => /missing\.png: the server answered 404/.test(r)),
    reasons.join('; '),
  );
  assert.ok(
    reasons.some((r: string) => /is not an image \(text\/html\)/.test(r)),
    reasons.join('; '),
  );
  assert.ok(
    reasons.some((r: string) => /huge\.png: is larger than/.test(r)),
    reasons.join('; '),
  );
  assert.equal(second.counts.photo.unchanged, first.counts.photo.new);
  assert.equal(second.counts.photo.refused, 3, 'a photo that failed is tried again');
  for (const [path, n] of hits) if (/\/\d+(-b)?\.png$/.test(path)) assert.equal(n, 1, `${path} fetched ${n} times`);
  const a13 = await org.req('GET', '/api/moving/external-ids?source=shelterluv&id=13&kind=animal');
  const pics = await org.req('GET', `/api/animals/${a13.body.results[0].ark_id}/photos`);
  assert.equal(pics.status, 200);
  assert.equal(pics.body.results.length, 2, 'the same address twice is one photo; two addresses, two photos');
  assert.equal(pics.body.results.filter((p: { is_primary: boolean }) => p.is_primary).length, 1);
  assert.ok(pics.body.results.every((p: { is_public: boolean; width: number }) => p.is_public && p.width === 64));
});

test('PetPoint reports: intake-with-results and person-by-association; a return after adoption; exact names', async () => {
  const org = await makeOrg(t);
  const { dry } = await moveTwice(org, { source: 'petpoint', files: petpointFiles(120) });
  assert.ok(dry.counts.animal.new >= 110, JSON.stringify(dry.counts));
  assert.ok(dry.counts.animal.refused >= 1, 'an animal with no intake date nor birth date is refused');
  assert.equal(dry.mappings.intake['Owner/Guardian Surrender'], 'relinquished');
  assert.equal(dry.mappings.intake['Transfer In'], 'transfer_in');
  assert.equal(dry.mappings.intake.Return, 'relinquished');
  assert.equal(dry.mappings.outcome['Transfer Out'], 'transfer_out');
  assert.ok(dry.counts.person.matched >= 1, JSON.stringify(dry.counts.person));
  // The vaccine and tests reports in their two-row layout: 40 vaccinations, 10 rabies, 13 tests; the two never given
  // (no date on the second line) are refused with their first line (title lines and the header counted).
  assert.equal(dry.counts.medical.new + dry.counts.medical.refused, 63, JSON.stringify(dry.counts.medical));
  const never = dry.refused.filter((r: { kind: string; reason: string }) => r.kind === 'medical' && /was never given/.test(r.reason));
  assert.ok(
    never.some((r: { row: string }) => r.row === 'MedicalVaccineExpress.csv line 4'),
    JSON.stringify(never),
  );
  assert.ok(dry.counts.medical.new >= 55, JSON.stringify(dry.counts.medical));
  const a9 = await org.req('GET', '/api/moving/external-ids?source=petpoint&id=A40000009&kind=animal');
  const records = await org.req('GET', `/api/animals/${a9.body.results[0].ark_id}/medical`);
  assert.equal(records.status, 200, JSON.stringify(records.body).slice(0, 300));
  const list = (records.body.results ?? records.body.data) as { name: string; result?: string | null }[];
  assert.ok(
    list.some((m) => m.name === 'Heartworm' && m.result === 'positive'),
    JSON.stringify(list),
  );
  assert.ok(
    list.some((m) => m.name === 'DA2PP (5-in-1 Canine)'),
    JSON.stringify(list),
  );
});

test('generic spreadsheets with a column mapping: animals, stays, medical; a mapping edited before the run is used', async () => {
  const org = await makeOrg(t);
  const body = {
    source: 'generic',
    files: genericFiles(60),
    generic: GENERIC_PLAN,
    mappings: { intake: { Returned: 'relinquished' }, outcome: { Adopted: 'adoption' } },
  };
  const { dry } = await moveTwice(org, body);
  assert.equal(dry.counts.animal.new, 60);
  assert.equal(dry.counts.stay.new, 180);
  assert.equal(dry.counts.medical.new, 120);
  assert.equal(dry.mappings.intake['Owner surrender'], 'relinquished');
  // A column mapped to a field the kind does not have is refused before anything is read.
  const bad = await org.req('POST', '/api/moving/dry-run', {
    body: { ...body, generic: [{ kind: 'animal', file: 'animals.csv', columns: { Ref: 'colour_of_eyes' } }] },
  });
  assert.equal(bad.status, 422);
  assert.match(bad.body.error, /colour_of_eyes is not a field of animal/);
});
