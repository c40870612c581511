-- The cap on active RFQs is counted in the store, per creating agent, at every create (engine/store/rfqs.ts
-- insertRfqCapped): an index over the open rows of each agent keeps that count small.
create index if not exists rfqs_agent_open on rfqs (agent_id) where status in ('OPEN', 'QUOTED') and agent_id is not null;
