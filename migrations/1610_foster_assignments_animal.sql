-- Foster assignments listed by animal (GET /api/animals/foster-assignments?animal_id=): every assignment, not only live ones.
CREATE INDEX foster_assignments_animal ON foster_assignments (organization_id, animal_id, requested_on DESC);
