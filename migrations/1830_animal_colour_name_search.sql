-- An animal's colour (Family B only: the Family A shape is the spec's), and the name search of the staff list.
ALTER TABLE animals ADD COLUMN colour text;

-- The name search box: part of the working or public name, case and accents folded (ark_fold, 0020), read
-- through a trigram index, so `q` reads only the rows that match at any size.
CREATE INDEX animals_name_search ON animals USING gin (ark_fold(name || ' ' || public_name) gin_trgm_ops) WHERE deleted_at IS NULL;
