// Recording a fill: one transaction inserts the fill (the txHash's unique constraint picks the one
// winner), benchmarks it against the RFQ's stored baseline, awards points v2 and bumps the league
// rollups. Called by POST /api/v1/fills and, inside its own transaction, by the agent fill.
import type { FillInput, RfqEvent, Visibility } from '../../actors/rfqTypes.js'
import type { EventBus } from '../../actors/events.js'
import type { Sql } from '../store/db.js'
import type { Tx } from '../store/db.js'
import { baselineForRfq } from '../store/baselines.js'
import { insertFill } from '../store/fills.js'
import { bumpRollups, invalidateBases } from '../store/league.js'
import { improvementCentiBps, centiToBps, centiToDecimal } from '../../workers/fills/improvement.js'
import { pointsV2, POINTS_VERSION } from '../../workers/fills/points.js'
import type { Outcome, Refused } from '../../workers/outcome.js'

export interface FillRecord {
  id: string
  txHash: string
  improvementBps: number
  takerPoints: number
  makerPoints: number
  version: typeof POINTS_VERSION
}

export interface RecordFillDeps {
  /** when the fill happened; default the database's now(). Tests and backfills set it. */
  filledAt?: Date
  /**
   * Published with `fill.recorded` after commit. Only when recordFill owns the transaction (it was
   * given the pool): inside a caller's transaction the caller publishes after its own commit
   * (use fillRecordedEvent).
   */
  events?: EventBus<RfqEvent>
}

export type Recorded = Outcome<{ fill: FillRecord }, Refused<'DUPLICATE_FILL'>>

/**
 * Records one fill. `sql` is the pool (recordFill opens and commits its own transaction) or a
 * transaction from `sql.begin` (the caller commits, and rolls back on a refusal of its own).
 * A txHash recorded before is refused with DUPLICATE_FILL and writes nothing.
 */
export async function recordFill(sql: Sql | Tx, input: FillInput, deps: RecordFillDeps = {}): Promise<Recorded> {
  if ('begin' in sql && typeof sql.begin === 'function') {
    const recorded = await sql.begin(tx => recordIn(tx, input, deps))
    if (recorded.ok) deps.events?.publish(fillRecordedEvent(recorded.fill, input.rfqId, input.visibility))
    return recorded
  }
  return recordIn(sql, input, deps)
}

export function fillRecordedEvent(fill: FillRecord, rfqId: string | null, visibility: Visibility): RfqEvent {
  return {
    type: 'fill.recorded',
    visibility,
    fill: {
      id: fill.id,
      txHash: fill.txHash,
      rfqId,
      improvementBps: fill.improvementBps,
      takerPoints: fill.takerPoints,
      makerPoints: fill.makerPoints,
    },
  }
}

async function recordIn(tx: Tx, input: FillInput, deps: RecordFillDeps): Promise<Recorded> {
  const txHash = input.txHash.toLowerCase()
  const taker = input.taker.toLowerCase(),
    maker = input.maker.toLowerCase()
  const baseline = input.rfqId ? await baselineForRfq(tx, input.rfqId) : undefined
  const centi = baseline
    ? improvementCentiBps({
        kind: baseline.kind,
        rfqAmountIn: input.amountIn,
        rfqAmountOut: input.amountOut,
        baselineAmountIn: baseline.amountIn,
        baselineAmountOut: baseline.baselineAmountOut,
      })
    : 0n
  const improvementBps = centiToBps(centi)
  const isPrivate = input.visibility === 'private'
  const points = pointsV2({
    notionalUsd: input.amountInUsd,
    improvementBps,
    isPrivate,
    taker,
    maker,
    amountIn: input.amountIn,
    amountOut: input.amountOut,
  })
  // `on conflict do nothing`: a duplicate leaves the caller's transaction usable (no aborted statement)
  const inserted = await insertFill(tx, {
    txHash,
    rfqId: input.rfqId,
    taker,
    maker,
    tokenIn: input.tokenIn.toLowerCase(),
    tokenOut: input.tokenOut.toLowerCase(),
    amountIn: input.amountIn,
    amountOut: input.amountOut,
    amountInUsd: input.amountInUsd,
    isPrivate,
    benchmarkAvailable: !!baseline,
    improvementBps: centiToDecimal(centi),
    baselineSource: baseline?.source ?? null,
    takerPoints: points.takerPoints,
    makerPoints: points.makerPoints,
    pointsVersion: POINTS_VERSION,
    filledAt: deps.filledAt ?? null,
  })
  if (!inserted) return { ok: false, code: 'DUPLICATE_FILL' }
  if (deps.filledAt) await invalidateBases(tx, inserted.day) // a backdated fill can fall before a period's first day
  // A self-trade is recorded (its txHash is spent) but stays out of the league: no volume to farm.
  if (taker !== maker)
    await bumpRollups(tx, {
      taker,
      maker,
      day: inserted.day,
      notionalUsd: input.amountInUsd,
      benchmarkAvailable: !!baseline,
      improvementBps: centiToDecimal(centi),
      isPrivate,
      takerPoints: points.takerPoints,
      makerPoints: points.makerPoints,
    })
  return {
    ok: true,
    fill: {
      id: inserted.id,
      txHash,
      improvementBps,
      takerPoints: points.takerPoints,
      makerPoints: points.makerPoints,
      version: POINTS_VERSION,
    },
  }
}
