import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite } from '../../../test/security.ts';
import { PERSON_REFERENCE_EXCEPTIONS, personReferences } from './public.ts';

let t: TestApp;
before(async () => {
  // A provider is configured so a send is accepted and logged; no worker runs in tests, nothing is delivered.
  t = await testApp({ smtpProviders: 'smtp://127.0.0.1:9' });
});
after(async () => t.close());

let n = 0;
async function person(org: TestOrg, extra: Record<string, unknown> = {}): Promise<string> {
  n++;
  const r = await org.req('POST', '/api/v1/people', {
    body: { firstName: 'Ana', lastName: `Lopez${n}`, email: `ana${n}.${Math.random().toString(36).slice(2, 7)}@example.com`, ...extra },
  });
  assert.equal(r.status, 201, r.raw);
  return r.body.id;
}
const ok = (r: { status: number; raw: string }, status: number) => assert.equal(r.status, status, `${status} expected: ${r.raw}`);

test('contacts: email checked, phone to E.164, one preferred per kind, opted_out; 422/400/404', async () => {
  const org = await makeOrg(t);
  const p = await person(org);
  const url = `/api/people/${p}/contacts`;
  const a = await org.req('POST', url, { body: { kind: 'phone', value: '(212) 555-0142', label: 'mobile', preferred: true } });
  ok(a, 201);
  assert.equal(a.body.value, '+12125550142');
  assert.equal(a.body.preferred, true);
  const b = await org.req('POST', url, { body: { kind: 'phone', value: '+44 20 7946 0018', preferred: true, opted_out: true } });
  ok(b, 201);
  assert.equal(b.body.value, '+442079460018');
  const list = await org.req('GET', url);
  ok(list, 200);
  assert.deepEqual(
    list.body.results.map((c: any) => [c.value, c.preferred]),
    [
      ['+442079460018', true],
      ['+12125550142', false],
    ],
  );
  assert.equal(list.body.has_more, false);
  assertErrorShape(url, await org.req('POST', url, { body: { kind: 'email', value: 'not-an-email' } }), 422);
  assertErrorShape(url, await org.req('POST', url, { body: { kind: 'phone', value: 'call me' } }), 422);
  assertErrorShape(url, await org.req('POST', url, { body: { value: 'x@example.org' } }), 400);
  const e = await org.req('POST', url, { body: { kind: 'email', value: 'Work@Example.org' } });
  ok(e, 201);
  const patched = await org.req('PATCH', `${url}/${e.body.id}`, { body: { label: 'work', opted_out: true } });
  ok(patched, 200);
  assert.deepEqual([patched.body.label, patched.body.opted_out, patched.body.kind], ['work', true, 'email']);
  assertErrorShape(url, await org.req('PATCH', `${url}/${e.body.id}`, { body: { value: 'nope' } }), 422);
  ok(await org.req('DELETE', `${url}/${e.body.id}`), 204);
  assertErrorShape(url, await org.req('DELETE', `${url}/${e.body.id}`), 404);
  assertErrorShape(url, await org.req('GET', '/api/people/per_missing/contacts'), 404);
  // The Family A primary email and phone are unchanged by contacts.
  const fa = await org.req('GET', `/api/v1/people/${p}`);
  assert.equal(fa.body.phone, null);
});

test('addresses: dated, current computed, valid_until before valid_from is 422', async () => {
  const org = await makeOrg(t);
  const p = await person(org);
  const url = `/api/people/${p}/addresses`;
  const old = await org.req('POST', url, {
    body: {
      kind: 'home',
      line1: '9 Old Rd',
      city: 'Albany',
      postal_code: '12207',
      country: 'US',
      valid_from: '2019-01-01',
      valid_until: '2020-12-31',
    },
  });
  ok(old, 201);
  assert.equal(old.body.current, false);
  const now = await org.req('POST', url, { body: { kind: 'mailing', line1: 'PO Box 1', city: 'Albany', country: 'US' } });
  ok(now, 201);
  assert.equal(now.body.current, true);
  assert.equal(now.body.valid_from, null);
  assertErrorShape(
    url,
    await org.req('POST', url, {
      body: { kind: 'home', line1: 'x', city: 'y', country: 'US', valid_from: '2020-01-02', valid_until: '2020-01-01' },
    }),
    422,
  );
  assertErrorShape(url, await org.req('POST', url, { body: { kind: 'home', line1: 'x', city: 'y', country: 'XX' } }), 422);
  assertErrorShape(url, await org.req('PATCH', `${url}/${old.body.id}`, { body: { valid_until: '2018-01-01' } }), 422);
  const moved = await org.req('PATCH', `${url}/${old.body.id}`, { body: { valid_until: null } });
  ok(moved, 200);
  assert.equal(moved.body.current, true);
  assert.equal((await org.req('GET', url)).body.results.length, 2);
  ok(await org.req('DELETE', `${url}/${now.body.id}`), 204);
});

