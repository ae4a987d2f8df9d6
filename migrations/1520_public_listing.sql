-- The public site's adoptable list without a scan of the adoptable animals per request.
--
-- public_listing holds one row per animal that is listable now: public, not deleted, in care (an open stay). It
-- carries what the list filters and sorts by, kept by triggers in the same transaction as the change (the animal,
-- its stays, its behaviour values, the place it is at). Holds are not in it: a hold starts and ends with the clock,
-- not with a write, so a page skips held animals as it reads its rows and a total subtracts the (few) animals on a
-- hold in force. Totals and filter choices are sums of tally rows (striped like the staff lists' tallies, so
-- concurrent writes do not queue on one row); an age filter sums whole birth months and counts the two months at
-- its edges exactly.

CREATE TABLE public_listing (
  organization_id text NOT NULL REFERENCES organizations(id),
  animal_id     text NOT NULL,
  created_at    timestamptz NOT NULL,
  sort_name     text NOT NULL,
  species_key   text NOT NULL,
  species       text NOT NULL,
  sex           text NOT NULL,
  date_of_birth date,
  size          text,
  site_id       text,
  good_with_dogs boolean NOT NULL,
  good_with_cats boolean NOT NULL,
  good_with_children boolean NOT NULL,
  PRIMARY KEY (organization_id, animal_id)
);
CREATE INDEX public_listing_newest ON public_listing (organization_id, created_at DESC, animal_id DESC);
CREATE INDEX public_listing_name ON public_listing (organization_id, sort_name, animal_id);
CREATE INDEX public_listing_species ON public_listing (organization_id, species_key, created_at DESC, animal_id DESC);
CREATE INDEX public_listing_birth ON public_listing (organization_id, date_of_birth);

-- Per combination of the list's low-cardinality filters.
CREATE TABLE public_listing_tallies (
  organization_id text NOT NULL REFERENCES organizations(id),
  species_key text NOT NULL,
  species     text NOT NULL,
  sex         text NOT NULL,
  size        text NOT NULL,   -- '' for no weight
  site_id     text NOT NULL,   -- '' for no active location
  good_with   smallint NOT NULL, -- bits: 1 dogs, 2 cats, 4 children
  stripe      smallint NOT NULL,
  n           bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (organization_id, species_key, species, sex, size, site_id, good_with, stripe)
);
-- The same per birth month, for the age filter.
CREATE TABLE public_listing_month_tallies (
  organization_id text NOT NULL REFERENCES organizations(id),
  birth_month date NOT NULL,
  species_key text NOT NULL,
  sex         text NOT NULL,
  size        text NOT NULL,
  site_id     text NOT NULL,
  good_with   smallint NOT NULL,
  stripe      smallint NOT NULL,
  n           bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (organization_id, birth_month, species_key, sex, size, site_id, good_with, stripe)
);

-- The listing rows of the animals named (none for one that is not listable). Size bands: the animals module's rule.
CREATE FUNCTION public_listing_rows(org text, ids text[]) RETURNS SETOF public_listing LANGUAGE sql STABLE AS $$
  SELECT a.organization_id, a.id, a.created_at, lower(a.public_name), a.species_key, a.species, a.sex, a.date_of_birth,
         CASE WHEN a.weight IS NULL OR a.weight <= 0 THEN NULL WHEN a.weight <= 25 THEN 'small' WHEN a.weight <= 60 THEN 'medium'
              WHEN a.weight <= 100 THEN 'large' ELSE 'xlarge' END,
         (SELECT l.id FROM locations l WHERE l.organization_id = org AND l.is_active AND l.id = coalesce(
            (SELECT u.location_id FROM housing_units u WHERE u.organization_id = org AND u.id = a.location_id), a.location_id)),
         coalesce(g.dogs, false), coalesce(g.cats, false), coalesce(g.children, false)
    FROM animals a
    LEFT JOIN LATERAL (
      SELECT bool_or(ba.key = 'good_with_dogs' AND bv.value = 'yes') AS dogs, bool_or(ba.key = 'good_with_cats' AND bv.value = 'yes') AS cats,
             bool_or(ba.key = 'good_with_children' AND bv.value = 'yes') AS children
        FROM care_behaviour_values bv JOIN care_behaviour_attributes ba ON ba.organization_id = bv.organization_id AND ba.id = bv.attribute_id
       WHERE bv.organization_id = org AND bv.animal_id = a.id AND ba.key IN ('good_with_dogs', 'good_with_cats', 'good_with_children')) g ON true
   WHERE a.organization_id = org AND a.id = ANY(ids) AND a.deleted_at IS NULL AND a.is_public
     AND EXISTS (SELECT 1 FROM animal_stays st WHERE st.organization_id = org AND st.animal_id = a.id AND st.outcome_at IS NULL)
