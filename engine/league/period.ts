// League periods are whole UTC days, because the rollups are per UTC day: '7d' is today and the
// six days before it, '30d' today and the 29 before; 'all' reads the all-time rollup.
export type Period = '7d' | '30d' | 'all'
export const PERIODS: readonly Period[] = ['7d', '30d', 'all']

/** First UTC day (YYYY-MM-DD) of the period, or null for all time. */
export function periodStartDay(period: Period, now = new Date()): string | null {
  if (period === 'all') return null
  const days = period === '7d' ? 7 : 30
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)))
  return d.toISOString().slice(0, 10)
}
