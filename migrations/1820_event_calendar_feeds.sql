-- Secret iCalendar addresses of the events calendar, one per API key (a signed-in member's session key too): the feed
-- shows what that key may read when it is fetched, and stops when the key is revoked or the address rotated.
CREATE TABLE event_calendar_feeds (
  organization_id text NOT NULL REFERENCES organizations(id),
  key_id      text NOT NULL,
  token       text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, key_id)
);
CREATE UNIQUE INDEX event_calendar_feeds_token ON event_calendar_feeds (organization_id, token);

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
    PERFORM create_distributed_table('event_calendar_feeds', 'organization_id', colocate_with => 'roles');
  END IF;
END $$;
