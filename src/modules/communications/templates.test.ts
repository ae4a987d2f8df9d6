import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp, type TestOrg } from '../../../test/harness.ts';
import { securitySuite, assertErrorShape, unique } from '../../../test/security.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

const P = (text: string) => ({ type: 'p', runs: [{ text }] });

async function person(org: TestOrg, first: string, last: string, phone?: string) {
  const r = await org.req('POST', '/api/v1/people', {
    body: {
      firstName: first,
      lastName: last,
      email: `${first}.${last}.${Math.random().toString(36).slice(2, 8)}@example.org`.toLowerCase(),
      ...(phone ? { phone } : {}),
    },
  });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body.id as string;
}
async function animal(org: TestOrg, name: string, species = 'dog', breed?: string, microchipNumber?: string) {
  const r = await org.req('POST', '/api/v1/animals', {
    body: {
      name,
      species,
      status: 'Available',
      intakeDate: '2024-01-02',
      sex: 'female',
      ...(breed ? { breed } : {}),
      ...(microchipNumber ? { microchipNumber } : {}),
    },
  });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body.id as string;
}
async function template(org: TestOrg, body: Record<string, unknown> = {}) {
  const r = await org.req('POST', '/api/communications/templates', {
    body: {
      key: `k${Math.random().toString(36).slice(2, 9)}`,
      subject_template: 'Hello {{ first_name }}',
      body_template_blocks: [P('Hi {{first_name}}, meet {{animal_name}} from {{org_name}}.')],
      status: 'active',
      ...body,
    },
  });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body;
}

test('templates: create, read, key rules, block rules, version on edit of active wording', async () => {
  const org = await makeOrg(t);
  const tp = await template(org, {
    key: 'adoption.welcome',
    name: 'Welcome',
    status: 'draft',
    variables: [{ name: 'adopt_url', description: 'link' }],
    metadata: { category: 'adoption_updates' },
  });
  assert.equal(tp.status, 'draft');
  assert.equal(tp.tenant_id, org.id);
  assert.equal(tp.channel, 'email');
  assert.equal(tp.version, 1);
  assert.ok(tp.body_template.includes('Hi {{first_name}}'));
  assert.deepEqual(
    tp.variables.map((v: any) => v.name),
    ['first_name', 'animal_name', 'org_name', 'adopt_url'],
  );
  assert.equal(tp.variables[3].source, 'variables');

  assertErrorShape(
    '/api/x',
    await org.req('POST', '/api/communications/templates', {
      body: { key: 'adoption.welcome', subject_template: 's', body_template: 'b' },
    }),
    422,
  );
  assertErrorShape(
    '/api/x',
    await org.req('POST', '/api/communications/templates', { body: { key: 'Bad Key', subject_template: 's', body_template: 'b' } }),
    422,
  );
  assertErrorShape(
    '/api/x',
    await org.req('POST', '/api/communications/templates', {
      body: { key: 'x1', subject_template: 's', body_template_blocks: [{ type: 'marquee', runs: [] }] },
    }),
    422,
  );
  assertErrorShape(
    '/api/x',
    await org.req('POST', '/api/communications/templates', {
      body: { key: 'x2', subject_template: 's', body_template_blocks: Array.from({ length: 201 }, () => P('a')) },
    }),
    422,
  );
  assertErrorShape(
    '/api/x',
    await org.req('POST', '/api/communications/templates', {
      body: { key: 'x3', subject_template: 's', body_template_blocks: [{ type: 'p', runs: [{ text: 'x', href: 'javascript:alert(1)' }] }] },
    }),
    422,
  );
  assertErrorShape('/api/x', await org.req('POST', '/api/communications/templates', { body: { key: 'x4', body_template: 'b' } }), 400);
  const text = await org.req('POST', '/api/communications/templates', {
    body: { key: 'text.form', subject_template: 's', body_template: 'One\n\nTwo' },
  });
  assert.equal(text.status, 201);
  assert.equal(text.body.body_template_blocks.length, 2);

  // Draft edits change in place; once active, wording edits make a new version.
  const e1 = await org.req('PATCH', `/api/communications/templates/${tp.id}`, { body: { subject_template: 'Welcome {{first_name}}' } });
  assert.equal(e1.body.version, 1);
  assert.equal((await org.req('POST', `/api/communications/templates/${tp.id}/activate`)).body.status, 'active');
  const e2 = await org.req('PATCH', `/api/communications/templates/${tp.id}`, {
    body: { subject_template: 'Welcome home {{first_name}}' },
  });
  assert.equal(e2.body.version, 2);
  const e3 = await org.req('PATCH', `/api/communications/templates/${tp.id}`, { body: { name: 'Renamed' } });
  assert.equal(e3.body.version, 2);
  assertErrorShape('/api/x', await org.req('PATCH', `/api/communications/templates/${tp.id}`, { body: { key: 'other' } }), 422);
  const filled = await org.req('POST', `/api/communications/templates/${tp.id}/fill`, { body: { variables: { first_name: 'Zed' } } });
  assert.equal(filled.body.template_version, 2);
  assert.equal(filled.body.subject, 'Welcome home Zed');
  assert.equal((await org.req('POST', `/api/communications/templates/${tp.id}/archive`)).body.status, 'archived');
  assert.equal((await org.req('POST', `/api/communications/templates/${tp.id}/draft`)).body.status, 'draft');
  assertErrorShape('/api/x', await org.req('GET', '/api/communications/templates/tpl_nope'), 404);
});

