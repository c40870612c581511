-- Agents (API keys for the agent endpoints), the registration signatures already spent, the
-- agents' activity log, and the token registry the REST API resolves symbols through.

create table agents (
  id text primary key,
  name text not null,
  owner_wallet text not null,
  agent_wallet text not null,
  roles text[] not null,
  -- sha256 of the API key, hex: the key itself is shown once and never stored
  key_hash text not null unique,
  created_at timestamptz not null default now()
);
create index agents_owner on agents (owner_wallet);
create index agents_agent_wallet on agents (agent_wallet);

-- A registration signature may be used once: the digest of the signed message is spent here
-- (any signature of the same message, malleated or re-signed, is the same registration).
create table agent_registrations (
  message_digest text primary key,
  agent_id text not null references agents (id),
  used_at timestamptz not null default now()
);

create table agent_activity (
  id bigserial primary key,
  agent_id text not null references agents (id),
  action text not null,
  rfq_id text,
  detail jsonb not null default '{}',
  at timestamptz not null default now()
);
create index agent_activity_agent on agent_activity (agent_id, id desc);

create table tokens (
  chain_id integer not null,
  address text not null check (address ~ '^0x[0-9a-f]{40}$'),
  symbol text not null,
  decimals integer not null check (decimals between 0 and 255),
  updated_at timestamptz not null default now(),
  primary key (chain_id, address)
);
create index tokens_symbol on tokens (chain_id, lower(symbol), updated_at desc);
