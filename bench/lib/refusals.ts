// What the load test says when most quotes were refused: the code that refused them and the setting of the
// target to change, in one line. The relay answers a sender over its per-IP message limit with one
// RATE_LIMITED and then drops the rest until its minute is over, so those quotes come back as NO_ANSWER;
// any RATE_LIMITED at all therefore names the limit, with a value that fits the rate asked for.

export interface Refusals {
  sent: number
  accepted: number
  errors: Record<string, number>
  /** the highest rate offered, quotes/s */
  rate: number
}

/** settings worth naming per code, beyond the rate limit */
const HINTS: Record<string, string> = {
  BUSY: "the relay's admission control refused them (RELAY_ADMISSION_MS): offer a lower --rate, or give the target cores",
  RFQ_NOT_FOUND: "their RFQs had ended: check the target's RFQ_TTL_SECS against the run's length",
  NO_ANSWER: 'the relay did not answer them within 5 s of the last send: offer a lower --rate',
  UNAVAILABLE: 'the target could not store them (PostgreSQL): see its /health',
}

/** One line when more than half the quotes were not accepted; null otherwise. */
export function explainRefusals(r: Refusals): string | null {
  if (r.sent === 0 || r.accepted * 2 >= r.sent) return null
  const lost = r.sent - r.accepted
  const head = `${lost} of ${r.sent} quotes not accepted`
  if (r.errors.RATE_LIMITED) {
    return (
      `${head}: the relay answered RATE_LIMITED (its per-IP message limit, RATE_LIMIT_PER_MIN) and dropped the rest; ` +
      `restart the target with RATE_LIMIT_PER_MIN=${fittingLimit(r.rate)} ` +
      `(fits ${r.rate} quotes/s from this machine's one IP, with room to spare)`
    )
  }
  const [code, n] = Object.entries(r.errors).sort((a, b) => b[1] - a[1])[0] ?? ['NO_ANSWER', lost]
  return `${head}: ${n} answered ${code}; ${HINTS[code] ?? 'see docs/errors.md for the code'}`
}

/** messages a minute for `rate` quotes a second, a quarter more for pings and bursts, rounded up to two digits */
export function fittingLimit(rate: number): number {
  const need = Math.ceil(rate * 60 * 1.25)
  const unit = 10 ** Math.max(0, String(need).length - 2)
  return Math.ceil(need / unit) * unit
}
