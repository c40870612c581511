-- The agents' activity log grows with traffic (an entry per RFQ created, cancelled, filled): it is partitioned by the
-- UTC day of its `at`, range partitions of the timestamp itself (no column of its own needed: nothing looks an
-- entry up by id), so retention drops old days whole (RFQS_RETENTION_DAYS: retention.ts). Its primary key becomes
-- (id, at): a unique constraint must hold the partition key; ids still come from their sequence alone.
-- The foreign key to agents goes, as quotes' to rfqs did (migration 101): a partition's detach and drop would lock
-- `agents`, which every RFQ create locks a row of (its cap). Entries are written by the engine only, for an agent it
-- has just authenticated, and agents are never deleted.
-- Upgrade in place: the rows move into the partitions of their days; the index (agent_id, id desc) is made again.
alter table agent_activity rename to agent_activity_unpartitioned;
alter table agent_activity_unpartitioned rename constraint agent_activity_pkey to agent_activity_unpartitioned_pkey;
alter index agent_activity_agent rename to agent_activity_unpartitioned_agent;
alter sequence agent_activity_id_seq owned by none;

create table agent_activity (
  id bigint not null default nextval('agent_activity_id_seq'),
  agent_id text not null,
  action text not null,
  rfq_id text,
  detail jsonb not null default '{}',
  at timestamptz not null default now(),
  primary key (id, at)
) partition by range (at);
alter sequence agent_activity_id_seq owned by agent_activity.id;

-- an entry whose day has no partition yet (the engine makes them days ahead: partitions.ts) is kept here
create table agent_activity_default partition of agent_activity default;

do $$
declare d date;
begin
  for d in
    select distinct (at at time zone 'utc')::date from agent_activity_unpartitioned
    union select (now() at time zone 'utc')::date + i from generate_series(0, 2) i
  loop
    execute format('create table %I partition of agent_activity for values from (%L) to (%L)',
      'agent_activity_p' || to_char(d, 'YYYYMMDD'), d::text || ' 00:00:00+00', (d + 1)::text || ' 00:00:00+00');
  end loop;
end $$;

insert into agent_activity (id, agent_id, action, rfq_id, detail, at)
select id, agent_id, action, rfq_id, detail, at from agent_activity_unpartitioned;

drop table agent_activity_unpartitioned;

create index agent_activity_agent on agent_activity (agent_id, id desc);
