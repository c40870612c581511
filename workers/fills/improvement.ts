// Price improvement of an RFQ fill against the AMM baseline shown at RFQ creation, exact from
// uint256 amounts: improvementBps = ((rfqAmountOut / baselineAmountOut) - 1) * 10000 (spec).
// We compute it in hundredths of a bp with one integer division, rounded half away from zero,
// so 2^256-sized amounts lose nothing and no float ever sees the amounts.
import { divRoundHalfAway } from './round.js'

/** hundredths of a bp per unit ratio: 10_000 bps * 100 */
const CENTI_BPS = 1_000_000n

export interface ImprovementInput {
  /** 0 EXACT_IN (the output varies), 1 EXACT_OUT (the input varies) */
  kind: 0 | 1
  rfqAmountIn: bigint
  rfqAmountOut: bigint
  baselineAmountIn: bigint
  baselineAmountOut: bigint
}

/**
 * Improvement in hundredths of a bp (an integer).
 * EXACT_IN: (rfqOut / baseOut - 1), the spec's formula.
 * EXACT_OUT: the taker's gain is paying less input for the same output, so we compare rates:
 *   (rfqOut / rfqIn) / (baseOut / baseIn) - 1 = (rfqOut * baseIn) / (rfqIn * baseOut) - 1,
 * which is baseIn / rfqIn - 1 when the fill's output equals the baseline's (the usual case).
 */
export function improvementCentiBps(x: ImprovementInput): bigint {
  const [num, den] =
    x.kind === 1
      ? [x.rfqAmountOut * x.baselineAmountIn, x.rfqAmountIn * x.baselineAmountOut]
      : [x.rfqAmountOut, x.baselineAmountOut]
  if (den <= 0n) throw new RangeError('baseline amount must be positive')
  return divRoundHalfAway((num - den) * CENTI_BPS, den)
}

/** Improvement in bps with two decimals, as the API reports it. */
export function improvementBps(x: ImprovementInput): number {
  return centiToBps(improvementCentiBps(x))
}

export function centiToBps(centi: bigint): number {
  // Number(bigint) is exact below 2^53; above it the value is astronomically large anyway and
  // Number() gives the nearest double. The string form stays exact for storage.
  return Number(centi) / 100
}

/** The exact decimal text of a centi-bps value, e.g. -666667n -> "-6666.67" (for numeric storage). */
export function centiToDecimal(centi: bigint): string {
  const neg = centi < 0n
  const a = neg ? -centi : centi
  const s = `${a / 100n}.${(a % 100n).toString().padStart(2, '0')}`
  return neg ? `-${s}` : s
}
