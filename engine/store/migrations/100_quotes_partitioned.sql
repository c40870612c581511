-- Quotes are partitioned by their RFQ's creation day (UTC): every quote of an RFQ shares it, so the unique key
-- (rfq_id, maker, rfq_day) still arbitrates one quote per maker per RFQ across nodes, and an old day leaves as a
-- whole partition (detached, then dropped) instead of a long delete under the relay's group commits. The key leads
-- with rfq_id: a lookup by RFQ id is one probe of it in its day's partition (given the day: rfqs.created_at).
-- The surrogate id stays (arrival order) without an index of its own: nothing looks a quote up by it.
-- Upgrade in place: the unpartitioned table's rows are copied into the partitions of their days, then it goes.
alter table quotes rename to quotes_unpartitioned;
alter table quotes_unpartitioned rename constraint quotes_pkey to quotes_unpartitioned_pkey;
alter table quotes_unpartitioned rename constraint quotes_rfq_id_maker_key to quotes_unpartitioned_rfq_id_maker_key;
alter sequence quotes_id_seq owned by none;

create table quotes (
  id bigint not null default nextval('quotes_id_seq'),
  rfq_day date not null,
  rfq_id text not null references rfqs (id),
  maker text not null,
  taker text not null,
  token_in text not null,
  token_out text not null,
  amount_in numeric(78,0) not null,
  amount_out numeric(78,0) not null,
  expiry bigint not null,
  nonce numeric(78,0) not null,
  deadline bigint not null,
  signature text not null,
  received_at timestamptz not null,
  primary key (rfq_id, maker, rfq_day)
) partition by range (rfq_day);
alter sequence quotes_id_seq owned by quotes.id;

-- a quote whose day has no partition yet (the engine makes them days ahead: partitions.ts) is kept here, never lost
create table quotes_default partition of quotes default;

-- the days the stored quotes belong to, and the next few (the engine keeps making them ahead from its start)
do $$
declare d date;
begin
  for d in
    select distinct (r.created_at at time zone 'utc')::date from quotes_unpartitioned q join rfqs r on r.id = q.rfq_id
    union select (now() at time zone 'utc')::date + i from generate_series(0, 2) i
  loop
    execute format('create table %I partition of quotes for values from (%L) to (%L)', 'quotes_p' || to_char(d, 'YYYYMMDD'), d, d + 1);
  end loop;
end $$;

insert into quotes (id, rfq_day, rfq_id, maker, taker, token_in, token_out, amount_in, amount_out, expiry, nonce, deadline, signature, received_at)
select q.id, (r.created_at at time zone 'utc')::date, q.rfq_id, q.maker, q.taker, q.token_in, q.token_out, q.amount_in, q.amount_out,
       q.expiry, q.nonce, q.deadline, q.signature, q.received_at
from quotes_unpartitioned q join rfqs r on r.id = q.rfq_id;

drop table quotes_unpartitioned;
