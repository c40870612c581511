// Badges: pure rules over a wallet's fill statistics. A badge is earned or not; there are no levels.
export interface FillStats {
  fills: number
  makerFills: number
  takerFills: number
  notionalUsd: number
  privateFills: number
  benchmarkedFills: number
  /** over benchmarked fills; null when none */
  avgImprovementBps: number | null
  firstFillAt: Date | null
  lastFillAt: Date | null
}

export interface Badge {
  id: string
  name: string
  description: string
}

interface Rule extends Badge {
  earned(s: FillStats): boolean
}

export const BADGE_RULES: readonly Rule[] = [
  {
    id: 'first_fill',
    name: 'First Fill',
    description: 'Completed a first fill, as maker or taker',
    earned: s => s.fills >= 1,
  },
  { id: 'active_trader', name: 'Active Trader', description: '10 or more fills', earned: s => s.fills >= 10 },
  { id: 'veteran', name: 'Veteran', description: '100 or more fills', earned: s => s.fills >= 100 },
  {
    id: 'volume_10k',
    name: '10k Club',
    description: 'USD 10,000 or more filled notional',
    earned: s => s.notionalUsd >= 10_000,
  },
  {
    id: 'volume_1m',
    name: 'Millionaire',
    description: 'USD 1,000,000 or more filled notional',
    earned: s => s.notionalUsd >= 1_000_000,
  },
  {
    id: 'market_maker',
    name: 'Market Maker',
    description: '10 or more fills as maker',
    earned: s => s.makerFills >= 10,
  },
  {
    id: 'price_improver',
    name: 'Price Improver',
    description: 'Positive average improvement over 5 or more benchmarked fills',
    earned: s => s.benchmarkedFills >= 5 && (s.avgImprovementBps ?? 0) > 0,
  },
  {
    id: 'privacy_first',
    name: 'Privacy First',
    description: '5 or more private fills',
    earned: s => s.privateFills >= 5,
  },
]

export function badgesFor(s: FillStats): Badge[] {
  return BADGE_RULES.filter(r => r.earned(s)).map(({ id, name, description }) => ({ id, name, description }))
}
