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
-- and one all-time row per (address, role). A league query reads addresses x days, never fills.
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
  primary key (role, day, address)
);
create index league_daily_address on league_daily (address, role, day);

create table league_totals (
  address text not null,
  role text not null check (role in ('maker', 'taker')),
  fills integer not null,
  notional_usd double precision not null,
  benchmarked_fills integer not null,
  improvement_sum numeric not null,
  private_fills integer not null,
  points double precision not null,
  primary key (role, address)
);

-- Makers' reliability evidence. When an RFQ reaches a final state, the maker of its best quote
-- (highest amountOut for EXACT_IN, lowest amountIn for EXACT_OUT; earliest on ties) is judged:
-- the RFQ EXPIRED unfilled -> that maker failed to honour a winning quote. A taker's own
-- cancellation is the taker's choice and judges no one. cancelRate = failed / judged.
create table maker_quality_daily (
  maker text not null,
  day date not null,
  judged integer not null,
  failed integer not null,
  primary key (day, maker)
);

create function judge_best_quote() returns trigger language plpgsql as $$
declare best text;
begin
  select q.maker into best from quotes q where q.rfq_id = new.id
   order by case when new.kind = 0 then q.amount_out end desc nulls last,
            case when new.kind = 1 then q.amount_in end asc nulls last,
            q.received_at, q.id
   limit 1;
  if best is not null then
    insert into maker_quality_daily (maker, day, judged, failed)
    values (best, (now() at time zone 'utc')::date, 1, case when new.status = 'EXPIRED' then 1 else 0 end)
    on conflict (day, maker) do update
      set judged = maker_quality_daily.judged + 1, failed = maker_quality_daily.failed + excluded.failed;
  end if;
  return null;
end $$;

create trigger rfqs_judge_best_quote after update of status on rfqs
  for each row when (new.status in ('FILLED', 'EXPIRED') and old.status is distinct from new.status
                     and old.status not in ('FILLED', 'EXPIRED', 'CANCELLED'))
  execute function judge_best_quote();
