-- Sign-in attempts are slowed down per (email typed, client address) instead of locking the account for everyone:
-- each attempt row names the email it was for (lower case), whether or not a member has it.
ALTER TABLE member_sign_in_failures ADD COLUMN email_key text;
CREATE INDEX member_sign_in_failures_pair ON member_sign_in_failures (organization_id, email_key, address, at);
