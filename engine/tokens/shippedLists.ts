// Which token list the engine loads: TOKENS_FILE when set; else the list shipped for CHAIN_ID. The lists of
// real chains are Uniswap's default token list (npm `@uniswap/default-token-list`, pinned in package.json),
// whose entries for CHAIN_ID are taken at load: a new version of that package is a new list (README, "Tokens").
// The local chain's list is ours: the mainnet addresses of five tokens as placeholders (a fork of mainnet has
// them; the sandbox and the tests bring lists of the tokens they deploy).
import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { Config } from '../config.js'
import { repoRoot } from '../paths.js'
import { readTokenList, TokenListError, type TokenList } from './tokenList.js'

/** The chains a list ships for, by name (the Uniswap list has more, with few tokens or for test networks). */
export const SHIPPED_CHAINS: Readonly<Record<number, string>> = {
  1: 'Ethereum',
  10: 'OP Mainnet',
  56: 'BNB Smart Chain',
  130: 'Unichain',
  137: 'Polygon PoS',
  8453: 'Base',
  42161: 'Arbitrum One',
  43114: 'Avalanche C-Chain',
  31337: 'local chain (anvil)',
}

export const LOCAL_LIST = join(repoRoot, 'engine/tokens/lists/local.tokenlist.json')
export const UNISWAP_LIST_PACKAGE = '@uniswap/default-token-list'

export function uniswapListFile(): string {
  return createRequire(import.meta.url).resolve(`${UNISWAP_LIST_PACKAGE}/build/uniswap-default.tokenlist.json`)
}

/** The list of the configured chain, read and checked; a chain with no list stops the start naming CHAIN_ID. */
export function loadTokenList(config: Pick<Config, 'CHAIN_ID' | 'TOKENS_FILE'>): TokenList {
  const chainId = config.CHAIN_ID
  if (config.TOKENS_FILE) return readTokenList(config.TOKENS_FILE, chainId, `TOKENS_FILE=${config.TOKENS_FILE}`)
  if (chainId === 31337) return readTokenList(LOCAL_LIST, chainId, 'engine/tokens/lists/local.tokenlist.json')
  if (SHIPPED_CHAINS[chainId]) return readTokenList(uniswapListFile(), chainId, UNISWAP_LIST_PACKAGE)
  const shipped = Object.keys(SHIPPED_CHAINS).join(', ')
  throw new TokenListError(
    `CHAIN_ID=${chainId}: no token list ships for this chain (lists ship for ${shipped}); ` +
      'set TOKENS_FILE to a token list (tokenlists.org format) holding its tokens',
  )
}