test('templates list: by name A-Z, no name sorts by key, status filter, paging', async () => {
  const org = await makeOrg(t);
  await template(org, { key: 'zeta', name: 'banana' });
  await template(org, { key: 'alpha', name: 'Cherry', status: 'draft' });
  await template(org, { key: 'apple' });
  await template(org, { key: 'mid', name: 'Date', status: 'archived' });
  const all = await org.req('GET', '/api/communications/templates');
  assert.equal(all.status, 200);
  assert.deepEqual(
    all.body.results.map((r: any) => r.key),
    ['apple', 'zeta', 'alpha', 'mid'],
  );
  assert.equal(all.body.limit, 25);
  assert.equal(all.body.offset, 0);
  assert.equal(all.body.has_more, false);
  const active = await org.req('GET', '/api/communications/templates?status=active');
  assert.deepEqual(
    active.body.results.map((r: any) => r.key),
    ['apple', 'zeta'],
  );
  const p = await org.req('GET', '/api/communications/templates?limit=1&offset=1');
  assert.deepEqual(
    p.body.results.map((r: any) => r.key),
    ['zeta'],
  );
  assert.equal(p.body.has_more, true);
  for (const q of ['limit=0', 'limit=101', 'offset=-1', 'status=gone'])
    assertErrorShape('/api/x', await org.req('GET', `/api/communications/templates?${q}`), 422);
});

