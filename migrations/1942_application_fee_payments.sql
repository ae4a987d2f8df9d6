-- The adoption fee recorded as paid before an application is finalized (POST
-- /api/animals/adoption-applications/{id}/fee-payments): each row names a ledger entry (a donation with source
-- adoption_fee) paid towards the application. Finalizing links each one to the adoption of its animal
-- (adoption_donations), so the adoption answers it as paid.
CREATE TABLE application_fee_payments (
  organization_id text NOT NULL REFERENCES organizations(id),
  application_id text NOT NULL,
  donation_id text NOT NULL,
  animal_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, donation_id),
  FOREIGN KEY (organization_id, application_id) REFERENCES adoption_applications (organization_id, id)
);
CREATE INDEX application_fee_payments_by_application ON application_fee_payments (organization_id, application_id);
