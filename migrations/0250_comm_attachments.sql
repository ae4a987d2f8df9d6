-- Files attached to an outbound message (a scheduled report's file): sent with it by the outbound worker.
CREATE TABLE comm_attachments (
  organization_id text NOT NULL REFERENCES organizations(id),
  message_id   text NOT NULL,
  position     integer NOT NULL,
  filename     text NOT NULL,
  content_type text NOT NULL,
  content      bytea NOT NULL,
  PRIMARY KEY (organization_id, message_id, position),
  FOREIGN KEY (organization_id, message_id) REFERENCES comm_messages(organization_id, id)
);
