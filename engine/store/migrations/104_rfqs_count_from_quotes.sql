-- An RFQ's quote count is its stored quotes' (engine/store/rfqRow.ts counts them: one index range of the quotes' key),
-- no longer a column the group commit bumps. The bump wrote a new version of the RFQ's row for every commit that
-- quoted it, with its partial indexes for the first quote: at the relay's rates, and with a commit's quotes spread over
-- many RFQs, ~10 µs of PostgreSQL's time a quote, a third of it (issue 29). The count stored so far was the number of
-- quotes stored (the bump counted inserted rows only), so reads answer as before. A quote's `arrival` number now comes
-- from the RFQ actor that accepted it (it was the bumped count), and the RFQ's row is written once, OPEN -> QUOTED.
alter table rfqs drop column quote_count;
