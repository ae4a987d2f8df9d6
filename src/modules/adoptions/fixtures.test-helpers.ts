import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { TestOrg } from '../../../test/harness.ts';

let n = 0;
export async function animal(org: TestOrg, body: Record<string, unknown> = {}): Promise<string> {
  const r = await org.req('POST', '/api/v1/animals', {
    body: { name: `Pet ${++n}`, species: 'dog', status: 'Available', intakeDate: '2024-01-02', sex: 'female', ...body },
  });
  assert.equal(r.status, 201, r.raw);
  return r.body.id as string;
}
export async function person(org: TestOrg, first = 'Ana'): Promise<string> {
  const r = await org.req('POST', '/api/v1/people', {
    body: {
      firstName: first,
      lastName: `Applicant${++n}`,
      email: `${first.toLowerCase()}.${n}.${Math.random().toString(36).slice(2, 7)}@example.org`,
    },
  });
  assert.equal(r.status, 201, r.raw);
  return r.body.id as string;
}

/** Flags a person `banned` or `do not adopt` through the people area's flags (POST /api/people/{id}/flags). */
export async function flagPerson(org: TestOrg, personId: string, flag: 'banned' | 'do not adopt'): Promise<void> {
  const r = await org.req('POST', `/api/people/${personId}/flags`, {
    body: { flag: flag === 'do not adopt' ? 'do_not_adopt' : flag, reason: 'Set by a test' },
  });
  assert.equal(r.status, 201, r.raw);
}

export async function stageId(org: TestOrg, name: string): Promise<string> {
  const r = await org.req('GET', '/api/animals/application-stages');
  assert.equal(r.status, 200, r.raw);
  const s = (r.body.results as { id: string; name: string }[]).find((x) => x.name === name);
  assert.ok(s, `stage ${name}`);
  return s.id;
}
export async function application(org: TestOrg, personId: string, animalIds: string[], approved = true): Promise<string> {
  const r = await org.req('POST', '/api/animals/adoption-applications', { body: { person_id: personId, animal_ids: animalIds } });
  assert.equal(r.status, 201, r.raw);
  if (approved) {
    const p = await org.req('PATCH', `/api/animals/adoption-applications/${r.body.id}`, {
      body: { stage_id: await stageId(org, 'Approved') },
    });
    assert.equal(p.status, 200, p.raw);
  }
  return r.body.id as string;
}

/** Renders page 1 of a PDF to PNG (poppler's pdftoppm) and its text (pdftotext); counts the non-white pixels. */
export async function inspectPdf(pdf: Buffer, keepPng?: string): Promise<{ text: string; inked: number; pixels: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'ark-pdf-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), pdf);
    execFileSync('pdftoppm', ['-png', '-r', '50', '-f', '1', '-l', '1', '-singlefile', join(dir, 'in.pdf'), join(dir, 'page')]);
    const png = readFileSync(join(dir, 'page.png'));
    if (keepPng) writeFileSync(keepPng, png);
    const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
    let inked = 0;
    for (const v of data) if (v < 200) inked += 1;
    const text = execFileSync('pdftotext', ['-layout', join(dir, 'in.pdf'), '-']).toString('utf8');
    return { text, inked, pixels: info.width * info.height };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
