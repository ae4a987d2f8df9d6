-- A fee payment's organization is proved by its application (the composite key to adoption_applications); a second
-- key to organizations would only make every payment lock the organization row that all of its writes share.
ALTER TABLE application_fee_payments DROP CONSTRAINT application_fee_payments_organization_id_fkey;