test('notes: author is the key, pinned first, then newest', async () => {
  const org = await makeOrg(t);
  const p = await person(org);
  const url = `/api/people/${p}/notes`;
  const a = await org.req('POST', url, { body: { body: 'first' } });
  ok(a, 201);
  assert.match(a.body.author, /^key:/);
  assert.equal(a.body.kind, 'general');
  const b = await org.req('POST', url, { body: { body: 'second', kind: 'call' } });
  const c = await org.req('POST', url, { body: { body: 'pinned', kind: 'warning', pinned: true } });
  ok(c, 201);
  assert.deepEqual(
    (await org.req('GET', url)).body.results.map((x: any) => x.body),
    ['pinned', 'second', 'first'],
  );
  const unpin = await org.req('PATCH', `${url}/${c.body.id}`, { body: { pinned: false } });
  ok(unpin, 200);
  assert.equal(unpin.body.author, a.body.author);
  assert.equal((await org.req('GET', url)).body.results[0].id, c.body.id, 'newest first once none is pinned');
  assertErrorShape(url, await org.req('POST', url, { body: { body: '' } }), 422);
  ok(await org.req('DELETE', `${url}/${b.body.id}`), 204);
});

test('flags: reason required, one standing per kind, cleared softly; banned/do_not_adopt reach adoptions via personFlags', async () => {
  const org = await makeOrg(t);
  const p = await person(org);
  const url = `/api/people/${p}/flags`;
  assertErrorShape(url, await org.req('POST', url, { body: { flag: 'banned' } }), 400);
  assertErrorShape(url, await org.req('POST', url, { body: { flag: 'grumpy', reason: 'x' } }), 422);
  const f = await org.req('POST', url, { body: { flag: 'do_not_adopt', reason: 'Returned two dogs' } });
  ok(f, 201);
  assert.match(f.body.created_by, /^key:/);
  assertErrorShape(url, await org.req('POST', url, { body: { flag: 'do_not_adopt', reason: 'again' } }), 422);
  const got = await org.req('GET', `/api/people/${p}`);
  assert.deepEqual(got.body.flags, ['do_not_adopt']);
  const a = await org.req('POST', '/api/v1/animals', {
    body: { name: 'Rex', species: 'dog', status: 'Available', intakeDate: '2024-01-02', sex: 'male' },
  });
  const app = await org.req('POST', '/api/animals/adoption-applications', { body: { person_id: p, animal_ids: [a.body.id] } });
  assert.equal(app.status, 201, app.raw);
  assert.match(app.raw, /flagged do not adopt \(Returned two dogs\)/);
  const cleared = await org.req('POST', `${url}/${f.body.id}/clear`);
  ok(cleared, 200);
  assert.ok(cleared.body.cleared_at);
  assertErrorShape(url, await org.req('POST', `${url}/${f.body.id}/clear`), 422);
  assert.equal((await org.req('GET', url)).body.results.length, 0);
  assert.equal((await org.req('GET', `${url}?include_cleared=true`)).body.results.length, 1);
  ok(await org.req('POST', url, { body: { flag: 'do_not_adopt', reason: 'set again after clearing' } }), 201);
});

