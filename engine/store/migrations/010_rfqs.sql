-- RFQs and their accepted quotes. Amounts are uint256: numeric(78,0). `seq` gives a stable,
-- strictly increasing order for cursor paging (newest first) that created_at alone cannot.
create table rfqs (
  id text primary key,
  seq bigserial not null unique,
  taker text not null,
  token_in text not null,
  token_out text not null,
  kind smallint not null check (kind in (0, 1)),
  amount_in numeric(78,0),
  amount_out numeric(78,0),
  expiry bigint not null,
  visibility text not null check (visibility in ('public', 'private')),
  allowed_makers text[] not null default '{}',
  share_token_hash text,
  agent_id text,
  status text not null default 'OPEN' check (status in ('OPEN', 'QUOTED', 'FILLED', 'CANCELLED', 'EXPIRED')),
  quote_count integer not null default 0,
  fill_tx_hash text,
  cancelled_at timestamptz,
  filled_at timestamptz,
  created_at timestamptz not null default now()
);
create index rfqs_seq_desc on rfqs (seq desc);
create index rfqs_open_seq on rfqs (seq desc) where status in ('OPEN', 'QUOTED');
create index rfqs_taker_open on rfqs (taker) where status in ('OPEN', 'QUOTED');

create table quotes (
  id bigserial primary key,
  rfq_id text not null references rfqs (id),
  maker text not null,
  taker text not null,
  token_in text not null,
  token_out text not null,
  amount_in numeric(78,0) not null,
  amount_out numeric(78,0) not null,
  expiry bigint not null,
  nonce numeric(78,0) not null,
  deadline bigint not null,
  signature text not null,
  received_at timestamptz not null,
  unique (rfq_id, maker)
);
