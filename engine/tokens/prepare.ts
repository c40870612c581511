// The token list of this start, before the engine touches anything: read and checked against the schema, then
// (RPC_URL set) against the chain. A list that fails stops the start with one line; nothing is half-loaded.
import type { Logger } from 'pino'
import type { Config } from '../config.js'
import { createChainClient } from '../chain/client.js'
import { loadTokenList } from './shippedLists.js'
import { checkListOnChain } from './checkList.js'
import type { TokenList } from './tokenList.js'

/** a start waits this long for the chain before serving the list unchecked */
const CHECK_TIMEOUT_MS = 5_000

export async function prepareTokenList(config: Config, log: Logger): Promise<TokenList> {
  const list = loadTokenList(config)
  if (config.RPC_URL) {
    const client = createChainClient(config.RPC_URL, { timeoutMs: CHECK_TIMEOUT_MS })
    await checkListOnChain(list, client, { multicallAddress: config.MULTICALL_ADDRESS, log })
  }
  const { source, name, version, chainId } = list
  log.info({ list: source, name, version, chainId, tokens: list.tokens.length }, 'token list loaded')
  return list
}