test('a person flagged deceased receives no email: the message is logged suppressed with reason deceased', async () => {
  const org = await makeOrg(t);
  const p = await person(org);
  const send = () =>
    org.req('POST', '/api/communications/messages', {
      body: { person_id: p, subject: 'Hello', body_blocks: [{ type: 'p', runs: [{ text: 'x' }] }], idempotency_key: `k${Math.random()}` },
    });
  const before = await send();
  assert.equal(before.status, 202, before.raw);
  assert.equal(before.body.results[0].status, 'queued');
  ok(await org.req('POST', `/api/people/${p}/flags`, { body: { flag: 'deceased', reason: 'Passed away in March' } }), 201);
  const after = await send();
  assert.equal(after.body.results[0].status, 'suppressed');
  assert.equal(after.body.results[0].payload_metadata.reason, 'deceased');
  assert.equal(after.body.results[0].payload_metadata.suppression_scope, 'person');
  assert.match(after.body.results[0].payload_metadata.suppression_reason, /deceased/);
});

test('custom fields for people: definitions with entity_type person, values checked like animals', async () => {
  const org = await makeOrg(t);
  const d = await org.req('POST', '/api/people/custom-fields', {
    body: { entity_type: 'person', field_key: 'shirt', field_label: 'Shirt size', field_type: 'select', options: ['S', 'M', 'L'] },
  });
  ok(d, 201);
  const p = await person(org);
  const url = `/api/people/${p}/custom-fields`;
  const set = await org.req('PATCH', url, { body: { custom_fields: { shirt: 'M' } } });
  ok(set, 200);
  assert.deepEqual(set.body.custom_fields, { shirt: 'M' });
  assertErrorShape(url, await org.req('PATCH', url, { body: { custom_fields: { shirt: 'XXL' } } }), 422);
  assertErrorShape(url, await org.req('PATCH', url, { body: { custom_fields: { nope: 1 } } }), 422);
  const cleared = await org.req('PATCH', url, { body: { custom_fields: { shirt: null } } });
  assert.deepEqual(cleared.body.custom_fields, {});
});

test('duplicates: same email (contact), same phone, same name and postal code, similar name; reasons; dismissal', async () => {
  const org = await makeOrg(t);
  const addr = { line1: '1 Elm St', city: 'Albany', state: 'NY', postalCode: '12207', country: 'US' };
  const a = await person(org, { firstName: 'Marguerite', lastName: 'Fontaine', phone: '212-555-0111', address: addr });
  const b = await person(org, { firstName: 'Marguerite', lastName: 'Fontaine', address: { ...addr, postalCode: '12 207' } });
  const c = await person(org, { firstName: 'Zed', lastName: 'Quill' });
  const d = await person(org, { firstName: 'Olu', lastName: 'Bright' });
  ok(await org.req('POST', `/api/people/${c}/contacts`, { body: { kind: 'phone', value: '+1 212 555 0111' } }), 201);
  const dEmail = (await org.req('GET', `/api/v1/people/${d}`)).body.email;
  ok(await org.req('POST', `/api/people/${c}/contacts`, { body: { kind: 'email', value: dEmail.toUpperCase() } }), 201);
  const r = await org.req('GET', '/api/people/duplicates');
  ok(r, 200);
  const pair = (x: string, y: string) =>
    r.body.results.find((p: any) => [p.person_a.id, p.person_b.id].sort().join() === [x, y].sort().join());
  assert.deepEqual(pair(a, b)?.reasons, ['same_name_postal_code', 'similar_name']);
  assert.equal(pair(a, b)?.name_similarity, 1);
  assert.deepEqual(pair(a, c)?.reasons, ['same_phone']);
  assert.deepEqual(pair(c, d)?.reasons, ['same_email']);
  assert.equal(pair(b, d), undefined);
  const dis = await org.req('POST', `/api/people/${b}/duplicates/${a}/dismiss`);
  ok(dis, 201);
  assert.deepEqual(dis.body.person_ids, [a, b].sort());
  const after = await org.req('GET', '/api/people/duplicates');
  assert.equal(after.body.results.length, r.body.results.length - 1);
  assertErrorShape('/api/people/x', await org.req('POST', `/api/people/${a}/duplicates/${a}/dismiss`), 422);
  assertErrorShape('/api/people/x', await org.req('POST', `/api/people/${a}/duplicates/per_x/dismiss`), 404);
  // Another organization sees none of these pairs.
  const other = await makeOrg(t);
  assert.equal((await other.req('GET', '/api/people/duplicates')).body.results.length, 0);
});

