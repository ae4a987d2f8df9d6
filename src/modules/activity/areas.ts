/**
 * The area each kind of audited record belongs to, as SQL over `entity_type` (one place, so filtering and narrowing
 * run in the database). A kind no rule names belongs to Settings.
 */
export const AREA_OF_ENTITY_SQL = `CASE
  WHEN entity_type = 'person' OR entity_type LIKE 'person\\_%' THEN 'people'
  WHEN entity_type LIKE 'partner%' THEN 'partners'
  WHEN entity_type = 'animal' OR entity_type LIKE 'animal\\_%' OR entity_type LIKE 'care\\_%' OR entity_type LIKE 'medical\\_%'
    OR entity_type LIKE 'foster\\_%' OR entity_type LIKE 'transport\\_%' OR entity_type LIKE 'stay\\_%' OR entity_type LIKE 'adoption%'
    OR entity_type IN ('housing_unit', 'location') THEN 'animals'
  WHEN entity_type IN ('donation', 'campaign', 'wish_item') OR entity_type LIKE 'auction%'
    OR entity_type LIKE 'fundraising\\_%' THEN 'fundraising'
  WHEN entity_type IN ('message', 'inbox', 'conversation', 'suppression', 'sender_settings') OR entity_type LIKE 'message\\_%'
    OR entity_type LIKE 'comm\\_%' THEN 'communications'
  WHEN entity_type LIKE 'shift\\_%' OR entity_type LIKE 'volunteer\\_%' THEN 'shifts'
  WHEN entity_type = 'event' OR entity_type LIKE 'event\\_%' THEN 'events'
  WHEN entity_type = 'form' OR entity_type LIKE 'form\\_%' THEN 'forms'
  WHEN entity_type = 'task' OR entity_type LIKE 'task\\_%' OR entity_type = 'calendar_feed' THEN 'tasks'
  WHEN entity_type LIKE 'registry\\_%' THEN 'registry'
  ELSE 'settings' END`;
