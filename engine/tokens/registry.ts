// The token registry: resolves what a client typed (an address or a symbol, any case) to a token
// of the configured chain, and describes addresses as the REST {address, symbol, decimals} object.
// Postgres is the truth (others upsert into it); this keeps a per-address cache for the replies.
import { readFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Sql } from '../store/db.js'
import { repoRoot } from '../paths.js'
import { listTokens, seedTokens, tokenByAddress, tokenBySymbol, tokensByAddresses, type Token } from '../store/tokens.js'
import { isAddress, parseAddress, hasControlChars } from '../../workers/values/index.js'

export interface TokenView { address: string; symbol: string | null; decimals: number | null }

/** how long a cached token is trusted before an upsert elsewhere may have changed it */
const CACHE_MS = 30_000

export interface TokenRegistry {
  readonly chainId: number
  /** the token an address or symbol names; undefined when the registry does not know it */
  resolve(input: string): Promise<Token | undefined>
  /** REST views of many addresses at once (one query for the ones not cached) */
  views(addresses: string[]): Promise<Map<string, TokenView>>
  /** cached view only (for event payloads); symbol/decimals null when not cached */
  viewSync(address: string): TokenView
  list(): Promise<Token[]>
}

/** The seed file of a chain: `engine/tokens/tokens.<chainId>.json` unless TOKENS_FILE says otherwise. */
export function seedFile(chainId: number, override?: string): string {
  return override ?? join(repoRoot, 'engine/tokens', `tokens.${chainId}.json`)
}

export function readSeed(file: string, chainId: number): Token[] {
  if (!existsSync(file)) return []
  const doc = JSON.parse(readFileSync(file, 'utf8')) as { chainId?: number; tokens: { symbol: string; address: string; decimals: number }[] }
  if (doc.chainId !== undefined && doc.chainId !== chainId) throw new Error(`${file} is for chain ${doc.chainId}, not ${chainId}`)
  return doc.tokens.map(t => {
    if (!isAddress(t.address) || !Number.isInteger(t.decimals)) throw new Error(`${file}: bad token entry ${JSON.stringify(t)}`)
    return { chainId, address: t.address.toLowerCase() as `0x${string}`, symbol: t.symbol, decimals: t.decimals }
  })
}

export async function createTokenRegistry(sql: Sql, chainId: number, opts: { file?: string } = {}): Promise<TokenRegistry> {
  await seedTokens(sql, readSeed(seedFile(chainId, opts.file), chainId))
  const cache = new Map<string, { token: Token; at: number }>()
  const remember = (t: Token) => { cache.set(t.address, { token: t, at: Date.now() }) }
  for (const t of await listTokens(sql, chainId)) remember(t)
  const fresh = (address: string) => {
    const c = cache.get(address)
    return c && Date.now() - c.at < CACHE_MS ? c.token : undefined
  }
  let refreshing: Promise<void> | undefined
  const view = (address: string, t: Token | undefined): TokenView => ({ address, symbol: t?.symbol ?? null, decimals: t?.decimals ?? null })

  return {
    chainId,
    async resolve(input) {
      const s = input.trim()
      const address = parseAddress(s)
      if (address) {
        const t = fresh(address) ?? await tokenByAddress(sql, chainId, address)
        if (t) remember(t)
        return t
      }
      if (!s || s.length > 32 || hasControlChars(s)) return undefined      // not a symbol: never reaches SQL
      const t = await tokenBySymbol(sql, chainId, s)
      if (t) remember(t)
      return t
    },
    async views(addresses) {
      const out = new Map<string, TokenView>()
      const missing: string[] = []
      let stale = false
      for (const a of new Set(addresses.map(x => x.toLowerCase()))) {
        const c = cache.get(a)
        if (c) { out.set(a, view(a, c.token)); if (Date.now() - c.at >= CACHE_MS) stale = true }
        else missing.push(a)
      }
      // a stale entry still answers (tokens rarely change); one refresh runs behind it
      if (stale && !refreshing) {
        refreshing = listTokens(sql, chainId).then(ts => ts.forEach(remember), () => {}).finally(() => { refreshing = undefined })
      }
      if (missing.length) {
        const found = await tokensByAddresses(sql, chainId, missing)
        for (const t of found) remember(t)
        for (const a of missing) out.set(a, view(a, found.find(t => t.address === a)))
      }
      return out
    },
    viewSync(address) {
      const a = address.toLowerCase()
      return view(a, cache.get(a)?.token)
    },
    list: () => listTokens(sql, chainId),
  }
}
