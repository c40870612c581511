// An RFQ's status, and the one lifetime rule every floor asks: open is OPEN or QUOTED; live is open and before its
// own expiry, judged by Node's clock (the engine's, the actors' and the console's alike: PostgreSQL's clock is never
// asked whether an RFQ expired). The store's SQL says the same through engine/store/rfqOpen.ts, built from these.

export const RFQ_STATUSES = ['OPEN', 'QUOTED', 'FILLED', 'CANCELLED', 'EXPIRED'] as const
export type RfqStatus = (typeof RFQ_STATUSES)[number]

/** Still open to quotes, a cancel and a fill: any other status is how the RFQ ended. */
export const OPEN_STATUSES = ['OPEN', 'QUOTED'] as const satisfies readonly RfqStatus[]
export type OpenStatus = (typeof OPEN_STATUSES)[number]

export function isOpen(status: string): status is OpenStatus {
  return status === 'OPEN' || status === 'QUOTED'
}

/** An RFQ expiring at `expiry` (unix seconds) has expired from that second on, by Node's clock (`nowMs`). */
export function hasExpired(expiry: number, nowMs: number): boolean {
  return nowMs >= expiry * 1000
}

/** Open and before its own expiry: what a relay holds live, lists as open and counts against a creator's cap. */
export function isLive(status: string, expiry: number, nowMs: number): boolean {
  return isOpen(status) && !hasExpired(expiry, nowMs)
}

/** Node's clock in unix seconds: `expiry > toUnixSeconds(nowMs)` is exactly `!hasExpired(expiry, nowMs)`. */
export function toUnixSeconds(nowMs: number): number {
  return Math.floor(nowMs / 1000)
}
