-- League scores, materialised per (period, role, address) so a league page is an index walk
-- instead of scoring every participant per request (about 27 ms at 5,000 participants).
-- 'all' is computed from league_totals; '7d'/'30d' from league_totals minus the period's base,
-- for the periods whose base is current (league_base_meta). A trigger on league_totals rescores
-- an address in the transaction that changed it (fills, makers' judged/failed counts);
-- ensureBase rescores a whole period when its base turns (engine/store/league.ts).

-- The composite score; workers/fills/leagueScore.ts is the reference (a property test holds them equal).
create function league_raw_score(notional float8, avg_imp float8, private_share float8, cancel_rate float8) returns float8
  language sql immutable parallel safe as $$
  select 10::float8 * log(1 + greatest(notional, 0))
    * (1 + least(greatest(avg_imp, -50::float8), 50::float8) / 100::float8)
    * (1 + 0.1::float8 * private_share)
    -- greatest/least skip NULLs, so takers (cancel_rate null) need the explicit case
    * case when cancel_rate is not null then least(greatest(1.1 - cancel_rate * 1.5, 0.5), 1.1) else 1 end
$$;

create table league_scores (
  period text not null,
  role text not null,
  address text not null,
  fills integer not null,
  notional_usd double precision not null,
  benchmarked_fills integer not null,
  improvement_sum numeric not null,
  private_fills integer not null,
  points double precision not null,
  avg_imp double precision not null,
  private_share double precision not null,
  cancel_rate double precision,
  reliability double precision,
  raw_score double precision not null,
  primary key (period, role, address)
);
-- the league's order: a page is a walk of this index
create index league_scores_rank on league_scores (period, role, raw_score desc, notional_usd desc, address);

-- Rescores one period for one address and role, or for everyone (nulls). Participants are those
-- with fills in the period. Callers hold the period's advisory lock (shared for one address,
-- exclusive for a whole period) so a base turning and a fill never score against each other's
-- half-written state.
create function league_rescore(p_period text, p_role text, p_address text) returns void language plpgsql as $$
begin
  delete from league_scores s where s.period = p_period
    and (p_role is null or s.role = p_role) and (p_address is null or s.address = p_address);
  insert into league_scores (period, role, address, fills, notional_usd, benchmarked_fills, improvement_sum, private_fills, points,
                             avg_imp, private_share, cancel_rate, reliability, raw_score)
  select p_period, m.role, m.address, m.fills, m.notional_usd, m.benchmarked_fills, m.improvement_sum, m.private_fills, m.points,
         m.avg_imp, m.private_share, m.cancel_rate,
         case when m.cancel_rate is not null then least(greatest(1.1 - m.cancel_rate * 1.5, 0.5), 1.1) end,
         league_raw_score(m.notional_usd, m.avg_imp, m.private_share, m.cancel_rate)
  from (
    select a.*,
           case when a.benchmarked_fills > 0 then (a.improvement_sum / a.benchmarked_fills)::float8 else 0 end as avg_imp,
           a.private_fills::float8 / a.fills as private_share,
           case when a.role = 'maker' then coalesce(a.failed::float8 / nullif(a.judged, 0), 0) end as cancel_rate
    from (
      select t.role, t.address, t.fills - coalesce(b.fills, 0) as fills, t.notional_usd - coalesce(b.notional_usd, 0) as notional_usd,
             t.benchmarked_fills - coalesce(b.benchmarked_fills, 0) as benchmarked_fills,
             t.improvement_sum - coalesce(b.improvement_sum, 0) as improvement_sum, t.private_fills - coalesce(b.private_fills, 0) as private_fills,
             t.points - coalesce(b.points, 0) as points, t.judged - coalesce(b.judged, 0) as judged, t.failed - coalesce(b.failed, 0) as failed
      from league_totals t left join league_base b on b.period = p_period and b.role = t.role and b.address = t.address
      where (p_role is null or t.role = p_role) and (p_address is null or t.address = p_address)
    ) a
    where a.fills > 0
  ) m;
end $$;

create function league_totals_rescore() returns trigger language plpgsql as $$
declare p text;
begin
  perform league_rescore('all', new.role, new.address);
  for p in select period from league_base_meta order by period loop
    perform pg_advisory_xact_lock_shared(7318230, hashtext(p));
    -- read after the lock: a base rebuilt meanwhile is seen, a dropped one is skipped
    if exists (select 1 from league_base_meta m where m.period = p) then
      perform league_rescore(p, new.role, new.address);
    end if;
  end loop;
  return null;
end $$;

create trigger league_totals_rescore after insert or update on league_totals
  for each row execute function league_totals_rescore();

select league_rescore('all', null, null);
select league_rescore(period, null, null) from league_base_meta;