test('fill: person, people as a list, animals, org, variables win, unfilled kept, only active, id not key', async () => {
  const org = await makeOrg(t);
  const ana = await person(org, 'Ana', 'Diaz', '+12125550100');
  const ben = await person(org, 'Ben', 'Eze');
  const cy = await person(org, 'Cy', 'Fox');
  const rex = await animal(org, 'Rex', 'dog', 'Beagle', '985112345678903');
  const tess = await animal(org, 'Tess', 'cat');
  const tp = await template(org, {
    subject_template: '{{ first_name }}, news about {{animal_name}}',
    body_template_blocks: [
      { type: 'h1', runs: [{ text: 'Dear {{full_name}}' }] },
      {
        type: 'p',
        runs: [
          {
            text:
              '{{animal_name}} is a {{animal_breed}} {{animal_species}} ({{animal_sex}}), Pet ID {{animal_id}}. Call ' +
              '{{phone}} or {{ org_phone }}. {{mystery}}',
          },
        ],
      },
      { type: 'button', runs: [{ text: 'Visit', href: '{{adopt_url}}' }] },
    ],
  });
  const r = await org.req('POST', `/api/communications/templates/${tp.id}/fill`, {
    body: { person_id: ana, animal_ids: [rex], variables: { org_phone: '555-1234' } },
  });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.deepEqual(
    Object.keys(r.body).sort(),
    [
      'animal_ids',
      'body_blocks',
      'person_id',
      'person_ids',
      'related_entity_id',
      'related_entity_type',
      'subject',
      'template_id',
      'template_key',
      'template_version',
      'unfilled',
    ].sort(),
  );
  assert.equal(r.body.subject, 'Ana, news about Rex');
  assert.equal(r.body.body_blocks[0].runs[0].text, 'Dear Ana Diaz');
  assert.equal(
    r.body.body_blocks[1].runs[0].text,
    'Rex is a Beagle dog (female), Pet ID 985112345678903. Call +12125550100 or 555-1234. {{mystery}}',
  );
  // The Pet ID is the microchip number: Ark's internal id never reaches a recipient; no chip on file leaves it unfilled.
  assert.ok(!JSON.stringify(r.body.body_blocks).includes(rex));
  const chipless = await org.req('POST', `/api/communications/templates/${tp.id}/fill`, { body: { person_id: ana, animal_ids: [tess] } });
  assert.equal(chipless.status, 200);
  assert.ok(chipless.body.unfilled.includes('animal_id'));
  assert.ok(!JSON.stringify(chipless.body.body_blocks).includes(tess));
  assert.deepEqual(r.body.unfilled, ['mystery', 'adopt_url']);
  assert.equal(r.body.body_blocks[2].runs[0].href, '{{adopt_url}}');
  assert.equal(r.body.person_id, ana);
  assert.deepEqual(r.body.animal_ids, [rex]);
  assert.equal(r.body.template_key, tp.key);

  const many = await org.req('POST', `/api/communications/templates/${tp.id}/fill`, {
    body: { person_ids: [ana, ben, cy], variables: { animal_name: 'Milo' } },
  });
  assert.equal(many.body.subject, 'Ana, Ben and Cy, news about Milo');
  assert.deepEqual(many.body.person_ids, [ana, ben, cy]);

  const rel = await org.req('POST', `/api/communications/templates/${tp.id}/fill`, {
    body: { related_entity_type: 'animal', related_entity_id: rex },
  });
  assert.equal(rel.body.subject, '{{ first_name }}, news about Rex');
  assert.deepEqual(rel.body.unfilled.slice(0, 1), ['first_name']);
  assert.equal(rel.body.related_entity_type, 'animal');
  const relP = await org.req('POST', `/api/communications/templates/${tp.id}/fill`, {
    body: { related_entity_type: 'person', related_entity_id: ben },
  });
  assert.ok(relP.body.subject.startsWith('Ben,'));
  const empty = await org.req('POST', `/api/communications/templates/${tp.id}/fill`);
  assert.equal(empty.status, 200);
  assert.equal(empty.body.person_id, ''); // the spec types it string, not nullable

  assertErrorShape(
    '/api/x',
    await org.req('POST', `/api/communications/templates/${tp.id}/fill`, { body: { related_entity_type: 'animal' } }),
    400,
  );
  assertErrorShape(
    '/api/x',
    await org.req('POST', `/api/communications/templates/${tp.id}/fill`, { body: { related_entity_id: rex } }),
    400,
  );
  assertErrorShape(
    '/api/x',
    await org.req('POST', `/api/communications/templates/${tp.id}/fill`, {
      body: { related_entity_type: 'spaceship', related_entity_id: 'x' },
    }),
    422,
  );
  const app = await org.req('POST', `/api/communications/templates/${tp.id}/fill`, {
    body: { related_entity_type: 'adoption_application', related_entity_id: 'app_x' },
  });
  assertErrorShape('/api/x', app, 404);
  assert.match(app.body.error, /adoption application/);
  assertErrorShape(
    '/api/x',
    await org.req('POST', `/api/communications/templates/${tp.id}/fill`, {
      body: { person_ids: Array.from({ length: 21 }, (_, i) => `per_${i}`) },
    }),
    422,
  );
  assertErrorShape(
    '/api/x',
    await org.req('POST', `/api/communications/templates/${tp.id}/fill`, { body: { person_id: 'per_nobody' } }),
    422,
  );
  assertErrorShape('/api/x', await org.req('POST', `/api/communications/templates/${tp.id}/fill`, { body: { surprise: 1 } }), 422);
  assertErrorShape('/api/x', await org.req('POST', `/api/communications/templates/${tp.key}/fill`), 404);
  assertErrorShape('/api/x', await org.req('POST', `/api/communications/templates/${tp.id}/fill`, { key: org.keys.readOnly }), 403);
  await org.req('POST', `/api/communications/templates/${tp.id}/draft`);
  assertErrorShape('/api/x', await org.req('POST', `/api/communications/templates/${tp.id}/fill`), 422);
  const log = await org.req('GET', '/api/communications/messages');
  assert.equal(log.body.results.length, 0, 'fill sends nothing');
});

