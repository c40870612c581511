-- The agent API's sliding limits (AGENT_RATE_PER_MIN, AGENT_RATE_PER_HOUR) are kept here, so they hold exactly
-- for the whole venue however many nodes serve it: per agent, the times (unix ms, by the database's clock) of the
-- requests granted in the last hour (engine/store/agentRate.ts).
create table if not exists agent_rate_windows (
  agent_id text primary key references agents (id),
  hits bigint[] not null
);
