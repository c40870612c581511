-- League rollups sum USD notionals and points: they are numeric now, not float8, so a sum can neither
-- overflow nor drift (the inputs are capped too: a fill carries at most 1e12 USD, engine/fills/parse.ts).
-- league_scores keeps float8: it holds per-address figures derived from these sums, read as JS numbers.
alter table league_daily alter column notional_usd type numeric, alter column points type numeric;
alter table league_totals alter column notional_usd type numeric, alter column points type numeric;
alter table league_base alter column notional_usd type numeric, alter column points type numeric;
