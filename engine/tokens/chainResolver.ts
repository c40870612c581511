// TOKENS_POLICY=chain: an address the registry does not know is read on chain (engine/tokens/onChain.ts) and,
// when it is an ERC-20, written to the registry as a chain row, so every node and every later request knows it.
// Two requests for one address share one read. An address found not to be an ERC-20 is remembered for a minute
// (a client retrying a wrong address does not cost a chain read each time); a chain that does not answer is
// never remembered.
import type { PublicClient } from 'viem'
import type { Sql } from '../store/db.js'
import { upsertToken, type Token } from '../store/tokens.js'
import type { Address } from '../../workers/values/index.js'
import { readTokens } from './onChain.js'
import type { TokenOutcome } from './outcomes.js'

const REFUSED_MS = 60_000
const REFUSED_MAX = 10_000

export interface ChainResolver {
  resolve(address: Address): Promise<TokenOutcome>
}

export interface ChainResolverDeps {
  sql: Sql
  client: PublicClient
  chainId: number
  multicallAddress?: Address
}

export function createChainResolver(d: ChainResolverDeps): ChainResolver {
  const inFlight = new Map<Address, Promise<TokenOutcome>>()
  const refused = new Map<Address, { reason: string; at: number }>()

  const read = async (address: Address): Promise<TokenOutcome> => {
    let r
    try {
      r = (await readTokens(d.client, [address], { multicallAddress: d.multicallAddress })).reads.get(address)!
    } catch (e) {
      const err = e as { shortMessage?: string; message?: string }
      const why = (err.shortMessage ?? err.message ?? String(e)).split('\n')[0]
      return { ok: false, code: 'CHAIN_UNAVAILABLE', reason: `The chain did not answer (RPC_URL): ${why}` }
    }
    if (!r.ok) {
      if (refused.size >= REFUSED_MAX) refused.delete(refused.keys().next().value!)
      refused.set(address, { reason: r.detail, at: Date.now() })
      return { ok: false, code: 'TOKEN_NOT_ERC20', given: address, reason: r.detail }
    }
    const token: Token = {
      chainId: d.chainId,
      address,
      symbol: r.symbol,
      decimals: r.decimals,
      name: null,
      source: 'chain',
    }
    await upsertToken(d.sql, token)
    return { ok: true, token }
  }

  return {
    resolve(address) {
      const no = refused.get(address)
      if (no && Date.now() - no.at < REFUSED_MS) {
        return Promise.resolve({ ok: false, code: 'TOKEN_NOT_ERC20', given: address, reason: no.reason })
      }
      let p = inFlight.get(address)
      if (!p) {
        p = read(address).finally(() => inFlight.delete(address))
        inFlight.set(address, p)
      }
      return p
    },
  }
}
