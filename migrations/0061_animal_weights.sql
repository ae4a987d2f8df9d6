-- Weight history. The animal's weight column is the latest row (by measured_on, then recorded_at) in pounds;
-- the animals module rewrites it in the transaction that changes the history.
CREATE TABLE animal_weights (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  animal_id   text NOT NULL,
  weight      numeric(10,3) NOT NULL CHECK (weight > 0),
  unit        text NOT NULL CHECK (unit IN ('kg', 'lb')),
  measured_on date NOT NULL,
  notes       text,
  recorded_by text,
  recorded_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, animal_id) REFERENCES animals(organization_id, id)
);
CREATE INDEX animal_weights_latest ON animal_weights (organization_id, animal_id, measured_on DESC, recorded_at DESC, id DESC);

-- A weight already on file is the first row of the animal's history, in pounds, measured when last changed.
INSERT INTO animal_weights (organization_id, id, animal_id, weight, unit, measured_on, recorded_at)
SELECT organization_id, 'wgt_' || substr(md5(organization_id || '/' || id), 1, 20), id, weight, 'lb', (updated_at AT TIME ZONE 'UTC')::date, updated_at
  FROM animals WHERE weight IS NOT NULL AND weight > 0;
