-- The public animals' index carries what the public site's lists filter and choose by (species, location, sex, date
-- of birth), so the adoptable list, its total and its filter choices are index-only scans over the public animals
-- instead of a scan of every animal of the organization (issue 11). The weight stays out: it changes on most edits,
-- and an included column that changes makes the update write index entries (no HOT update); a size filter reads the
-- rows. The Family A list with isPublic still reads its ids from it.
DROP INDEX animals_public;
CREATE INDEX animals_public ON animals (organization_id, created_at DESC, id DESC)
  INCLUDE (species_key, species, location_id, sex, date_of_birth) WHERE deleted_at IS NULL AND is_public;