/** Every registered person column's rows for a person, by `table.column`, as sorted JSON rows. */
async function snapshot(personId: string, orgId: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const ref of personReferences()) {
    for (const col of ref.columns) {
      const rows = await t.db.query<{ j: string }>(
        `SELECT to_jsonb(x)::text AS j FROM ${ref.table} x
          WHERE organization_id = $1 AND ${col} = $2${ref.where ? ` AND (${ref.where})` : ''}`,
        [orgId, personId],
      );
      out[`${ref.table}.${col}`] = rows.map((r) => r.j).sort();
    }
  }
  return out;
}

test('merge moves every linked record to the survivor at once; the merged person answers 404 with merged_into; undo restores', async () => {
  const org = await makeOrg(t);
  const loser = await person(org, { firstName: 'Lo', roles: ['donor', 'foster'], tags: ['newsletter'], phone: '212-555-0177' });
  const survivor = await person(org, { firstName: 'Sur', roles: ['adopter'], tags: ['vip'] });
  ok(
    await org.req('POST', '/api/people/custom-fields', {
      body: { entity_type: 'person', field_key: 'size', field_label: 'S', field_type: 'text' },
    }),
    201,
  );
  ok(
    await org.req('POST', '/api/people/custom-fields', {
      body: { entity_type: 'person', field_key: 'pet', field_label: 'P', field_type: 'text' },
    }),
    201,
  );
  ok(await org.req('PATCH', `/api/people/${loser}/custom-fields`, { body: { custom_fields: { size: 'L', pet: 'cat' } } }), 200);
  ok(await org.req('PATCH', `/api/people/${survivor}/custom-fields`, { body: { custom_fields: { size: 'M' } } }), 200);
  // Linked records in many areas.
  ok(await org.req('POST', `/api/people/${loser}/contacts`, { body: { kind: 'email', value: 'lo.work@example.org' } }), 201);
  ok(await org.req('POST', `/api/people/${loser}/addresses`, { body: { kind: 'home', line1: '1 A St', city: 'B', country: 'US' } }), 201);
  ok(await org.req('POST', `/api/people/${loser}/notes`, { body: { body: 'note' } }), 201);
  ok(await org.req('POST', `/api/people/${loser}/flags`, { body: { flag: 'dangerous', reason: 'bit a volunteer' } }), 201);
  ok(await org.req('POST', `/api/people/${loser}/flags`, { body: { flag: 'banned', reason: 'x' } }), 201);
  ok(await org.req('POST', `/api/people/${survivor}/flags`, { body: { flag: 'banned', reason: 'y' } }), 201);
  ok(
    await org.req('POST', '/api/v1/donations', {
      body: { donorId: loser, amount: 10, type: 'one-off', date: '2026-03-01', paymentMethod: 'card' },
    }),
    201,
  );
  ok(await org.req('POST', '/api/animals/foster-homes', { body: { person_id: loser, capacity: 1 } }), 201);
  ok(await org.req('POST', '/api/animals/foster-homes', { body: { person_id: survivor, capacity: 2 } }), 201);
  ok(await org.req('POST', '/api/tasks', { body: { title: 'Call', linked_type: 'person', linked_id: loser } }), 201);
  const animal = await org.req('POST', '/api/v1/animals', {
    body: { name: 'Rex', species: 'dog', status: 'Available', intakeDate: '2024-01-02', sex: 'male' },
  });
  ok(await org.req('POST', '/api/animals/adoption-applications', { body: { person_id: loser, animal_ids: [animal.body.id] } }), 201);
  const ev = await org.req('POST', '/api/v1/events', {
    body: { title: 'Day', startsAt: '2030-06-13T10:00:00Z', endsAt: '2030-06-13T15:00:00Z' },
  });
  ok(ev, 201);
  ok(await org.req('PUT', `/api/v1/events/${ev.body.id}/attendees/${loser}`, { body: { rsvp: 'going' } }), 201);
  const ev2 = await org.req('POST', '/api/v1/events', {
    body: { title: 'Day 2', startsAt: '2030-06-14T10:00:00Z', endsAt: '2030-06-14T15:00:00Z' },
  });
  ok(await org.req('PUT', `/api/v1/events/${ev2.body.id}/attendees/${loser}`, { body: { rsvp: 'going' } }), 201);
  ok(await org.req('PUT', `/api/v1/events/${ev2.body.id}/attendees/${survivor}`, { body: { rsvp: 'maybe' } }), 201);
  const run = await org.req('POST', '/api/animals/transports', {
    body: { name: 'R', scheduled_date: '2030-01-02', origin: 'A', destination: 'B' },
  });
  ok(
    await org.req('POST', `/api/animals/transports/${run.body.id}/legs`, {
      body: { from_place: 'A', to_place: 'B', driver_person_id: loser },
    }),
    201,
  );
  const dog = await org.req('POST', '/api/v1/animals', {
    body: { name: 'Max', species: 'dog', status: 'Available', intakeDate: '2024-01-02', sex: 'male' },
  });
  ok(
    await org.req('POST', `/api/animals/${dog.body.id}/outcomes`, {
      body: { occurred_at: '2024-02-01T10:00:00Z', type: 'return_to_owner', destination_person_id: loser },
    }),
    201,
  );
  ok(
    await org.req('POST', `/api/animals/${dog.body.id}/intakes`, {
      body: { occurred_at: '2024-03-01T10:00:00Z', type: 'stray', source_person_id: loser },
    }),
    201,
  );
  const partner = await org.req('POST', '/api/partners', { body: { kind: 'vet', name: 'Clinic' } });
  ok(await org.req('POST', `/api/partners/${partner.body.id}/affiliations`, { body: { person_id: loser, role: 'vet' } }), 201);
  ok(
    await org.req('POST', '/api/communications/messages', {
      body: { person_id: loser, subject: 'Hi', body_blocks: [{ type: 'p', runs: [{ text: 'x' }] }], idempotency_key: `m${Math.random()}` },
    }),
    202,
  );

  const sBefore = (await org.req('GET', `/api/people/${survivor}`)).body;
  const lBefore = (await org.req('GET', `/api/people/${loser}`)).body;
  const beforeL = await snapshot(loser, org.id);
  const beforeS = await snapshot(survivor, org.id);
  const filled = Object.entries(beforeL)
    .filter(([, rows]) => rows.length)
    .map(([k]) => k);
  assert.ok(filled.length >= 14, `linked tables filled: ${filled.join(', ')}`);

  assertErrorShape('/api/people/x/merge', await org.req('POST', `/api/people/${loser}/merge`, { body: { into: loser } }), 422);
  assertErrorShape('/api/people/x/merge', await org.req('POST', `/api/people/${loser}/merge`, { body: { into: 'per_none' } }), 422);
  assertErrorShape(
    '/api/people/x/merge',
    await org.req('POST', `/api/people/${loser}/merge`, { body: { into: survivor }, key: org.keys.staff }),
    403,
  );
  const m = await org.req('POST', `/api/people/${loser}/merge`, { body: { into: survivor } });
  ok(m, 201);
  assert.equal(m.body.kept['foster_homes.person_id'], 1, 'the survivor already has a foster home: the loser keeps theirs');
  assert.equal(m.body.kept['event_attendees.person_id'], 1, 'the survivor already attends event 2');
  assert.equal(m.body.kept['person_flags.person_id'], 1, 'the survivor already has a standing banned flag');
  assert.deepEqual(m.body.roles_added.sort(), lBefore.roles.filter((r: string) => !sBefore.roles.includes(r)).sort());
  assert.ok(m.body.roles_added.includes('donor'));
  assert.deepEqual(m.body.tags_added, ['newsletter']);
  assert.deepEqual(m.body.custom_fields_added, ['pet']);
  assert.deepEqual(m.body.custom_fields_conflicting, { size: 'L' });

  const afterL = await snapshot(loser, org.id);
  const afterS = await snapshot(survivor, org.id);
  const len = (o: Record<string, string[]>, k: string) => o[k]?.length ?? -1;
  for (const key of Object.keys(beforeL)) {
    const kept = m.body.kept[key] ?? 0;
    assert.equal(len(afterL, key), kept, `${key}: only the kept rows stay with the merged person`);
    assert.equal(len(afterS, key), len(beforeS, key) + len(beforeL, key) - kept + (key === 'person_contacts.person_id' ? 2 : 0), key);
    assert.equal(m.body.moved[key] ?? 0, len(beforeL, key) - kept, key);
  }
  const gone = await org.req('GET', `/api/people/${loser}`);
  assertErrorShape('/api/people/x', gone, 404);
  assert.equal(gone.body.merged_into, survivor);
  assert.equal((await org.req('GET', `/api/people/${loser}/notes`)).body.merged_into, survivor);
  assert.equal((await org.req('GET', `/api/v1/people/${loser}`)).status, 404);
  const s = await org.req('GET', `/api/people/${survivor}`);
  assert.deepEqual(s.body.roles.sort(), [...new Set([...sBefore.roles, ...lBefore.roles])].sort());
  assert.deepEqual(s.body.custom_fields, { size: 'M', pet: 'cat' });
  const contacts = (await org.req('GET', `/api/people/${survivor}/contacts`)).body.results;
  assert.ok(contacts.some((c: any) => c.kind === 'phone' && c.value === '+12125550177' && c.label === 'merged'));
  const change = await t.db.query<{ n: string }>(
    "SELECT count(*) AS n FROM ark_changes WHERE organization_id = $1 AND event = 'person.merged' AND entity_id = $2",
    [org.id, loser],
  );
  assert.equal(Number(change[0]?.n), 1);
  assert.equal((await org.req('GET', `/api/people/merges/${m.body.id}`)).body.id, m.body.id);
  assertErrorShape('/api/people/x/merge', await org.req('POST', `/api/people/${loser}/merge`, { body: { into: survivor } }), 404);

  const u = await org.req('POST', `/api/people/merges/${m.body.id}/undo`);
  ok(u, 200);
  assert.ok(u.body.undone_at);
  assert.deepEqual(await snapshot(loser, org.id), beforeL, 'every moved row is back with the merged person');
  const restoredS = await snapshot(survivor, org.id);
  for (const [k, rows] of Object.entries(beforeS)) assert.deepEqual(restoredS[k], rows, k);
  const s2 = await org.req('GET', `/api/people/${survivor}`);
  assert.deepEqual(s2.body.roles, sBefore.roles);
  assert.deepEqual(s2.body.tags, ['vip']);
  const { updated_at: _u, ...lAfter } = (await org.req('GET', `/api/people/${loser}`)).body;
  const { updated_at: _v, ...lWas } = lBefore;
  assert.deepEqual(lAfter, lWas, 'the merged person is back as it was');
  assert.deepEqual(s2.body.custom_fields, { size: 'M' });
  ok(await org.req('GET', `/api/people/${loser}`), 200);
  assertErrorShape('/api/people/merges/x/undo', await org.req('POST', `/api/people/merges/${m.body.id}/undo`), 422);
});

