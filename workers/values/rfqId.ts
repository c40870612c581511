// An RFQ's id carries the instant it was made, so the store finds its row (and its quotes) in the one partition of
// its UTC creation day without reading anything first (engine/store: every lookup by id passes the day). The id is
// `rfq_` + 12 hex digits of the creation's Unix milliseconds + 32 hex digits of 128 random bits: unguessable as
// before, and opaque to clients (they never parse it). rfqs.created_at is that very instant: the RFQ service takes
// one clock reading for both (engine/rfq/service.ts). Ids made before this format (`rfq_` + 32 random hex) carry
// no time: their day is 'unknown', and the store then probes every partition for them.

const TIMED = /^rfq_[0-9a-f]{44}$/
/**
 * The last instant with a day the store can name (9999-12-31, 23:59:59.999 UTC): 12 hex digits reach year 10889,
 * where an ISO day is no `YYYY-MM-DD` PostgreSQL reads. A client can write such an id; it names no RFQ's day.
 */
const LAST_MS = 253_402_300_799_999

/** The id of an RFQ made at `atMs` with `randomHex` (32 hex digits: 128 random bits). */
export function rfqIdAt(atMs: number, randomHex: string): string {
  if (!/^[0-9a-f]{32}$/.test(randomHex)) throw new Error('an RFQ id takes 32 random hex digits')
  if (!Number.isSafeInteger(atMs) || atMs < 0 || atMs > LAST_MS) throw new Error(`no RFQ id for time ${atMs}`)
  return `rfq_${atMs.toString(16).padStart(12, '0')}${randomHex}`
}

/**
 * The Unix milliseconds an RFQ id was made at; undefined for an id that carries no time (a legacy one) or a time past
 * year 9999 (no RFQ was made then: the id is a client's, and is looked up like a legacy one, in every day).
 */
export function rfqIdTime(id: string): number | undefined {
  // test and read the digits in place: exec's match array and substring were two allocations a quote on the
  // group commit's path (issue 29); 12 hex digits are 48 bits, exact in a double
  if (!TIMED.test(id)) return undefined
  let at = 0
  for (let i = 4; i < 16; i++) {
    const c = id.charCodeAt(i)
    at = at * 16 + (c <= 57 ? c - 48 : c - 87) // '0'-'9', 'a'-'f' (the pattern allowed nothing else)
  }
  return at <= LAST_MS ? at : undefined
}

const DAY_MS = 86_400_000
/** day number -> 'YYYY-MM-DD': the quote writer asks for every quote of a commit, and a Date per call showed */
const dayNames = new Map<number, string>()

/** The UTC day (YYYY-MM-DD) an RFQ was made on, from its id alone; 'unknown' for an id that carries no time. */
export function rfqDayOf(id: string): string {
  const at = rfqIdTime(id)
  if (at === undefined) return 'unknown'
  const day = Math.floor(at / DAY_MS)
  let name = dayNames.get(day)
  if (name === undefined) {
    name = new Date(day * DAY_MS).toISOString().slice(0, 10)
    if (dayNames.size >= 1024) dayNames.clear() // a bound: ids from any day can be looked up
    dayNames.set(day, name)
  }
  return name
}
