// An RFQ made through the agent API and read back as the terms a maker signs over (the registry's token addresses,
// the taker's address, the expiry the engine set). The suites that quote a real, API-made RFQ share this one path.
import assert from 'node:assert/strict'
import type { Rfq } from '../../actors/rfqTypes.js'
import { makeRfq } from '../relay/helpers.js'
import { get, post } from './agentKit.js'

/** WETH -> USDC, 1000 raw units in, five minutes, unless `body` says otherwise; asserts the 201. */
export async function createAgentRfq(
  api: string,
  taker: { headers: Record<string, string> },
  body: Record<string, unknown> = {},
): Promise<Rfq> {
  const created = await post(
    api,
    '/api/v1/agent/rfqs',
    { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1000', ttlSeconds: 300, ...body },
    taker.headers,
  )
  assert.equal(created.status, 201, JSON.stringify(created.body))
  const { rfq } = (await get(api, `/api/v1/rfqs/${created.body.rfqId}`, taker.headers)).body
  return makeRfq({
    id: created.body.rfqId,
    taker: rfq.taker,
    tokenIn: rfq.tokenIn.address,
    tokenOut: rfq.tokenOut.address,
    expiry: rfq.expiry,
    visibility: rfq.visibility,
    shareToken: created.body.shareToken ?? null,
  })
}
