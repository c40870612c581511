// The token registry's table: symbols, addresses and decimals per chain. Addresses are stored
// lowercase; a symbol may name several addresses over time, the latest upsert wins lookups.
import type { Tx } from './db.js'

export interface Token {
  chainId: number
  address: `0x${string}`
  symbol: string
  decimals: number
}

/** Inserts or updates one token (the sandbox and the pool scanner call this with deployed addresses). */
export async function upsertToken(sql: Tx, t: Token): Promise<void> {
  await sql`
    insert into tokens (chain_id, address, symbol, decimals)
    values (${t.chainId}, ${t.address.toLowerCase()}, ${t.symbol}, ${t.decimals})
    on conflict (chain_id, address) do update
      set symbol = excluded.symbol, decimals = excluded.decimals, updated_at = now()`
}

/** Seeds tokens that are not there yet; never overwrites what an upsert put there. */
export async function seedTokens(sql: Tx, tokens: Token[]): Promise<void> {
  for (const t of tokens) {
    await sql`
      insert into tokens (chain_id, address, symbol, decimals)
      values (${t.chainId}, ${t.address.toLowerCase()}, ${t.symbol}, ${t.decimals})
      on conflict (chain_id, address) do nothing`
  }
}

export async function listTokens(sql: Tx, chainId: number): Promise<Token[]> {
  const rows = await sql`select chain_id, address, symbol, decimals from tokens where chain_id = ${chainId} order by symbol, address`
  return rows.map(toToken)
}

export async function tokenByAddress(sql: Tx, chainId: number, address: string): Promise<Token | undefined> {
  const [r] = await sql`select chain_id, address, symbol, decimals from tokens where chain_id = ${chainId} and address = ${address.toLowerCase()}`
  return r ? toToken(r) : undefined
}

export async function tokensByAddresses(sql: Tx, chainId: number, addresses: string[]): Promise<Token[]> {
  if (!addresses.length) return []
  const rows = await sql`select chain_id, address, symbol, decimals from tokens where chain_id = ${chainId} and address = any(${addresses.map(a => a.toLowerCase())})`
  return rows.map(toToken)
}

/** Case-insensitive; the most recently upserted address when a symbol was re-pointed. */
export async function tokenBySymbol(sql: Tx, chainId: number, symbol: string): Promise<Token | undefined> {
  const [r] = await sql`
    select chain_id, address, symbol, decimals from tokens
    where chain_id = ${chainId} and lower(symbol) = ${symbol.toLowerCase()}
    order by updated_at desc, address limit 1`
  return r ? toToken(r) : undefined
}

function toToken(r: Record<string, unknown>): Token {
  return { chainId: r.chain_id as number, address: r.address as `0x${string}`, symbol: r.symbol as string, decimals: r.decimals as number }
}
