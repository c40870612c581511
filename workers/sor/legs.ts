// The chosen routes replayed hop by hop with the exact pool math: what each hop is offered and takes (a V3 pool
// can run out of liquidity or of loaded words), and what follows from it: the largest input each route really
// takes (a binary search of exact simulations: the route threads run it, not the engine's main thread), the V3
// pools whose loaded words a hop walked off, and the LP fee each hop pays.
import type { Address, PoolState } from './types.js'
import type { FoundRoute, RouteResult } from './findRoute.js'
import { simulateExactIn } from './pool.js'
import { swap as v3Swap } from './v3/swap.js'
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO } from './v3/tickMath.js'

/** Where the pools' states are read from: the engine's map, or a route thread's copy of the graph. */
export type States = Pick<ReadonlyMap<Address, PoolState>, 'get'>

export interface Leg {
  route: FoundRoute
  pool: FoundRoute['pools'][number]
  state: PoolState
  tokenIn: Address
  tokenOut: Address
  /** what the hop is offered, takes and pays (raw units) */
  offered: bigint
  taken: bigint
  paid: bigint
}

export interface FeeItem {
  pool: Address
  protocol: string
  poolType: string
  /** the pool's fee in bps (pips / 100) */
  feeBps: number
  /** the token the LP fee is charged in: the hop's input (v2, v3) or output (stable) */
  token: Address
  /** LP fee paid on this hop, estimated from the quoted amounts (raw units of `token`) */
  amount: bigint
}

/** Each hop of each chosen route, replayed exactly: the amount entering it, and whether the pool takes all of it. */
export function legsOf(result: RouteResult, states: States): Leg[] {
  const legs: Leg[] = []
  for (const route of result.routes) {
    let amount = route.amountIn
    for (let i = 0; i < route.pools.length; i++) {
      const state = states.get(route.pools[i]!.address)
      if (!state) break
      const tokenIn = route.path[i]!,
        tokenOut = route.path[i + 1]!
      const sim = simulateExactIn(state, tokenIn, tokenOut, amount)
      legs.push({
        route,
        pool: route.pools[i]!,
        state,
        tokenIn,
        tokenOut,
        offered: amount,
        taken: sim.amountIn,
        paid: sim.amountOut,
      })
      amount = sim.amountOut
    }
  }
  return legs
}

export interface Routable {
  amountIn: bigint
  amountOut: bigint
  routes: FoundRoute[]
}

/** What the routes of a result take whole; null when every hop takes all it is offered (nothing to fit). */
export function fitOf(result: RouteResult, states: States): Routable | null {
  return legsOf(result, states).some(h => h.taken < h.offered) ? routableOf(result, states) : null
}

/**
 * What each chosen route can really take: the largest input, up to its allocation, that every hop takes whole
 * (more input never makes a hop take all of it, so a binary search finds it), with the output it then pays.
 */
export function routableOf(result: RouteResult, states: States): Routable {
  const routes: FoundRoute[] = []
  let amountIn = 0n,
    amountOut = 0n
  for (const r of result.routes) {
    let x = r.amountIn,
      out = takenWhole(r, states, x)
    if (out === null) {
      let lo = 0n,
        hi = r.amountIn
      while (hi - lo > 1n) {
        const mid = (lo + hi) / 2n
        if (takenWhole(r, states, mid) !== null) lo = mid
        else hi = mid
      }
      x = lo
      out = takenWhole(r, states, lo) ?? 0n
    }
    if (x > 0n) routes.push({ ...r, amountIn: x, amountOut: out })
    amountIn += x
    amountOut += out
  }
  for (const r of routes) r.fractionPct = amountIn > 0n ? Number((r.amountIn * 10_000n) / amountIn) / 100 : 0
  return { amountIn, amountOut, routes }
}

/** The route's output for x in, or null when some hop would not take all it is offered. */
function takenWhole(r: FoundRoute, states: States, x: bigint): bigint | null {
  let a = x
  for (let i = 0; i < r.pools.length; i++) {
    const state = states.get(r.pools[i]!.address)
    if (!state) return null
    const sim = simulateExactIn(state, r.path[i]!, r.path[i + 1]!, a)
    if (sim.amountIn < a) return null
    a = sim.amountOut
  }
  return a
}

/** The V3 hops cut short by the edge of their loaded words, with the side they walked off. */
export function wordEdges(legs: readonly Leg[]): { address: Address; zeroForOne: boolean }[] {
  const out = new Map<Address, boolean>()
  for (const h of legs) {
    if (h.state.kind !== 'v3' || h.taken >= h.offered) continue
    const zeroForOne = h.tokenIn === h.state.token0
    try {
      if (
        v3Swap(h.state, zeroForOne, h.offered, zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n)
          .reachedWordRangeEnd
      )
        out.set(h.state.address, zeroForOne)
    } catch {
      /* the swap reverts at any width: more words would not change that */
    }
  }
  return [...out].map(([address, zeroForOne]) => ({ address, zeroForOne }))
}

export function feesOf(legs: readonly Leg[]): FeeItem[] {
  return legs.map(h => {
    let token = h.tokenIn,
      amount: bigint
    switch (h.state.kind) {
      case 'v2':
        amount = (h.taken * BigInt(h.state.feePpm)) / 1_000_000n
        break
      case 'v3':
        amount = ceilDiv(h.taken * BigInt(h.state.fee), 1_000_000n)
        break
      case 'stable': {
        // the stable pool keeps fee / 1e10 of the gross output: paid = gross - fee part
        token = h.tokenOut
        const f = h.state.fee,
          D = 10_000_000_000n
        amount = f >= D ? 0n : (h.paid * f) / (D - f)
        break
      }
    }
    return {
      pool: h.pool.address,
      protocol: h.pool.protocol,
      poolType: h.pool.poolType,
      feeBps: h.pool.fee / 100,
      token,
      amount,
    }
  })
}

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b
