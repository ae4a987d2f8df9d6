-- Read views that a module exports for other modules' lists. A module writes only its own tables; where
-- another module's list must join them in SQL for speed (a foster list with the foster's name, a donor
-- list sorted by last name), it joins these views, never the raw table. Each view is a plain projection
-- (the planner inlines it, so the owner's indexes still serve the join). Changing a column here is a
-- change of the owning module's public interface.

-- people module: who a person is, for other modules' lists. display_name is the module's display rule:
-- first name, a space, last name, trimmed. deleted_at is kept so a list can show a deleted person's name.
CREATE VIEW people_directory AS
SELECT organization_id, id, first_name, last_name, trim(first_name || ' ' || last_name) AS display_name,
       email, phone, roles, created_at, deleted_at
  FROM people;

-- animals module: an animal with its status's name and care state, for other modules' lists.
CREATE VIEW animal_directory AS
SELECT a.organization_id, a.id, a.name, a.species, a.location_id, a.status_id, s.name AS status, s.care_state,
       a.created_at, a.deleted_at
  FROM animals a JOIN animal_statuses s ON s.organization_id = a.organization_id AND s.id = a.status_id;

-- donations module: the gift ledger, for other modules' totals (campaign progress, donor giving, auction
-- proceeds). deleted_at is kept: a total counts only rows where it is null.
CREATE VIEW donation_ledger AS
SELECT organization_id, id, donor_id, amount_minor, currency, type, campaign_id, animal_id, payment_method, source, source_id,
       date, created_at, deleted_at
  FROM donations;
