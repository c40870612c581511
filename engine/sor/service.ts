// The route finder's state and operations: the protocol registry, the cached graph, pool scans and
// state refreshes (one of each at a time: a second caller shares the running one), and quotes.
import type { Logger } from 'pino'
import { BaseError, type PublicClient } from 'viem'
import type { Config } from '../config.js'
import type { Sql } from '../store/db.js'
import type { RouteLane } from '../pool/lanes.js'
import {
  listPools,
  loadPoolStates as loadStoredStates,
  savePoolStates,
  type Address,
  type Protocol,
  type TrackedPool,
} from '../store/sor.js'
import { createChainClient } from '../chain/client.js'
import { PoolGraph } from './poolGraph.js'
import { protocolView, syncProtocols, ProtocolsFileError, type SyncReport } from './protocols.js'
import { scanPools, type ScanReport } from './scan.js'
import { loadPoolStates } from './refresh.js'
import { stateFromJson, stateToJson } from './stateCodec.js'
import { fail, outcomeOf, type SorOutcome } from './errors.js'
import { quote, quoteAmounts, type SorQuote } from './quote.js'
import { publishGraph } from './graphFeed.js'
import { followChain } from './follow.js'
import { fullWordRange } from '../../workers/sor/v3/tickBitmap.js'
import type { QuoteParams } from './quoteParams.js'

export interface SorDeps {
  config: Config
  sql: Sql
  routePool: RouteLane
  log: Logger
  client?: PublicClient | null
  /** each route search's time (the route-finder histogram) */
  searched?(seconds: number): void
}

export interface RefreshReport {
  asOfBlock: string
  poolsTracked: number
  loaded: number
  failed: { address: Address; error: string }[]
  durationMs: number
}

/** What other modules call: a quote object exactly as GET /api/v1/sor/quote answers it. */
export interface RouteFinder {
  quote(params: QuoteParams): Promise<SorOutcome<SorQuote>>
  /** one pair at several amounts, one search task for all of them (server-side baselines of a pair, coalesced) */
  quoteAmounts(params: Omit<QuoteParams, 'amountIn'>, amounts: bigint[]): Promise<SorOutcome<SorQuote>[]>
}

export type SorService = Awaited<ReturnType<typeof createSorService>>

