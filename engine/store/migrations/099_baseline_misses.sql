-- A server-side baseline the route finder could not give (an exact-output RFQ, no route, the queue full, not
-- computed in time): stored with its reason instead of silently left out, one per RFQ. A baseline stored later
-- (a client's) makes it moot; GET /api/v1/rfq/performance names the reason while there is none.
create table if not exists baseline_misses (
  rfq_id     text primary key,
  code       text not null,
  reason     text not null,
  created_at timestamptz not null default now()
);
