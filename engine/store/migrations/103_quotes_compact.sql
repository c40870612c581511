-- A stored quote in half the bytes (issue 30: 607 B a quote, table and key, measured at 50 million; 283 B now).
-- At 5,000 quotes/s the quotes are nearly all of the store, so their layout is its size:
--  - `rfq_id`, `maker` and `signature` are bytes, not hex text: the id's 22 bytes (`rfq_` + 44 hex digits is 49 on
--    disk), an address's 20 (43), a signature's 65 (136, past the one-byte header's reach). The key shrinks alike.
--  - taker, tokenIn and tokenOut are not copied: the relay takes a quote only for its RFQ's pair, and for its taker or
--    the zero address (actors/quoteChecks.ts); they are read from the RFQ's row, and `taker_open` says which taker.
--  - no surrogate id: a quote's place among its RFQ's quotes (`arrival`, 1, 2, ...: readers list them in that order)
--    is given by the writer under its RFQ row's lock, from the RFQ's quote_count: 4 bytes that sit in the padding the
--    date leaves anyway. A number given to a quote the key then refused (a maker's second, from another node or a
--    replay) can be given again by a later commit, so two quotes may share one; readers then order by time and maker.
--  - fixed-width columns first, so no alignment padding lands between them.
-- The engine makes every RFQ id: `rfq_` + hex (workers/values/rfqId.ts); `rfq_key` is that hex as bytes (16 for an
-- id made before 0.8, 22 since), how the quotes hold it, and `rfq_id_of` the id again. An id of another form (a
-- hand-made one: no engine makes it) is never refused: its key is 0xff and its md5, 17 bytes, a length no engine id's
-- key has, and whose id is found again by looking it up. Both functions are written to be inlined into each
-- statement (immutable parts only, not strict), never called once a row.
-- `quote_rows` shows the quotes as before (for operators at psql, and suites that read rows).
-- Upgrade in place: each partition's rows are rewritten into a partition of the new table, then names are swapped.
create function rfq_key(id text) returns bytea language sql immutable parallel safe as $$
  select case when id ~ '^rfq_([0-9a-f]{2})+$' then decode(substr(id, 5), 'hex') else '\xff'::bytea || decode(md5(id), 'hex') end
$$;
create function rfq_id_of(k bytea) returns text language sql immutable parallel safe as $$
  select 'rfq_' || encode(k, 'hex')
$$;

alter table quotes rename to quotes_wide;

create table quotes_compact (
  expiry bigint not null,
  deadline bigint not null,
  received_at timestamptz not null,
  rfq_day date not null,
  arrival integer not null constraint quotes_arrival_positive check (arrival > 0),
  taker_open boolean not null,
  rfq_id bytea not null,
  maker bytea not null constraint quotes_maker_address check (octet_length(maker) = 20),
  amount_in numeric(78,0) not null,
  amount_out numeric(78,0) not null,
  nonce numeric(78,0) not null,
  signature bytea not null constraint quotes_signature_65_bytes check (octet_length(signature) = 65),
  primary key (rfq_id, maker, rfq_day)
) partition by range (rfq_day);

-- the same partitions, the default one included, under provisional names until the wide table goes
do $$
declare p record;
begin
  for p in select c.relname, pg_get_expr(c.relpartbound, c.oid) as bound
           from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'quotes_wide'::regclass
  loop
    execute format('create table %I partition of quotes_compact %s', 'compact_' || p.relname, p.bound);
  end loop;
end $$;

insert into quotes_compact (expiry, deadline, received_at, rfq_day, arrival, taker_open, rfq_id, maker, amount_in, amount_out,
                            nonce, signature)
select q.expiry, q.deadline, q.received_at, q.rfq_day,
       row_number() over (partition by q.rfq_id, q.rfq_day order by q.id)::int,
       q.taker = '0x0000000000000000000000000000000000000000', rfq_key(q.rfq_id), decode(substr(q.maker, 3), 'hex'),
       q.amount_in, q.amount_out, q.nonce, decode(substr(q.signature, 3), 'hex')
from quotes_wide q;

drop table quotes_wide; -- its partitions and its id sequence with it

alter table quotes_compact rename to quotes;
alter index quotes_compact_pkey rename to quotes_pkey;
do $$
declare p record;
begin
  for p in select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'quotes'::regclass
  loop
    execute format('alter table %I rename to %I', p.relname, substr(p.relname, 9));
    execute format('alter index %I rename to %I', p.relname || '_pkey', substr(p.relname, 9) || '_pkey');
  end loop;
end $$;

create view quote_rows as
  select r.id as rfq_id, q.rfq_day, q.arrival, '0x' || encode(q.maker, 'hex') as maker,
         case when q.taker_open then '0x0000000000000000000000000000000000000000' else r.taker end as taker,
         r.token_in, r.token_out, q.amount_in, q.amount_out, q.expiry, q.nonce, q.deadline,
         '0x' || encode(q.signature, 'hex') as signature, q.received_at
  from quotes q join rfqs r on q.rfq_id = rfq_key(r.id) and q.rfq_day = r.created_day;

-- migration 101's judge, the best quote's maker read from its bytes, ties in arrival order

-- Makers are judged on the ends that are theirs to answer for: a fill, or an expiry the venue served to the end. A
-- fill recorded after its RFQ was stored EXPIRED (the fill rule takes a fill mined before the expiry) is the RFQ's
-- true end: a maker judged failed at that expiry honoured its quote after all, and the failure is taken back on the
-- day it was counted (the first day from its expiry's with a failure: the expiry's end is stored when it happens);
-- after an engine's end (never judged) the fill is judged as any fill. A failure taken back on a day before a
-- period's base makes that base stale: it is dropped, and the next league request rebuilds it.
create or replace function judge_best_quote() returns trigger language plpgsql as $$
declare best text; d date := (now() at time zone 'utc')::date;
begin
  select '0x' || encode(q.maker, 'hex') into best from quotes q where q.rfq_id = rfq_key(new.id) and q.rfq_day = new.created_day
   order by case when new.kind = 0 then q.amount_out end desc nulls last,
            case when new.kind = 1 then q.amount_in end asc nulls last,
            q.received_at, q.arrival, q.maker
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

