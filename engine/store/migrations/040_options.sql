-- Options market data: instruments, venue trades, ticker snapshots, spot/index references, and
-- the ingestion's own state. Written by the ingestion process (engine/ingest), read by the
-- terminal (engine/options). Prices are float8: they are display figures from the venue, not money
-- we move. `source` says where a row came from: 'deribit' (live), 'replay', 'synthetic'.

create table option_instruments (
  id serial primary key,
  venue text not null check (venue in ('VENUE_A', 'VENUE_B')),
  -- <UNDERLYING>-<YYYYMMDD>-<strike>-<C|P>
  name text not null,
  -- the venue's own spelling, e.g. BTC-27DEC24-60000-C
  venue_name text not null,
  underlying text not null,
  expiry_day date not null,
  expiry_ts timestamptz not null,
  strike double precision not null,
  is_call boolean not null,
  source text not null,
  unique (venue, venue_name),
  unique (venue, name)
);
create index option_instruments_chain on option_instruments (underlying, expiry_day, strike, is_call);

create table option_trades (
  id bigserial primary key,
  venue text not null check (venue in ('VENUE_A', 'VENUE_B')),
  trade_ref text not null,
  instrument_id int not null references option_instruments (id),
  -- denormalised from the instrument: the tape reads one table
  instrument text not null,
  underlying text not null,
  is_call boolean not null,
  strike double precision not null,
  expiry_ts timestamptz not null,
  price double precision not null,
  amount double precision not null,
  premium_usd double precision,
  iv double precision,
  spot_ref double precision,
  mark_price double precision,
  side text not null check (side in ('buy', 'sell')),
  counterparty text,
  liquidity_guess text not null check (liquidity_guess in ('RFQ', 'LIKELY_RFQ', 'LIKELY_CLOB', 'UNKNOWN')),
  -- the tape's liquidityGuess filter classes: 1 rfq (RFQ, LIKELY_RFQ), 2 clob, 3 unknown
  liq_class smallint not null generated always as (
    case liquidity_guess when 'RFQ' then 1 when 'LIKELY_RFQ' then 1 when 'LIKELY_CLOB' then 2 else 3 end) stored,
  block_trade_id text,
  block_rfq_id text,
  source text not null,
  ts timestamptz not null,
  ingested_at timestamptz not null default now(),
  -- re-ingesting the same trade is a no-op
  unique (venue, trade_ref)
);
-- one index per tape filter shape, each ending in the sort key, so a page is an index walk
create index option_trades_ts on option_trades (ts desc, id desc);
create index option_trades_u_ts on option_trades (underlying, ts desc, id desc);
create index option_trades_u_liq_ts on option_trades (underlying, liq_class, ts desc, id desc);
create index option_trades_liq_ts on option_trades (liq_class, ts desc, id desc);
create index option_trades_v_ts on option_trades (venue, ts desc, id desc);
create index option_trades_v_u_liq_ts on option_trades (venue, underlying, liq_class, ts desc, id desc);
-- ladder last trade, strike detail, 24 h counts per expiry
create index option_trades_instrument_ts on option_trades (instrument_id, ts desc);

-- Exact totals for the tape's `count` without counting a million rows per request: kept by
-- statement-level triggers over the inserted/deleted rows, summed over the matching cells.
create table option_trade_counts (
  venue text not null,
  underlying text not null,
  liq_class smallint not null,
  n bigint not null,
  primary key (venue, underlying, liq_class)
);

create function option_trade_counts_add() returns trigger language plpgsql as $$
begin
  insert into option_trade_counts (venue, underlying, liq_class, n)
  select venue, underlying, liq_class, count(*) from inserted group by 1, 2, 3
  on conflict (venue, underlying, liq_class) do update set n = option_trade_counts.n + excluded.n;
  return null;
end $$;

create function option_trade_counts_remove() returns trigger language plpgsql as $$
begin
  update option_trade_counts c set n = c.n - d.k
  from (select venue, underlying, liq_class, count(*) as k from deleted group by 1, 2, 3) d
  where c.venue = d.venue and c.underlying = d.underlying and c.liq_class = d.liq_class;
  return null;
end $$;

create trigger option_trades_count_ins after insert on option_trades
  referencing new table as inserted for each statement execute function option_trade_counts_add();
create trigger option_trades_count_del after delete on option_trades
  referencing old table as deleted for each statement execute function option_trade_counts_remove();

-- Ticker snapshots (public/ticker: every field) and book-summary snapshots
-- (public/get_book_summary_by_currency: no sizes, no delta; those stay null).
create table option_snapshots (
  id bigserial primary key,
  instrument_id int not null references option_instruments (id),
  kind text not null check (kind in ('ticker', 'summary')),
  bid double precision,
  bid_size double precision,
  ask double precision,
  ask_size double precision,
  mark double precision,
  index_price double precision,
  iv double precision,
  delta double precision,
  open_interest double precision,
  volume_24h double precision,
  taken_at timestamptz not null,
  source text not null,
  unique (instrument_id, kind, taken_at)
);
create index option_snapshots_latest on option_snapshots (instrument_id, taken_at desc);

-- Index (spot) prices of an underlying as the venue reported them, from trades and tickers.
create table option_spot_refs (
  underlying text not null,
  taken_at timestamptz not null,
  index_price double precision not null,
  source text not null,
  primary key (underlying, taken_at)
);

-- One row per ingestion stream (source, currency): the trade-id cursor that makes paging
-- resume without gaps or doubles, and the freshness facts logs and metrics report.
create table ingest_state (
  source text not null,
  currency text not null,
  cursor text,
  last_success_at timestamptz,
  last_trade_ts timestamptz,
  last_error text,
  last_error_at timestamptz,
  errors_total bigint not null default 0,
  trades_total bigint not null default 0,
  primary key (source, currency)
);
