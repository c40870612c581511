// The route finder's tables: protocols (with where each pool scan resumes), pools found on chain,
// and the last loaded state of each pool (jsonb, bigints as decimal strings).
import type { Tx } from './db.js'

export type Address = `0x${string}`
export type PoolType = 'v2' | 'v3' | 'stable'

export interface Protocol {
  slug: string
  name: string
  poolType: PoolType
  factoryAddress: Address
  /** v2 forks: swap fee in ppm; undefined keeps Uniswap V2's 3000 */
  feePpm?: number
  /** first block the scan reads */
  startBlock: number
  /** stable kind: pool addresses registered by hand */
  pools: Address[]
  lastScannedBlock: number | null
}

export interface TrackedPool {
  address: Address
  protocol: string
  poolType: PoolType
  tokens: Address[]
  /** pips for v2/v3; the contract's 1e10 units for stable */
  fee: number
  tickSpacing: number | null
  createdBlock: number | null
}

export interface StoredState {
  address: Address
  blockNumber: number
  state: unknown
}

/** Inserts or updates a protocol by slug; a new factory address restarts its scan from startBlock. */
export async function upsertProtocol(sql: Tx, p: Omit<Protocol, 'lastScannedBlock'>): Promise<void> {
  await sql`
    insert into sor_protocols (slug, name, pool_type, factory_address, fee_ppm, start_block, pools)
    values (${p.slug}, ${p.name}, ${p.poolType}, ${p.factoryAddress}, ${p.feePpm ?? null}, ${p.startBlock}, ${p.pools})
    on conflict (slug) do update set
      name = excluded.name, pool_type = excluded.pool_type, factory_address = excluded.factory_address,
      fee_ppm = excluded.fee_ppm, start_block = excluded.start_block, pools = excluded.pools, updated_at = now(),
      last_scanned_block = case
        when sor_protocols.factory_address = excluded.factory_address and sor_protocols.pool_type = excluded.pool_type
          and sor_protocols.pools = excluded.pools then sor_protocols.last_scanned_block
        end`
}

export async function listProtocols(sql: Tx): Promise<Protocol[]> {
  const rows =
    await sql`select slug, name, pool_type, factory_address, fee_ppm, start_block, pools, last_scanned_block from sor_protocols order by slug`
  return rows.map(r => ({
    slug: r.slug,
    name: r.name,
    poolType: r.pool_type,
    factoryAddress: r.factory_address,
    ...(r.fee_ppm === null ? {} : { feePpm: r.fee_ppm as number }),
    startBlock: Number(r.start_block),
    pools: r.pools as Address[],
    lastScannedBlock: r.last_scanned_block === null ? null : Number(r.last_scanned_block),
  }))
}

export async function setLastScannedBlock(sql: Tx, slug: string, block: number): Promise<void> {
  await sql`update sor_protocols set last_scanned_block = ${block} where slug = ${slug}`
}

/** Records pools; a pool already known keeps its row. Returns the addresses that were new. */
export async function insertPools(sql: Tx, pools: readonly TrackedPool[]): Promise<Address[]> {
  const added: Address[] = []
  for (const p of pools) {
    const rows = await sql`
      insert into sor_pools (address, protocol, pool_type, tokens, fee, tick_spacing, created_block)
      values (${p.address}, ${p.protocol}, ${p.poolType}, ${p.tokens}, ${p.fee}, ${p.tickSpacing}, ${p.createdBlock})
      on conflict (address) do nothing
      returning address`
    if (rows.length) added.push(p.address)
  }
  return added
}

export async function listPools(sql: Tx): Promise<TrackedPool[]> {
  const rows =
    await sql`select address, protocol, pool_type, tokens, fee, tick_spacing, created_block from sor_pools order by protocol, address`
  return rows.map(r => ({
    address: r.address,
    protocol: r.protocol,
    poolType: r.pool_type,
    tokens: r.tokens as Address[],
    fee: Number(r.fee),
    tickSpacing: r.tick_spacing as number | null,
    createdBlock: r.created_block === null ? null : Number(r.created_block),
  }))
}

/** Writes the states of one refresh (one block) in one statement. */
export async function savePoolStates(sql: Tx, states: readonly StoredState[]): Promise<void> {
  if (!states.length) return
  // one text parameter cast to json: typed as json, postgres.js would JSON-encode the string a second time
  const rows = states.map(s => ({ address: s.address, block_number: s.blockNumber, state: JSON.stringify(s.state) }))
  await sql`
    insert into sor_pool_state (address, block_number, state)
    select address, block_number, state::jsonb from json_to_recordset(${JSON.stringify(rows)}::text::json)
      as x(address text, block_number bigint, state text)
    on conflict (address) do update set block_number = excluded.block_number, state = excluded.state, updated_at = now()`
}

export async function loadPoolStates(sql: Tx): Promise<StoredState[]> {
  const rows = await sql`select address, block_number, state from sor_pool_state`
  return rows.map(r => ({ address: r.address, blockNumber: Number(r.block_number), state: r.state }))
}
