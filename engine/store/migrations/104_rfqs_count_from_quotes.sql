-- An RFQ's quote count is its stored quotes' (engine/store/rfqRow.ts counts them: one index range of the quotes' key),
-- no longer a column the group commit bumps. The bump wrote a new version of the RFQ's row for every commit that
-- quoted it, with its partial indexes for the first quote: at the relay's rates, and with a commit's quotes spread over
-- many RFQs, ~10 µs of PostgreSQL's time a quote, a third of it (issue 29). The count stored so far was the number of
-- quotes stored (the bump counted inserted rows only), so reads answer as before. A quote's `arrival` number now comes
-- from the RFQ actor that accepted it (it was the bumped count), and the RFQ's row is written once, OPEN -> QUOTED.
-- The column stays for now, unread and no longer written by this release: the previous release's nodes, still running
-- while the first node of this one starts (deploy/README.md, "Upgrades"), bump it in every commit. A later release
-- drops it.
comment on column rfqs.quote_count is
  'not maintained since 0.12 (migration 104): an RFQ''s quote count is select count(*) from quote_rows where rfq_id = ...';
