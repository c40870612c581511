// The route finder follows the chain by itself: every SOR_FOLLOW_INTERVAL_MS it reads the head and, when
// it moved, the logs of the new blocks from every tracked pool and every factory. A pool that logged
// anything (V2 Sync, V3 Swap/Mint/Burn, the stable pool's exchanges and liquidity events) is re-read at
// the head, and only those; a factory that logged (PairCreated, PoolCreated) runs the resumable scan, and
// the new pools are read too. A reorg (the block we last followed is no longer on the chain), a gap too
// long to replay, or a failed read falls back to a full reload: scan, then every pool at the head. Each
// reload is logged with its reason and counted.
import type { Logger } from 'pino'
import type { PublicClient } from 'viem'
import { backoffDelayMs } from '../../workers/retry/backoff.js'
import type { Address } from '../../workers/sor/types.js'
import type { TrackedPool } from '../store/sor.js'
import type { PoolGraph } from './poolGraph.js'

export type ReloadReason = 'start' | 'reorg' | 'gap' | 'failure'

export interface FollowDeps {
  client: PublicClient
  graph: PoolGraph
  log: Logger
  intervalMs: number
  /** factory addresses of the configured protocols (a log from one means a new pool) */
  factories(): Address[]
  scan(): Promise<unknown>
  /** every tracked pool at its block: the forcing refresh */
  refresh(): Promise<unknown>
  /** these pools at `block`, merged into the graph; throws when one cannot be read */
  reread(pools: TrackedPool[], block: bigint): Promise<void>
  /** a new head with nothing to re-read: the graph is current at it */
  advance(block: bigint): void
}

export interface FollowStats {
  blocks: number
  rereads: number
  rpcCalls: number
  reloads: Record<ReloadReason, number>
  headBlock: bigint | null
  /** when the graph last matched the head we saw (ms since epoch) */
  currentAt: number | null
}

const MAX_REPLAY_BLOCKS = 1000n

export function followChain(d: FollowDeps): {
  stop(): Promise<void>
  step(): Promise<void>
  readonly stats: FollowStats
} {
  const stats: FollowStats = {
    blocks: 0,
    rereads: 0,
    rpcCalls: 0,
    reloads: { start: 0, reorg: 0, gap: 0, failure: 0 },
    headBlock: null,
    currentAt: null,
  }
  let last: { number: bigint; hash: string } | null = null
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> = Promise.resolve()

  const reload = async (reason: ReloadReason, head: { number: bigint; hash: string }) => {
    stats.reloads[reason]++
    if (reason !== 'start') d.log.warn({ reason, head: String(head.number) }, 'sor: full reload of pools and state')
    await d.scan()
    await d.refresh()
    last = head
  }

  async function tick(): Promise<void> {
    stats.rpcCalls++
    const head = await d.client.getBlock({ blockTag: 'latest' })
    const now = { number: head.number, hash: head.hash }
    stats.headBlock = head.number
    if (!last)
      return reload('start', now).then(() => {
        stats.currentAt = Date.now()
      })
    if (now.hash === last.hash) {
      stats.currentAt = Date.now()
      return
    }
    // is the block we followed still on the chain? (one read: the new head's parent, or that block itself)
    let onChain: boolean
    if (now.number === last.number + 1n) onChain = head.parentHash === last.hash
    else if (now.number <= last.number) onChain = false
    else {
      stats.rpcCalls++
      onChain = (await d.client.getBlock({ blockNumber: last.number })).hash === last.hash
    }
    if (!onChain)
      return reload('reorg', now).then(() => {
        stats.currentAt = Date.now()
      })
    if (now.number - last.number > MAX_REPLAY_BLOCKS)
      return reload('gap', now).then(() => {
        stats.currentAt = Date.now()
      })

    const factories = new Set(d.factories().map(a => a.toLowerCase()))
    const watched = [...d.graph.pools.keys(), ...factories] as Address[]
    stats.rpcCalls++
    const logs = watched.length
      ? await d.client.getLogs({ address: watched, fromBlock: last.number + 1n, toBlock: now.number })
      : []
    if (logs.some(l => factories.has(l.address.toLowerCase()))) await d.scan() // new pools: track them
    const touched = new Set(logs.map(l => l.address.toLowerCase() as Address))
    const pools = [...d.graph.pools.values()].filter(p => touched.has(p.address) || !d.graph.states.has(p.address))
    if (pools.length) {
      stats.rpcCalls++
      await d.reread(pools, now.number)
      stats.rereads += pools.length
    } else d.advance(now.number)
    stats.blocks += Number(now.number - last.number)
    last = now
    stats.currentAt = Date.now()
  }

  // A chain that does not answer is retried with a doubling pause (up to 30 s), and said once, not every second.
  let failures = 0
  const loop = () => {
    if (stopped) return
    running = tick()
      .then(
        () => {
          if (failures) d.log.info({ after: failures }, 'sor: following the chain again')
          failures = 0
        },
        async (err: unknown) => {
          if (failures === 0) d.log.warn({ err: (err as Error).message }, 'sor: following the chain failed; reloading')
          try {
            stats.rpcCalls++
            const head = await d.client.getBlock({ blockTag: 'latest' })
            await reload('failure', { number: head.number, hash: head.hash })
            failures = 0
          } catch (e) {
            last = null // the chain is unreachable: start over when it answers
            if (failures++ === 0)
              d.log.warn({ err: (e as Error).message }, 'sor: the chain does not answer; retrying with backoff')
          }
        },
      )
      .finally(() => {
        if (stopped) return
        timer = setTimeout(loop, failures ? backoffDelayMs(failures, d.intervalMs, 30_000) : d.intervalMs)
        timer.unref()
      })
  }
  loop()

  return {
    stats,
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
    },
    /** one follow step now, after the one running (a bench measures a step; tests need not) */
    async step() {
      await running
      await tick()
    },
  }
}
