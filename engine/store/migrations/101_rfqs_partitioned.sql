-- RFQs are partitioned by their creation day (UTC), like their quotes (migration 100): an old day leaves as a whole
-- partition (archived, detached, dropped: retention.ts) instead of a long delete under the relay's writes. The day
-- is a column of its own, `created_day`, because PostgreSQL takes no generated column as a partition key; a check
-- holds it to created_at's UTC day, and the id carries the same instant (workers/values/rfqId.ts), so every
-- lookup by id names its one partition (the store passes the day derived from the id; a legacy id, which carries
-- no time, probes every partition).
--
-- The primary key is (id, created_day): a unique constraint on a partitioned table must hold its partition key.
-- `id` alone stays unique all the same: a new id carries its own creation instant plus 128 random bits, and a
-- legacy id was unique in the one table it came from. `seq` keeps its sequence and so stays the strictly increasing
-- cursor of the lists (docs/rfq-api.md), but it can no longer be declared unique (it holds no partition key): its
-- uniqueness is the sequence's, and nothing but the sequence writes it.
--
-- Quotes no longer hold a foreign key to their RFQ. PostgreSQL allows (rfq_id, rfq_day) -> rfqs (id, created_day),
-- but with it every detach of a quote partition splits the constraint off and the drop removes its triggers from
-- every RFQ partition: both lock `rfqs`, which the relay writes at every create and every quote commit. Retention
-- then waited on the relay, and deadlocked with the quote writer (it locks RFQ rows, then inserts quotes) in
-- engine/store's retention test; and the detach of an RFQ partition scanned quotes for rows still referring to it.
-- The reference is kept by the writer instead: a quote is inserted only joined to its RFQ's row, locked FOR
-- UPDATE in the same statement (quotes.ts), so no quote is stored without its RFQ; and retention drops a day's
-- quotes no later than that day's RFQs (RFQS_RETENTION_DAYS >= QUOTES_RETENTION_DAYS).
--
-- Upgrade in place: the unpartitioned table's rows (and its sequence's place) move into the partitions of their
-- days; every index the earlier migrations made is made again, partial ones included, as a partitioned index.
do $$
declare fk name;
begin -- migration 100's `references rfqs (id)`, whatever name PostgreSQL gave it
  for fk in select conname from pg_constraint where conrelid = 'quotes'::regclass and contype = 'f' and conparentid = 0 loop
    execute format('alter table quotes drop constraint %I', fk);
  end loop;
end $$;
alter table rfqs rename to rfqs_unpartitioned;
alter table rfqs_unpartitioned rename constraint rfqs_pkey to rfqs_unpartitioned_pkey;
alter table rfqs_unpartitioned rename constraint rfqs_seq_key to rfqs_unpartitioned_seq_key;
alter index rfqs_seq_desc rename to rfqs_unpartitioned_seq_desc;
alter index rfqs_open_seq rename to rfqs_unpartitioned_open_seq;
alter index rfqs_taker_open rename to rfqs_unpartitioned_taker_open;
alter index rfqs_live_share_hash rename to rfqs_unpartitioned_live_share_hash;
alter index rfqs_agent_open rename to rfqs_unpartitioned_agent_open;
alter index rfqs_open_expiry rename to rfqs_unpartitioned_open_expiry;
alter sequence rfqs_seq_seq owned by none;

create table rfqs (
  id text not null,
  seq bigint not null default nextval('rfqs_seq_seq'),
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
  created_at timestamptz not null default now(),
  ended_at timestamptz,
  ended_by text check (ended_by in ('taker', 'expiry', 'engine')),
  -- (a write that names neither, a tool's or a test's, takes both at now(): the same instant)
  created_day date not null default (now() at time zone 'utc')::date,
  primary key (id, created_day),
  constraint rfqs_created_day check (created_day = (created_at at time zone 'utc')::date)
) partition by range (created_day);
alter sequence rfqs_seq_seq owned by rfqs.seq;

-- an RFQ whose day has no partition yet (the engine makes them days ahead: partitions.ts) is kept here, never refused
create table rfqs_default partition of rfqs default;

do $$
declare d date;
begin
  for d in
    select distinct (created_at at time zone 'utc')::date from rfqs_unpartitioned
    union select (now() at time zone 'utc')::date + i from generate_series(0, 2) i
  loop
    execute format('create table %I partition of rfqs for values from (%L) to (%L)', 'rfqs_p' || to_char(d, 'YYYYMMDD'), d, d + 1);
  end loop;
end $$;

