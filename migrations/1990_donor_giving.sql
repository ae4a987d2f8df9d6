-- Each donor's giving, kept by trigger in the same transaction as the gift, so the donors list reads one row per
-- donor instead of aggregating the whole ledger on every request.
--
-- A row exists for every person with at least one live gift: first and last gift date, the number of gifts, how many
-- are recurring and the last recurring date, and the lifetime amount per currency (a JSON object, currency → minor
-- units, exact integers). An insert adds the gift to the row (one upsert); an update that changes what the row is made
-- of, and a delete, recount the donor(s) concerned from their gifts (through the donor index), because a minimum or a
-- maximum cannot be taken back by subtraction. The donors list pages "most recent gift first" straight from the
-- (organization, last gift, donor) index.

CREATE TABLE donor_giving (
  organization_id text NOT NULL REFERENCES organizations(id),
  donor_id        text NOT NULL,
  first_gift      date NOT NULL,
  last_gift       date NOT NULL,
  gift_count      bigint NOT NULL,
  recurring_count bigint NOT NULL,
  last_recurring  date,
  lifetime        jsonb NOT NULL,
  PRIMARY KEY (organization_id, donor_id)
);
CREATE INDEX donor_giving_last ON donor_giving (organization_id, last_gift DESC, donor_id);

-- Recounts one donor from the ledger: the row made again, or removed when no live gift is left.
CREATE FUNCTION donor_giving_recount(org text, donor text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM donor_giving WHERE organization_id = org AND donor_id = donor;
  INSERT INTO donor_giving (organization_id, donor_id, first_gift, last_gift, gift_count, recurring_count, last_recurring, lifetime)
  SELECT org, donor, min(d.date), max(d.date), count(*), count(*) FILTER (WHERE d.type = 'recurring'),
         max(d.date) FILTER (WHERE d.type = 'recurring'),
         (SELECT jsonb_object_agg(c.currency, c.total) FROM (
            SELECT currency, sum(amount_minor) AS total FROM donations
             WHERE organization_id = org AND donor_id = donor AND deleted_at IS NULL GROUP BY currency) c)
    FROM donations d
   WHERE d.organization_id = org AND d.donor_id = donor AND d.deleted_at IS NULL
  HAVING count(*) > 0;
END;
$$;

CREATE FUNCTION donor_giving_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.deleted_at IS NULL THEN
      INSERT INTO donor_giving AS g (organization_id, donor_id, first_gift, last_gift, gift_count, recurring_count, last_recurring,
                                     lifetime)
      VALUES (NEW.organization_id, NEW.donor_id, NEW.date, NEW.date, 1, (NEW.type = 'recurring')::int,
              CASE WHEN NEW.type = 'recurring' THEN NEW.date END, jsonb_build_object(NEW.currency, NEW.amount_minor))
      ON CONFLICT (organization_id, donor_id) DO UPDATE SET
        first_gift = least(g.first_gift, EXCLUDED.first_gift),
        last_gift = greatest(g.last_gift, EXCLUDED.last_gift),
        gift_count = g.gift_count + 1,
        recurring_count = g.recurring_count + EXCLUDED.recurring_count,
        last_recurring = greatest(g.last_recurring, EXCLUDED.last_recurring),
        lifetime = g.lifetime || jsonb_build_object(NEW.currency, coalesce((g.lifetime ->> NEW.currency)::bigint, 0) + NEW.amount_minor);
    END IF;
    RETURN NULL;
  END IF;
  PERFORM donor_giving_recount(OLD.organization_id, OLD.donor_id);
  IF TG_OP = 'UPDATE' AND NEW.donor_id IS DISTINCT FROM OLD.donor_id THEN
    PERFORM donor_giving_recount(NEW.organization_id, NEW.donor_id);
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER donations_donor_giving AFTER INSERT OR DELETE ON donations
  FOR EACH ROW EXECUTE FUNCTION donor_giving_trigger();
CREATE TRIGGER donations_donor_giving_update AFTER UPDATE ON donations FOR EACH ROW
  WHEN ((OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL) OR OLD.donor_id IS DISTINCT FROM NEW.donor_id
        OR OLD.date IS DISTINCT FROM NEW.date OR OLD.type IS DISTINCT FROM NEW.type
        OR OLD.currency IS DISTINCT FROM NEW.currency OR OLD.amount_minor IS DISTINCT FROM NEW.amount_minor)
  EXECUTE FUNCTION donor_giving_trigger();

-- For bulk loaders that pause the row triggers: every donor of the organization recounted at once.
CREATE FUNCTION donor_giving_rebuild(org text) RETURNS void LANGUAGE sql AS $$
  DELETE FROM donor_giving WHERE organization_id = org;
  INSERT INTO donor_giving (organization_id, donor_id, first_gift, last_gift, gift_count, recurring_count, last_recurring, lifetime)
  SELECT org, donor_id, min(first_gift), max(last_gift), sum(n), sum(rn), max(last_recurring), jsonb_object_agg(currency, total)
    FROM (SELECT donor_id, currency, min(date) AS first_gift, max(date) AS last_gift, count(*) AS n,
                 count(*) FILTER (WHERE type = 'recurring') AS rn, max(date) FILTER (WHERE type = 'recurring') AS last_recurring,
                 sum(amount_minor) AS total
            FROM donations WHERE organization_id = org AND deleted_at IS NULL GROUP BY donor_id, currency) c
   GROUP BY donor_id;
$$;
SELECT donor_giving_rebuild(id) FROM organizations;

-- The donations module's read view of it, for the fundraising module's donors list.
CREATE VIEW donor_giving_ledger AS
SELECT organization_id, donor_id, first_gift, last_gift, gift_count, recurring_count, last_recurring, lifetime FROM donor_giving;

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
    PERFORM create_distributed_table('donor_giving', 'organization_id', colocate_with => 'roles');
  END IF;
END $$;