export async function createSorService(d: SorDeps) {
  const { config, sql, log } = d
  const client = d.client !== undefined ? d.client : config.RPC_URL ? createChainClient(config.RPC_URL) : null
  const graph = new PoolGraph()
  let protocols: Protocol[] = []
  let lastScan: (ScanReport & { at: string }) | null = null
  let scanning: Promise<ScanReport> | null = null
  let refreshing: Promise<RefreshReport> | null = null

  // at start: the file into the database (a bad file stops the start), then the cache from the database
  protocols = (await syncProtocols(sql, config.SOR_PROTOCOLS_FILE)).protocols
  for (const p of await listPools(sql)) graph.track(p)
  const stored = await loadStoredStates(sql)
  const newest = stored.reduce((m, s) => Math.max(m, s.blockNumber), -1)
  if (newest >= 0) {
    // only the newest refresh's rows: a pool that failed then keeps an older row, which would mix blocks
    graph.setStates(
      stored.filter(s => s.blockNumber === newest && graph.pools.has(s.address)).map(s => stateFromJson(s.state)),
      BigInt(newest),
      Date.now(),
    )
  }
  log.info(
    {
      protocols: protocols.length,
      pools: graph.pools.size,
      withState: graph.states.size,
      asOfBlock: newest >= 0 ? newest : null,
    },
    'sor route finder ready',
  )
  // the route threads keep a copy of the states: from now on every change goes to them
  const feed = publishGraph(graph, d.routePool, log)

  const chain = () => {
    if (!client) throw fail({ code: 'NO_CHAIN' })
    return client
  }

  async function sync(): Promise<SyncReport> {
    try {
      const report = await syncProtocols(sql, config.SOR_PROTOCOLS_FILE)
      protocols = report.protocols
      return report
    } catch (e) {
      if (e instanceof ProtocolsFileError) throw fail({ code: 'PROTOCOLS_INVALID', detail: e.message })
      throw e
    }
  }

  function scan(): Promise<ScanReport> {
    return (scanning ??= (async () => {
      try {
        await sync()
        const report = await scanPools({
          sql,
          client: chain(),
          log,
          chainId: config.CHAIN_ID,
          blockRange: config.SOR_SCAN_BLOCK_RANGE,
          multicallAddress: config.MULTICALL_ADDRESS,
          onPool: p => graph.track(p),
        })
        protocols = (await syncProtocols(sql, undefined)).protocols // re-read: last scanned blocks moved
        lastScan = { ...report, at: new Date().toISOString() }
        return report
      } catch (e) {
        throw rpcError(e)
      } finally {
        scanning = null
      }
    })())
  }

  function refresh(): Promise<RefreshReport> {
    return (refreshing ??= (async () => {
      const started = Date.now()
      try {
        const c = chain()
        const blockNumber = await c.getBlockNumber({ cacheTime: 0 }) // viem caches the head for a polling interval
        const pools = [...graph.pools.values()]
        const { states, failed } = await loadPoolStates(c, pools, {
          blockNumber,
          multicallAddress: config.MULTICALL_ADDRESS,
          wordsAround: config.SOR_V3_WORDS,
          wordRanges: graph.wordRanges,
        })
        await savePoolStates(
          sql,
          states.map(s => ({ address: s.address, blockNumber: Number(blockNumber), state: stateToJson(s) })),
        )
        const at = Date.now()
        graph.setStates(states, blockNumber, at)
        graph.lastRefreshError = failed.length
          ? `${failed.length} of ${pools.length} pools unreadable at block ${blockNumber}; first: ${failed[0]!.address}: ${failed[0]!.error}`
          : null
        const report = {
          asOfBlock: String(blockNumber),
          poolsTracked: pools.length,
          loaded: states.length,
          failed,
          durationMs: at - started,
        }
        graph.lastRefresh = { asOfBlock: blockNumber, at, durationMs: report.durationMs, loaded: states.length, failed }
        log.info(
          { asOfBlock: report.asOfBlock, loaded: states.length, failed: failed.length, durationMs: report.durationMs },
          'sor pool state refreshed',
        )
        return report
      } catch (e) {
        const err = rpcError(e)
        graph.lastRefreshError = err instanceof Error ? err.message : String(err)
        log.warn({ err: graph.lastRefreshError }, 'sor pool state refresh failed')
        throw err
      } finally {
        refreshing = null
      }
    })())
  }

  /** Pools re-read at one block and merged (following the chain); a pool that cannot be read fails it. */
  async function reread(pools: TrackedPool[], blockNumber: bigint): Promise<void> {
    const { states, failed } = await loadPoolStates(chain(), pools, {
      blockNumber,
      multicallAddress: config.MULTICALL_ADDRESS,
      wordsAround: config.SOR_V3_WORDS,
      wordRanges: graph.wordRanges,
    })
    if (failed.length)
      throw new Error(
        `${failed.length} of ${pools.length} pools unreadable at block ${blockNumber}; first: ${failed[0]!.address}: ${failed[0]!.error}`,
      )
    await savePoolStates(
      sql,
      states.map(s => ({ address: s.address, blockNumber: Number(blockNumber), state: stateToJson(s) })),
    )
    graph.updateStates(states, blockNumber, Date.now())
  }

  const follower =
    client && config.SOR_FOLLOW_INTERVAL_MS > 0
      ? followChain({
          client,
          graph,
          log,
          intervalMs: config.SOR_FOLLOW_INTERVAL_MS,
          scan,
          refresh,
          reread,
          factories: () => protocols.map(p => p.factoryAddress).filter(a => !/^0x0{40}$/.test(a)),
          advance: block => graph.advance(block, Date.now()),
        })
      : null

  /**
   * More bitmap words of one V3 pool, on the side a swap walked off (`zeroForOne`: lower words), read at the
   * graph's block so the pool stays consistent with every other state: twice the loaded width each time, up
   * to the tick range's end. False when there is nothing more to load, no chain, or the read failed.
   */
  async function extendV3(address: Address, zeroForOne: boolean): Promise<boolean> {
    const state = graph.states.get(address),
      tracked = graph.pools.get(address)
    if (!client || !state || state.kind !== 'v3' || !tracked || graph.asOfBlock === null) return false
    const [lo, hi] = fullWordRange(state.tickSpacing)
    const [from, to] = state.wordRange
    const grow = Math.max(4, to - from + 1)
    const wanted: [number, number] = zeroForOne ? [Math.max(lo, from - grow), to] : [from, Math.min(hi, to + grow)]
    if (wanted[0] === from && wanted[1] === to) return false
    const { states, failed } = await loadPoolStates(client, [tracked], {
      blockNumber: graph.asOfBlock,
      multicallAddress: config.MULTICALL_ADDRESS,
      wordsAround: config.SOR_V3_WORDS,
      wordRanges: new Map([[address, wanted]]),
    }).catch((err: unknown) => {
      // the quote goes on with the words it has (its fit says how far they reach)
      log.warn({ err, pool: address, words: wanted }, 'sor: more V3 bitmap words not read')
      return { states: [], failed: [{}] }
    })
    if (failed.length || !states[0]) return false
    graph.wordRanges.set(address, wanted)
    graph.replaceState(states[0])
    return true
  }

  const quoteDeps = {
    graph,
    feed,
    sql,
    routePool: d.routePool,
    searched: d.searched,
    config,
    log,
    protocols: () => protocols,
    ...(client ? { extendV3 } : {}),
  }
  const routeFinder: RouteFinder = {
    quote: params => outcomeOf(() => quote(quoteDeps, params)),
    quoteAmounts: async (params, amounts) => {
      const o = await outcomeOf(() => quoteAmounts(quoteDeps, params, amounts)) // an unknown token refuses them all
      return o.ok ? o.value : amounts.map(() => o)
    },
  }

  // each entry point answers an outcome; a second caller during a scan or a refresh shares the first one's
  return {
    graph,
    routeFinder,
    feed,
    sync: () => outcomeOf(sync),
    scan: () => outcomeOf(scan),
    refresh: () => outcomeOf(refresh),
    get client() {
      return client
    },
    get protocols() {
      return protocols.map(protocolView)
    },
    get lastScan() {
      return lastScan
    },
    /** null when not following (no chain, or SOR_FOLLOW_INTERVAL_MS=0) */
    get follow() {
      return follower ? { intervalMs: config.SOR_FOLLOW_INTERVAL_MS, ...follower.stats } : null
    },
    /** one follow step now (bench/follow.ts measures its cost); null when not following */
    followStep: follower ? () => follower.step() : null,
    stop: async () => {
      await follower?.stop()
      feed.close()
    },
  }
}

// viem's errors are the chain's (unreachable, reverted, timed out): CHAIN_UNAVAILABLE with its short message; the
// rest stay as they are
function rpcError(e: unknown): unknown {
  return e instanceof BaseError ? fail({ code: 'CHAIN_UNAVAILABLE', reason: `Chain RPC failed: ${e.shortMessage}` }) : e
}
