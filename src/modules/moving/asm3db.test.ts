/* eslint-disable max-len -- fixture rows written out as the source systems hold them, one record a line */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import pg from 'pg';
import sharp from 'sharp';
import { testApp, makeOrg, type TestApp } from '../../../test/harness.ts';
import { readAsm3Database } from './sources/asm3db.ts';
import { dryRun, startRun, runMove, getRun } from './service.ts';

let t: TestApp;
const SCHEMA = `asm3_scratch_${process.pid}`;
let admin: pg.Client;
before(async () => {
  t = await testApp();
  admin = new pg.Client({ connectionString: process.env.ARK_TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE; CREATE SCHEMA ${SCHEMA}`);
  await admin.query(`SET search_path TO ${SCHEMA}`);
  await admin.query(await readFile(new URL('./fixtures/asm3-schema.sql', import.meta.url), 'utf8'));
});
after(async () => {
  await admin.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
  await admin.end();
  await t.close();
});

const CH = `'test', '2024-01-01', 'test', '2024-01-01'`;
const CHC = 'CreatedBy, CreatedDate, LastChangedBy, LastChangedDate';

/** ASM3's own lookup rows (their ids and names as its dbupdate.py installs them) and a few hundred records. */
async function fill(n: number) {
  const q = (sql: string) => admin.query(sql);
  await q(`INSERT INTO species (ID, SpeciesName, IsRetired) VALUES (1, 'Dog', 0), (2, 'Cat', 0)`);
  await q(
    `INSERT INTO breed (ID, BreedName, SpeciesID, IsRetired) VALUES (1, 'Labrador Retriever', 1, 0), (2, 'Domestic Short Hair', 2, 0), (3, 'Mix', 1, 0)`,
  );
  await q(`INSERT INTO basecolour (ID, BaseColour, IsRetired) VALUES (1, 'Black', 0), (2, 'Tabby', 0)`);
  await q(
    `INSERT INTO entryreason (ID, ReasonName, IsRetired) VALUES (7, 'Stray', 0), (15, 'Transfer from Other Shelter', 0), (17, 'Surrender', 0), (2, 'Allergies', 0)`,
  );
  await q(`INSERT INTO deathreason (ID, ReasonName, IsRetired) VALUES (1, 'Died', 0), (2, 'Sick/Injured', 0)`);
  await q(`INSERT INTO lksmovementtype (ID, MovementType) VALUES (0,'None'),(1,'Adoption'),(2,'Foster'),(3,'Transfer'),(4,'Escaped'),(5,'Reclaimed'),
           (6,'Stolen'),(7,'Released To Wild'),(8,'Retailer'),(9,'Reservation'),(10,'Cancelled Reservation'),(11,'Trial Adoption'),(12,'Permanent Foster'),(13,'TNR')`);
  await q(`INSERT INTO vaccinationtype (ID, VaccinationType, IsRetired) VALUES (1, 'Distemper', 0), (6, 'Rabies', 0)`);
  await q(`INSERT INTO donationtype (ID, DonationName, IsRetired) VALUES (1, 'Donation', 0), (2, 'Adoption Fee', 0)`);
  await q(`INSERT INTO donationpayment (ID, PaymentName, IsRetired) VALUES (1, 'Cash', 0), (2, 'Cheque', 0)`);
  await q(`INSERT INTO logtype (ID, LogTypeName, IsRetired) VALUES (1, 'Bite', 0)`);
  for (let p = 1; p <= 50; p += 1)
    await q(`INSERT INTO owner (ID, OwnerCode, OwnerForeNames, OwnerSurname, OwnerName, OwnerAddress, OwnerTown, OwnerCounty, OwnerPostcode,
               EmailAddress, MobileTelephone, IsAdopter, IsFosterer, IsDonor, ${CHC})
             VALUES (${p}, 'OW${p}', '${p % 5 ? 'Zoë' : 'Łukasz'}', 'Owner${p}', 'Owner ${p}', '${p} Main St', 'Leeds', 'West Yorkshire', 'LS1 1AA',
               '${p === 50 ? 'owner1@example.org' : p % 8 ? `owner${p}@example.org` : ''}', '', ${p % 2}, ${p % 5 === 0 ? 1 : 0}, ${p % 3 === 0 ? 1 : 0}, ${CH})`);
  let mv = 0;
  for (let i = 1; i <= n; i += 1) {
    const entry = `2025-${String((i % 12) + 1).padStart(2, '0')}-0${(i % 9) + 1}`;
    await q(`INSERT INTO animal (ID, AnimalTypeID, AnimalName, NonShelterAnimal, CrueltyCase, BondedAnimalID, BondedAnimal2ID, BaseColourID, SpeciesID,
               BreedID, Breed2ID, BreedName, CrossBreed, CoatType, ShelterCode, ShortCode, AcceptanceNumber, DateOfBirth, EstimatedDOB, Sex,
               Identichipped, IdentichipNumber, Tattoo, TattooNumber, SmartTag, SmartTagType, Neutered, CombiTested, CombiTestResult, HeartwormTested,
               HeartwormTestResult, FLVResult, Declawed, OwnersVetID, CurrentVetID, OriginalOwnerID, BroughtInByOwnerID, DateBroughtIn, EntryReasonID,
               PutToSleep, PTSReasonID, IsDOA, IsTransfer, IsGoodWithCats, IsGoodWithDogs, IsGoodWithChildren, IsHouseTrained, IsNotAvailableForAdoption,
               HasSpecialNeeds, ShelterLocation, DiedOffShelter, Size, Weight, Archived, ActiveMovementID, MostRecentEntryDate, DeceasedDate, AnimalComments, ${CHC})
             VALUES (${i}, 2, '${i % 7 ? `Rex ${i}` : `Renée ${i}`}', 0, 0, 0, 0, ${(i % 2) + 1}, ${(i % 2) + 1}, ${i % 2 ? 1 : 2}, ${i % 2 ? 3 : 2},
               ${i % 11 ? 'NULL' : "'Unlisted Hound Cross'"}, ${i % 4 === 1 ? 1 : 0}, 0,
               'A${1000 + i}', '${i}', '', '2020-02-0${(i % 9) + 1}', 0, ${i % 2}, ${i % 3 === 0 ? 1 : 0}, '${i % 3 === 0 ? `9851410000${String(i).padStart(5, '0')}` : ''}',
               0, '', 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, ${i % 10 === 0 ? 3 : 0}, ${i % 10 === 0 ? 3 : 0}, '${entry}', ${[7, 15, 17, 2][i % 4]},
               ${i % 29 === 0 ? 1 : 0}, ${i % 29 === 0 ? 2 : 0}, 0, ${i % 4 === 1 ? 1 : 0}, 0, 0, 0, 0, 0, 0, 1, 0, 1, ${i % 5 ? 10.5 : 0}, 0, 0, '${entry}',
               ${i % 29 === 0 ? "'2025-12-20'" : 'NULL'}, 'Friendly', ${CH})`);
    if (i % 3 !== 0 && i % 29 !== 0) {
      mv += 1;
      const returned = i % 13 === 0;
      // Donation: ASM3's total (cents) of the payments linked to the movement, the adoption fee.
      await q(`INSERT INTO adoption (ID, AdoptionNumber, AnimalID, OwnerID, MovementDate, MovementType, ReturnDate, ReturnedReasonID, Donation, ${CHC})
               VALUES (${mv}, '${String(mv).padStart(6, '0')}', ${i}, ${(i % 49) + 1}, '2025-12-${String((i % 27) + 1).padStart(2, '0')}', ${i % 10 === 5 ? 3 : 1},
                 ${returned ? `'2026-01-${String((i % 27) + 1).padStart(2, '0')}'` : 'NULL'}, 0, ${i % 10 === 5 ? 'NULL' : 7500 + i}, ${CH})`);
      if (i % 10 === 2) {
        mv += 1;
        await q(`INSERT INTO adoption (ID, AdoptionNumber, AnimalID, OwnerID, MovementDate, MovementType, ReturnDate, ReturnedReasonID, ${CHC})
                 VALUES (${mv}, '${String(mv).padStart(6, '0')}', ${i}, 5, '2025-11-28', 2, '2025-11-30', 0, ${CH})`);
      }
    }
    await q(`INSERT INTO animalvaccination (ID, AnimalID, VaccinationID, DateOfVaccination, DateRequired, Cost, BatchNumber, ${CHC})
             VALUES (${i}, ${i}, ${i % 2 ? 1 : 6}, ${i % 10 === 0 ? 'NULL' : `'2025-06-01'`}, '2025-06-01', 0, 'LOT${i}', ${CH})`);
    if (i % 4 === 0)
      await q(`INSERT INTO animalmedical (ID, AnimalID, MedicalProfileID, TreatmentName, StartDate, Dosage, Cost, TimingRule, TimingRuleFrequency,
                 TimingRuleNoFrequencies, TreatmentRule, TotalNumberOfTreatments, TreatmentsGiven, TreatmentsRemaining, Status, ${CHC})
               VALUES (${i}, ${i}, 0, 'Wormer', '2025-07-01', '1 tab', 0, 0, 0, 0, 0, 1, 1, 0, 2, ${CH})`);
    if (i % 5 === 0)
      await q(
        `INSERT INTO log (ID, LogTypeID, LinkID, LinkType, Date, Comments, ${CHC}) VALUES (${i}, 1, ${i}, 0, '2025-08-01', 'Nipped a volunteer', ${CH})`,
      );
  }
  // Photos as ASM3 keeps them: `media` rows of animals (LinkTypeID 0) whose files are base64 in `dbfs.Content`; one kept on
  // ASM3's disk (`file:`, not in the database), a person's photo and an animal's PDF (neither is an animal photo).
  const photo = (
    await sharp({ create: { width: 40, height: 30, channels: 3, background: '#7d5a3c' } })
      .png()
      .toBuffer()
  ).toString('base64');
  const media = async (id: number, link: number, linkType: number, mime: string, url: string, content: string, preferred: number) => {
    await q(`INSERT INTO dbfs (ID, Path, Name, URL, Content) VALUES (${id}, '/animal/${link}', '${id}.png', '${url}', '${content}')`);
    await q(`INSERT INTO media (ID, DBFSID, MediaSize, MediaType, MediaName, MediaMimeType, MediaNotes, WebsitePhoto, DocPhoto, NewSinceLastPublish,
               UpdatedSinceLastPublish, LinkID, LinkTypeID, Date, ${CHC})
             VALUES (${id}, ${id}, ${content.length}, 0, '${id}.png', '${mime}', '', ${preferred}, 0, 0, 0, ${link}, ${linkType}, '2025-05-01', ${CH})`);
  };
  await media(1, 1, 0, 'image/png', 'base64:', photo, 1);
  await media(2, 1, 0, 'image/png', 'base64:', photo.replace(/(.{60})/g, '$1\n'), 0);
  await media(3, 2, 0, 'image/png', '', photo, 1);
  await media(4, 3, 0, 'image/jpeg', 'file:/var/lib/asm/media/4.jpg', '', 1);
  await media(5, 1, 3, 'image/png', 'base64:', photo, 1);
  await media(6, 2, 0, 'application/pdf', 'base64:', 'JVBERi0=', 0);
  for (let g = 1; g <= 40; g += 1)
    await q(`INSERT INTO ownerdonation (ID, OwnerID, AnimalID, DonationTypeID, DonationPaymentID, Date, Donation, IsGiftAid, Frequency, ${CHC})
             VALUES (${g}, ${(g % 50) + 1}, ${g % 3 ? g : 'NULL'}, ${(g % 2) + 1}, ${(g % 2) + 1}, ${g === 40 ? 'NULL' : `'2025-09-${String((g % 27) + 1).padStart(2, '0')}'`},
               ${g === 39 ? 0 : 1000 + g * 7 + 0.0}, 0, 0, ${CH})`);
}

test('ASM3 database: read-only from its own tables and lookups; a second run changes nothing', async () => {
  await fill(200);
  const url = process.env.ARK_TEST_DATABASE_URL ?? '';
  const b = await readAsm3Database(url, SCHEMA);
  assert.equal(b.animal.length, 200);
  assert.equal(b.person.length, 50);
  assert.equal(b.animal.find((a) => a.ext === 'A1011')?.breed, 'Unlisted Hound Cross');
  assert.equal(b.animal.find((a) => a.ext === 'A1001')?.breed, 'Labrador Retriever / Mix', 'a cross breed names both');
  assert.ok(b.foster.length > 0, 'a foster movement is a foster placement');
  // Nothing was written to ASM3's tables.
  const { rows } = await admin.query(`SELECT count(*)::int AS n FROM ${SCHEMA}.animal`);
  assert.equal(rows[0].n, 200);

  const org = await makeOrg(t);
  const ark = await t.ctx.tenancy.bySlug(org.slug);
  assert.ok(ark);
  const dry = await dryRun(t.ctx.db, ark, b, {}, 'test');
  assert.equal(dry.counts.animal.new, 200);
  assert.ok(dry.counts.foster.new > 0, 'foster movements become foster placements');
  assert.equal(dry.counts.person.matched, 1, "owner 50 has owner 1's email");
  assert.equal(dry.counts.donation.refused, 2, 'a gift of nothing and a gift without a date are refused');
  assert.equal(dry.mappings.outcome.Adoption, 'adoption');
  assert.equal(dry.mappings.outcome.Euthanized, 'shelter_euthanasia');
  assert.equal(dry.mappings.intake['Returned from Adoption'], 'relinquished');
  assert.equal(dry.mappings.intake['Transfer from Other Shelter'], 'transfer_in');
  assert.ok((dry.sac_after?.outcome.adoption ?? 0) > 0);
  assert.equal(dry.counts.photo.new, 3, 'three animal photos in the database');
  assert.equal(dry.counts.photo.refused, 1, "a photo kept on ASM3's disk is refused with its reason");
  assert.ok(dry.refused.some((r) => r.kind === 'photo' && r.row === 'media 4' && /outside ASM3's database \(file:\)/.test(r.reason)));
  assert.ok(dry.counts.adoption.new > 50, JSON.stringify(dry.counts.adoption));
  for (let k = 0; k < 2; k += 1) {
    const run = await startRun(t.ctx, ark, b, {}, 'test');
    await runMove(t.ctx, ark.id, run.id);
    const done = await getRun(t.ctx.db, ark.id, run.id);
    assert.equal(done?.status, 'done');
    if (k === 0) assert.deepEqual(done?.report.counts, dry.counts);
    else
      for (const [kind, c] of Object.entries(done?.report.counts ?? {})) {
        assert.equal(c.new, 0, kind);
        assert.equal(c.updated, 0, kind);
      }
  }
  // Money in exact minor units: ASM3's 1007 cents is 10.07.
  const gift = await org.req('GET', '/api/moving/external-ids?source=asm3&id=donation:1');
  const d = await org.req('GET', `/api/v1/donations/${gift.body.results[0].ark_id}`);
  assert.equal(d.status, 200);
  assert.ok(d.body.amount === 10.07 || d.body.amountMinor === 1007 || d.body.amount_minor === '1007', JSON.stringify(d.body));

  // Animal A1001: two photos read from dbfs (the preferred one primary); adopted for ASM3's 75.01 (7501 cents).
  const a1 = await org.req('GET', '/api/moving/external-ids?source=asm3&id=A1001&kind=animal');
  const pics = await org.req('GET', `/api/animals/${a1.body.results[0].ark_id}/photos`);
  assert.equal(pics.body.results.length, 2);
  assert.equal(pics.body.results[0].is_primary, true);
  assert.equal(pics.body.results[0].width, 40);
  const adopted = await org.req('GET', `/api/animals/adoptions?animal_id=${a1.body.results[0].ark_id}`);
  assert.equal(adopted.body.results.length, 1);
  assert.equal(adopted.body.results[0].fee_minor, 7501);
  assert.equal(adopted.body.results[0].status, 'adopted');
  // Animal A1013: adopted and brought back (its return date): the adoption shows returned.
  const a13 = await org.req('GET', '/api/moving/external-ids?source=asm3&id=A1013&kind=animal');
  const back = await org.req('GET', `/api/animals/adoptions?animal_id=${a13.body.results[0].ark_id}`);
  assert.equal(back.body.results[0].status, 'returned');
  assert.ok(back.body.results[0].return_stay_id);
});
