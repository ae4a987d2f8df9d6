-- Media: photos and documents of an animal. The files themselves live in the blob store (a folder under
-- ARK_DATA_DIR or an S3-compatible bucket) under keys made of the organization's id and the record's id;
-- these tables say what each file is.

CREATE TABLE animal_photos (
  organization_id text NOT NULL REFERENCES organizations(id),
  id text NOT NULL,
  animal_id text NOT NULL,
  caption text,
  is_public boolean NOT NULL DEFAULT false,
  is_primary boolean NOT NULL DEFAULT false,
  -- What the uploaded file was found to be by decoding it (image/jpeg, image/png, image/webp, image/heic, image/avif).
  content_type text NOT NULL,
  width integer NOT NULL CHECK (width > 0),
  height integer NOT NULL CHECK (height > 0),
  byte_size integer NOT NULL CHECK (byte_size > 0),
  filename text,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, animal_id) REFERENCES animals(organization_id, id)
);
CREATE INDEX animal_photos_animal ON animal_photos (organization_id, animal_id, created_at, id);
-- At most one primary photo per animal.
CREATE UNIQUE INDEX animal_photos_one_primary ON animal_photos (organization_id, animal_id) WHERE is_primary;

CREATE TABLE animal_documents (
  organization_id text NOT NULL REFERENCES organizations(id),
  id text NOT NULL,
  animal_id text NOT NULL,
  title text NOT NULL,
  kind text NOT NULL DEFAULT 'other'
    CHECK (kind IN ('medical', 'health_certificate', 'adoption', 'intake', 'legal', 'identification', 'other')),
  content_type text NOT NULL,
  byte_size integer NOT NULL CHECK (byte_size > 0),
  filename text,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, animal_id) REFERENCES animals(organization_id, id)
);
CREATE INDEX animal_documents_animal ON animal_documents (organization_id, animal_id, created_at, id);
