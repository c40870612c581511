-- A cluster node asked for a private RFQ by its share token before the creating node's word arrived reads it
-- from the store by the token's hash (actors/replica.ts adoptShared): one live row per hash, found by index.
create index if not exists rfqs_live_share_hash on rfqs (share_token_hash) where status in ('OPEN', 'QUOTED') and share_token_hash is not null;
