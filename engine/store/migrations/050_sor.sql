-- The route finder: its protocol registry, the pools found on chain, and their last loaded state.

create table sor_protocols (
  slug text primary key check (slug ~ '^[a-z0-9][a-z0-9._-]{0,63}$'),
  name text not null,
  pool_type text not null check (pool_type in ('v2', 'v3', 'stable')),
  factory_address text not null check (factory_address ~ '^0x[0-9a-f]{40}$'),
  -- v2 forks: the pair's swap fee in ppm (Uniswap V2: 3000 = 0.30%); null keeps 3000
  fee_ppm integer check (fee_ppm between 0 and 999999),
  -- the first block the pool scan reads (the factory's deployment block, when known)
  start_block bigint not null default 0 check (start_block >= 0),
  -- stable kind: pools registered by address (our StableSwapPool has no factory)
  pools text[] not null default '{}',
  -- where the scan resumes: every block up to this one has been read; null = never scanned
  last_scanned_block bigint,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table sor_pools (
  address text primary key check (address ~ '^0x[0-9a-f]{40}$'),
  protocol text not null references sor_protocols (slug) on delete cascade,
  pool_type text not null check (pool_type in ('v2', 'v3', 'stable')),
  -- ordered as the pool orders them (token0, token1 / coins[i])
  tokens text[] not null,
  -- pips (hundredths of a bip) for v2 and v3; stable: the contract's 1e10 units
  fee bigint not null,
  tick_spacing integer,
  created_block bigint,
  discovered_at timestamptz not null default now()
);
create index sor_pools_tokens on sor_pools using gin (tokens);
create index sor_pools_protocol on sor_pools (protocol);

-- One row per pool: the PoolState of workers/sor/types.ts as jsonb, bigints as decimal strings.
create table sor_pool_state (
  address text primary key references sor_pools (address) on delete cascade,
  block_number bigint not null,
  state jsonb not null,
  updated_at timestamptz not null default now()
);
