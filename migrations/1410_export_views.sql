-- Read views for the bulk exports (GET /api/exports/medical and /api/exports/stays): plain projections of the medical
-- and stays modules' records with the animal's name, carrying the animal's deleted_at so an export leaves out the
-- records of an animal entered by mistake. Changing a column here changes those modules' interface.

-- medical module: every medical record given.
CREATE VIEW medical_record_export AS
SELECT r.organization_id, r.id, r.animal_id, a.name AS animal_name, a.species, r.kind, r.name, r.product, r.manufacturer,
       r.lot, r.expires_on, r.dose, r.route, r.given_by, r.given_at, r.next_due_on, r.result, r.rabies_tag, r.created_at,
       a.deleted_at
  FROM medical_records r
  JOIN animals a ON a.organization_id = r.organization_id AND a.id = r.animal_id;

-- stays module: every stay (intake, and outcome when it ended).
CREATE VIEW stay_export AS
SELECT s.organization_id, s.id, s.animal_id, a.name AS animal_name, a.species, s.intake_at, s.intake_type, s.condition,
       s.age_weeks, s.age_estimated, s.adoption_return, s.source_organization, s.outcome_at, s.outcome_type,
       s.destination_organization, s.outcome_reason, s.created_at, a.deleted_at
  FROM animal_stays s
  JOIN animals a ON a.organization_id = s.organization_id AND a.id = s.animal_id;
