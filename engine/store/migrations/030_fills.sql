-- Fills, AMM baselines and the league's rollups. Amounts are uint256: numeric(78,0).
-- improvement_bps is exact to 2 decimals (numeric), computed at fill time from the stored baseline.

create table baselines (
  rfq_id text primary key,
  id text not null unique default gen_random_uuid()::text,
  token_in text not null,
  token_out text not null,
  amount_in numeric(78,0) not null,
  baseline_amount_out numeric(78,0) not null check (baseline_amount_out > 0),
  baseline_effective_price double precision not null,
  baseline_price_impact_bps double precision not null,
  baseline_block_number text not null,
  baseline_timestamp timestamptz not null,
  baseline_route_summary jsonb not null default '[]',
  -- 'client' (POST /api/v1/rfq/baseline) or 'sor' (our route finder at RFQ creation)
  source text not null check (source in ('client', 'sor')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table fills (
  id text primary key default gen_random_uuid()::text,
  -- one fill per transaction: the constraint is the arbiter under concurrent posts
  tx_hash text not null unique,
  rfq_id text,
  taker text not null,
  maker text not null,
  token_in text not null,
  token_out text not null,
  amount_in numeric(78,0) not null,
  amount_out numeric(78,0) not null,
  amount_in_usd double precision not null,
  is_private boolean not null,
  benchmark_available boolean not null,
  improvement_bps numeric not null,
  baseline_source text,
  taker_points double precision not null,
  maker_points double precision not null,
  points_version text not null,
  filled_at timestamptz not null default now()
);
-- performance-summary scans a time window (optionally one pair) index-only
create index fills_filled_at on fills (filled_at) include (benchmark_available, improvement_bps, amount_in_usd);
create index fills_pair_filled_at on fills (token_in, token_out, filled_at) include (benchmark_available, improvement_bps, amount_in_usd);
create index fills_maker_time on fills (maker, filled_at desc);
create index fills_taker_time on fills (taker, filled_at desc);
create index fills_rfq on fills (rfq_id, filled_at desc) where rfq_id is not null;

-- League rollups, maintained in the fill's own transaction: one row per (address, role, UTC day)
-- and one all-time row per (address, role). judged/failed are makers' reliability evidence (below).
create table league_daily (
  address text not null,
  role text not null check (role in ('maker', 'taker')),
  day date not null,
  fills integer not null,
  notional_usd double precision not null,
  benchmarked_fills integer not null,
  improvement_sum numeric not null,
  private_fills integer not null,
  points double precision not null,
  judged integer not null default 0,
  failed integer not null default 0,
  primary key (role, day, address)
);

create table league_totals (
  address text not null,
  role text not null check (role in ('maker', 'taker')),
  fills integer not null,
  notional_usd double precision not null,
  benchmarked_fills integer not null,
  improvement_sum numeric not null,
  private_fills integer not null,
  points double precision not null,
  judged integer not null default 0,
  failed integer not null default 0,
  primary key (role, address)
);

-- A period's figures are totals minus everything before its first day. That "before" part changes
-- only when the first day moves (once a day), so it is computed once per (period, first day) on
-- first use and a league query is one join of two per-address tables, whatever the fill count.
create table league_base_meta (
  period text primary key,
  base_day date not null
);
create table league_base (
  period text not null,
  address text not null,
  role text not null,
  fills integer not null,
  notional_usd double precision not null,
  benchmarked_fills integer not null,
  improvement_sum numeric not null,
  private_fills integer not null,
  points double precision not null,
  judged integer not null,
  failed integer not null,
  primary key (period, role, address)
);

-- Makers' reliability evidence. When an RFQ reaches a final state, the maker of its best quote
-- (highest amountOut for EXACT_IN, lowest amountIn for EXACT_OUT; earliest on ties) is judged:
-- the RFQ EXPIRED unfilled -> that maker failed to honour a winning quote. A taker's own
-- cancellation is the taker's choice and judges no one. cancelRate = failed / judged.
create function judge_best_quote() returns trigger language plpgsql as $$
declare best text; bad integer; d date := (now() at time zone 'utc')::date;
begin
  select q.maker into best from quotes q where q.rfq_id = new.id
   order by case when new.kind = 0 then q.amount_out end desc nulls last,
            case when new.kind = 1 then q.amount_in end asc nulls last,
            q.received_at, q.id
   limit 1;
  if best is null then return null; end if;
  bad := case when new.status = 'EXPIRED' then 1 else 0 end;
  insert into league_daily (address, role, day, fills, notional_usd, benchmarked_fills, improvement_sum, private_fills, points, judged, failed)
  values (best, 'maker', d, 0, 0, 0, 0, 0, 0, 1, bad)
  on conflict (role, day, address) do update set judged = league_daily.judged + 1, failed = league_daily.failed + excluded.failed;
  insert into league_totals (address, role, fills, notional_usd, benchmarked_fills, improvement_sum, private_fills, points, judged, failed)
  values (best, 'maker', 0, 0, 0, 0, 0, 0, 1, bad)
  on conflict (role, address) do update set judged = league_totals.judged + 1, failed = league_totals.failed + excluded.failed;
  return null;
end $$;

create trigger rfqs_judge_best_quote after update of status on rfqs
  for each row when (new.status in ('FILLED', 'EXPIRED') and old.status is distinct from new.status
                     and old.status not in ('FILLED', 'EXPIRED', 'CANCELLED'))
  execute function judge_best_quote();
