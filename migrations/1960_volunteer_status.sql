-- A volunteer's approval: 'applied' for a person who came through a volunteer application form and waits for staff,
-- 'approved' once staff approve them. NULL: no approval step recorded (a volunteer staff gave the role to directly,
-- counted as approved). Only meaningful while the person holds the volunteer role.
ALTER TABLE people ADD COLUMN volunteer_status text CHECK (volunteer_status IN ('applied', 'approved'));
