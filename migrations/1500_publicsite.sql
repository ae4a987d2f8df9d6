-- Public website (publicsite module): how the organization's site looks, and its syndication targets.

-- One row per organization, made at its first change; without one the site uses Ark's defaults.
CREATE TABLE public_site_settings (
  organization_id text NOT NULL REFERENCES organizations(id),
  primary_colour  text NOT NULL DEFAULT '#1f5f8b' CHECK (primary_colour ~ '^#[0-9a-f]{6}$'),
  accent_colour   text NOT NULL DEFAULT '#e07a1f' CHECK (accent_colour ~ '^#[0-9a-f]{6}$'),
  logo_url        text,
  donation_url    text,
  tagline         text NOT NULL DEFAULT '',
  how_to_adopt    text NOT NULL DEFAULT '',
  how_to_foster   text NOT NULL DEFAULT '',
  how_to_volunteer text NOT NULL DEFAULT '',
  updated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id)
);

-- Where the adoptable list is uploaded, in which listing site's layout.
CREATE TABLE syndication_targets (
  organization_id text NOT NULL REFERENCES organizations(id),
  id           text NOT NULL,
  format       text NOT NULL CHECK (format IN ('petfinder', 'adoptapet')),
  host         text NOT NULL,
  port         integer NOT NULL DEFAULT 21 CHECK (port BETWEEN 1 AND 65535),
  username     text NOT NULL,
  password     text NOT NULL,
  secure       boolean NOT NULL DEFAULT false,
  remote_dir   text NOT NULL DEFAULT '/',
  enabled      boolean NOT NULL DEFAULT true,
  last_run_at  timestamptz,
  last_status  text CHECK (last_status IN ('ok', 'failed')),
  last_error   text,
  last_animals integer,
  last_photos  integer,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
