-- Spayed/neutered: whether the animal is altered and since when (null date: altered, date unknown).
ALTER TABLE animals ADD COLUMN altered boolean NOT NULL DEFAULT false;
ALTER TABLE animals ADD COLUMN altered_on date;
