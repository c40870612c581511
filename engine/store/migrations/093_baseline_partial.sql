-- A route-finder baseline whose quote could route only part of the RFQ's input (the tracked pools ran out of
-- liquidity) is kept, marked partial: it says what the AMMs could do, but improvement is never computed
-- against it as if it were whole (recordFill treats it as no benchmark).
alter table baselines add column if not exists partial boolean not null default false;
