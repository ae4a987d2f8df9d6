-- (Numbered after 1200_people_depth, which last set the list of entity types.)
-- Custom field definitions for volunteer shift schedules and fundraising campaigns (volunteers and donors are
-- people: entity type person).
ALTER TABLE custom_field_definitions DROP CONSTRAINT custom_field_definitions_entity_type_check;
ALTER TABLE custom_field_definitions ADD CONSTRAINT custom_field_definitions_entity_type_check
  CHECK (entity_type IN ('animal','location_unit','adoption_application','person','shift_schedule','campaign'));
