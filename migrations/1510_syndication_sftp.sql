-- Syndication targets can be SFTP servers as well as FTP/FTPS ones.
ALTER TABLE syndication_targets ADD COLUMN protocol text NOT NULL DEFAULT 'ftp' CHECK (protocol IN ('ftp', 'sftp'));
ALTER TABLE syndication_targets ADD CONSTRAINT syndication_targets_secure_ftp CHECK (protocol = 'ftp' OR NOT secure);
