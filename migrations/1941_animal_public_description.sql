-- An animal's public description: the words the public website shows on its page (and a cage card prints), a field of
-- its own, edited on the animal page (PATCH /api/animals/{id}/details). Organizations that kept it in a custom field
-- named `public_description` find its text moved here.
ALTER TABLE animals ADD COLUMN public_description text CHECK (char_length(public_description) <= 5000);
UPDATE animals SET public_description = left(custom_fields->>'public_description', 5000)
 WHERE jsonb_typeof(custom_fields->'public_description') = 'string' AND btrim(custom_fields->>'public_description') <> '';
