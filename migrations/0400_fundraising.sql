-- Fundraising (issue 5): campaigns, wish list, auctions (lots, bidders, append-only bids).
-- Money is integer minor units of the row's currency, never floats.

CREATE TABLE fundraising_campaigns (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  name        text NOT NULL,
  description text,
  currency    text NOT NULL,
  goal_minor  bigint CHECK (goal_minor IS NULL OR goal_minor > 0),
  starts_on   date,
  ends_on     date,
  status      text NOT NULL DEFAULT 'active' CHECK (status IN ('active','closed')),
  closed_at   timestamptz,
  custom_fields jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  CHECK (ends_on IS NULL OR starts_on IS NULL OR ends_on >= starts_on)
);
CREATE INDEX fundraising_campaigns_list ON fundraising_campaigns (organization_id, created_at DESC, id DESC);

CREATE TABLE fundraising_wish_items (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  name        text NOT NULL,
  description text,
  quantity_wanted   integer NOT NULL CHECK (quantity_wanted > 0),
  quantity_received integer NOT NULL DEFAULT 0 CHECK (quantity_received >= 0),
  priority    text NOT NULL DEFAULT 'medium' CHECK (priority IN ('high','medium','low')),
  url         text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
CREATE INDEX fundraising_wish_items_list ON fundraising_wish_items (organization_id, priority, name, id);

CREATE TABLE auctions (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  campaign_id text NOT NULL,
  name        text NOT NULL,
  description text,
  currency    text NOT NULL,
  status      text NOT NULL DEFAULT 'open' CHECK (status IN ('open','closed')),
  -- Next paddle number; taken under the auction row's lock so numbers never skip or repeat.
  next_paddle integer NOT NULL DEFAULT 1,
  next_lot    integer NOT NULL DEFAULT 1,
  closed_at   timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, campaign_id) REFERENCES fundraising_campaigns(organization_id, id)
);
CREATE INDEX auctions_campaign ON auctions (organization_id, campaign_id);
CREATE INDEX auctions_list ON auctions (organization_id, created_at DESC, id DESC);

CREATE TABLE auction_bidders (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  auction_id  text NOT NULL,
  person_id   text NOT NULL,
  paddle_number integer NOT NULL CHECK (paddle_number > 0),
  registered_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, auction_id) REFERENCES auctions(organization_id, id),
  FOREIGN KEY (organization_id, person_id) REFERENCES people(organization_id, id),
  UNIQUE (organization_id, auction_id, paddle_number),
  UNIQUE (organization_id, auction_id, person_id)
);

CREATE TABLE auction_lots (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  auction_id  text NOT NULL,
  lot_number  integer NOT NULL,
  title       text NOT NULL,
  description text,
  opening_bid_minor bigint NOT NULL CHECK (opening_bid_minor > 0),
  increment_minor   bigint NOT NULL CHECK (increment_minor > 0),
  fair_market_value_minor bigint CHECK (fair_market_value_minor IS NULL OR fair_market_value_minor >= 0),
  reserve_minor bigint CHECK (reserve_minor IS NULL OR reserve_minor > 0),
  donated_by  text,
  status      text NOT NULL DEFAULT 'open' CHECK (status IN ('open','withdrawn','sold','unsold')),
  -- Derived from the bids, kept on the lot row (changed only under its lock) for fast checks.
  high_bid_minor bigint,
  high_bidder_id text,
  bid_count   integer NOT NULL DEFAULT 0,
  donation_id text,
  custom_fields jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, auction_id) REFERENCES auctions(organization_id, id),
  UNIQUE (organization_id, auction_id, lot_number)
);
CREATE INDEX auction_lots_high_bidder ON auction_lots (organization_id, high_bidder_id);

CREATE TABLE auction_bids (
  organization_id text NOT NULL REFERENCES organizations(id),
  id          text NOT NULL,
  auction_id  text NOT NULL,
  lot_id      text NOT NULL,
  bidder_id   text NOT NULL,
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  sequence    integer NOT NULL,
  placed_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, lot_id) REFERENCES auction_lots(organization_id, id),
  FOREIGN KEY (organization_id, bidder_id) REFERENCES auction_bidders(organization_id, id),
  UNIQUE (organization_id, lot_id, sequence)
);
CREATE INDEX auction_bids_bidder ON auction_bids (organization_id, auction_id, bidder_id);

-- Bids are append-only: the record of an auction night is never rewritten.
CREATE FUNCTION auction_bids_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'auction bids are append-only';
END $$;
CREATE TRIGGER auction_bids_no_change BEFORE UPDATE OR DELETE ON auction_bids
  FOR EACH ROW EXECUTE FUNCTION auction_bids_append_only();

-- One ledger donation per settled lot, whatever happens (a second close, a retry).
CREATE UNIQUE INDEX donations_auction_lot ON donations (organization_id, source_id) WHERE source = 'auction';
