// Rule 6 (one quote a maker an RFQ) as an RFQ's actor (rfq.ts) keeps it: where each maker's quote stands.
import type { AcceptedQuote, RfqEvent } from './rfqTypes.js'

/**
 * A maker's quote in one RFQ: being written here (`null`, or the store's word of this maker's quote if another node's
 * came meanwhile: the write's answer decides, so a reconcile that read this very quote back does not show it twice),
 * refused by the store as a duplicate or for a closed RFQ (`REFUSED`: not shown, and the maker's later quotes here are
 * duplicates), or stored, this node's or another's (`STORED`: a replica shows each maker's first only). One map, not
 * a set of makers, a set of the stored and a map of the writing: the book holds every live quote, and each RFQ's three
 * tables and each quote's own copy of its maker's address (internAddress.ts) cost ~130 bytes a live quote (issue 29).
 */
export type MakerSlot = typeof STORED | typeof REFUSED | null | { accepted: AcceptedQuote; event: RfqEvent | undefined }
export const STORED = 1
export const REFUSED = 0
