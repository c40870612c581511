// Pool discovery: each factory's creation events (PairCreated for V2, PoolCreated for V3) read in
// block ranges of SOR_SCAN_BLOCK_RANGE from where the last scan stopped, so a scan interrupted at
// any point resumes without a gap. Stable pools have no factory: they are registered by address in
// the protocol entry (`pools`) and read here once. Every new token's symbol and decimals are read
// on chain and written to the token registry.
import type { Logger } from 'pino'
import type { PublicClient } from 'viem'
import type { Sql } from '../store/db.js'
import {
  insertPools,
  listProtocols,
  setLastScannedBlock,
  type Address,
  type Protocol,
  type TrackedPool,
} from '../store/sor.js'
import { tokensByAddresses, upsertToken } from '../store/tokens.js'
import { pairCreated, poolCreated, stablePoolAbi, erc20MetaAbi, erc20Bytes32SymbolAbi } from './abis.js'
import { readAll } from '../chain/multicall.js'
import { hexToString } from 'viem'

export interface ScanDeps {
  sql: Sql
  client: PublicClient
  log: Logger
  chainId: number
  blockRange: number
  multicallAddress?: Address
  /** called with every pool recorded (new or not), so the cached graph tracks it */
  onPool(pool: TrackedPool): void
}

export interface ProtocolScan {
  protocol: string
  poolType: string
  fromBlock: string | null
  toBlock: string
  poolsFound: number
  newPools: number
}
export interface ScanReport {
  headBlock: string
  protocols: ProtocolScan[]
  newPools: number
  tokensAdded: number
  durationMs: number
}

export const V2_DEFAULT_FEE_PPM = 3000

export async function scanPools(d: ScanDeps): Promise<ScanReport> {
  const started = Date.now()
  const head = Number(await d.client.getBlockNumber({ cacheTime: 0 }))
  const report: ProtocolScan[] = []
  const newTokens = new Set<Address>()
  for (const p of await listProtocols(d.sql)) {
    const s = p.poolType === 'stable' ? await scanStable(d, p, head) : await scanFactory(d, p, head)
    report.push(s.report)
    for (const t of s.tokens) newTokens.add(t)
  }
  const tokensAdded = await registerTokens(d, [...newTokens], BigInt(head))
  const out = {
    headBlock: String(head),
    protocols: report,
    newPools: report.reduce((n, r) => n + r.newPools, 0),
    tokensAdded,
    durationMs: Date.now() - started,
  }
  d.log.info({ headBlock: head, newPools: out.newPools, tokensAdded, durationMs: out.durationMs }, 'sor pool scan done')
  return out
}

async function scanFactory(
  d: ScanDeps,
  p: Protocol,
  head: number,
): Promise<{ report: ProtocolScan; tokens: Address[] }> {
  const first = p.lastScannedBlock === null ? p.startBlock : p.lastScannedBlock + 1
  const report: ProtocolScan = {
    protocol: p.slug,
    poolType: p.poolType,
    fromBlock: first <= head ? String(first) : null,
    toBlock: String(head),
    poolsFound: 0,
    newPools: 0,
  }
  const tokens: Address[] = []
  const ranges = Math.max(0, Math.ceil((head - first + 1) / d.blockRange))
  let done = 0
  for (let from = first; from <= head; from += d.blockRange) {
    const to = Math.min(head, from + d.blockRange - 1)
    const pools = p.poolType === 'v2' ? await v2Pairs(d, p, from, to) : await v3Pools(d, p, from, to)
    const added = await insertPools(d.sql, pools) // pools first, then the mark: a crash between re-reads, never skips
    await setLastScannedBlock(d.sql, p.slug, to)
    for (const pool of pools) {
      d.onPool(pool)
      tokens.push(...pool.tokens)
    }
    report.poolsFound += pools.length
    report.newPools += added.length
    done++
    d.log.info(
      {
        protocol: p.slug,
        fromBlock: from,
        toBlock: to,
        range: `${done}/${ranges}`,
        poolsFound: pools.length,
        newPools: added.length,
        totalFound: report.poolsFound,
      },
      'sor scan range',
    )
  }
  return { report, tokens }
}

async function v2Pairs(d: ScanDeps, p: Protocol, from: number, to: number): Promise<TrackedPool[]> {
  const logs = await d.client.getLogs({
    address: p.factoryAddress,
    event: pairCreated,
    fromBlock: BigInt(from),
    toBlock: BigInt(to),
    strict: true,
  })
  return logs.map(l => ({
    address: lower(l.args.pair),
    protocol: p.slug,
    poolType: 'v2',
    tokens: [lower(l.args.token0), lower(l.args.token1)],
    fee: p.feePpm ?? V2_DEFAULT_FEE_PPM,
    tickSpacing: null,
    createdBlock: Number(l.blockNumber),
  }))
}

