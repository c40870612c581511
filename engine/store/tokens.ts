// The token registry's table: symbols, addresses and decimals per chain. Addresses are stored lowercase.
// A row is a list row (the token list loaded at start) or a chain row (read on chain); see
// migrations/098_token_sources.sql. Lookups by symbol return every candidate: the registry decides.
import type { Sql, Tx } from './db.js'

export type TokenSource = 'list' | 'chain'

export interface Token {
  chainId: number
  address: `0x${string}`
  symbol: string
  decimals: number
  /** the list's name for it; null for a token read on chain */
  name?: string | null
  source?: TokenSource
}

/** Inserts or updates one token read on chain (the sandbox, the pool scanner, TOKENS_POLICY=chain); never a list row. */
export async function upsertToken(sql: Tx, t: Token): Promise<void> {
  await sql`
    insert into tokens (chain_id, address, symbol, decimals, name, source)
    values (${t.chainId}, ${t.address.toLowerCase()}, ${t.symbol}, ${t.decimals}, ${t.name ?? null}, 'chain')
    on conflict (chain_id, address) do update
      set symbol = excluded.symbol, decimals = excluded.decimals, name = excluded.name, updated_at = now()
      where tokens.source = 'chain'`
}

/**
 * Makes the chain's list rows exactly `tokens`, in one transaction: each is written (over a chain row of the
 * same address too), and a list row no longer in the list becomes a chain row (old RFQs keep its symbol).
 */
export async function syncListTokens(sql: Sql, chainId: number, tokens: Token[]): Promise<void> {
  const addresses = tokens.map(t => t.address.toLowerCase())
  await sql.begin(async tx => {
    await tx`
      insert into tokens (chain_id, address, symbol, decimals, name, source)
      select ${chainId}, a, s, d, n, 'list'
      from unnest(${addresses}::text[], ${tokens.map(t => t.symbol)}::text[], ${tokens.map(t => t.decimals)}::int[],
                  ${tokens.map(t => t.name ?? null)}::text[]) as x(a, s, d, n)
      on conflict (chain_id, address) do update
        set symbol = excluded.symbol, decimals = excluded.decimals, name = excluded.name, source = 'list', updated_at = now()
        where (tokens.symbol, tokens.decimals, tokens.name, tokens.source) is distinct from
              (excluded.symbol, excluded.decimals, excluded.name, 'list')`
    await tx`
      update tokens set source = 'chain', updated_at = now()
      where chain_id = ${chainId} and source = 'list' and not (address = any(${addresses}::text[]))`
  })
}

/** Every token of a chain: list rows first, then by symbol and address. */
export async function listTokens(sql: Tx, chainId: number): Promise<Token[]> {
  const rows = await sql`
    select chain_id, address, symbol, decimals, name, source from tokens where chain_id = ${chainId}
    order by source = 'list' desc, lower(symbol), address`
  return rows.map(toToken)
}

export async function tokenByAddress(sql: Tx, chainId: number, address: string): Promise<Token | undefined> {
  const [r] = await sql`
    select chain_id, address, symbol, decimals, name, source from tokens
    where chain_id = ${chainId} and address = ${address.toLowerCase()}`
  return r ? toToken(r) : undefined
}

export async function tokensByAddresses(sql: Tx, chainId: number, addresses: string[]): Promise<Token[]> {
  if (!addresses.length) return []
  const rows = await sql`
    select chain_id, address, symbol, decimals, name, source from tokens
    where chain_id = ${chainId} and address = any(${addresses.map(a => a.toLowerCase())})`
  return rows.map(toToken)
}

/** Every token a symbol names, any case: list rows first. */
export async function tokensBySymbol(sql: Tx, chainId: number, symbol: string): Promise<Token[]> {
  const rows = await sql`
    select chain_id, address, symbol, decimals, name, source from tokens
    where chain_id = ${chainId} and lower(symbol) = ${symbol.toLowerCase()}
    order by source = 'list' desc, address limit 20`
  return rows.map(toToken)
}

function toToken(r: Record<string, unknown>): Token {
  return {
    chainId: r.chain_id as number,
    address: r.address as `0x${string}`,
    symbol: r.symbol as string,
    decimals: r.decimals as number,
    name: (r.name as string | null) ?? null,
    source: r.source as TokenSource,
  }
}
