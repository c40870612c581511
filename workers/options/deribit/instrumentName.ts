// Deribit option names, BTC-27DEC24-60000-C, become ours, BTC-20241227-60000-C
// (<UNDERLYING>-<YYYYMMDD>-<strike>-<C|P>). Deribit writes a fractional strike with 'd' for the
// point (XRP_USDC-30MAY25-2d25-C); linear options carry the quote currency in the prefix
// (SOL_USDC), and their prices are in that quote currency instead of the underlying.

export interface OptionName {
  /** the venue's spelling */
  venueName: string
  /** canonical: <UNDERLYING>-<YYYYMMDD>-<strike>-<C|P> */
  name: string
  underlying: string
  /** YYYYMMDD */
  expiryDay: string
  /** 08:00 UTC on the expiry date: Deribit's settlement time (get_instruments' expiration_timestamp wins when known) */
  expiryTs: Date
  strike: number
  isCall: boolean
  /** true when prices are quoted in the underlying (inverse: BTC, ETH); false for *_USDC linear options */
  pricedInUnderlying: boolean
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC']
const SHAPE = /^([A-Z0-9_]+)-(\d{1,2})([A-Z]{3})(\d{2})-(\d+(?:d\d+)?)-([CP])$/

/** null for anything that is not an option name (futures, perpetuals, combos, garbage). */
export function parseOptionName(venueName: string): OptionName | null {
  const m = SHAPE.exec(venueName)
  if (!m) return null
  const [, prefix, day, mon, yy, strikeText, cp] = m as unknown as [
    string,
    string,
    string,
    string,
    string,
    string,
    'C' | 'P',
  ]
  const month = MONTHS.indexOf(mon)
  if (month < 0) return null
  const year = 2000 + Number(yy)
  const d = Number(day)
  const expiryTs = new Date(Date.UTC(year, month, d, 8))
  if (expiryTs.getUTCDate() !== d) return null // 31FEB25 and the like
  const strike = Number(strikeText.replace('d', '.'))
  if (!Number.isFinite(strike) || strike <= 0) return null
  const expiryDay = `${year}${String(month + 1).padStart(2, '0')}${String(d).padStart(2, '0')}`
  const underlying = prefix
  return {
    venueName,
    underlying,
    expiryDay,
    expiryTs,
    strike,
    isCall: cp === 'C',
    name: canonicalName(underlying, expiryDay, strike, cp === 'C'),
    pricedInUnderlying: !prefix.includes('_'),
  }
}

export function canonicalName(underlying: string, expiryDay: string, strike: number, isCall: boolean): string {
  return `${underlying}-${expiryDay}-${String(strike)}-${isCall ? 'C' : 'P'}`
}

/** YYYYMMDD → the UTC date it names, or null when it names no date. */
export function parseExpiryDay(text: string): { day: string; date: Date } | null {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(text)
  if (!m) return null
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const date = new Date(Date.UTC(y, mo - 1, d, 8))
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null
  return { day: text, date }
}

/** Ours back to Deribit's day-month-year spelling (the synthetic market builds venue names with it). */
export function deribitDate(d: Date): string {
  return `${d.getUTCDate()}${MONTHS[d.getUTCMonth()]}${String(d.getUTCFullYear() % 100).padStart(2, '0')}`
}
