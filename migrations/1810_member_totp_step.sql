-- The last time step (30-second period since the epoch) whose two-factor code a member used, at sign-in or when
-- confirming the set-up: a code is accepted once, for a step after this one.
ALTER TABLE members ADD COLUMN totp_last_step bigint;
