-- Where a token's row came from. 'list': the token list loaded at start (TOKENS_FILE or the chain's shipped
-- list), written again at every start, so the list file is the truth for its rows. 'chain': read on chain (the
-- pool scanner, TOKENS_POLICY=chain, the sandbox's deployments). A chain read never overwrites a list row, and a
-- symbol resolves to list rows first: a token deployed with a listed token's symbol cannot take its name.
alter table tokens add column source text not null default 'chain' check (source in ('list', 'chain'));
alter table tokens add column name text;
