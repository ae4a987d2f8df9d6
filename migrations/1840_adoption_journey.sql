-- The adoption journey: a public form submission names the animals it applies for, and the application it became names
-- the submission it came from (its answers stay on the submission).
ALTER TABLE form_submissions ADD COLUMN animal_ids text[] NOT NULL DEFAULT '{}';
ALTER TABLE adoption_applications ADD COLUMN submission_id text;
CREATE INDEX adoption_applications_submission ON adoption_applications (organization_id, submission_id) WHERE submission_id IS NOT NULL;
