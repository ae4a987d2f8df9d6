import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp } from '../../../test/harness.ts';
import { seedOrganization } from '../../cli/seed.ts';

// Template bodies as answered: runs always carry their style flags, the text form keeps merge
// fields as written (a round trip changes nothing), and the seed follows the area's own rules.

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

const FLAGS = ['bold', 'italic', 'underline', 'strike'] as const;
function assertFullRuns(blocks: { runs: Record<string, unknown>[] }[], where: string) {
  assert.ok(blocks.length > 0, where);
  for (const b of blocks)
    for (const r of b.runs) {
      assert.equal(typeof r.text, 'string', where);
      for (const f of FLAGS) assert.equal(typeof r[f], 'boolean', `${where}: run ${JSON.stringify(r)} lacks ${f}`);
    }
}

test('body_template keeps merge fields in headings as written; sending it back keeps the blocks and the fills', async () => {
  const org = await makeOrg(t);
  await seedOrganization(t.db, org.slug);
  const list = (await org.req('GET', '/api/communications/templates')).body.results;
  const welcome = list.find((x: { key: string }) => x.key === 'adoption.welcome');
  assert.match(welcome.body_template, /^Congratulations, \{\{first_name\}\}!/);
  assert.ok(!welcome.body_template.includes('FIRST_NAME'));
  const personId = (await org.req('GET', '/api/v1/people?perPage=1')).body.data[0].id;
  const animalId = (await org.req('GET', '/api/v1/animals?perPage=1')).body.data[0].id;
  const fill = async () =>
    (await org.req('POST', `/api/communications/templates/${welcome.id}/fill`, { body: { person_id: personId, animal_ids: [animalId] } }))
      .body;
  const before = await fill();
  assert.deepEqual(before.unfilled, []);

  const saved = await org.req('PATCH', `/api/communications/templates/${welcome.id}`, { body: { body_template: welcome.body_template } });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  assert.deepEqual(saved.body.body_template_blocks, welcome.body_template_blocks, 'the same blocks');
  assert.equal(saved.body.body_template, welcome.body_template);
  assert.equal(saved.body.version, welcome.version, 'nothing changed, so no new version');
  assert.deepEqual(await fill(), before, 'the same fill');

  // The text form saved into another template fills the same fields.
  const copy = await org.req('POST', '/api/communications/templates', {
    body: { key: 'welcome.copy', subject_template: welcome.subject_template, body_template: welcome.body_template, status: 'active' },
  });
  assert.equal(copy.status, 201, JSON.stringify(copy.body));
  assert.deepEqual(
    copy.body.variables.map((v: { name: string }) => v.name),
    welcome.variables.map((v: { name: string }) => v.name),
  );
  const filledCopy = (
    await org.req('POST', `/api/communications/templates/${copy.body.id}/fill`, { body: { person_id: personId, animal_ids: [animalId] } })
  ).body;
  assert.deepEqual(filledCopy.unfilled, []);
  assert.equal(filledCopy.subject, before.subject);
  assert.equal(filledCopy.body_blocks[0].runs[0].text, before.body_blocks[0].runs[0].text, 'the heading, filled, reads the same');
  assert.doesNotMatch(JSON.stringify(filledCopy.body_blocks), /\{\{/);
});

test('runs carry bold, italic, underline and strike (false when not set) in every template and fill answer', async () => {
  const org = await makeOrg(t);
  const blocks = [
    { type: 'h1', runs: [{ text: 'Hello {{first_name}}' }] },
    {
      type: 'p',
      runs: [
        { text: 'plain ' },
        { text: 'bold', bold: true },
        { text: ' link', href: 'https://example.org/{{first_name}}', underline: true },
      ],
    },
  ];
  const made = await org.req('POST', '/api/communications/templates', {
    body: { key: 'runs', subject_template: 'Hi', body_template_blocks: blocks, status: 'active' },
  });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  assertFullRuns(made.body.body_template_blocks, 'create');
  assert.deepEqual(made.body.body_template_blocks[1].runs, [
    { text: 'plain ', bold: false, italic: false, underline: false, strike: false },
    { text: 'bold', bold: true, italic: false, underline: false, strike: false },
    { text: ' link', bold: false, italic: false, underline: true, strike: false, href: 'https://example.org/{{first_name}}' },
  ]);
  const id = made.body.id;
  assertFullRuns((await org.req('GET', `/api/communications/templates/${id}`)).body.body_template_blocks, 'get');
  assertFullRuns((await org.req('GET', '/api/communications/templates')).body.results[0].body_template_blocks, 'list');
  const upd = await org.req('PATCH', `/api/communications/templates/${id}`, { body: { name: 'Runs' } });
  assertFullRuns(upd.body.body_template_blocks, 'update');
  assert.equal(upd.body.version, 1, 'flags spelled out are not a change of wording');
  const again = await org.req('PATCH', `/api/communications/templates/${id}`, { body: { body_template_blocks: blocks } });
  assert.equal(again.body.version, 1, 'the same blocks sent without flags are no change either');
  const filled = await org.req('POST', `/api/communications/templates/${id}/fill`, { body: { variables: { first_name: 'Ana' } } });
  assert.equal(filled.status, 200, JSON.stringify(filled.body));
  assertFullRuns(filled.body.body_blocks, 'fill');
  assert.equal(filled.body.body_blocks[1].runs[2].href, 'https://example.org/Ana');
  assert.equal('href' in filled.body.body_blocks[1].runs[0], false, 'href only on links');
});

test('seed: received mail names no person until staff confirm, and is addressed to the full inbox address', async () => {
  const org = await makeOrg(t);
  await seedOrganization(t.db, org.slug);
  const inboxes = (await org.req('GET', '/api/communications/inboxes')).body.results;
  const addresses = inboxes.map((i: { address: string }) => i.address);
  assert.ok(
    addresses.every((a: string) => a.endsWith(`@${org.slug}.localhost`)),
    JSON.stringify(addresses),
  );
  const inbound = (await org.req('GET', '/api/communications/messages?direction=inbound&limit=100')).body.results;
  assert.equal(inbound.length, 5);
  for (const m of inbound) {
    assert.ok(addresses.includes(m.recipient_address), `${m.recipient_address} is an inbox address`);
    assert.equal(m.person_id, '', 'no person on an unconfirmed conversation');
  }
  const convs = (await org.req('GET', '/api/communications/conversations?limit=100')).body.results;
  assert.equal(convs.length, 5);
  for (const c of convs) {
    assert.equal(c.person_confirmed, false);
    assert.equal(c.person_id, null);
    assert.ok(c.suggested_person_id, 'the sender is suggested, not confirmed');
  }
  const outbound = (await org.req('GET', '/api/communications/messages?direction=outbound&limit=100')).body.results;
  assert.ok(outbound.every((m: { recipient_address: string }) => m.recipient_address.includes('@')));
});
