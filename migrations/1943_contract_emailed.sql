-- When a contract's signing link was emailed, and the message that carried it (the message log has its delivery). A
-- contract made without sending email (none set up, or send_email false) has neither: its link was handed over.
-- `sent_to` is now written only when the link is emailed; earlier contracts keep the applicant's address they were
-- made with (signed ones cannot change).
ALTER TABLE signed_contracts ADD COLUMN emailed_at timestamptz, ADD COLUMN email_message_id text;
