-- How, when and by whom an RFQ ended (docs/rfq-api.md, "Lifetime"). `status` says how; `ended_at` when (a
-- cancel's or a fill's time, the RFQ's own expiry, or the moment the engine ended it); `ended_by` who:
--   taker   the taker cancelled or filled it
--   expiry  its own expiry passed while the venue served it: its actor stored the end when it happened
--   engine  the engine ended it (its actor failed), or it expired while the venue could not serve it: the
--           database was down (stored by the heal once it returns), or no node held it (stored by the
--           relay's TTL cleanup)
-- A maker is judged (league reliability) only on an RFQ filled or ended by its expiry: the engine's own ends
-- never count against one.
alter table rfqs add column ended_at timestamptz,
  add column ended_by text check (ended_by in ('taker', 'expiry', 'engine'));

-- Rows that ended before this migration: the store did not say, so each is taken as its status reads.
update rfqs set ended_at = coalesce(cancelled_at, created_at), ended_by = 'taker' where status = 'CANCELLED';
update rfqs set ended_at = coalesce(filled_at, created_at), ended_by = 'taker' where status = 'FILLED';
update rfqs set ended_at = to_timestamp(expiry), ended_by = 'expiry' where status = 'EXPIRED';

-- The store always says how an RFQ ended: a write that ends one without saying (a tool, a test, an older
-- engine) gets the reading of its status (EXPIRED by its expiry, else by its taker) and the time it implies.
create function rfqs_end_defaults() returns trigger language plpgsql as $$
begin
  if tg_op = 'UPDATE' then
    if new.status = old.status then return new; end if;
    if new.ended_by is not distinct from old.ended_by then new.ended_by := null; end if;
    if new.ended_at is not distinct from old.ended_at then new.ended_at := null; end if;
  end if;
  new.ended_by := coalesce(new.ended_by, case when new.status = 'EXPIRED' then 'expiry' else 'taker' end);
  new.ended_at := coalesce(new.ended_at, case new.status when 'CANCELLED' then new.cancelled_at
    when 'FILLED' then new.filled_at else to_timestamp(new.expiry) end, now());
  return new;
end $$;

-- (the WHEN keeps the quote commit's OPEN -> QUOTED bump free of a function call per RFQ)
create trigger rfqs_end_defaults before insert or update of status on rfqs
  for each row when (new.status in ('CANCELLED', 'FILLED', 'EXPIRED')) execute function rfqs_end_defaults();

-- Makers are judged on the ends that are theirs to answer for: a fill, or an expiry the venue served to the end. A
-- fill recorded after its RFQ was stored EXPIRED (the fill rule takes a fill mined before the expiry) is the RFQ's
-- true end: a maker judged failed at that expiry honoured its quote after all, and the failure is taken back on the
-- day it was counted (the first day from its expiry's with a failure: the expiry's end is stored when it happens);
-- after an engine's end (never judged) the fill is judged as any fill. A failure taken back on a day before a
-- period's base makes that base stale: it is dropped, and the next league request rebuilds it.
create or replace function judge_best_quote() returns trigger language plpgsql as $$
declare best text; d date := (now() at time zone 'utc')::date;
begin
  select q.maker into best from quotes q where q.rfq_id = new.id
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

drop trigger rfqs_judge_best_quote on rfqs;
create trigger rfqs_judge_best_quote after update of status on rfqs
  for each row when ((old.status in ('OPEN', 'QUOTED')
                      and (new.status = 'FILLED' or (new.status = 'EXPIRED' and new.ended_by = 'expiry')))
                     or (old.status = 'EXPIRED' and new.status = 'FILLED'))
  execute function judge_best_quote();

-- The relay's TTL cleanup finds open rows past their expiry by this index, not by a scan of every open row.
create index rfqs_open_expiry on rfqs (expiry) where status in ('OPEN', 'QUOTED');