test('undo is refused after 30 days, and when the survivor was merged since (409)', async () => {
  const org = await makeOrg(t);
  const [a, b, c] = [await person(org), await person(org), await person(org)];
  const m1 = await org.req('POST', `/api/people/${a}/merge`, { body: { into: b } });
  ok(m1, 201);
  const m2 = await org.req('POST', `/api/people/${b}/merge`, { body: { into: c } });
  ok(m2, 201);
  assert.equal((await org.req('GET', `/api/people/${a}`)).body.merged_into, c, 'the pointer follows later merges');
  assertErrorShape('/api/people/merges/x/undo', await org.req('POST', `/api/people/merges/${m1.body.id}/undo`), 409);
  await t.db.query("UPDATE person_merges SET merged_at = now() - interval '31 days' WHERE organization_id = $1 AND id = $2", [
    org.id,
    m2.body.id,
  ]);
  assertErrorShape('/api/people/merges/x/undo', await org.req('POST', `/api/people/merges/${m2.body.id}/undo`), 422);
  const other = await makeOrg(t);
  assertErrorShape('/api/people/merges/x', await other.req('GET', `/api/people/merges/${m1.body.id}`), 404);
});

test('every column that names a person is handled by merge and undo (registered, or an exception with a reason)', async () => {
  const cols = await t.db.query<{ table_name: string; column_name: string }>(
    `SELECT c.table_name, c.column_name FROM information_schema.columns c
       JOIN information_schema.tables tb
         ON tb.table_schema = c.table_schema AND tb.table_name = c.table_name AND tb.table_type = 'BASE TABLE'
      WHERE c.table_schema = 'public' AND c.table_name <> 'people'
        AND (c.column_name ~ 'person' OR (c.table_name, c.column_name) IN (
          SELECT con.conrelid::regclass::text, a.attname FROM pg_constraint con
            JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = ANY(con.conkey)
           WHERE con.contype = 'f' AND con.confrelid = 'people'::regclass AND a.attname <> 'organization_id'))`,
  );
  const registered = new Set(personReferences().flatMap((r) => r.columns.map((c) => `${r.table}.${c}`)));
  const missing = cols.map((c) => `${c.table_name}.${c.column_name}`).filter((k) => !registered.has(k) && !PERSON_REFERENCE_EXCEPTIONS[k]);
  assert.deepEqual(missing, [], 'register these with registerPersonReferences (people/public.ts) or list them as exceptions with a reason');
  assert.ok(registered.has('donations.donor_id') && registered.has('partner_affiliations.person_id'));
});

