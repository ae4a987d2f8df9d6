-- A write of stays brings the public listing up to date once per statement rather than once per row: a batch of
-- stays written by one statement (a move's import, an animal bulk create's first stays) refreshes the listing rows of
-- the animals it touched together, and bumps each tally row it changes once (by the batch's net change), in key order
-- (so concurrent writers cannot deadlock). The result is the row triggers': an animal's listing row is its current
-- public_listing_rows row, and the tallies count the listing rows. The statement triggers read the statement's rows (transition
-- tables); an update counts only when it changes what the listing reads of a stay (as the row trigger's WHEN did).

-- Brings the listing rows (and the tallies) of these animals of one organization up to date; the pages are told when
-- one of them is public. The set form of public_listing_refresh.
CREATE FUNCTION public_listing_refresh_many(org text, ids text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  s smallint := ark_stripe(8);
  cur public_listing[];
  old public_listing[];
  gone public_listing[];
  came public_listing[];
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN RETURN; END IF;
  cur := ARRAY(SELECT r FROM public_listing_rows(org, ids) r);
  old := ARRAY(SELECT p FROM unnest(ids) AS i(id) JOIN public_listing p ON p.organization_id = org AND p.animal_id = i.id);
  gone := ARRAY(SELECT o FROM unnest(old) o LEFT JOIN unnest(cur) c ON c.animal_id = o.animal_id WHERE c IS DISTINCT FROM o);
  came := ARRAY(SELECT c FROM unnest(cur) c LEFT JOIN unnest(old) o ON o.animal_id = c.animal_id WHERE o IS DISTINCT FROM c);
  IF cardinality(gone) > 0 OR cardinality(came) > 0 THEN
    DELETE FROM public_listing p WHERE p.organization_id = org AND p.animal_id IN (SELECT g.animal_id FROM unnest(gone) g);
    INSERT INTO public_listing SELECT * FROM unnest(came);
    INSERT INTO public_listing_tallies (organization_id, species_key, species, sex, size, site_id, good_with, stripe, n)
    SELECT organization_id, species_key, species, sex, size, site_id, good_with, s, sum(d)
      FROM (SELECT x.organization_id, x.species_key, x.species, x.sex, coalesce(x.size, '') AS size, coalesce(x.site_id, '') AS site_id,
                   ((CASE WHEN x.good_with_dogs THEN 1 ELSE 0 END) + (CASE WHEN x.good_with_cats THEN 2 ELSE 0 END)
                    + (CASE WHEN x.good_with_children THEN 4 ELSE 0 END))::smallint AS good_with, x.d
              FROM (SELECT g.*, -1 AS d FROM unnest(gone) g UNION ALL SELECT c.*, 1 FROM unnest(came) c) x) t
     GROUP BY organization_id, species_key, species, sex, size, site_id, good_with
    HAVING sum(d) <> 0
     ORDER BY organization_id, species_key, species, sex, size, site_id, good_with
    ON CONFLICT (organization_id, species_key, species, sex, size, site_id, good_with, stripe)
    DO UPDATE SET n = public_listing_tallies.n + EXCLUDED.n;
    INSERT INTO public_listing_month_tallies (organization_id, birth_month, species_key, sex, size, site_id, good_with, stripe, n)
    SELECT organization_id, birth_month, species_key, sex, size, site_id, good_with, s, sum(d)
      FROM (SELECT x.organization_id, date_trunc('month', x.date_of_birth)::date AS birth_month, x.species_key, x.sex,
                   coalesce(x.size, '') AS size, coalesce(x.site_id, '') AS site_id,
                   ((CASE WHEN x.good_with_dogs THEN 1 ELSE 0 END) + (CASE WHEN x.good_with_cats THEN 2 ELSE 0 END)
                    + (CASE WHEN x.good_with_children THEN 4 ELSE 0 END))::smallint AS good_with, x.d
              FROM (SELECT g.*, -1 AS d FROM unnest(gone) g UNION ALL SELECT c.*, 1 FROM unnest(came) c) x
             WHERE x.date_of_birth IS NOT NULL) t
     GROUP BY organization_id, birth_month, species_key, sex, size, site_id, good_with
    HAVING sum(d) <> 0
     ORDER BY organization_id, birth_month, species_key, sex, size, site_id, good_with
    ON CONFLICT (organization_id, birth_month, species_key, sex, size, site_id, good_with, stripe)
    DO UPDATE SET n = public_listing_month_tallies.n + EXCLUDED.n;
    INSERT INTO public_listing_day_tallies (organization_id, birth_date, n)
    SELECT x.organization_id, x.date_of_birth, sum(x.d)
      FROM (SELECT g.*, -1 AS d FROM unnest(gone) g UNION ALL SELECT c.*, 1 FROM unnest(came) c) x
     WHERE x.date_of_birth IS NOT NULL
     GROUP BY x.organization_id, x.date_of_birth
    HAVING sum(x.d) <> 0
     ORDER BY x.organization_id, x.date_of_birth
    ON CONFLICT (organization_id, birth_date) DO UPDATE SET n = public_listing_day_tallies.n + EXCLUDED.n;
  END IF;
  -- Looked up id by id: as a join (or `id = ANY(ids)`) the planner, expecting few public animals, reads every animal of the
  -- organization for its public ones (a cost that grew with the organization: 100 ms a batch at 30,000 animals).
  IF EXISTS (SELECT 1 FROM unnest(ids) AS i(id)
               CROSS JOIN LATERAL (SELECT a.is_public FROM animals a WHERE a.organization_id = org AND a.id = i.id OFFSET 0) a
              WHERE a.is_public) THEN
    PERFORM public_site_changed(org);
  END IF;
END;
$$;

-- The stays a statement wrote: the animals whose listing may have changed, per organization.
CREATE FUNCTION public_listing_stays_statement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    FOR r IN SELECT organization_id, array_agg(DISTINCT animal_id ORDER BY animal_id) AS ids FROM new_stays
              GROUP BY organization_id ORDER BY organization_id LOOP
      PERFORM public_listing_refresh_many(r.organization_id, r.ids);
    END LOOP;
  ELSIF TG_OP = 'DELETE' THEN
    FOR r IN SELECT organization_id, array_agg(DISTINCT animal_id ORDER BY animal_id) AS ids FROM old_stays
              GROUP BY organization_id ORDER BY organization_id LOOP
      PERFORM public_listing_refresh_many(r.organization_id, r.ids);
    END LOOP;
  ELSE
    FOR r IN SELECT t.organization_id, array_agg(DISTINCT t.animal_id ORDER BY t.animal_id) AS ids FROM (
               SELECT n.organization_id, n.animal_id FROM new_stays n
                 LEFT JOIN old_stays o ON o.organization_id = n.organization_id AND o.id = n.id
                WHERE o.id IS NULL OR (o.outcome_at, o.animal_id, o.age_weeks, o.intake_at)
                      IS DISTINCT FROM (n.outcome_at, n.animal_id, n.age_weeks, n.intake_at)
               UNION ALL
               SELECT o.organization_id, o.animal_id FROM old_stays o
                 LEFT JOIN new_stays n ON n.organization_id = o.organization_id AND n.id = o.id
                WHERE n.id IS NULL OR (o.outcome_at, o.animal_id, o.age_weeks, o.intake_at)
                      IS DISTINCT FROM (n.outcome_at, n.animal_id, n.age_weeks, n.intake_at)) t
              GROUP BY t.organization_id ORDER BY t.organization_id LOOP
      PERFORM public_listing_refresh_many(r.organization_id, r.ids);
    END LOOP;
  END IF;
  RETURN NULL;
END;
$$;

DROP TRIGGER public_listing_stays ON animal_stays;
DROP TRIGGER public_listing_stays_upd ON animal_stays;
CREATE TRIGGER public_listing_stays_ins AFTER INSERT ON animal_stays REFERENCING NEW TABLE AS new_stays
  FOR EACH STATEMENT EXECUTE FUNCTION public_listing_stays_statement();
CREATE TRIGGER public_listing_stays_upd AFTER UPDATE ON animal_stays REFERENCING OLD TABLE AS old_stays NEW TABLE AS new_stays
  FOR EACH STATEMENT EXECUTE FUNCTION public_listing_stays_statement();
CREATE TRIGGER public_listing_stays_del AFTER DELETE ON animal_stays REFERENCING OLD TABLE AS old_stays
  FOR EACH STATEMENT EXECUTE FUNCTION public_listing_stays_statement();
