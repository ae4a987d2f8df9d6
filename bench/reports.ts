/* eslint-disable max-len */
/**
 * Reports at size: the Shelter Animals Count matrix for one month and the live release rate for a year, over
 * one organization with 100,000 animals and 250,000 stays (and 5,000 foster placements), each run 7 times
 * through the same functions the routes call; prints min / median / max milliseconds and the query plans'
 * headline (EXPLAIN ANALYZE).
 *
 * The data lives in a throwaway database made for the run and dropped at the end: on the PostgreSQL of
 * DATABASE_URL (or postgres://postgres@127.0.0.1:5432/postgres) when reachable, else an embedded PostgreSQL
 * in a temporary directory. BENCH_ANIMALS and BENCH_RUNS tune it. Run: node --import tsx bench/reports.ts
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { Db } from '../src/platform/db/db.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { startEmbedded } from '../src/platform/db/embedded.ts';
import { createOrganization } from '../src/modules/settings/service.ts';
import { base62 } from '../src/platform/ids.ts';
import type { Organization } from '../src/platform/tenancy.ts';
import { sacMatrix, sacStatement } from '../src/modules/reports/sac.ts';
import { liveReleaseRate } from '../src/modules/reports/outcomes.ts';
import { kx, sql } from '../src/platform/db/kysely.ts';

const ANIMALS = Number(process.env.BENCH_ANIMALS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);

async function reachable(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `ark_bench_reports_${process.pid}`;
let url: string;
let cleanup: () => Promise<void>;
if (await reachable(adminUrl)) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  url = u.toString();
  cleanup = async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  };
} else {
  const dir = path.resolve(`.tmp/bench-reports-${process.pid}`);
  const h = await startEmbedded(dir);
  url = h.url;
  cleanup = async () => {
    await h.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const fmt = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `min ${s[0]?.toFixed(1)} ms / median ${s[Math.floor(s.length / 2)]?.toFixed(1)} ms / max ${s[s.length - 1]?.toFixed(1)} ms`;
};

const db = new Db(url, 4);
try {
  await migrate(db);
  const slug = `bench-${base62(6).toLowerCase()}`;
  const made = await createOrganization(db, { slug, name: 'Bench Rescue', timeZone: 'America/New_York' });
  if (!made) throw new Error('no organization');
  const org = made as Organization;
  const t0 = process.hrtime.bigint();
  // Animals: mostly dogs and cats; 70% with a birth date.
  await db.query(
    `INSERT INTO animals (organization_id, id, name, public_name, species, status_id, intake_date, date_of_birth)
     SELECT $1, 'ani_b' || g, 'Pet ' || g, 'Pet ' || g,
            (ARRAY['Dog','Dog','Dog','Cat','Cat','Cat','Rabbit','Dog','Cat','Guinea Pig'])[1 + g % 10],
            (SELECT id FROM animal_statuses WHERE organization_id = $1 AND name = 'Available'),
            DATE '2023-01-01' + (g % 1000),
            CASE WHEN g % 10 < 7 THEN DATE '2018-01-01' + (g % 2900) END
       FROM generate_series(1, $2::int) g`,
    [org.id, ANIMALS],
  );
  // Stays: 2 or 3 per animal (250,000 for 100,000 animals), 60 days apart, each 1–50 days long; the last stay of
  // one animal in five is still open.
  await db.query(
    `INSERT INTO animal_stays (organization_id, id, animal_id, intake_at, intake_type, age_weeks, outcome_at, outcome_type)
     SELECT $1, 'sty_b' || g || '_' || j, 'ani_b' || g, s.intake_at,
            (ARRAY['stray','relinquished','owner_intended_euthanasia','transfer_in','other','stray','relinquished'])[1 + (g + j) % 7],
            CASE WHEN g % 3 = 0 THEN (g % 400) END,
            CASE WHEN NOT (j = n AND g % 5 = 0) THEN s.intake_at + ((1 + (g * 7 + j) % 50) || ' days')::interval + ((g % 24) || ' hours')::interval END,
            CASE WHEN NOT (j = n AND g % 5 = 0) THEN (ARRAY['adoption','adoption','adoption','return_to_owner','transfer_out',
                   'return_to_field','other_live','died_in_care','lost_in_care','shelter_euthanasia','owner_intended_euthanasia'])[1 + (g * 3 + j) % 11] END
       FROM generate_series(1, $2::int) g
       CROSS JOIN LATERAL (SELECT 2 + g % 2 AS n) k
       CROSS JOIN LATERAL generate_series(1, k.n) j
       CROSS JOIN LATERAL (SELECT TIMESTAMPTZ '2023-01-01 12:00+00' + ((g % 1000) || ' days')::interval + ((j - 1) * 60 || ' days')::interval AS intake_at) s`,
    [org.id, ANIMALS],
  );
  // 100 foster homes and 5,000 placements (completed ones, and active ones for animals still in care).
  await db.query(
    `INSERT INTO people (organization_id, id, first_name, last_name, email, time_zone)
     SELECT $1, 'per_b' || g, 'Fran', 'Foster ' || g, 'foster' || g || '@example.org', 'America/New_York' FROM generate_series(1, 100) g`,
    [org.id],
  );
  await db.query(
    `INSERT INTO foster_homes (organization_id, id, person_id, capacity) SELECT $1, 'fh_b' || g, 'per_b' || g, 60 FROM generate_series(1, 100) g`,
    [org.id],
  );
  await db.query(
    `INSERT INTO foster_assignments (organization_id, id, foster_home_id, animal_id, status, requested_on, started_on, ended_on)
     SELECT $1, 'fa_b' || s.id, 'fh_b' || (1 + (row_number() OVER ()) % 100), s.animal_id,
            CASE WHEN s.outcome_at IS NULL THEN 'active' ELSE 'completed' END,
            (s.intake_at + interval '2 days')::date, (s.intake_at + interval '2 days')::date,
            CASE WHEN s.outcome_at IS NOT NULL THEN s.outcome_at::date END
       FROM animal_stays s
      WHERE s.organization_id = $1 AND s.id LIKE 'sty_b%' AND (s.outcome_at IS NULL OR s.outcome_at > s.intake_at + interval '3 days')
      ORDER BY s.id LIMIT 5000`,
    [org.id],
  );
  await db.query('ANALYZE');
  const stays = (await db.query<{ n: string }>('SELECT count(*) AS n FROM animal_stays WHERE organization_id = $1', [org.id]))[0]?.n;
  console.log(`reports bench: ${ANIMALS} animals, ${stays} stays, 5000 foster placements, seeded in ${(ms(t0) / 1000).toFixed(1)} s`);

  const month = '2024-06';
  const sacTimes: number[] = [];
  let sac = await sacMatrix(db, org, month, 'dogs');
  for (let i = 0; i < RUNS; i++) {
    const t = process.hrtime.bigint();
    sac = await sacMatrix(db, org, month, 'dogs');
    sacTimes.push(ms(t));
  }
  console.log(
    `SAC matrix, dogs, ${month}: ${fmt(sacTimes)}  (beginning ${sac.identity.beginning}, intakes ${sac.identity.intakes}, ` +
      `outcomes ${sac.identity.outcomes}, ending ${sac.identity.ending}, identity ${sac.identity.holds ? 'holds' : 'BROKEN'})`,
  );
  const lrrTimes: number[] = [];
  let lrr = await liveReleaseRate(db, org, '2024-01-01', '2024-12-31');
  for (let i = 0; i < RUNS; i++) {
    const t = process.hrtime.bigint();
    lrr = await liveReleaseRate(db, org, '2024-01-01', '2024-12-31');
    lrrTimes.push(ms(t));
  }
  console.log(
    `Live release rate, 2024 by month and species group: ${fmt(lrrTimes)}  (${lrr.total.all_outcomes} outcomes, ` +
      `rate ${lrr.total.live_release_rate}, excluding owner-intended euthanasia ${lrr.total.live_release_rate_excluding_oie})`,
  );

  // The plans' headline: how the stays are found, joined and counted (EXPLAIN ANALYZE of the report's own statement).
  const { rows: plan } = await sql<{
    'QUERY PLAN': string;
  }>`EXPLAIN (ANALYZE, COSTS OFF) ${sacStatement(org.id, month, org.time_zone, 'dogs', false)}`.execute(kx(db));
  console.log('EXPLAIN ANALYZE, the SAC matrix (scans, joins, time):');
  for (const r of plan) if (/Scan on|Join|Gather|Execution Time/.test(r['QUERY PLAN'])) console.log(`  ${r['QUERY PLAN']}`);
  const plan2 = await db.query<{ 'QUERY PLAN': string }>(
    `EXPLAIN (ANALYZE, BUFFERS OFF, TIMING OFF, SUMMARY ON)
     SELECT count(*) FROM report_stays r WHERE r.organization_id = $1 AND r.outcome_at IS NOT NULL
        AND r.outcome_at >= (DATE '2024-01-01')::timestamp AT TIME ZONE $2 AND r.outcome_at < (DATE '2025-01-01')::timestamp AT TIME ZONE $2`,
    [org.id, org.time_zone],
  );
  console.log('EXPLAIN ANALYZE, the live release rate outcomes of the year:');
  for (const r of plan2) if (/Scan on|Join|Gather|Execution Time/.test(r['QUERY PLAN'])) console.log(`  ${r['QUERY PLAN']}`);
} finally {
  await db.close();
  await cleanup();
}