const mkPerson = async (o: TestOrg) => person(o);
const mergeOf = async (o: TestOrg): Promise<string> =>
  (await o.req('POST', `/api/people/${await person(o)}/merge`, { body: { into: await person(o) } })).body.id;
const sub = (kind: string, body: unknown) => async (o: TestOrg) => {
  const p = await person(o);
  const r = await o.req('POST', `/api/people/${p}/${kind}`, { body });
  return `/api/people/${p}/${kind}/${r.body.id}`;
};
securitySuite('people in depth', () => t, [
  { method: 'GET', path: async (o) => `/api/people/${await mkPerson(o)}`, area: 'people', level: 'read' },
  {
    method: 'PATCH',
    path: async (o) => `/api/people/${await mkPerson(o)}/custom-fields`,
    body: { custom_fields: {} },
    area: 'people',
    level: 'write',
  },
  { method: 'GET', path: async (o) => `/api/people/${await mkPerson(o)}/contacts`, area: 'people', level: 'read' },
  {
    method: 'POST',
    path: async (o) => `/api/people/${await mkPerson(o)}/contacts`,
    body: { kind: 'other', value: 'x' },
    area: 'people',
    level: 'write',
  },
  { method: 'PATCH', path: sub('contacts', { kind: 'other', value: 'x' }), body: { label: 'y' }, area: 'people', level: 'write' },
  { method: 'DELETE', path: sub('contacts', { kind: 'other', value: 'x' }), area: 'people', level: 'write' },
  { method: 'GET', path: async (o) => `/api/people/${await mkPerson(o)}/addresses`, area: 'people', level: 'read' },
  {
    method: 'POST',
    path: async (o) => `/api/people/${await mkPerson(o)}/addresses`,
    body: { kind: 'home', line1: 'a', city: 'b', country: 'US' },
    area: 'people',
    level: 'write',
  },
  {
    method: 'PATCH',
    path: sub('addresses', { kind: 'home', line1: 'a', city: 'b', country: 'US' }),
    body: { city: 'c' },
    area: 'people',
    level: 'write',
  },
  { method: 'DELETE', path: sub('addresses', { kind: 'home', line1: 'a', city: 'b', country: 'US' }), area: 'people', level: 'write' },
  { method: 'GET', path: async (o) => `/api/people/${await mkPerson(o)}/notes`, area: 'people', level: 'read' },
  { method: 'POST', path: async (o) => `/api/people/${await mkPerson(o)}/notes`, body: { body: 'x' }, area: 'people', level: 'write' },
  { method: 'PATCH', path: sub('notes', { body: 'x' }), body: { pinned: true }, area: 'people', level: 'write' },
  { method: 'DELETE', path: sub('notes', { body: 'x' }), area: 'people', level: 'write' },
  { method: 'GET', path: async (o) => `/api/people/${await mkPerson(o)}/flags`, area: 'people', level: 'read' },
  {
    method: 'POST',
    path: async (o) => `/api/people/${await mkPerson(o)}/flags`,
    body: { flag: 'dangerous', reason: 'x' },
    area: 'people',
    level: 'write',
  },
  {
    method: 'POST',
    path: async (o) => `${await sub('flags', { flag: 'dangerous', reason: 'x' })(o)}/clear`,
    area: 'people',
    level: 'write',
  },
  {
    method: 'GET',
    path: () => '/api/people/duplicates',
    seed: async (o) => {
      await person(o, { firstName: 'Dup', lastName: 'Twin', address: { line1: 'a', city: 'b', postalCode: '1', country: 'US' } });
      return person(o, { firstName: 'Dup', lastName: 'Twin', address: { line1: 'a', city: 'b', postalCode: '1', country: 'US' } });
    },
    area: 'people',
    level: 'read',
  },
  {
    method: 'POST',
    path: async (o) => `/api/people/${await person(o)}/duplicates/${await person(o)}/dismiss`,
    area: 'people',
    level: 'write',
  },
  { method: 'POST', path: async (o) => `/api/people/${await mkPerson(o)}/merge`, body: { into: 'per_x' }, area: 'people', level: 'admin' },
  {
    method: 'GET',
    path: async (o) =>
      `/api/people/merges/${(await o.req('POST', `/api/people/${await person(o)}/merge`, { body: { into: await person(o) } })).body.id}`,
    area: 'people',
    level: 'read',
  },
  {
    method: 'POST',
    path: async (o) => `/api/people/merges/${await mergeOf(o)}/undo`,
    area: 'people',
    level: 'admin',
  },
]);

