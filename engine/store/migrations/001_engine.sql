-- Facts about the engine instance itself (first start, last start).
create table if not exists engine_meta (
  key text primary key,
  value text not null,
  updated_at timestamptz not null default now()
);
