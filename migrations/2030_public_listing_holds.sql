-- The public listing keeps the holds too: an animal on a hold in force has no listing row (so no tally counts it),
-- and the list's page, total and filter choices read the listing and the tallies alone, with no subtraction of the
-- animals on a hold at request time (that part grew with the number of holds in force: ~3,000 at 1M animals, 300k
-- adoptable, 1% held, read on every list built on a cache miss).
--
-- A hold starts and ends with the clock, not with a write, so the listing is brought up to date at those moments by
-- the job queue: every write of a hold (any writer: the routes, an import, the command line) refreshes the animal's
-- listing row at once and queues a job of kind publicsite.hold_clock at each of the hold's boundaries still ahead
-- (its start, its end), keyed by the hold and the moment so it is queued once. The job refreshes the animal's
-- listing row and tells every process's response cache (public_site_changed), so the list, its total and the
-- animal's page change within the job queue's poll (2 s) of the boundary, instead of the cache entry's 60 s.

-- The listing rows of the animals named: public, live, in care and with no hold in force now (clock_timestamp(): a
-- hold placed "now" by the writer's clock, a moment after its transaction began, is in force for its own trigger). The
-- animals are looked up id by id: `a.id = ANY(ids)` made a rebuild compare every animal with every public id (minutes
-- at 300k public animals).
CREATE OR REPLACE FUNCTION public_listing_rows(org text, ids text[]) RETURNS SETOF public_listing LANGUAGE sql STABLE AS $$
  SELECT a.organization_id, a.id, a.created_at, lower(a.public_name), a.species_key, a.species, a.sex, a.date_of_birth,
         CASE WHEN a.weight IS NULL OR a.weight <= 0 THEN NULL WHEN a.weight <= 25 THEN 'small' WHEN a.weight <= 60 THEN 'medium'
              WHEN a.weight <= 100 THEN 'large' ELSE 'xlarge' END,
         (SELECT l.id FROM locations l WHERE l.organization_id = org AND l.is_active AND l.id = coalesce(
            (SELECT u.location_id FROM housing_units u WHERE u.organization_id = org AND u.id = a.location_id), a.location_id)),
         coalesce(g.dogs, false), coalesce(g.cats, false), coalesce(g.children, false)
    FROM unnest(ids) AS i(id)
    JOIN animals a ON a.organization_id = org AND a.id = i.id
    LEFT JOIN LATERAL (
      SELECT bool_or(ba.key = 'good_with_dogs' AND bv.value = 'yes') AS dogs, bool_or(ba.key = 'good_with_cats' AND bv.value = 'yes') AS cats,
             bool_or(ba.key = 'good_with_children' AND bv.value = 'yes') AS children
        FROM care_behaviour_values bv JOIN care_behaviour_attributes ba ON ba.organization_id = bv.organization_id AND ba.id = bv.attribute_id
       WHERE bv.organization_id = org AND bv.animal_id = a.id AND ba.key IN ('good_with_dogs', 'good_with_cats', 'good_with_children')) g ON true
   WHERE a.deleted_at IS NULL AND a.is_public
     AND EXISTS (SELECT 1 FROM animal_stays st WHERE st.organization_id = org AND st.animal_id = a.id AND st.outcome_at IS NULL)
     AND NOT EXISTS (SELECT 1 FROM animal_holds h WHERE h.organization_id = org AND h.animal_id = a.id AND h.released_at IS NULL
                       AND h.starts_at <= clock_timestamp() AND (h.ends_at IS NULL OR h.ends_at > clock_timestamp()))
$$;

-- Queues the listing's refresh at each boundary of these holds still ahead (once per hold and moment).
CREATE FUNCTION public_listing_hold_jobs(org text, hold_ids text[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO jobs (organization_id, id, kind, key, payload, run_at, max_attempts, lease_ms)
  SELECT h.organization_id, 'job_' || substr(md5(random()::text || clock_timestamp()::text || h.id || b.at::text), 1, 20),
         'publicsite.hold_clock', h.id || ':' || to_char(b.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
         jsonb_build_object('animal_id', h.animal_id), b.at, 5, 30000
    FROM animal_holds h CROSS JOIN LATERAL (VALUES (h.starts_at), (h.ends_at)) b(at)
   WHERE h.organization_id = org AND h.id = ANY(hold_ids) AND h.released_at IS NULL AND b.at > clock_timestamp()
  ON CONFLICT (organization_id, kind, key) WHERE key IS NOT NULL DO NOTHING;
$$;

-- What the job does at a boundary: the animal's listing row as of now, and the pages told when the animal is public.
CREATE FUNCTION public_listing_hold_clock(org text, aid text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM public_listing_refresh(org, aid);
  IF EXISTS (SELECT 1 FROM animals WHERE organization_id = org AND id = aid AND is_public) THEN PERFORM public_site_changed(org); END IF;
END;
$$;

-- A hold written: the animal's listing row (and the old animal's, if the hold moved), the pages, the boundaries ahead.
CREATE FUNCTION public_listing_holds_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  org text := coalesce(NEW.organization_id, OLD.organization_id);
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM public_listing_hold_clock(org, OLD.animal_id); END IF;
  IF TG_OP <> 'DELETE' THEN
    IF TG_OP = 'INSERT' OR NEW.animal_id IS DISTINCT FROM OLD.animal_id THEN PERFORM public_listing_hold_clock(org, NEW.animal_id); END IF;
    PERFORM public_listing_hold_jobs(org, ARRAY[NEW.id]);
  END IF;
  RETURN NULL;
END;
$$;
DROP TRIGGER public_site_holds ON animal_holds;
CREATE TRIGGER public_listing_holds AFTER INSERT OR UPDATE OR DELETE ON animal_holds FOR EACH ROW
  EXECUTE FUNCTION public_listing_holds_trigger();

-- A rebuild (after a bulk load with the triggers off) also queues the boundaries ahead of the organization's holds.
CREATE OR REPLACE FUNCTION public_listing_rebuild(org text) RETURNS void LANGUAGE sql AS $$
  DELETE FROM public_listing WHERE organization_id = org;
  DELETE FROM public_listing_tallies WHERE organization_id = org;
  DELETE FROM public_listing_month_tallies WHERE organization_id = org;
  DELETE FROM public_listing_day_tallies WHERE organization_id = org;
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
  INSERT INTO public_listing_day_tallies (organization_id, birth_date, n)
  SELECT organization_id, date_of_birth, count(*) FROM public_listing
   WHERE organization_id = org AND date_of_birth IS NOT NULL GROUP BY 1, 2;
  SELECT public_listing_hold_jobs(org, ARRAY(SELECT id FROM animal_holds
                                              WHERE organization_id = org AND released_at IS NULL AND (starts_at > now() OR ends_at > now())));
  SELECT pg_notify('ark_public', org);
$$;

SELECT public_listing_rebuild(id) FROM organizations;