test('two opposite merges at once: one wins; the other finds `into` merged (422) and changes nothing', async () => {
  const org = await makeOrg(t);
  const [a, b] = [await person(org), await person(org)];
  const [r1, r2] = await Promise.all([
    org.req('POST', `/api/people/${a}/merge`, { body: { into: b } }),
    org.req('POST', `/api/people/${b}/merge`, { body: { into: a } }),
  ]);
  assert.deepEqual([r1.status, r2.status].sort(), [201, 422], `${r1.raw}\n${r2.raw}`);
  const lost = r1.status === 422 ? r1 : r2;
  assert.match(lost.body.error, /into names no live person/);
  const live = await t.db.query<{ n: string }>(
    'SELECT count(*) AS n FROM people WHERE organization_id = $1 AND id = ANY($2::text[]) AND deleted_at IS NULL',
    [org.id, [a, b]],
  );
  assert.equal(Number(live[0]?.n), 1, 'exactly one of the two is live');
});

test('ark seed: contacts, a note, a flag, a likely duplicate pair, partners with a location and an affiliation', async () => {
  const { seedOrganization } = await import('../../cli/seed.ts');
  const org = await makeOrg(t);
  await seedOrganization(t.db, org.slug);
  const dups = (await org.req('GET', '/api/people/duplicates')).body.results as { reasons: string[] }[];
  assert.ok(
    dups.some((d) => d.reasons.includes('same_name_postal_code')),
    JSON.stringify(dups),
  );
  const partners = (await org.req('GET', '/api/partners')).body.results as { id: string; kind: string }[];
  assert.deepEqual(partners.map((p) => p.kind).sort(), ['shelter', 'transport', 'vet']);
  const vet = partners.find((p) => p.kind === 'vet');
  assert.equal((await org.req('GET', `/api/partners/${vet?.id}/locations`)).body.results.length, 1);
  assert.equal((await org.req('GET', `/api/partners/${vet?.id}/affiliations`)).body.results.length, 1);
  const counts = await t.db.query<{ c: string; n: string; f: string }>(
    `SELECT (SELECT count(*) FROM person_contacts WHERE organization_id = $1) AS c,
            (SELECT count(*) FROM person_notes WHERE organization_id = $1) AS n,
            (SELECT count(*) FROM person_flags WHERE organization_id = $1) AS f`,
    [org.id],
  );
  assert.deepEqual(counts[0], { c: '4', n: '2', f: '1' });
});