insert into rfqs (id, seq, taker, token_in, token_out, kind, amount_in, amount_out, expiry, visibility, allowed_makers,
                  share_token_hash, agent_id, status, quote_count, fill_tx_hash, cancelled_at, filled_at, created_at,
                  ended_at, ended_by, created_day)
select id, seq, taker, token_in, token_out, kind, amount_in, amount_out, expiry, visibility, allowed_makers,
       share_token_hash, agent_id, status, quote_count, fill_tx_hash, cancelled_at, filled_at, created_at,
       ended_at, ended_by, (created_at at time zone 'utc')::date
from rfqs_unpartitioned;

drop table rfqs_unpartitioned; -- its triggers go with it: made again below

-- the indexes of migrations 010, 094, 095 and 097, now on every partition
create index rfqs_seq_desc on rfqs (seq desc);
create index rfqs_open_seq on rfqs (seq desc) where status in ('OPEN', 'QUOTED');
create index rfqs_taker_open on rfqs (taker) where status in ('OPEN', 'QUOTED');
create index rfqs_live_share_hash on rfqs (share_token_hash) where status in ('OPEN', 'QUOTED') and share_token_hash is not null;
create index rfqs_agent_open on rfqs (agent_id) where status in ('OPEN', 'QUOTED') and agent_id is not null;
create index rfqs_open_expiry on rfqs (expiry) where status in ('OPEN', 'QUOTED');

-- migration 097's triggers, on the partitioned table
create trigger rfqs_end_defaults before insert or update of status on rfqs
  for each row when (new.status in ('CANCELLED', 'FILLED', 'EXPIRED')) execute function rfqs_end_defaults();
create trigger rfqs_judge_best_quote after update of status on rfqs
  for each row when ((old.status in ('OPEN', 'QUOTED')
                      and (new.status = 'FILLED' or (new.status = 'EXPIRED' and new.ended_by = 'expiry')))
                     or (old.status = 'EXPIRED' and new.status = 'FILLED'))
  execute function judge_best_quote();

-- migration 097's judge, its quotes read in their RFQ's one day partition (q.rfq_day = new.created_day)

-- Makers are judged on the ends that are theirs to answer for: a fill, or an expiry the venue served to the end. A
-- fill recorded after its RFQ was stored EXPIRED (the fill rule takes a fill mined before the expiry) is the RFQ's
-- true end: a maker judged failed at that expiry honoured its quote after all, and the failure is taken back on the
-- day it was counted (the first day from its expiry's with a failure: the expiry's end is stored when it happens);
-- after an engine's end (never judged) the fill is judged as any fill. A failure taken back on a day before a
-- period's base makes that base stale: it is dropped, and the next league request rebuilds it.
create or replace function judge_best_quote() returns trigger language plpgsql as $$
declare best text; d date := (now() at time zone 'utc')::date;
begin
  select q.maker into best from quotes q where q.rfq_id = new.id and q.rfq_day = new.created_day
   order by case when new.kind = 0 then q.amount_out end desc nulls last,
            case when new.kind = 1 then q.amount_in end asc nulls last,
            q.received_at, q.id
   limit 1;
  if best is null then return null; end if;
  if old.status = 'EXPIRED' and old.ended_by = 'expiry' then
    select day into d from league_daily where role = 'maker' and address = best and failed > 0
      and day >= (old.ended_at at time zone 'utc')::date order by day limit 1;
    if d is null then return null; end if;
    delete from league_scores where period in (select period from league_base_meta where base_day > d);
    delete from league_base where period in (select period from league_base_meta where base_day > d);
    delete from league_base_meta where base_day > d;
    update league_daily set failed = failed - 1 where role = 'maker' and day = d and address = best;
    update league_totals set failed = failed - 1 where role = 'maker' and address = best and failed > 0;
    return null;
  end if;
  insert into league_daily (address, role, day, fills, notional_usd, benchmarked_fills, improvement_sum, private_fills, points,
                            judged, failed)
  values (best, 'maker', d, 0, 0, 0, 0, 0, 0, 1, case when new.status = 'EXPIRED' then 1 else 0 end)
  on conflict (role, day, address) do update
    set judged = league_daily.judged + 1, failed = league_daily.failed + excluded.failed;
  insert into league_totals (address, role, fills, notional_usd, benchmarked_fills, improvement_sum, private_fills, points,
                             judged, failed)
  values (best, 'maker', 0, 0, 0, 0, 0, 0, 1, case when new.status = 'EXPIRED' then 1 else 0 end)
  on conflict (role, address) do update
    set judged = league_totals.judged + 1, failed = league_totals.failed + excluded.failed;
  return null;
end $$;

