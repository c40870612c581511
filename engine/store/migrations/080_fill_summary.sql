-- Rollups for GET /api/v1/rfq/performance-summary, so its cost does not grow with the fills in
-- the window (a 30d scan with an exact median took about 300 ms at 500,000 fills).
--
-- A window's figures are the all-time sums (scope 'all') minus the window's base (scope '24h',
-- '7d' or '30d': every fill before the base's boundary, the minute the window starts in), corrected
-- by the raw fills between that boundary and the window's exact start (at most a minute of them).
-- The median stays exact: its rank is located in a histogram of coarse buckets, then among the
-- exact 2-decimal values of the one or two buckets that hold the middle (engine/store/fills.ts).
-- Fills are append-only, so every rollup only ever grows.

-- The coarse bucket of an improvement: whole bps below 1,000 in magnitude, then the first two
-- digits per order of magnitude (1000-1099 is one bucket, 1100-1199 the next, ..., 10000-10999),
-- so even an unbounded range has a few thousand buckets. Non-decreasing in v: bucket order is value order.
create function fill_summary_bucket(v numeric) returns integer language sql immutable parallel safe as $$
  select case when abs(v) < 1000 then floor(v)::int
    else (select case when v > 0 then 1000 + k else -1001 - k end
          from (select (length(t) - 4) * 90 + (left(t, 2)::int - 10) as k from (select trunc(abs(v))::text as t) a) b)
  end
$$;

create table fill_summary (
  scope text not null,
  token_in text not null,
  token_out text not null,
  fills bigint not null,
  -- exact sums of the stored float8 USD amounts (as numeric), so totals minus bases lose nothing
  volume_usd numeric not null,
  benchmarked bigint not null,
  improvement_sum numeric not null,
  better bigint not null,
  primary key (scope, token_in, token_out)
);

-- benchmarked fills per coarse bucket
create table fill_summary_buckets (
  scope text not null,
  token_in text not null,
  token_out text not null,
  bucket integer not null,
  n bigint not null,
  primary key (scope, token_in, token_out, bucket)
);

-- benchmarked fills per exact improvement, looked up by bucket
create table fill_summary_values (
  scope text not null,
  bucket integer not null,
  token_in text not null,
  token_out text not null,
  improvement numeric not null,
  n bigint not null,
  primary key (scope, bucket, token_in, token_out, improvement)
);

-- a window's base holds every fill with filled_at < boundary
create table fill_summary_bases (
  scope text primary key,
  boundary timestamptz not null
);

-- Adds a set of fills to the rollups, given as parallel arrays: one row per (fill, scope). Arrays,
-- because the trigger's rows are its transition table, which only the trigger's own statements can
-- see; fill_summary_merge passes a time range of the fills table the same way. (Statement text run
-- by EXECUTE would share the code too, but re-planning it cost about 1 ms per fill.)
create function fill_summary_add(scopes text[], tokens_in text[], tokens_out text[], usd float8[], benchmarked boolean[],
                                 improvements numeric[]) returns void language plpgsql as $$
begin
  insert into fill_summary as s (scope, token_in, token_out, fills, volume_usd, benchmarked, improvement_sum, better)
  select r.scope, r.token_in, r.token_out, count(*), sum(r.usd::numeric), count(*) filter (where r.b),
         coalesce(sum(r.imp) filter (where r.b), 0), count(*) filter (where r.b and r.imp > 0)
  from unnest(scopes, tokens_in, tokens_out, usd, benchmarked, improvements) as r(scope, token_in, token_out, usd, b, imp)
  group by 1, 2, 3 order by 1, 2, 3
  on conflict (scope, token_in, token_out) do update set fills = s.fills + excluded.fills, volume_usd = s.volume_usd + excluded.volume_usd,
    benchmarked = s.benchmarked + excluded.benchmarked, improvement_sum = s.improvement_sum + excluded.improvement_sum, better = s.better + excluded.better;
  insert into fill_summary_buckets as s (scope, token_in, token_out, bucket, n)
  select r.scope, r.token_in, r.token_out, fill_summary_bucket(r.imp), count(*)
  from unnest(scopes, tokens_in, tokens_out, benchmarked, improvements) as r(scope, token_in, token_out, b, imp)
  where r.b group by 1, 2, 3, 4 order by 1, 2, 3, 4
  on conflict (scope, token_in, token_out, bucket) do update set n = s.n + excluded.n;
  insert into fill_summary_values as s (scope, bucket, token_in, token_out, improvement, n)
  select r.scope, fill_summary_bucket(r.imp), r.token_in, r.token_out, r.imp, count(*)
  from unnest(scopes, tokens_in, tokens_out, benchmarked, improvements) as r(scope, token_in, token_out, b, imp)
  where r.b group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
  on conflict (scope, bucket, token_in, token_out, improvement) do update set n = s.n + excluded.n;
end $$;

-- Adds the fills with from_ts <= filled_at < to_ts to one scope.
create function fill_summary_merge(p_scope text, from_ts timestamptz, to_ts timestamptz) returns void language sql as $$
  select fill_summary_add(array_agg(p_scope), array_agg(token_in), array_agg(token_out), array_agg(amount_in_usd),
                          array_agg(benchmark_available), array_agg(improvement_bps))
  from fills where filled_at >= from_ts and filled_at < to_ts
$$;

-- Moves a window's base forward to p_boundary (builds it on first use). Cheap when the base is
-- current (one indexed read); otherwise it adds the fills between the old and the new boundary.
-- Exclusive advisory lock: a fill (shared lock, below) is counted either by this move or by its
-- own trigger, never by both and never by neither.
create function fill_summary_advance(p_scope text, p_boundary timestamptz) returns void language plpgsql as $$
declare old timestamptz;
begin
  select boundary into old from fill_summary_bases where scope = p_scope;
  if old >= p_boundary then return; end if;
  perform pg_advisory_xact_lock(7318240, 0);
  select boundary into old from fill_summary_bases where scope = p_scope;
  if old >= p_boundary then return; end if;
  perform fill_summary_merge(p_scope, coalesce(old, '-infinity'), p_boundary);
  insert into fill_summary_bases (scope, boundary) values (p_scope, p_boundary)
    on conflict (scope) do update set boundary = excluded.boundary;
end $$;

-- 'all' (every fill) and each window's base with its boundary
create function fill_summary_scopes() returns table (scope text, boundary timestamptz) language sql stable as $$
  select 'all', 'infinity'::timestamptz union all select scope, boundary from fill_summary_bases
$$;

-- New fills go into 'all', and into every base whose boundary is after them (backdated fills).
-- Per statement with a transition table, so a bulk load is aggregated once, not row by row.
create function fills_summary_added() returns trigger language plpgsql as $$
begin
  perform pg_advisory_xact_lock_shared(7318240, 0);
  -- the bases are read after the lock: a base moved meanwhile is seen with its new boundary
  perform fill_summary_add(array_agg(sc.scope), array_agg(a.token_in), array_agg(a.token_out), array_agg(a.amount_in_usd),
                           array_agg(a.benchmark_available), array_agg(a.improvement_bps))
  from added a join fill_summary_scopes() sc on a.filled_at < sc.boundary;
  return null;
end $$;

create trigger fills_summary_insert after insert on fills referencing new table as added
  for each statement execute function fills_summary_added();

create function fills_summary_truncated() returns trigger language plpgsql as $$
begin
  truncate fill_summary, fill_summary_buckets, fill_summary_values, fill_summary_bases;
  return null;
end $$;

create trigger fills_summary_truncate after truncate on fills
  for each statement execute function fills_summary_truncated();

-- The ledger is append-only: a changed or deleted fill would leave every rollup wrong.
create function fills_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'fills are append-only (% refused)', tg_op using errcode = 'restrict_violation';
end $$;

create trigger fills_append_only before update or delete on fills
  for each statement execute function fills_append_only();

select fill_summary_merge('all', '-infinity', 'infinity');