$$;

CREATE FUNCTION public_listing_bump(r public_listing, delta int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  s smallint := ark_stripe(8);
  gw smallint := (CASE WHEN r.good_with_dogs THEN 1 ELSE 0 END) + (CASE WHEN r.good_with_cats THEN 2 ELSE 0 END)
                 + (CASE WHEN r.good_with_children THEN 4 ELSE 0 END);
BEGIN
  INSERT INTO public_listing_tallies (organization_id, species_key, species, sex, size, site_id, good_with, stripe, n)
  VALUES (r.organization_id, r.species_key, r.species, r.sex, coalesce(r.size, ''), coalesce(r.site_id, ''), gw, s, delta)
  ON CONFLICT (organization_id, species_key, species, sex, size, site_id, good_with, stripe)
  DO UPDATE SET n = public_listing_tallies.n + EXCLUDED.n;
  IF r.date_of_birth IS NOT NULL THEN
    INSERT INTO public_listing_month_tallies (organization_id, birth_month, species_key, sex, size, site_id, good_with, stripe, n)
    VALUES (r.organization_id, date_trunc('month', r.date_of_birth)::date, r.species_key, r.sex, coalesce(r.size, ''),
            coalesce(r.site_id, ''), gw, s, delta)
    ON CONFLICT (organization_id, birth_month, species_key, sex, size, site_id, good_with, stripe)
    DO UPDATE SET n = public_listing_month_tallies.n + EXCLUDED.n;
  END IF;
END;
$$;

-- Brings one animal's listing row (and the tallies) up to date.
CREATE FUNCTION public_listing_refresh(org text, aid text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  cur public_listing;
  old public_listing;
BEGIN
  SELECT * INTO cur FROM public_listing_rows(org, ARRAY[aid]);
  SELECT * INTO old FROM public_listing WHERE organization_id = org AND animal_id = aid;
  IF old.animal_id IS NULL AND cur.animal_id IS NULL THEN RETURN; END IF;
  IF old.animal_id IS NOT NULL AND cur.animal_id IS NOT NULL AND old IS NOT DISTINCT FROM cur THEN RETURN; END IF;
  IF old.animal_id IS NOT NULL THEN
    DELETE FROM public_listing WHERE organization_id = org AND animal_id = aid;
    PERFORM public_listing_bump(old, -1);
  END IF;
  IF cur.animal_id IS NOT NULL THEN
    INSERT INTO public_listing SELECT cur.*;
    PERFORM public_listing_bump(cur, 1);
  END IF;
END;
$$;

-- Rebuilds an organization's listing and tallies (after a bulk load that ran with the triggers off).
CREATE FUNCTION public_listing_rebuild(org text) RETURNS void LANGUAGE sql AS $$
  DELETE FROM public_listing WHERE organization_id = org;
  DELETE FROM public_listing_tallies WHERE organization_id = org;
  DELETE FROM public_listing_month_tallies WHERE organization_id = org;
  INSERT INTO public_listing
  SELECT * FROM public_listing_rows(org, ARRAY(SELECT id FROM animals WHERE organization_id = org AND deleted_at IS NULL AND is_public));
  INSERT INTO public_listing_tallies (organization_id, species_key, species, sex, size, site_id, good_with, stripe, n)
  SELECT organization_id, species_key, species, sex, coalesce(size, ''), coalesce(site_id, ''),
         (good_with_dogs::int + 2 * good_with_cats::int + 4 * good_with_children::int)::smallint, 0, count(*)
    FROM public_listing WHERE organization_id = org GROUP BY 1, 2, 3, 4, 5, 6, 7;
  INSERT INTO public_listing_month_tallies (organization_id, birth_month, species_key, sex, size, site_id, good_with, stripe, n)
  SELECT organization_id, date_trunc('month', date_of_birth)::date, species_key, sex, coalesce(size, ''), coalesce(site_id, ''),
         (good_with_dogs::int + 2 * good_with_cats::int + 4 * good_with_children::int)::smallint, 0, count(*)
    FROM public_listing WHERE organization_id = org AND date_of_birth IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6, 7;
  SELECT pg_notify('ark_public', org);
$$;

-- Tells every Ark process that an organization's public pages changed; delivered when the transaction commits
-- (never for one rolled back), once per organization per transaction.
CREATE FUNCTION public_site_changed(org text) RETURNS void LANGUAGE sql AS $$ SELECT pg_notify('ark_public', org) $$;

CREATE FUNCTION public_listing_animals_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM public_listing_refresh(coalesce(NEW.organization_id, OLD.organization_id), coalesce(NEW.id, OLD.id));
  PERFORM public_site_changed(coalesce(NEW.organization_id, OLD.organization_id));
  RETURN NULL;
END;
$$;
CREATE TRIGGER public_listing_animals_ins AFTER INSERT ON animals FOR EACH ROW WHEN (NEW.is_public)
  EXECUTE FUNCTION public_listing_animals_trigger();
CREATE TRIGGER public_listing_animals_upd AFTER UPDATE ON animals FOR EACH ROW
  WHEN ((OLD.is_public OR NEW.is_public) AND (OLD.is_public, OLD.deleted_at, OLD.public_name, OLD.species_key, OLD.species, OLD.sex,
        OLD.date_of_birth, OLD.weight, OLD.location_id, OLD.created_at, OLD.breed, OLD.intake_date, OLD.altered)
    IS DISTINCT FROM (NEW.is_public, NEW.deleted_at, NEW.public_name, NEW.species_key, NEW.species, NEW.sex,
        NEW.date_of_birth, NEW.weight, NEW.location_id, NEW.created_at, NEW.breed, NEW.intake_date, NEW.altered))
  EXECUTE FUNCTION public_listing_animals_trigger();
CREATE TRIGGER public_listing_animals_del AFTER DELETE ON animals FOR EACH ROW WHEN (OLD.is_public)
  EXECUTE FUNCTION public_listing_animals_trigger();

-- A change of a row that names an animal: its listing row, and the pages when the animal is public.
CREATE FUNCTION public_listing_animal_part_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  org text := coalesce(NEW.organization_id, OLD.organization_id);
  aid text := coalesce(NEW.animal_id, OLD.animal_id);
BEGIN
  IF TG_ARGV[0] = 'listing' THEN PERFORM public_listing_refresh(org, aid); END IF;
  IF EXISTS (SELECT 1 FROM animals WHERE organization_id = org AND id = aid AND is_public) THEN PERFORM public_site_changed(org); END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER public_listing_stays AFTER INSERT OR DELETE ON animal_stays FOR EACH ROW
  EXECUTE FUNCTION public_listing_animal_part_trigger('listing');
CREATE TRIGGER public_listing_stays_upd AFTER UPDATE ON animal_stays FOR EACH ROW
  WHEN (OLD.outcome_at IS DISTINCT FROM NEW.outcome_at OR OLD.animal_id IS DISTINCT FROM NEW.animal_id
        OR OLD.age_weeks IS DISTINCT FROM NEW.age_weeks OR OLD.intake_at IS DISTINCT FROM NEW.intake_at)
  EXECUTE FUNCTION public_listing_animal_part_trigger('listing');
CREATE TRIGGER public_listing_behaviour AFTER INSERT OR UPDATE OR DELETE ON care_behaviour_values FOR EACH ROW
  EXECUTE FUNCTION public_listing_animal_part_trigger('listing');
CREATE TRIGGER public_site_holds AFTER INSERT OR UPDATE OR DELETE ON animal_holds FOR EACH ROW
  EXECUTE FUNCTION public_listing_animal_part_trigger('pages');
CREATE TRIGGER public_site_photos AFTER INSERT OR UPDATE OR DELETE ON animal_photos FOR EACH ROW
  EXECUTE FUNCTION public_listing_animal_part_trigger('pages');
CREATE TRIGGER public_site_notes AFTER INSERT OR UPDATE OR DELETE ON care_notes FOR EACH ROW
  EXECUTE FUNCTION public_listing_animal_part_trigger('pages');

-- Bonds name two animals.
CREATE FUNCTION public_site_bonds_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM public_site_changed(coalesce(NEW.organization_id, OLD.organization_id));
  RETURN NULL;
END;
$$;
CREATE TRIGGER public_site_bonds AFTER INSERT OR UPDATE OR DELETE ON care_bonds FOR EACH ROW EXECUTE FUNCTION public_site_bonds_trigger();

-- A place that opens, closes or moves: the listing rows of the public animals there.
CREATE FUNCTION public_listing_place_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  org text := coalesce(NEW.organization_id, OLD.organization_id);
  r record;
BEGIN
  FOR r IN SELECT a.id FROM animals a WHERE a.organization_id = org AND a.is_public AND a.deleted_at IS NULL
             AND (a.location_id IN (coalesce(NEW.id, OLD.id))
                  OR a.location_id IN (SELECT u.id FROM housing_units u WHERE u.organization_id = org AND u.location_id = coalesce(NEW.id, OLD.id)))
  LOOP
    PERFORM public_listing_refresh(org, r.id);
  END LOOP;
  PERFORM public_site_changed(org);
  RETURN NULL;
END;
$$;
CREATE TRIGGER public_listing_locations AFTER UPDATE ON locations FOR EACH ROW
  WHEN (OLD.is_active IS DISTINCT FROM NEW.is_active OR OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION public_listing_place_trigger();
CREATE TRIGGER public_listing_units AFTER UPDATE ON housing_units FOR EACH ROW
  WHEN (OLD.location_id IS DISTINCT FROM NEW.location_id)
  EXECUTE FUNCTION public_listing_place_trigger();

-- Everything else a public page shows: the organization, the site's settings, fee schedules, forms, events, wishes,
-- behaviour attributes.
CREATE FUNCTION public_site_org_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM public_site_changed(coalesce(NEW.organization_id, OLD.organization_id));
  RETURN NULL;
END;
$$;
CREATE FUNCTION public_site_organization_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM public_site_changed(NEW.id);
  RETURN NULL;
END;
$$;
CREATE TRIGGER public_site_org AFTER UPDATE ON organizations FOR EACH ROW EXECUTE FUNCTION public_site_organization_trigger();
CREATE TRIGGER public_site_settings AFTER INSERT OR UPDATE OR DELETE ON public_site_settings FOR EACH ROW EXECUTE FUNCTION public_site_org_trigger();
CREATE TRIGGER public_site_fees AFTER INSERT OR UPDATE OR DELETE ON adoption_fee_schedules FOR EACH ROW EXECUTE FUNCTION public_site_org_trigger();
CREATE TRIGGER public_site_forms AFTER INSERT OR UPDATE OR DELETE ON forms FOR EACH ROW EXECUTE FUNCTION public_site_org_trigger();
CREATE TRIGGER public_site_events AFTER INSERT OR UPDATE OR DELETE ON events FOR EACH ROW EXECUTE FUNCTION public_site_org_trigger();
CREATE TRIGGER public_site_wishes AFTER INSERT OR UPDATE OR DELETE ON fundraising_wish_items FOR EACH ROW EXECUTE FUNCTION public_site_org_trigger();
CREATE TRIGGER public_site_attributes AFTER INSERT OR UPDATE OR DELETE ON care_behaviour_attributes FOR EACH ROW
  EXECUTE FUNCTION public_site_org_trigger();

SELECT public_listing_rebuild(id) FROM organizations;
