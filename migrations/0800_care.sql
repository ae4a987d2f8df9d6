-- Care module: notes, nutrition plans, relationships and litters, tags, breeds, age groups, behaviour attributes.
-- Animals are referenced by id within the organization (the animals module owns them).

CREATE TABLE care_notes (
  organization_id text NOT NULL REFERENCES organizations(id),
  id         text NOT NULL,
  animal_id  text NOT NULL,
  kind       text NOT NULL CHECK (kind IN ('general', 'medical', 'behaviour', 'adoption', 'foster')),
  body       text NOT NULL,
  pinned     boolean NOT NULL DEFAULT false,
  visibility text NOT NULL DEFAULT 'internal' CHECK (visibility IN ('internal', 'shareable')),
  author     text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, animal_id) REFERENCES animals(organization_id, id)
);
CREATE INDEX care_notes_animal ON care_notes (organization_id, animal_id, pinned DESC, created_at DESC, id DESC);

CREATE TABLE care_nutrition_plans (
  organization_id text NOT NULL REFERENCES organizations(id),
  id            text NOT NULL,
  animal_id     text NOT NULL,
  food          text NOT NULL,
  amount        numeric(10,3) NOT NULL CHECK (amount > 0),
  unit          text NOT NULL,
  times_per_day integer NOT NULL CHECK (times_per_day BETWEEN 1 AND 24),
  instructions  text,
  starts_on     date NOT NULL,
  ends_on       date,
  created_at    timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, animal_id) REFERENCES animals(organization_id, id),
  CHECK (ends_on IS NULL OR ends_on >= starts_on)
);
CREATE INDEX care_nutrition_animal ON care_nutrition_plans (organization_id, animal_id, starts_on DESC);

-- A bond is one row for the pair, stored with the smaller id first: the same pair cannot be stored twice,
-- in either order, and an animal cannot be bonded with itself.
CREATE TABLE care_bonds (
  organization_id text NOT NULL REFERENCES organizations(id),
  animal_a_id text NOT NULL,
  animal_b_id text NOT NULL,
  notes       text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, animal_a_id, animal_b_id),
  CHECK (animal_a_id < animal_b_id),
  FOREIGN KEY (organization_id, animal_a_id) REFERENCES animals(organization_id, id),
  FOREIGN KEY (organization_id, animal_b_id) REFERENCES animals(organization_id, id)
);
CREATE INDEX care_bonds_b ON care_bonds (organization_id, animal_b_id);

-- Mother of / offspring of: an animal has at most one recorded mother.
CREATE TABLE care_mothers (
  organization_id text NOT NULL REFERENCES organizations(id),
  offspring_id text NOT NULL,
  mother_id    text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, offspring_id),
  CHECK (offspring_id <> mother_id),
  FOREIGN KEY (organization_id, offspring_id) REFERENCES animals(organization_id, id),
  FOREIGN KEY (organization_id, mother_id) REFERENCES animals(organization_id, id)
);
CREATE INDEX care_mothers_mother ON care_mothers (organization_id, mother_id);

CREATE TABLE care_litters (
  organization_id text NOT NULL REFERENCES organizations(id),
  id         text NOT NULL,
  name       text NOT NULL,
  species    text NOT NULL,
  origin     text NOT NULL CHECK (origin IN ('born_in_care', 'arrived_together')),
  born_on    date,
  mother_id  text,
  notes      text,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, mother_id) REFERENCES animals(organization_id, id)
);
CREATE INDEX care_litters_list ON care_litters (organization_id, created_at DESC, id DESC);

-- An animal belongs to at most one litter.
CREATE TABLE care_litter_members (
  organization_id text NOT NULL REFERENCES organizations(id),
  litter_id text NOT NULL,
  animal_id text NOT NULL,
  added_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (organization_id, litter_id, animal_id),
  UNIQUE (organization_id, animal_id),
  FOREIGN KEY (organization_id, litter_id) REFERENCES care_litters(organization_id, id) ON DELETE CASCADE,
  FOREIGN KEY (organization_id, animal_id) REFERENCES animals(organization_id, id)
);

-- Tags are free words, stored trimmed and in lower case; an animal carries a word once.
CREATE TABLE care_tags (
  organization_id text NOT NULL REFERENCES organizations(id),
  animal_id  text NOT NULL,
  tag        text NOT NULL CHECK (tag <> ''),
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (organization_id, animal_id, tag),
  FOREIGN KEY (organization_id, animal_id) REFERENCES animals(organization_id, id)
);
CREATE INDEX care_tags_tag ON care_tags (organization_id, tag, animal_id);

CREATE TABLE care_breeds (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  species_key text NOT NULL,
  name        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
CREATE UNIQUE INDEX care_breeds_name ON care_breeds (organization_id, species_key, lower(name));

CREATE TABLE care_profiles (
  organization_id text NOT NULL REFERENCES organizations(id),
  animal_id          text NOT NULL,
  primary_breed_id   text,
  secondary_breed_id text,
  mixed              boolean NOT NULL DEFAULT false,
  updated_at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, animal_id),
  CHECK (secondary_breed_id IS NULL OR (primary_breed_id IS NOT NULL AND secondary_breed_id <> primary_breed_id)),
  FOREIGN KEY (organization_id, animal_id) REFERENCES animals(organization_id, id),
  FOREIGN KEY (organization_id, primary_breed_id) REFERENCES care_breeds(organization_id, id),
  FOREIGN KEY (organization_id, secondary_breed_id) REFERENCES care_breeds(organization_id, id)
);
CREATE INDEX care_profiles_primary ON care_profiles (organization_id, primary_breed_id);
CREATE INDEX care_profiles_secondary ON care_profiles (organization_id, secondary_breed_id);

-- Age groups: [from_weeks, to_weeks) per species; to_weeks null means no upper bound.
CREATE TABLE care_age_groups (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  name        text NOT NULL,
  species_key text NOT NULL,
  from_weeks  integer NOT NULL CHECK (from_weeks >= 0),
  to_weeks    integer,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  CHECK (to_weeks IS NULL OR to_weeks > from_weeks)
);
CREATE INDEX care_age_groups_species ON care_age_groups (organization_id, species_key, from_weeks);

CREATE TABLE care_behaviour_attributes (
  organization_id text NOT NULL REFERENCES organizations(id),
  id         text NOT NULL,
  key        text NOT NULL,
  name       text NOT NULL,
  scale      text NOT NULL CHECK (scale IN ('yes_no', 'one_to_five')),
  sort_order integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  UNIQUE (organization_id, key)
);

CREATE TABLE care_behaviour_values (
  organization_id text NOT NULL REFERENCES organizations(id),
  animal_id    text NOT NULL,
  attribute_id text NOT NULL,
  value        text NOT NULL CHECK (value IN ('yes', 'no', 'unknown', '1', '2', '3', '4', '5')),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, animal_id, attribute_id),
  FOREIGN KEY (organization_id, animal_id) REFERENCES animals(organization_id, id),
  FOREIGN KEY (organization_id, attribute_id) REFERENCES care_behaviour_attributes(organization_id, id) ON DELETE CASCADE
);
CREATE INDEX care_behaviour_values_attribute ON care_behaviour_values (organization_id, attribute_id);
