-- Moving to Ark: a move also keeps the source ids of the photos it downloads (or reads from the source's database) and
-- of the adoption records it makes for the source's adoptions, so a second run neither fetches a photo again nor
-- makes an adoption twice.
ALTER TABLE external_ids DROP CONSTRAINT external_ids_kind_check;
ALTER TABLE external_ids ADD CONSTRAINT external_ids_kind_check
  CHECK (kind IN ('animal', 'person', 'stay', 'medical', 'weight', 'note', 'foster', 'donation', 'photo', 'adoption'));
