// Shared bits of the fills/baseline/league API tests: addresses, tx hashes, JSON over fetch.
import { randomBytes } from 'node:crypto'

export const addr = (n: number) => '0x' + n.toString(16).padStart(40, '0')
export const txHash = () => '0x' + randomBytes(32).toString('hex')
export const TOKEN_A = addr(0xa1),
  TOKEN_B = addr(0xb2)

export async function post(base: string, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  return { status: res.status, body: await res.json().catch(() => undefined) }
}

export async function get(base: string, path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(base + path)
  return { status: res.status, body: await res.json().catch(() => undefined) }
}

export function fillBody(over: Record<string, unknown> = {}) {
  return {
    txHash: txHash(),
    taker: addr(1),
    maker: addr(2),
    tokenIn: TOKEN_A,
    tokenOut: TOKEN_B,
    amountIn: '1000000',
    amountOut: '2000000',
    amountInUsd: 1000,
    ...over,
  }
}

export function baselineBody(over: Record<string, unknown> = {}) {
  return {
    rfqId: 'rfq-' + randomBytes(4).toString('hex'),
    tokenIn: TOKEN_A,
    tokenOut: TOKEN_B,
    amountIn: '1000000',
    baselineAmountOut: '2000000',
    baselineEffectivePrice: 2,
    baselinePriceImpactBps: 3.5,
    baselineBlockNumber: '123',
    baselineTimestamp: '2025-01-01T00:00:00.000Z',
    baselineRouteSummary: [{ protocol: 'uniswap-v3', poolType: 'v3', fractionPct: 100 }],
    ...over,
  }
}

/** a public limit of 100/min would throttle a test suite that posts hundreds of requests from one IP */
export const TEST_ENV = { PUBLIC_RATE_LIMIT_PER_MIN: '1000000' }
