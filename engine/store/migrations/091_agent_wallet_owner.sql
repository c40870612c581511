-- An agent wallet belongs to one owner: the first owner to register it. A registration that claims an
-- agent wallet registered to another owner is refused (409), so nobody can act as another owner's agent.
-- The primary key makes the claim race-safe: two owners registering one wallet at once, one wins.
create table agent_wallet_owners (
  agent_wallet text primary key,
  owner_wallet text not null
);
insert into agent_wallet_owners (agent_wallet, owner_wallet)
  select distinct on (agent_wallet) agent_wallet, owner_wallet from agents order by agent_wallet, created_at, id;
