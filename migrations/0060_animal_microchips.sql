-- Several microchips per animal. The primary chip's number is the animal's microchip_number (the animals
-- module keeps both in one transaction); at most one primary per animal is enforced here, and the service
-- keeps exactly one while the animal has any chip.
CREATE TABLE animal_microchips (
  organization_id text NOT NULL REFERENCES organizations(id),
  id           text NOT NULL,
  animal_id    text NOT NULL,
  number       text NOT NULL CHECK (number <> ''),
  implanted_on date,
  registry     text,
  is_primary   boolean NOT NULL DEFAULT false,
  created_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, animal_id) REFERENCES animals(organization_id, id),
  UNIQUE (organization_id, animal_id, number)
);
CREATE UNIQUE INDEX animal_microchips_one_primary ON animal_microchips (organization_id, animal_id) WHERE is_primary;
CREATE INDEX animal_microchips_number ON animal_microchips (organization_id, number);

-- Every chip number already on file becomes the animal's primary chip.
INSERT INTO animal_microchips (organization_id, id, animal_id, number, is_primary, created_at, updated_at)
SELECT organization_id, 'chp_' || substr(md5(organization_id || '/' || id), 1, 20), id, microchip_number, true, created_at, updated_at
  FROM animals WHERE microchip_number IS NOT NULL AND microchip_number <> '';
