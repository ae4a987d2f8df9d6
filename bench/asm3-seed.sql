-- Seed for Animal Shelter Manager 3 (ASM3), the comparison system of the public bench's side by side
-- (bench/asm3.ts, docs/scaling.md "Side by side with Animal Shelter Manager 3").
--
-- Makes 10,000 animals in ASM3's `animal` table with one INSERT … SELECT generate_series:
--   IDs     1–3,000  adoptable: in care (not archived, no active movement), neutered, microchipped, born
--                    114+ days ago (ASM3 hides animals under 12 weeks), with AnimalComments (ASM3's web
--                    description when PublisherUseComments is on, its default); 2/3 dogs, 1/3 cats.
--                    The bench asks for animal_view&animalid=1..200 (ASM3_ANIMAL_IDS), all of them here.
--   IDs 3,001–3,300  the same but on hold (IsHold = 1): in care, not shown.
--   IDs 3,301–10,000 archived as adopted (Archived = 1, ActiveMovementType = 1); no movement or owner rows.
-- and sets PublisherPresets to ASM3's default plus `includewithoutimage` (no photos are loaded), so that the
-- adoptable animals pass ASM3's publish criteria (asm3/publishers/base.py get_animal_data_query and
-- is_animal_adoptable).
--
-- Run against a database whose schema ASM3 built (POST locale=en to its /database):
--   psql -h 127.0.0.1 -U postgres asm3bench -f bench/asm3-seed.sql
-- then empty ASM3's disk cache (it keeps its configuration there for an hour, and any cached pages):
--   rm -rf /tmp/asm_disk_cache/*
-- Re-running replaces the animals (it deletes every animal first).

BEGIN;

DELETE FROM animal;

WITH dogbreed AS (SELECT array_agg(ID ORDER BY ID) AS ids, array_agg(BreedName ORDER BY ID) AS names FROM breed WHERE SpeciesID = 1),
     catbreed AS (SELECT array_agg(ID ORDER BY ID) AS ids, array_agg(BreedName ORDER BY ID) AS names FROM breed WHERE SpeciesID = 2),
     colour   AS (SELECT array_agg(ID ORDER BY ID) AS ids FROM basecolour),
     s AS (
       SELECT i,
              i % 3 = 0 AS cat,
              CASE WHEN i <= 3000 THEN 'adoptable' WHEN i <= 3300 THEN 'hold' ELSE 'adopted' END AS kind,
              CASE WHEN i <= 3300 THEN CURRENT_DATE - (14 + i % 180) ELSE CURRENT_DATE - (60 + i % 1400) END AS brought_in,
              CASE WHEN i <= 3300 THEN CURRENT_DATE - (14 + i % 180) ELSE CURRENT_DATE - (60 + i % 1400) END
                - (100 + (i * 37) % 3500) AS born,
              (ARRAY['Bella','Max','Luna','Charlie','Daisy','Rocky','Molly','Buddy','Coco','Bailey','Lucy','Oscar',
                     'Milo','Rosie','Toby','Ruby','Jasper','Willow','Teddy','Poppy','Bear','Nala','Finn','Hazel'])[1 + i % 24]
                || ' ' || (ARRAY['Alpha','Bravo','Cedar','Dune','Ember','Fern','Grove','Harbor','Iris','Juniper',
                                 'Kestrel','Linden','Maple','Nutmeg','Olive','Pepper','Quill','Reed','Sage','Thistle'])[1 + (i / 24) % 20]
                AS name
       FROM generate_series(1, 10000) AS g(i)
     )
INSERT INTO animal (
  ID, AnimalTypeID, AnimalName, NonShelterAnimal, CrueltyCase, BondedAnimalID, BondedAnimal2ID, BaseColourID,
  SpeciesID, BreedID, Breed2ID, BreedName, CrossBreed, CoatType, Markings, ShelterCode, ShortCode,
  UniqueCodeID, YearCodeID, AcceptanceNumber, DateOfBirth, EstimatedDOB, AgeGroup, DeceasedDate, Sex, Fee,
  Identichipped, IdentichipNumber, IdentichipDate, Tattoo, TattooNumber, SmartTag, SmartTagType,
  Neutered, NeuteredDate, CombiTested, CombiTestResult, HeartwormTested, HeartwormTestResult, FLVResult,
  Declawed, HiddenAnimalDetails, AnimalComments, PopupWarning, OwnersVetID, CurrentVetID, OwnerID,
  OriginalOwnerID, BroughtInByOwnerID, AdoptionCoordinatorID, ReasonForEntry, ReasonNo, DateBroughtIn,
  EntryTypeID, EntryReasonID, IsPickup, HealthProblems, PutToSleep, PTSReason, PTSReasonID, IsCourtesy,
  IsDOA, IsTransfer, IsGoodWithCats, IsGoodWithDogs, IsGoodWithChildren, IsHouseTrained, IsCrateTrained,
  IsGoodWithElderly, IsGoodTraveller, IsGoodOnLead, EnergyLevel, IsNotAvailableForAdoption,
  IsNotForRegistration, IsHold, IsQuarantine, HasSpecialNeeds, AdditionalFlags, ShelterLocation,
  ShelterLocationUnit, DiedOffShelter, Size, Weight, Archived, Adoptable, ActiveMovementID,
  ActiveMovementType, ActiveMovementDate, HasActiveReserve, HasTrialAdoption, HasPermanentFoster,
  DisplayLocation, MostRecentEntryDate, DaysOnShelter, TotalDaysOnShelter, TimeOnShelter, TotalTimeOnShelter,
  AnimalAge, DailyBoardingCost, IdentichipStatus, RecordVersion, CreatedBy, CreatedDate, LastChangedBy,
  LastChangedDate)
SELECT
  s.i,
  CASE WHEN s.cat THEN 11 ELSE 2 END,                                   -- U (Unwanted Cat) / D (Dog)
  s.name, 0, 0, 0, 0,
  colour.ids[1 + s.i % cardinality(colour.ids)],
  CASE WHEN s.cat THEN 2 ELSE 1 END,                                    -- species: Cat / Dog
  CASE WHEN s.cat THEN catbreed.ids[1 + s.i % cardinality(catbreed.ids)] ELSE dogbreed.ids[1 + s.i % cardinality(dogbreed.ids)] END,
  CASE WHEN s.cat THEN catbreed.ids[1 + s.i % cardinality(catbreed.ids)] ELSE dogbreed.ids[1 + s.i % cardinality(dogbreed.ids)] END,
  CASE WHEN s.cat THEN catbreed.names[1 + s.i % cardinality(catbreed.names)] ELSE dogbreed.names[1 + s.i % cardinality(dogbreed.names)] END,
  0, 0, '',
  CASE WHEN s.cat THEN 'U' ELSE 'D' END || to_char(s.brought_in, 'YYYY') || lpad(s.i::text, 5, '0'),
  s.i::text || CASE WHEN s.cat THEN 'U' ELSE 'D' END,
  s.i, s.i, '',
  s.born,                                                               -- 114+ days old (over 12 weeks)
  0, NULL, NULL, s.i % 2, 0,
  1, '9851' || lpad(s.i::text, 11, '0'), s.brought_in,                 -- microchipped
  0, '', 0, 0,
  1, s.brought_in + 3,                                                  -- neutered
  0, 0, 0, 0, 0, 0,
  '',
  s.name || ' is a ' || CASE WHEN s.i % 2 = 1 THEN 'boy' ELSE 'girl' END || ' who came to us '
    || (CURRENT_DATE - s.brought_in) || ' days ago. '
    || (ARRAY['Gentle and affectionate, loves a quiet lap and a warm windowsill.',
              'Playful and curious, will need daily walks and plenty of toys.',
              'Shy at first but blossoms with patience; best in a calm adult home.',
              'Confident and friendly, gets on with most people and enjoys car rides.',
              'An easy-going companion who is house trained and knows basic commands.',
              'Energetic and clever, would love an active family and some training games.'])[1 + s.i % 6]
    || ' Vaccinated, neutered and microchipped; ask our team about meeting ' || s.name || '.',
  '', 0, 0, 0, 0, 0, 0, '', '', s.brought_in,
  1, 1 + s.i % 18, 0, '', 0, '', 0, 0,
  0, 0, s.i % 3, s.i % 3, s.i % 4, s.i % 2, 0,
  0, 0, 0, 0, 0,
  0, CASE WHEN s.kind = 'hold' THEN 1 ELSE 0 END, 0, 0, '', 1,
  '', 0, s.i % 4, 5 + s.i % 30,
  CASE WHEN s.kind = 'adopted' THEN 1 ELSE 0 END,
  CASE WHEN s.kind = 'adoptable' THEN 1 ELSE 0 END,
  0,
  CASE WHEN s.kind = 'adopted' THEN 1 ELSE NULL END,                    -- 1 = adoption
  CASE WHEN s.kind = 'adopted' THEN s.brought_in + 30 ELSE NULL END,
  0, 0, 0,
  CASE WHEN s.kind = 'adopted' THEN 'Adoption' ELSE 'Shelter' END,
  s.brought_in,
  CASE WHEN s.kind = 'adopted' THEN 30 ELSE CURRENT_DATE - s.brought_in END,
  CASE WHEN s.kind = 'adopted' THEN 30 ELSE CURRENT_DATE - s.brought_in END,
  CASE WHEN s.kind = 'adopted' THEN '4 weeks.' ELSE ((CURRENT_DATE - s.brought_in) / 7) || ' weeks.' END,
  CASE WHEN s.kind = 'adopted' THEN '4 weeks.' ELSE ((CURRENT_DATE - s.brought_in) / 7) || ' weeks.' END,
  ((CURRENT_DATE - s.born) / 365) || ' years ' || (((CURRENT_DATE - s.born) % 365) / 30) || ' months.',
  0, 0, 1, 'seed', now(), 'seed', now()
FROM s, dogbreed, catbreed, colour;

-- ASM3 takes new animal IDs from this sequence.
SELECT setval('seq_animal', 10000);

-- ASM3's default presets plus includewithoutimage: no photos are loaded.
DELETE FROM configuration WHERE ItemName = 'PublisherPresets';
INSERT INTO configuration (ItemName, ItemValue) VALUES ('PublisherPresets', 'includefosters excludeunder=12 includewithoutimage');

COMMIT;

ANALYZE animal;

SELECT CASE WHEN Archived = 1 THEN 'archived, adopted' WHEN IsHold = 1 THEN 'on hold' ELSE 'adoptable' END AS kind,
       count(*), min(ID), max(ID)
FROM animal GROUP BY 1 ORDER BY 3;
