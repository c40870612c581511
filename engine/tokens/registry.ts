// The token registry: resolves what a client typed (an address or a symbol, any case) to a token of the
// configured chain, and describes addresses as the REST {address, symbol, decimals} object. Postgres is the
// truth: the list loaded at start writes its rows there (list rows), the pool scanner and TOKENS_POLICY=chain
// add chain rows; this keeps a per-address cache for the replies.
//  - A symbol resolves to the one list row with it; with none, to the one chain row with it; with several of
//    the kind that decides, it is ambiguous (refused, naming the addresses), never a guess.
//  - An address resolves to its row; unknown, it is read on chain under TOKENS_POLICY=chain, else refused.
import type { Sql } from '../store/db.js'
import {
  listTokens,
  syncListTokens,
  tokenByAddress,
  tokensByAddresses,
  tokensBySymbol,
  type Token,
} from '../store/tokens.js'
import { parseAddress, hasControlChars } from '../../workers/values/index.js'
import type { TokenList } from './tokenList.js'
import type { ChainResolver } from './chainResolver.js'
import type { TokenOutcome } from './outcomes.js'
import { labels } from './labels.js'

export interface TokenView {
  address: string
  symbol: string | null
  decimals: number | null
}
export interface ListedView {
  address: string
  symbol: string
  decimals: number
  name: string | null
  source: 'list' | 'chain'
  /** what to show: no two tokens of a listing share one (engine/tokens/labels.ts) */
  label: string
}

/** how long a cached token is trusted before an upsert elsewhere may have changed it */
const CACHE_MS = 30_000

export interface TokenRegistry {
  readonly chainId: number
  /** the token an address or symbol names, or why there is none */
  resolve(input: string): Promise<TokenOutcome>
  /** REST views of many addresses at once (one query for the ones not cached) */
  views(addresses: string[]): Promise<Map<string, TokenView>>
  /** cached view only (for event payloads); symbol/decimals null when not cached */
  viewSync(address: string): TokenView
  /** every token of the chain, list rows first, each with a label no other shares */
  list(): Promise<ListedView[]>
}

export async function createTokenRegistry(
  sql: Sql,
  list: TokenList,
  opts: { chain?: ChainResolver } = {},
): Promise<TokenRegistry> {
  const chainId = list.chainId
  await syncListTokens(
    sql,
    chainId,
    list.tokens.map(t => ({ chainId, ...t, source: 'list' as const })),
  )
  const cache = new Map<string, { token: Token; at: number }>()
  const remember = (t: Token) => {
    cache.set(t.address, { token: t, at: Date.now() })
  }
  for (const t of await listTokens(sql, chainId)) remember(t)
  const fresh = (address: string) => {
    const c = cache.get(address)
    return c && Date.now() - c.at < CACHE_MS ? c.token : undefined
  }
  let refreshing: Promise<void> | undefined
  const view = (address: string, t: Token | undefined): TokenView => ({
    address,
    symbol: t?.symbol ?? null,
    decimals: t?.decimals ?? null,
  })
  const found = (token: Token): TokenOutcome => {
    remember(token)
    return { ok: true, token }
  }

  return {
    chainId,
    async resolve(input) {
      const s = input.trim()
      const address = parseAddress(s)
      if (address) {
        const t = fresh(address) ?? (await tokenByAddress(sql, chainId, address))
        if (t) return found(t)
        if (!opts.chain) return { ok: false, code: 'TOKEN_UNKNOWN', given: input }
        const r = await opts.chain.resolve(address)
        return r.ok ? found(r.token) : r
      }
      // not a symbol: never reaches SQL
      if (!s || s.length > 32 || hasControlChars(s)) return { ok: false, code: 'TOKEN_UNKNOWN', given: input }
      const all = await tokensBySymbol(sql, chainId, s)
      const listed = all.filter(t => t.source === 'list')
      const deciding = listed.length ? listed : all
      if (deciding.length === 1) return found(deciding[0]!)
      if (!deciding.length) return { ok: false, code: 'TOKEN_UNKNOWN', given: input }
      return { ok: false, code: 'TOKEN_AMBIGUOUS', given: input, candidates: deciding.map(t => t.address) }
    },
    async views(addresses) {
      const out = new Map<string, TokenView>()
      const missing: string[] = []
      let stale = false
      for (const a of new Set(addresses.map(x => x.toLowerCase()))) {
        const c = cache.get(a)
        if (c) {
          out.set(a, view(a, c.token))
          if (Date.now() - c.at >= CACHE_MS) stale = true
        } else missing.push(a)
      }
      // a stale entry still answers (tokens rarely change); one refresh runs behind it
      if (stale && !refreshing) {
        refreshing = listTokens(sql, chainId)
          .then(
            ts => ts.forEach(remember),
            () => {},
          )
          .finally(() => {
            refreshing = undefined
          })
      }
      if (missing.length) {
        const rows = await tokensByAddresses(sql, chainId, missing)
        for (const t of rows) remember(t)
        for (const a of missing)
          out.set(
            a,
            view(
              a,
              rows.find(t => t.address === a),
            ),
          )
      }
      return out
    },
    viewSync(address) {
      const a = address.toLowerCase()
      return view(a, cache.get(a)?.token)
    },
    async list() {
      const tokens = await listTokens(sql, chainId)
      const named = labels(tokens)
      return tokens.map(t => ({
        address: t.address,
        symbol: t.symbol,
        decimals: t.decimals,
        name: t.name ?? null,
        source: t.source ?? 'chain',
        label: named.get(t.address)!,
      }))
    },
  }
}
