-- An animal's colour (Family B only: the Family A shape is the spec's), and the name search of the staff list.
ALTER TABLE animals ADD COLUMN colour text;

-- The name search box: part of the working or public name, case and accents folded (ark_fold, 0020), kept as a
-- stored column (a trigram index's recheck then compares stored text instead of folding every candidate again) under
-- a trigram index, so `q` reads only the rows that match at any size.
ALTER TABLE animals ADD COLUMN name_search text GENERATED ALWAYS AS (ark_fold(name || ' ' || public_name)) STORED;
CREATE INDEX animals_name_search ON animals USING gin (name_search gin_trgm_ops) WHERE deleted_at IS NULL;
