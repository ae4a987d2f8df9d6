-- Which records of an adopted animal the organization shares with its adopter in the portal (all three until changed).
ALTER TABLE portal_settings
  ADD COLUMN share_vaccinations boolean NOT NULL DEFAULT true,
  ADD COLUMN share_microchip    boolean NOT NULL DEFAULT true,
  ADD COLUMN share_spay_neuter  boolean NOT NULL DEFAULT true;
