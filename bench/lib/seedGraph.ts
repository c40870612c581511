// A synthetic graph (syntheticGraph.ts) written where the route finder reads its graph at start: its protocols,
// pools, tokens and one block's states in PostgreSQL, so an engine started on that database quotes a graph of
// any size with no chain (the relay bench's route searches, the baseline tests).
import type { Sql } from '../../engine/store/db.js'
import { stateToJson } from '../../engine/sor/stateCodec.js'
import type { PoolState } from '../../workers/sor/types.js'
import type { SyntheticGraph } from './syntheticGraph.js'

const CHUNK = 5000

export async function seedGraph(
  sql: Sql,
  g: SyntheticGraph,
  { chainId = 31337, block = 1 }: { chainId?: number; block?: number } = {},
): Promise<void> {
  const slugs = new Map<string, string>()
  for (const m of Object.values(g.poolMeta)) slugs.set(m.protocol, m.poolType)
  let n = 0
  for (const [slug, poolType] of slugs) {
    await sql`insert into sor_protocols (slug, name, pool_type, factory_address, start_block, last_scanned_block)
      values (${slug}, ${slug}, ${poolType}, ${'0x' + (++n).toString(16).padStart(40, 'f')}, 0, ${block}) on conflict (slug) do nothing`
  }
  for (let i = 0; i < g.pools.length; i += CHUNK) {
    const part = g.pools.slice(i, i + CHUNK)
    const pools = part.map(p => ({
      address: p.address,
      protocol: g.poolMeta[p.address]!.protocol,
      pool_type: p.kind,
      tokens: tokensOf(p),
      fee: feeOf(p),
      tick_spacing: p.kind === 'v3' ? p.tickSpacing : null,
      created_block: 0,
    }))
    await sql`insert into sor_pools (address, protocol, pool_type, tokens, fee, tick_spacing, created_block)
      select address, protocol, pool_type, tokens, fee, tick_spacing, created_block from json_to_recordset(${JSON.stringify(pools)}::text::json)
        as x(address text, protocol text, pool_type text, tokens text[], fee bigint, tick_spacing integer, created_block bigint)
      on conflict (address) do nothing`
    const states = part.map(p => ({ address: p.address, block_number: block, state: JSON.stringify(stateToJson(p)) }))
    await sql`insert into sor_pool_state (address, block_number, state)
      select address, block_number, state::jsonb from json_to_recordset(${JSON.stringify(states)}::text::json) as x(address text, block_number bigint, state text)
      on conflict (address) do update set block_number = excluded.block_number, state = excluded.state`
  }
  const tokens = g.tokens.map((t, i) => ({
    chain_id: chainId,
    address: t.address,
    symbol: `T${i}`,
    decimals: t.decimals,
  }))
  await sql`insert into tokens (chain_id, address, symbol, decimals)
    select chain_id, address, symbol, decimals from json_to_recordset(${JSON.stringify(tokens)}::text::json) as x(chain_id integer, address text, symbol text, decimals integer)
    on conflict (chain_id, address) do nothing`
}

const tokensOf = (p: PoolState) => (p.kind === 'stable' ? p.coins : [p.token0, p.token1])
// pips for v2 and v3; the stable pool's own 1e10 units (as the scan records them)
const feeOf = (p: PoolState) => (p.kind === 'v2' ? p.feePpm : p.kind === 'v3' ? p.fee : Number(p.fee))
