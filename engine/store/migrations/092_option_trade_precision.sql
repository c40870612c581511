-- The tape's Trade documents (migration 060) at VENUE_A's published precision, with no float noise:
-- price 4 decimals (the option tick, in the underlying), quantity_display 1 (contracts, min 0.1),
-- premium_usd 2, iv 2 (percent), spot_ref 2 (index). The rule is workers/options/precision.ts's
-- roundHalfAway, written in SQL: the value's shortest decimal text (float8out, which is what
-- String(x) gives in Node) rounded half away from zero as a numeric, then parsed back to float8.
-- (x::numeric is not the same: it keeps only 15 significant digits.) float8out reads extra_float_digits:
-- at 0 or below it would print 15 digits and the two sides would differ, so option_trade_doc pins it
-- to 1 (the default) once per document; option_round has no SET clause of its own, so it stays a plain
-- SQL expression PostgreSQL may inline. (The numeric round trip costs a few microseconds per trade
-- written, on the ingestion's side; reads are unchanged: the tape concatenates stored documents.)
-- test/options/tapeJson.test.ts holds this function equal to the Node one on arbitrary doubles.
create function option_round(x float8, d int) returns float8 language sql stable as $$
  select case when x is null or x in ('NaN'::float8, 'Infinity'::float8, '-Infinity'::float8) then null   -- not JSON numbers
    else round(x::text::numeric, d)::float8 end
$$;

-- row_to_json writes compact JSON ({"k":v,...}), the text JSON.stringify writes for every other
-- endpoint; json_build_object wrote {"k" : v, ...}. Same keys (the spec's Trade), same order.
-- strike_display is not rounded: it is read from the instrument's name, so it carries no noise.
create or replace function option_trade_doc(t option_trades) returns text language sql stable set extra_float_digits = 1 as $$
  select row_to_json(d)::text from (select
    t.venue, t.trade_ref, t.instrument, t.underlying, t.is_call, t.strike as strike_display,
    to_char(t.expiry_ts at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as expiry,
    option_round(t.price, 4) as price, option_round(t.amount, 1) as quantity_display, option_round(t.premium_usd, 2) as premium_usd,
    option_round(t.iv, 2) as iv, option_round(t.spot_ref, 2) as spot_ref, t.side, t.counterparty,
    t.liquidity_guess as venue_a_liquidity_guess, to_char(t.ts at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ts) d
$$;

-- the stored documents follow the new rule (the before-update trigger rewrites each one)
update option_trades set doc = option_trade_doc(option_trades);
