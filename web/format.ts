// How the console writes numbers, amounts, addresses and times. Token amounts arrive as decimal strings
// of raw units; they are divided by 10^decimals with bigint arithmetic, never through a float.

export function units(raw: string | null | undefined, decimals: number | null | undefined, digits = 6): string {
  if (raw === null || raw === undefined || raw === '') return '–'
  if (decimals === null || decimals === undefined) return `${raw} raw`
  const v = BigInt(raw)
  const neg = v < 0n
  const a = neg ? -v : v
  const base = 10n ** BigInt(decimals)
  const whole = a / base
  let frac = (a % base).toString().padStart(decimals, '0').slice(0, digits).replace(/0+$/, '')
  if (whole === 0n && frac === '' && a > 0n) frac = '0'.repeat(Math.max(0, digits - 1)) + '1' // tiny but not zero
  return `${neg ? '-' : ''}${whole.toLocaleString('en-US')}${frac ? '.' + frac : ''}`
}

/** A raw amount as a float, for prices and charts only (never for amounts shown as amounts). */
export function toFloat(raw: string | null | undefined, decimals: number | null | undefined): number {
  if (!raw) return NaN
  return Number(raw) / 10 ** (decimals ?? 0)
}

/** "1.5" with 18 decimals -> "1500000000000000000"; null when it is not a plain decimal number. */
export function parseUnits(text: string, decimals: number): string | null {
  const m = /^\s*(\d*)(?:\.(\d*))?\s*$/.exec(text)
  if (!m || (!m[1] && !m[2])) return null
  const frac = (m[2] ?? '').slice(0, decimals).padEnd(decimals, '0')
  const raw = BigInt((m[1] || '0') + frac)
  return raw > 0n ? raw.toString() : null
}

export function num(n: number | null | undefined, digits = 2): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '–'
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 })
}

/** a price with four significant digits, whatever its size, without trailing zeros */
export function price(n: number): string {
  if (!Number.isFinite(n) || n === 0) return '–'
  return Math.abs(n) >= 1000 ? num(n, 2) : String(Number(n.toPrecision(4)))
}

export function usd(n: number | null | undefined): string {
  return n === null || n === undefined ? '–' : '$' + num(n, 2)
}

export function pct(fraction: number | null | undefined, digits = 1): string {
  return fraction === null || fraction === undefined ? '–' : num(fraction * 100, digits) + '%'
}

export function short(address: string | null | undefined): string {
  if (!address) return '–'
  return address.length > 14 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address
}

/** "12 s", "3 min", "2 h" */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000))
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`
  if (s < 120) return `${s} s`
  if (s < 7200) return `${Math.round(s / 60)} min`
  if (s < 172800) return `${Math.round(s / 3600)} h`
  return `${Math.round(s / 86400)} d`
}

export function ago(iso: string | number | null | undefined, now = Date.now()): string {
  if (iso === null || iso === undefined) return 'never'
  const t = typeof iso === 'number' ? iso : Date.parse(iso)
  return Number.isNaN(t) ? '–' : `${duration(now - t)} ago`
}

export function clock(t: string | number): string {
  const d = new Date(t)
  return Number.isNaN(d.getTime()) ? '–' : d.toLocaleTimeString('en-GB', { hour12: false })
}
