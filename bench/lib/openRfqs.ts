// Open public RFQs made straight in the store for the commit benches (bench/commit.ts, bench/commitFloor.ts): ids as
// the engine makes them (their day in the id), all created `now` and open for an hour, one taker and pair.
import { randomBytes } from 'node:crypto'
import type { Sql } from '../../engine/store/db.js'
import { insertRfq } from '../../engine/store/rfqs.js'
import { rfqIdAt } from '../../workers/values/index.js'
import type { Address } from '../../actors/rfqTypes.js'

/** `count` open RFQs of `taker` selling `tokenIn` for `tokenOut`, stored; their ids in order. */
export async function openRfqs(
  sql: Sql,
  count: number,
  { now, taker, tokenIn, tokenOut }: { now: number; taker: Address; tokenIn: Address; tokenOut: Address },
): Promise<string[]> {
  const ids: string[] = []
  for (let i = 0; i < count; i++) {
    const id = rfqIdAt(now, randomBytes(16).toString('hex'))
    ids.push(id)
    await insertRfq(
      sql,
      {
        id,
        taker,
        tokenIn,
        tokenOut,
        kind: 0,
        amountIn: 1n,
        amountOut: null,
        expiry: Math.floor(now / 1000) + 3600,
        visibility: 'public',
        allowedMakers: [],
        shareToken: null,
        createdAt: new Date(now),
        agentId: null,
      },
      null,
    )
  }
  return ids
}
