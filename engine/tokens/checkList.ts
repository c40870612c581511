// With RPC_URL set, the list is held against the chain before anything is served: the RPC must be on CHAIN_ID,
// and every entry must be an ERC-20 there with the list's decimals (a wrong decimals would misstate every
// amount of that token). One read of all entries at one block. A chain that does not answer does not stop the
// start (an outage heals without a restart): the list is then served as the operator gave it, and a warning says
// it was not checked.
import type { Logger } from 'pino'
import type { PublicClient } from 'viem'
import type { Address } from '../../workers/values/index.js'
import { readTokens } from './onChain.js'
import { TokenListError, type TokenList } from './tokenList.js'

export async function checkListOnChain(
  list: TokenList,
  client: PublicClient,
  opts: { multicallAddress?: Address; log: Logger },
): Promise<void> {
  let reads: Awaited<ReturnType<typeof readTokens>>
  try {
    const chainId = await client.getChainId()
    if (chainId !== list.chainId) {
      throw new TokenListError(
        `RPC_URL answers for chain ${chainId}, not CHAIN_ID=${list.chainId}: ` +
          `point RPC_URL at a node of chain ${list.chainId}`,
      )
    }
    reads = await readTokens(
      client,
      list.tokens.map(t => t.address),
      opts,
    )
  } catch (e) {
    if (e instanceof TokenListError) throw e
    opts.log.warn(
      { err: e, list: list.source },
      'token list not checked on chain: RPC_URL did not answer; served as listed',
    )
    return
  }
  const bad = list.tokens.flatMap(t => {
    const r = reads.reads.get(t.address)!
    if (!r.ok) return [{ t, why: r.detail }]
    if (r.decimals !== t.decimals) return [{ t, why: `the chain says ${r.decimals} decimals, the list ${t.decimals}` }]
    return []
  })
  if (!bad.length) {
    opts.log.info(
      { list: list.source, tokens: list.tokens.length, block: String(reads.block) },
      'token list checked on chain',
    )
    return
  }
  const { t, why } = bad[0]!
  const others = `${bad
    .slice(1, 6)
    .map(b => b.t.entry)
    .join(', ')}${bad.length > 6 ? ', …' : ''}`
  const more = bad.length > 1 ? `; ${bad.length - 1} more entries fail (${others})` : ''
  throw new TokenListError(`${list.source}: entry ${t.entry} (${t.symbol} ${t.address}): ${why}${more}`)
}
