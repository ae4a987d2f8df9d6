/**
 * Audit: Family B endpoints of Communications (templates list, fill, inboxes, message log) checked against
 * the interface and the kernel rules in the README.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite } from '../../../test/security.ts';

let t: TestApp;
before(async () => {
  // A provider is configured so sends are accepted and logged (`queued`); no worker runs in tests.
  t = await testApp({ smtpProviders: 'smtp://127.0.0.1:9?name=audit' });
});
after(async () => t.close());

const P = (text: string) => ({ type: 'p', runs: [{ text }] });
let seq = 0;
const uniq = () => `${Date.now().toString(36)}${(seq++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function person(org: TestOrg, first: string, last: string, extra: Record<string, unknown> = {}) {
  const r = await org.req('POST', '/api/v1/people', {
    body: { firstName: first, lastName: last, email: `${first}.${uniq()}@example.org`.toLowerCase(), ...extra },
  });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body.id as string;
}
const chip = () => `98510${String(Math.floor(Math.random() * 1e10)).padStart(10, '0')}`;
const chips = new Map<string, string>();
async function animal(org: TestOrg, name: string) {
  const r = await org.req('POST', '/api/v1/animals', {
    body: { name, species: 'cat', status: 'Available', intakeDate: '2024-01-02', sex: 'male', breed: 'Tabby', microchipNumber: chip() },
  });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  chips.set(r.body.id, r.body.microchipNumber);
  return r.body.id as string;
}
async function template(org: TestOrg, body: Record<string, unknown> = {}) {
  const r = await org.req('POST', '/api/communications/templates', {
    body: {
      key: `k${uniq()}`,
      subject_template: 'Hi {{first_name}}',
      body_template_blocks: [P('Hello {{first_name}}')],
      status: 'active',
      ...body,
    },
  });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body;
}
async function send(org: TestOrg, body: Record<string, unknown>) {
  const r = await org.req('POST', '/api/communications/messages', {
    headers: { 'idempotency-key': `idem-${uniq()}` },
    body: body.template_id ? body : { subject: 'Audit', body_blocks: [P('Plain body')], ...body },
  });
  assert.equal(r.status, 202, JSON.stringify(r.body));
  return r.body.results as any[];
}
const fill = (org: TestOrg, id: string, body?: unknown) =>
  org.req('POST', `/api/communications/templates/${id}/fill`, body === undefined ? {} : { body });

// ---------------------------------------------------------------- templates list

test('templates list: wrapper, defaults, A-Z by name with nameless by key, status filter, paging bounds', async () => {
  const org = await makeOrg(t);
  await template(org, { key: 'zz_nameless' });
  await template(org, { key: 'b_key', name: 'Mango' });
  await template(org, { key: 'a_key', name: 'apple pie', status: 'draft' });
  await template(org, { key: 'c_key', name: 'Zebra', status: 'archived' });
  await template(org, { key: 'm_nameless' });
  const r = await org.req('GET', '/api/communications/templates');
  assert.equal(r.status, 200);
  assert.deepEqual(Object.keys(r.body).sort(), ['has_more', 'limit', 'offset', 'results']);
  assert.equal(r.body.limit, 25);
  assert.equal(r.body.offset, 0);
  assert.equal(r.body.has_more, false);
  // apple pie, m_nameless, Mango, Zebra, zz_nameless (case-insensitive A-Z)
  assert.deepEqual(
    r.body.results.map((x: any) => x.key),
    ['a_key', 'm_nameless', 'b_key', 'c_key', 'zz_nameless'],
  );
  for (const x of r.body.results) {
    for (const f of ['id', 'key', 'tenant_id', 'subject_template', 'body_template']) assert.equal(typeof x[f], 'string', f);
    assert.equal(x.channel, 'email');
    assert.ok(['active', 'draft', 'archived'].includes(x.status));
    assert.ok(Array.isArray(x.body_template_blocks));
    assert.ok(Array.isArray(x.variables));
    assert.equal(typeof x.metadata, 'object');
    assert.ok(x.metadata !== null && !Array.isArray(x.metadata));
    assert.ok(!Number.isNaN(Date.parse(x.created_at)) && !Number.isNaN(Date.parse(x.updated_at)));
    assert.equal(x.tenant_id, org.id);
  }
  for (const [status, keys] of [
    ['active', ['b_key', 'zz_nameless', 'm_nameless'].sort()],
    ['draft', ['a_key']],
    ['archived', ['c_key']],
  ] as const) {
    const s = await org.req('GET', `/api/communications/templates?status=${status}`);
    assert.equal(s.status, 200);
    assert.deepEqual(s.body.results.map((x: any) => x.key).sort(), [...keys].sort());
  }
  const p1 = await org.req('GET', '/api/communications/templates?limit=2&offset=0');
  const p2 = await org.req('GET', '/api/communications/templates?limit=2&offset=2');
  const p3 = await org.req('GET', '/api/communications/templates?limit=2&offset=4');
  assert.deepEqual([p1.body.has_more, p2.body.has_more, p3.body.has_more], [true, true, false]);
  assert.deepEqual(
    [...p1.body.results, ...p2.body.results, ...p3.body.results].map((x: any) => x.key),
    r.body.results.map((x: any) => x.key),
  );
  assert.deepEqual([p2.body.limit, p2.body.offset], [2, 2]);
  const far = await org.req('GET', '/api/communications/templates?offset=500');
  assert.equal(far.status, 200);
  assert.deepEqual(far.body.results, []);
  assert.equal(far.body.has_more, false);
  for (const ok of ['limit=1', 'limit=100', 'offset=0'])
    assert.equal((await org.req('GET', `/api/communications/templates?${ok}`)).status, 200, ok);
  for (const bad of ['limit=0', 'limit=101', 'limit=-5', 'offset=-1', 'limit=abc', 'status=deleted', 'status=ACTIVE']) {
    const b = await org.req('GET', `/api/communications/templates?${bad}`);
    assert.ok(b.status === 400 || b.status === 422, `${bad}: ${b.status}`);
    assertErrorShape('/api/x', b, b.status);
  }
});

test('templates list: isolated per organization', async () => {
  const a = await makeOrg(t);
  const b = await makeOrg(t);
  await template(a, { key: 'only_in_a', name: 'Only A' });
  const rb = await b.req('GET', '/api/communications/templates');
  assert.equal(rb.status, 200);
  assert.equal(rb.body.results.length, 0);
  assert.ok(!JSON.stringify(rb.body).includes(a.id));
});

// ---------------------------------------------------------------- fill

test('fill: response shape and types of the Filled template', async () => {
  const org = await makeOrg(t);
  const ana = await person(org, 'Ana', 'Lee');
  const cat = await animal(org, 'Tom');
  const tp = await template(org, { subject_template: 'For {{first_name}}', body_template_blocks: [P('{{animal_name}}')] });
  const r = await fill(org, tp.id, { person_id: ana, animal_ids: [cat], related_entity_type: 'animal', related_entity_id: cat });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const f = r.body;
  assert.equal(f.template_id, tp.id);
  assert.equal(f.template_key, tp.key);
  assert.ok(Number.isInteger(f.template_version));
  assert.equal(f.subject, 'For Ana');
  assert.deepEqual(f.body_blocks, [{ type: 'p', runs: [{ text: 'Tom', bold: false, italic: false, underline: false, strike: false }] }]);
  assert.deepEqual(f.unfilled, []);
  assert.equal(f.person_id, ana);
  assert.deepEqual(f.person_ids, [ana]);
  assert.equal(f.related_entity_type, 'animal');
  assert.equal(f.related_entity_id, cat);
  assert.deepEqual(f.animal_ids, [cat]);
});

test('fill: unfilled in order of first appearance (subject, then body), once each, left in the text exactly as written', async () => {
  const org = await makeOrg(t);
  const tp = await template(org, {
    subject_template: '{{ zeta }} and {{alpha}} and {{zeta}}',
    body_template_blocks: [
      { type: 'h1', runs: [{ text: 'A {{beta}} {{  alpha  }}' }] },
      { type: 'p', runs: [{ text: 'plain ' }, { text: '{{gamma}}', bold: true }] },
      { type: 'button', runs: [{ text: 'Go', href: 'https://example.org/{{delta}}' }] },
      { type: 'p', runs: [{ text: '{{beta}} again, {{org_name}}' }] },
    ],
  });
  const r = await fill(org, tp.id, {});
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.deepEqual(r.body.unfilled, ['zeta', 'alpha', 'beta', 'gamma', 'delta']);
  assert.equal(r.body.subject, '{{ zeta }} and {{alpha}} and {{zeta}}');
  assert.equal(r.body.body_blocks[0].runs[0].text, 'A {{beta}} {{  alpha  }}');
  assert.equal(r.body.body_blocks[1].runs[1].text, '{{gamma}}');
  assert.equal(r.body.body_blocks[1].runs[1].bold, true);
  assert.equal(r.body.body_blocks[2].runs[0].href, 'https://example.org/{{delta}}');
  assert.match(r.body.body_blocks[3].runs[0].text, /^\{\{beta\}\} again, Test Rescue /);
});

test('fill: variables win over records; other fields (org_email, org_phone, org_website) only from variables', async () => {
  const org = await makeOrg(t);
  const ana = await person(org, 'Ana', 'Lee', { phone: '+12125550123' });
  const cat = await animal(org, 'Tom');
  const tp = await template(org, {
    subject_template: '{{first_name}} {{last_name}}',
    body_template_blocks: [
      P(
        '{{full_name}}|{{email}}|{{phone}}|{{animal_name}}|{{animal_species}}|{{animal_breed}}|{{animal_sex}}|{{animal_id}}|' +
          '{{org_name}}|{{org_email}}|{{org_phone}}|{{org_website}}',
      ),
    ],
  });
  const rec = await fill(org, tp.id, { person_id: ana, animal_ids: [cat] });
  assert.equal(rec.status, 200);
  const parts = rec.body.body_blocks[0].runs[0].text.split('|');
  assert.equal(rec.body.subject, 'Ana Lee');
  assert.equal(parts[0], 'Ana Lee');
  assert.match(parts[1], /^ana\..+@example\.org$/);
  assert.equal(parts[2], '+12125550123');
  // animal_id is the Pet ID a recipient can use: the microchip number, never Ark's internal id.
  assert.deepEqual(parts.slice(3, 8), ['Tom', 'cat', 'Tabby', 'male', chips.get(cat)]);
  assert.match(parts[8], /^Test Rescue /);
  assert.deepEqual(parts.slice(9), ['{{org_email}}', '{{org_phone}}', '{{org_website}}']);
  assert.deepEqual(rec.body.unfilled, ['org_email', 'org_phone', 'org_website']);

  const win = await fill(org, tp.id, {
    person_id: ana,
    animal_ids: [cat],
    variables: {
      first_name: 'Anita',
      animal_name: 'Thomas',
      org_name: 'Override',
      org_email: 'hi@rescue.example',
      org_phone: '555',
      org_website: 'https://r.example',
    },
  });
  assert.equal(win.status, 200);
  assert.equal(win.body.subject, 'Anita Lee');
  const w = win.body.body_blocks[0].runs[0].text.split('|');
  assert.equal(w[3], 'Thomas');
  assert.equal(w[8], 'Override');
  assert.deepEqual(w.slice(9), ['hi@rescue.example', '555', 'https://r.example']);
  assert.deepEqual(win.body.unfilled, []);
});

test('fill: sends nothing and changes nothing', async () => {
  const org = await makeOrg(t);
  const ana = await person(org, 'Ana', 'Lee');
  const tp = await template(org);
  const before1 = await org.req('GET', `/api/communications/templates/${tp.id}`);
  const logBefore = await org.req('GET', '/api/communications/messages');
  for (let i = 0; i < 3; i++) assert.equal((await fill(org, tp.id, { person_id: ana })).status, 200);
  const after1 = await org.req('GET', `/api/communications/templates/${tp.id}`);
  assert.deepEqual(after1.body, before1.body);
  const logAfter = await org.req('GET', '/api/communications/messages');
  assert.deepEqual(logAfter.body.results, logBefore.body.results);
  assert.equal(logAfter.body.results.length, 0);
});

test("fill: only active templates; id not key; another organization's template is not found", async () => {
  const org = await makeOrg(t);
  const other = await makeOrg(t);
  const draft = await template(org, { status: 'draft' });
  const archived = await template(org, { status: 'archived' });
  for (const id of [draft.id, archived.id]) {
    const r = await fill(org, id, {});
    assert.ok(r.status >= 400 && r.status < 500 && r.status !== 404, `${r.status}`);
    assertErrorShape('/api/x', r, r.status);
  }
  const act = await template(org);
  assertErrorShape('/api/x', await fill(org, act.key, {}), 404);
  assertErrorShape('/api/x', await fill(other, act.id, {}), 404);
  assertErrorShape('/api/x', await fill(org, 'tpl_doesnotexist0000000', {}), 404);
  // Activating a draft makes it fillable.
  assert.equal((await org.req('POST', `/api/communications/templates/${draft.id}/activate`)).status, 200);
  assert.equal((await fill(org, draft.id, {})).status, 200);
});

test('fill: related_entity_type and related_entity_id together or neither', async () => {
  const org = await makeOrg(t);
  const ben = await person(org, 'Ben', 'Ray');
  const cat = await animal(org, 'Tom');
  const tp = await template(org, { subject_template: '{{first_name}} / {{animal_name}}' });
  for (const body of [
    { related_entity_type: 'animal' },
    { related_entity_id: cat },
    { related_entity_type: 'person' },
    { related_entity_id: ben },
  ]) {
    const r = await fill(org, tp.id, body);
    assert.ok(r.status === 400 || r.status === 422, `${JSON.stringify(body)} → ${r.status}`);
    assertErrorShape('/api/x', r, r.status);
  }
  const a = await fill(org, tp.id, { related_entity_type: 'animal', related_entity_id: cat });
  assert.equal(a.status, 200);
  assert.equal(a.body.subject, '{{first_name}} / Tom');
  assert.deepEqual(a.body.unfilled, ['first_name']);
  const p = await fill(org, tp.id, { related_entity_type: 'person', related_entity_id: ben });
  assert.equal(p.status, 200);
  assert.equal(p.body.subject, 'Ben / {{animal_name}}');
  assert.equal(p.body.related_entity_type, 'person');
  assert.equal(p.body.related_entity_id, ben);
  // Another organization's animal as a related record is not visible.
  const other = await makeOrg(t);
  const theirs = await animal(other, 'Theirs');
  const x = await fill(org, tp.id, { related_entity_type: 'animal', related_entity_id: theirs });
  assert.ok(x.status === 404 || x.status === 422, `${x.status}`);
});

test('fill: person_ids and animal_ids at most 20 each; several people fill as a list', async () => {
  const org = await makeOrg(t);
  const people: string[] = [];
  for (let i = 0; i < 20; i++) people.push(await person(org, `P${i}`, 'List'));
  const animals: string[] = [];
  for (let i = 0; i < 20; i++) animals.push(await animal(org, `A${i}`));
  const tp = await template(org, { subject_template: '{{first_name}}', body_template_blocks: [P('{{animal_name}}')] });
  const ok = await fill(org, tp.id, { person_ids: people, animal_ids: animals });
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  assert.equal(ok.body.person_ids.length, 20);
  assert.equal(ok.body.animal_ids.length, 20);
  assert.deepEqual(ok.body.person_ids, people);
  assert.deepEqual(ok.body.animal_ids, animals);
  assert.ok(ok.body.subject.startsWith('P0, P1, '), ok.body.subject);
  assert.ok(ok.body.subject.endsWith(' and P19'), ok.body.subject);
  const p21 = await fill(org, tp.id, { person_ids: [...people, people[0]] });
  assert.ok(p21.status === 400 || p21.status === 422, `${p21.status}`);
  const a21 = await fill(org, tp.id, { animal_ids: [...animals, animals[0]] });
  assert.ok(a21.status === 400 || a21.status === 422, `${a21.status}`);
  assertErrorShape('/api/x', a21, a21.status);
  // Another organization's person is not on file here.
  const other = await makeOrg(t);
  const stranger = await person(other, 'Str', 'Anger');
  const s = await fill(org, tp.id, { person_id: stranger });
  assert.ok(s.status === 404 || s.status === 422, `${s.status}`);
});

test('fill: body of at most 200 blocks; unknown block type refused', async () => {
  const org = await makeOrg(t);
  const tp200 = await template(org, { body_template_blocks: Array.from({ length: 200 }, (_, i) => P(`line ${i} {{first_name}}`)) });
  const r = await fill(org, tp200.id, { variables: { first_name: 'Q' } });
  assert.equal(r.status, 200);
  assert.equal(r.body.body_blocks.length, 200);
  assert.equal(r.body.body_blocks[199].runs[0].text, 'line 199 Q');
  const bad = await org.req('POST', '/api/communications/templates', {
    body: { key: `k${uniq()}`, subject_template: 's', body_template_blocks: [{ type: 'blink', runs: [{ text: 'x' }] }] },
  });
  assertErrorShape('/api/x', bad, 422);
  const tooMany = await org.req('POST', '/api/communications/templates', {
    body: { key: `k${uniq()}`, subject_template: 's', body_template_blocks: Array.from({ length: 201 }, () => P('x')) },
  });
  assert.ok(tooMany.status === 400 || tooMany.status === 422, `${tooMany.status}`);
});

test('sending a message that still holds an unfilled field is refused', async () => {
  const org = await makeOrg(t);
  const tp = await template(org, { subject_template: 'Hi {{mystery}}' });
  const r = await org.req('POST', '/api/communications/messages', {
    headers: { 'idempotency-key': `idem-${uniq()}` },
    body: { template_id: tp.id, to_addresses: ['x@example.org'] },
  });
  assert.ok(r.status >= 400 && r.status < 500, `${r.status}`);
  assertErrorShape('/api/x', r, r.status);
  assert.equal((await org.req('GET', '/api/communications/messages')).body.results.length, 0);
});

// ---------------------------------------------------------------- inboxes

test('inboxes: every reserved name and every pattern/length breach is refused; boundary names accepted', async () => {
  const org = await makeOrg(t);
  for (const name of ['postmaster', 'abuse', 'hostmaster', 'webmaster', 'noreply', 'no-reply', 'bounces', 'mailer-daemon']) {
    const r = await org.req('POST', '/api/communications/inboxes', { body: { name } });
    assert.ok(r.status === 400 || r.status === 422, `${name}: ${r.status}`);
    assertErrorShape('/api/x', r, r.status);
  }
  for (const name of ['', '-a', 'A', 'aB', 'a_b', 'a.b', 'a b', 'é', 'a'.repeat(32), 'a\n', ' a', 'a@b']) {
    const r = await org.req('POST', '/api/communications/inboxes', { body: { name } });
    assert.ok(r.status === 400 || r.status === 422, `${JSON.stringify(name)}: ${r.status}`);
    assertErrorShape('/api/x', r, r.status);
  }
  for (const bad of [{ name: 5 }, { name: null }, { name: 'okname', display_name: 3 }]) {
    const r = await org.req('POST', '/api/communications/inboxes', { body: bad });
    assert.ok(r.status === 400 || r.status === 422, `${JSON.stringify(bad)}: ${r.status}`);
  }
  for (const name of ['a', '0', '9-', 'a-', 'x--y', `z${'9'.repeat(30)}`]) {
    const r = await org.req('POST', '/api/communications/inboxes', { body: { name } });
    assert.ok(r.status === 200 || r.status === 201, `${name}: ${r.status} ${JSON.stringify(r.body)}`);
    assert.equal(r.body.name, name);
  }
});

test('inboxes: created inbox has the Inbox fields and types, open to readers, address in email format', async () => {
  const org = await makeOrg(t);
  const r = await org.req('POST', '/api/communications/inboxes', {
    key: org.keys.staff,
    body: { name: 'fosters', display_name: 'Foster team', description: 'Questions from fosters' },
  });
  assert.ok(r.status === 200 || r.status === 201, `${r.status}`);
  const b = r.body;
  assert.deepEqual(
    ['id', 'name', 'display_name', 'description', 'address', 'created_at', 'updated_at'].map((f) => typeof b[f]),
    Array(7).fill('string'),
  );
  assert.deepEqual([b.name, b.display_name, b.description], ['fosters', 'Foster team', 'Questions from fosters']);
  assert.deepEqual([b.is_default, b.is_active, b.is_restricted], [false, true, false]);
  assert.match(b.address, /^fosters@[a-z0-9.-]+$/);
  assert.ok(b.address.includes(org.slug));
  // Without display_name and description: still strings.
  const m = await org.req('POST', '/api/communications/inboxes', { body: { name: 'minimal' } });
  assert.equal(typeof m.body.display_name, 'string');
  assert.equal(typeof m.body.description, 'string');
  // Same name in another organization is fine (names are per organization).
  const other = await makeOrg(t);
  const o = await other.req('POST', '/api/communications/inboxes', { body: { name: 'fosters' } });
  assert.equal(o.status, r.status);
  assert.notEqual(o.body.address, b.address);
  // A read-only key cannot create.
  assertErrorShape('/api/x', await org.req('POST', '/api/communications/inboxes', { key: org.keys.readOnly, body: { name: 'ro' } }), 403);
});

// ---------------------------------------------------------------- message log

test('message log: newest first, wrapper and paging, limit 1..100 default 25', async () => {
  const org = await makeOrg(t);
  const ids: string[] = [];
  for (let i = 0; i < 27; i++) {
    const [m] = await send(org, { to_addresses: [`r${i}@example.org`], subject: `S${i}` });
    ids.push(m.id);
  }
  const r = await org.req('GET', '/api/communications/messages');
  assert.equal(r.status, 200);
  assert.deepEqual(Object.keys(r.body).sort(), ['has_more', 'limit', 'offset', 'results']);
  assert.deepEqual([r.body.limit, r.body.offset, r.body.has_more, r.body.results.length], [25, 0, true, 25]);
  const all = await org.req('GET', '/api/communications/messages?limit=100');
  assert.equal(all.body.results.length, 27);
  assert.equal(all.body.has_more, false);
  assert.deepEqual(
    all.body.results.map((m: any) => m.id),
    [...ids].reverse(),
  );
  for (let i = 1; i < all.body.results.length; i++)
    assert.ok(Date.parse(all.body.results[i - 1].created_at) >= Date.parse(all.body.results[i].created_at));
  const one = await org.req('GET', '/api/communications/messages?limit=1&offset=26');
  assert.deepEqual(
    one.body.results.map((m: any) => m.id),
    [ids[0]],
  );
  assert.deepEqual([one.body.limit, one.body.offset, one.body.has_more], [1, 26, false]);
  for (const bad of ['limit=0', 'limit=101', 'offset=-1', 'limit=x', 'limit=1.5']) {
    const b = await org.req('GET', `/api/communications/messages?${bad}`);
    assert.ok(b.status === 400 || b.status === 422, `${bad}: ${b.status}`);
    assertErrorShape('/api/x', b, b.status);
  }
});

test('message log: entry fields and types; filters direction, status, category (exact), person_id', async () => {
  const org = await makeOrg(t);
  const ana = await person(org, 'Ana', 'Log');
  const ben = await person(org, 'Ben', 'Log');
  const tp = await template(org, { subject_template: 'Hi {{first_name}}' });
  await send(org, { person_id: ana, template_id: tp.id, category: 'fundraising' });
  await send(org, { person_id: ben, template_id: tp.id, category: 'newsletter' });
  await send(org, { to_addresses: ['stranger@example.org'] });
  const all = (await org.req('GET', '/api/communications/messages')).body.results;
  assert.equal(all.length, 3);
  for (const m of all) {
    for (const f of ['id', 'recipient_address', 'direction', 'channel', 'category', 'status', 'tenant_id', 'subject'])
      assert.equal(typeof m[f], 'string', f);
    assert.equal(m.channel, 'email');
    assert.equal(m.tenant_id, org.id);
    assert.ok(['outbound', 'inbound'].includes(m.direction));
    assert.ok(['queued', 'sent', 'delivered', 'failed', 'bounced', 'received', 'suppressed'].includes(m.status));
    assert.equal(typeof m.payload_metadata, 'object');
    assert.ok(m.payload_metadata !== null);
    assert.ok(!Number.isNaN(Date.parse(m.created_at)) && !Number.isNaN(Date.parse(m.updated_at)));
  }
  const byPerson = (await org.req('GET', `/api/communications/messages?person_id=${ana}`)).body.results;
  assert.equal(byPerson.length, 1);
  assert.equal(byPerson[0].person_id, ana);
  assert.equal(byPerson[0].subject, 'Hi Ana');
  assert.equal(byPerson[0].template_id, tp.id);
  const byCat = (await org.req('GET', '/api/communications/messages?category=newsletter')).body.results;
  assert.deepEqual(
    byCat.map((m: any) => m.person_id),
    [ben],
  );
  assert.equal((await org.req('GET', '/api/communications/messages?category=Newsletter')).body.results.length, 0);
  assert.equal((await org.req('GET', '/api/communications/messages?category=news')).body.results.length, 0);
  assert.equal((await org.req('GET', '/api/communications/messages?direction=outbound')).body.results.length, 3);
  assert.equal((await org.req('GET', '/api/communications/messages?direction=inbound')).body.results.length, 0);
  assert.equal((await org.req('GET', '/api/communications/messages?status=queued')).body.results.length, 3);
  for (const s of ['sent', 'delivered', 'failed', 'bounced', 'received', 'suppressed']) {
    const r = await org.req('GET', `/api/communications/messages?status=${s}`);
    assert.equal(r.status, 200, s);
    assert.equal(r.body.results.length, 0, s);
  }
  assert.equal((await org.req('GET', `/api/communications/messages?person_id=${ana}&category=newsletter`)).body.results.length, 0);
});

test('message log: messages stopped before sending are listed as suppressed', async () => {
  const org = await makeOrg(t);
  const sup = await org.req('POST', '/api/communications/suppressions', { body: { address: 'blocked@example.org', reason: 'asked' } });
  assert.ok(sup.status === 201 || sup.status === 200, JSON.stringify(sup.body));
  const [m] = await send(org, { to_addresses: ['blocked@example.org'] });
  assert.equal(m.status, 'suppressed');
  const list = (await org.req('GET', '/api/communications/messages?status=suppressed')).body.results;
  assert.deepEqual(
    list.map((x: any) => x.id),
    [m.id],
  );
  assert.equal(typeof list[0].payload_metadata.reason, 'string');
});

test('message log: isolated between organizations', async () => {
  const a = await makeOrg(t);
  const b = await makeOrg(t);
  const pa = await person(a, 'Iso', 'Late');
  await send(a, { to_addresses: ['iso@example.org'] });
  const rb = await b.req('GET', '/api/communications/messages');
  assert.equal(rb.status, 200);
  assert.deepEqual(rb.body.results, []);
  assert.deepEqual((await b.req('GET', `/api/communications/messages?person_id=${pa}`)).body.results, []);
});

// ---------------------------------------------------------------- shared security suite

const mkTpl = async (org: TestOrg) => `/api/communications/templates/${(await template(org)).id}/fill`;
securitySuite('audit communications', () => t, [
  { method: 'POST', path: mkTpl, body: {}, area: 'communications', level: 'write' },
  { method: 'POST', path: () => '/api/communications/inboxes', body: { name: 'audit-sec' }, area: 'communications', level: 'write' },
  {
    method: 'GET',
    path: () => '/api/communications/messages',
    seed: async (o) => (await send(o, { to_addresses: ['sec@example.org'], subject: 's', body_blocks: [P('x')] }))[0].id,
    area: 'communications',
    level: 'read',
  },
  {
    method: 'GET',
    path: () => '/api/communications/templates',
    seed: async (o) => (await template(o)).id,
    area: 'communications',
    level: 'read',
  },
]);

test('message log: inbound mail and a reply sent from a conversation are listed (reply body kept in the conversation)', async () => {
  const { seedCommunications } = await import('./seed.ts');
  const org = await makeOrg(t);
  const ana = await person(org, 'Ana', 'Seed');
  const rex = await animal(org, 'Rex');
  const orgRow = (await t.db.query<any>('SELECT * FROM organizations WHERE id = $1', [org.id]))[0];
  await t.db.tx((q) =>
    seedCommunications(q, orgRow, {
      people: [{ id: ana, first_name: 'Ana', last_name: 'Seed', email: 'ana@example.org', roles: [] }],
      animals: [{ id: rex, name: 'Rex', species: 'cat', status: 'Available' }],
    } as any),
  );
  const inbound = (await org.req('GET', '/api/communications/messages?direction=inbound&limit=100')).body.results;
  assert.ok(inbound.length > 0);
  for (const m of inbound) {
    assert.equal(m.direction, 'inbound');
    assert.equal(m.status, 'received');
  }
  const convs = await org.req('GET', '/api/communications/conversations');
  assert.equal(convs.status, 200, JSON.stringify(convs.body));
  const conv = convs.body.results[0];
  const reply = await org.req('POST', `/api/communications/conversations/${conv.id}/reply`, {
    headers: { 'idempotency-key': `idem-${uniq()}` },
    body: { body_blocks: [P('Thanks for writing, audit reply')] },
  });
  assert.equal(reply.status, 202, JSON.stringify(reply.body));
  const id = reply.body.results[0].id;
  const log = (await org.req('GET', '/api/communications/messages?limit=100')).body.results;
  assert.equal(log[0].id, id, 'newest first: the reply just sent heads the log');
  assert.equal(log[0].direction, 'outbound');
  assert.equal(typeof log[0].payload_metadata.thread_id, 'string');
  const dates = log.map((m: any) => Date.parse(m.created_at));
  for (let i = 1; i < dates.length; i++) assert.ok(dates[i - 1] >= dates[i], 'newest first');
  const one = await org.req('GET', `/api/communications/conversations/${conv.id}`);
  assert.ok(JSON.stringify(one.body).includes('audit reply'), 'reply body kept in the conversation');
});