test('inboxes: create, reserved and bad names, unique, name immutable, retire, default made at first use', async () => {
  const org = await makeOrg(t);
  const r = await org.req('POST', '/api/communications/inboxes', {
    body: { name: 'adoptions', display_name: 'Adoptions', description: 'Adoption questions' },
  });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  assert.equal(r.body.address, `adoptions@${org.slug}.localhost`);
  assert.equal(r.body.is_active, true);
  assert.equal(r.body.is_restricted, false);
  assert.equal(r.body.is_default, false);
  for (const name of ['postmaster', 'abuse', 'no-reply', 'mailer-daemon', '-x', 'A', 'x'.repeat(32), '']) {
    assertErrorShape('/api/x', await org.req('POST', '/api/communications/inboxes', { body: { name } }), 422);
  }
  assertErrorShape('/api/x', await org.req('POST', '/api/communications/inboxes', { body: { name: 'adoptions' } }), 422);
  assertErrorShape('/api/x', await org.req('POST', '/api/communications/inboxes', { body: {} }), 400);
  assert.equal((await org.req('POST', '/api/communications/inboxes', { body: { name: 'x'.repeat(31) } })).status, 201);
  const list = await org.req('GET', '/api/communications/inboxes');
  assert.equal(list.body.results[0].name, 'hello');
  assert.equal(list.body.results[0].is_default, true);
  assertErrorShape('/api/x', await org.req('PATCH', `/api/communications/inboxes/${r.body.id}`, { body: { name: 'other' } }), 422);
  assertErrorShape(
    '/api/x',
    await org.req('PATCH', `/api/communications/inboxes/${r.body.id}`, { key: org.keys.staff, body: { is_restricted: true } }),
    403,
  );
  const up = await org.req('PATCH', `/api/communications/inboxes/${r.body.id}`, {
    body: { display_name: 'Adopt', is_restricted: true, access_list: { roles: ['staff'] } },
  });
  assert.equal(up.body.is_restricted, true);
  assert.deepEqual(up.body.access_list.roles, ['staff']);
  const ret = await org.req('POST', `/api/communications/inboxes/${r.body.id}/retire`);
  assert.equal(ret.body.is_active, false);
  assertErrorShape('/api/x', await org.req('POST', `/api/communications/inboxes/${list.body.results[0].id}/retire`), 422);
  // open to everyone who may read Communications: a write key creates one
  assert.equal((await org.req('POST', '/api/communications/inboxes', { key: org.keys.staff, body: { name: 'volunteers' } })).status, 201);
});

test('message log: empty list shape and filter validation', async () => {
  const org = await makeOrg(t);
  const r = await org.req('GET', '/api/communications/messages');
  assert.deepEqual(r.body, { results: [], limit: 25, offset: 0, has_more: false });
  for (const q of ['limit=0', 'limit=101', 'offset=-1', 'direction=sideways', 'status=lost'])
    assertErrorShape('/api/x', await org.req('GET', `/api/communications/messages?${q}`), 422);
  assert.equal(
    (await org.req('GET', '/api/communications/messages?direction=inbound&status=received&category=fundraising&person_id=per_x&limit=100'))
      .status,
    200,
  );
});