async function v3Pools(d: ScanDeps, p: Protocol, from: number, to: number): Promise<TrackedPool[]> {
  const logs = await d.client.getLogs({
    address: p.factoryAddress,
    event: poolCreated,
    fromBlock: BigInt(from),
    toBlock: BigInt(to),
    strict: true,
  })
  return logs.map(l => ({
    address: lower(l.args.pool),
    protocol: p.slug,
    poolType: 'v3',
    tokens: [lower(l.args.token0), lower(l.args.token1)],
    fee: Number(l.args.fee),
    tickSpacing: Number(l.args.tickSpacing),
    createdBlock: Number(l.blockNumber),
  }))
}

// The registered pools not yet recorded: their coins and fee, read at the head.
async function scanStable(
  d: ScanDeps,
  p: Protocol,
  head: number,
): Promise<{ report: ProtocolScan; tokens: Address[] }> {
  const report: ProtocolScan = {
    protocol: p.slug,
    poolType: 'stable',
    fromBlock: null,
    toBlock: String(head),
    poolsFound: p.pools.length,
    newPools: 0,
  }
  const reads = p.pools.flatMap(address => [
    { address, abi: stablePoolAbi, functionName: 'get_coins' },
    { address, abi: stablePoolAbi, functionName: 'fee' },
  ])
  const results = await readAll(d.client, reads, { blockNumber: BigInt(head), multicallAddress: d.multicallAddress })
  const pools: TrackedPool[] = []
  p.pools.forEach((address, k) => {
    const coins = results[2 * k]!,
      fee = results[2 * k + 1]!
    if (!coins.ok || !fee.ok) {
      d.log.warn(
        { protocol: p.slug, pool: address, error: coins.ok ? (fee as { error: string }).error : coins.error },
        'sor scan: registered stable pool unreadable, skipped',
      )
      return
    }
    pools.push({
      address,
      protocol: p.slug,
      poolType: 'stable',
      tokens: (coins.result as string[]).map(lower),
      fee: Number(fee.result),
      tickSpacing: null,
      createdBlock: null,
    })
  })
  const added = await insertPools(d.sql, pools)
  await setLastScannedBlock(d.sql, p.slug, head)
  for (const pool of pools) d.onPool(pool)
  report.newPools = added.length
  d.log.info(
    { protocol: p.slug, registered: p.pools.length, readable: pools.length, newPools: added.length },
    'sor scan stable pools',
  )
  return { report, tokens: pools.flatMap(x => x.tokens) }
}

// Symbol and decimals of the tokens the registry does not know yet, read at one block.
async function registerTokens(d: ScanDeps, candidates: Address[], block: bigint): Promise<number> {
  const unique = [...new Set(candidates)]
  if (!unique.length) return 0
  const known = new Set((await tokensByAddresses(d.sql, d.chainId, unique)).map(t => t.address))
  const missing = unique.filter(t => !known.has(t))
  if (!missing.length) return 0
  const reads = missing.flatMap(address => [
    { address, abi: erc20MetaAbi, functionName: 'symbol' },
    { address, abi: erc20MetaAbi, functionName: 'decimals' },
  ])
  const results = await readAll(d.client, reads, { blockNumber: block, multicallAddress: d.multicallAddress })
  let added = 0
  for (const [k, address] of missing.entries()) {
    const sym = results[2 * k]!,
      dec = results[2 * k + 1]!
    if (!dec.ok) {
      // without decimals an amount cannot be shown or priced: leave it out of the registry, say so
      d.log.warn({ token: address, error: dec.error }, 'sor scan: token decimals unreadable, not registered')
      continue
    }
    const symbol = sym.ok ? String(sym.result) : await bytes32Symbol(d, address, block)
    await upsertToken(d.sql, { chainId: d.chainId, address, symbol, decimals: Number(dec.result) })
    added++
  }
  return added
}

async function bytes32Symbol(d: ScanDeps, address: Address, block: bigint): Promise<string> {
  const [r] = await readAll(d.client, [{ address, abi: erc20Bytes32SymbolAbi, functionName: 'symbol' }], {
    blockNumber: block,
  })
  if (r?.ok) {
    const s = hexToString(r.result as `0x${string}`).replace(/\0+$/, '')
    if (s) return s
  }
  return `UNKNOWN-${address.slice(2, 8)}`
}

const lower = (a: string) => a.toLowerCase() as Address
