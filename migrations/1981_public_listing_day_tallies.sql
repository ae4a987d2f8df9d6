-- The public list's age filter alone (`/animals?age=adult`): its exact total summed from one row per date of birth
-- (kept with the other listing tallies by public_listing_bump, in the same transaction), at most one row per day of the
-- age group's span whatever the number of animals, instead of the month tallies per filter combination and the
-- listing's rows at the range's edges. With other filters too, the month tallies still answer.
CREATE TABLE public_listing_day_tallies (
  organization_id text NOT NULL REFERENCES organizations(id),
  birth_date      date NOT NULL,
  n               bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (organization_id, birth_date) INCLUDE (n)
);

CREATE OR REPLACE FUNCTION public_listing_bump(r public_listing, delta int) RETURNS void LANGUAGE plpgsql AS $$
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
    INSERT INTO public_listing_day_tallies (organization_id, birth_date, n) VALUES (r.organization_id, r.date_of_birth, delta)
    ON CONFLICT (organization_id, birth_date) DO UPDATE SET n = public_listing_day_tallies.n + EXCLUDED.n;
  END IF;
END;
$$;

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
  SELECT pg_notify('ark_public', org);
$$;

INSERT INTO public_listing_day_tallies (organization_id, birth_date, n)
SELECT organization_id, date_of_birth, count(*) FROM public_listing WHERE date_of_birth IS NOT NULL GROUP BY 1, 2;