const mkTemplate = async (org: TestOrg) => `/api/communications/templates/${(await template(org)).id}`;
const mkInbox = async (org: TestOrg) => {
  const body = { name: `i${Math.random().toString(36).slice(2, 8)}` };
  return `/api/communications/inboxes/${(await org.req('POST', '/api/communications/inboxes', { body })).body.id}`;
};
securitySuite('communications templates', () => t, [
  { method: 'GET', path: () => '/api/communications/templates', area: 'communications', level: 'read' },
  {
    method: 'POST',
    path: () => '/api/communications/templates',
    body: () => ({ key: unique('sec'), subject_template: 's', body_template: 'b' }),
    area: 'communications',
    level: 'write',
  },
  { method: 'GET', path: mkTemplate, area: 'communications', level: 'read' },
  { method: 'PATCH', path: mkTemplate, body: { name: 'n' }, area: 'communications', level: 'write' },
  { method: 'POST', path: async (o) => `${await mkTemplate(o)}/activate`, area: 'communications', level: 'write' },
  { method: 'POST', path: async (o) => `${await mkTemplate(o)}/draft`, area: 'communications', level: 'write' },
  { method: 'POST', path: async (o) => `${await mkTemplate(o)}/archive`, area: 'communications', level: 'write' },
  { method: 'POST', path: async (o) => `${await mkTemplate(o)}/fill`, body: {}, area: 'communications', level: 'write' },
  {
    method: 'POST',
    path: () => '/api/communications/inboxes',
    body: () => ({ name: unique('sec-inbox-') }),
    area: 'communications',
    level: 'write',
  },
  { method: 'GET', path: () => '/api/communications/inboxes', area: 'communications', level: 'read' },
  { method: 'GET', path: mkInbox, area: 'communications', level: 'read' },
  { method: 'PATCH', path: mkInbox, body: { display_name: 'x' }, area: 'communications', level: 'write' },
  { method: 'POST', path: async (o) => `${await mkInbox(o)}/retire`, area: 'communications', level: 'admin' },
]);

test('seed: 3 active templates (+ draft, archived), 20 log entries in both directions, 2 inboxes', async () => {
  const { seedCommunications } = await import('./seed.ts');
  const org = await makeOrg(t);
  const people: { id: string; first_name: string; last_name: string; email: string; roles: string[] }[] = [];
  for (const n of ['Ana', 'Ben']) {
    const id = await person(org, n, 'Seed');
    people.push({ id, first_name: n, last_name: 'Seed', email: `${n}@example.org`, roles: [] });
  }
  const animals = [{ id: await animal(org, 'Rex'), name: 'Rex', species: 'dog', status: 'Available' }];
  const orgRow = (
    await t.db.query<any>('SELECT id, slug, name, email, phone, website, currency, time_zone, country FROM organizations WHERE id = $1', [
      org.id,
    ])
  )[0];
  await t.db.tx((q) => seedCommunications(q, orgRow, { people, animals }));
  const tpls = (await org.req('GET', '/api/communications/templates?limit=100')).body.results;
  assert.equal(tpls.filter((x: any) => x.status === 'active').length, 3);
  assert.equal(tpls.filter((x: any) => x.status === 'draft').length, 1);
  assert.equal(tpls.filter((x: any) => x.status === 'archived').length, 1);
  for (const x of tpls.filter((y: any) => y.status === 'active')) {
    const f = await org.req('POST', `/api/communications/templates/${x.id}/fill`, {
      body: { person_id: people[0]?.id, animal_ids: [animals[0]?.id], variables: { amount: '$25' } },
    });
    assert.deepEqual(f.body.unfilled, [], x.key);
  }
  const log = await org.req('GET', '/api/communications/messages?limit=100');
  assert.equal(log.body.results.length, 20);
  assert.ok(new Set(log.body.results.map((m: any) => m.status)).size >= 5);
  assert.ok(new Set(log.body.results.map((m: any) => m.category)).size >= 4);
  assert.equal(new Set(log.body.results.map((m: any) => m.direction)).size, 2);
  assert.equal((await org.req('GET', '/api/communications/inboxes')).body.results.length, 2);
});
