-- Each trade's tape item (the spec's Trade resource) as JSON text, written once when the trade is
-- stored. A tape page is then an index walk that concatenates 50-500 stored texts: building the
-- JSON per request, in Node or in PostgreSQL, cost 5-12 ms for a 500-trade page.
-- Numbers are PostgreSQL's shortest exact float text (they parse to the same doubles as the
-- columns); timestamps are ISO 8601 UTC with milliseconds, as Date#toISOString writes them.
alter table option_trades add column doc text;

create function option_trade_doc(t option_trades) returns text language sql stable as $$
  select json_build_object(
    'venue', t.venue, 'trade_ref', t.trade_ref, 'instrument', t.instrument, 'underlying', t.underlying, 'is_call', t.is_call,
    'strike_display', t.strike, 'expiry', to_char(t.expiry_ts at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'price', t.price, 'quantity_display', t.amount, 'premium_usd', t.premium_usd, 'iv', t.iv, 'spot_ref', t.spot_ref,
    'side', t.side, 'counterparty', t.counterparty, 'venue_a_liquidity_guess', t.liquidity_guess,
    'ts', to_char(t.ts at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text
$$;

-- every write path (ingestion, backfills, hand-made rows) gets the same document
create function option_trades_set_doc() returns trigger language plpgsql as $$
begin
  new.doc := option_trade_doc(new);
  return new;
end $$;

create trigger option_trades_doc before insert or update on option_trades
  for each row execute function option_trades_set_doc();

update option_trades set doc = option_trade_doc(option_trades) where doc is null;
alter table option_trades alter column doc set not null;
