// The ramp's search for the highest rate that holds the target: up by doubling from the start rate while
// steps hold, down by halving while they fail (to --min-rate), then bisection between the highest rate that
// held and the lowest that failed, until they are within 10% (or 1/s). It takes the step as a function, so
// the same search runs against a relay (bench/loadtest.ts) and against a rule in its test.

export interface RampVerdict {
  holds: boolean
  /** why a step failed: shown when no rate holds */ why: string
}
export interface RampTried {
  rate: number
  holds: boolean
  why: string
}
export interface RampOutcome {
  /** the highest rate that held; null when none did */
  highest: number | null
  tried: RampTried[]
  /** one sentence on the outcome: the rate, or why there is none, or that the search stopped at a bound */
  summary: string
}

export interface RampBounds {
  startRate: number
  minRate: number
  maxRate: number
  maxSteps: number
  target: string
}

export async function rampSearch(b: RampBounds, step: (rate: number) => Promise<RampVerdict>): Promise<RampOutcome> {
  const tried: RampTried[] = []
  let good: number | null = null,
    bad: number | null = null
  let rate = Math.min(b.maxRate, Math.max(b.minRate, b.startRate))
  while (tried.length < b.maxSteps) {
    const v = await step(rate)
    tried.push({ rate, ...v })
    if (v.holds) good = Math.max(good ?? rate, rate)
    else bad = Math.min(bad ?? rate, rate)
    let next: number
    if (bad === null)
      next = Math.min(b.maxRate, rate * 2) // everything held: up
    else if (good === null)
      next = Math.max(b.minRate, Math.floor(rate / 2)) // everything failed: down
    else if (bad - good <= Math.max(1, good * 0.1))
      break // close enough
    else next = Math.round((good + bad) / 2)
    if (next === rate || tried.some(t => t.rate === next)) break // at a bound, or nothing new to learn
    rate = next
  }
  return { highest: good, tried, summary: summary(b, good, bad, tried) }
}

function summary(b: RampBounds, good: number | null, bad: number | null, tried: RampTried[]): string {
  if (good === null) {
    const lowest = tried.reduce((x, t) => (t.rate < x.rate ? t : x), tried[0]!)
    const bound = lowest.rate <= b.minRate ? ' (--min-rate)' : ''
    return `no rate holds ${b.target}: the lowest tried, ${lowest.rate}/s${bound}, failed: ${lowest.why}`
  }
  if (bad === null) {
    const more =
      good >= b.maxRate
        ? ' up to --max-rate: raise it to look higher'
        : ` (${tried.length} steps: raise --start-rate to look higher)`
    return `${good}/s holds ${b.target}, and every rate tried held${more}`
  }
  return `${good}/s is the highest rate holding ${b.target} (${bad}/s failed: ${tried.find(t => t.rate === bad)!.why})`
}
