// What the chain says about token addresses: symbol, decimals and totalSupply of each, read at ONE block
// (one multicall with MULTICALL_ADDRESS, else eth_calls pinned to that block, batched by the transport).
// An address whose reads fail gets one eth_getCode at the same block, so the answer can say which it is:
// no contract there, or a contract that is not an ERC-20. A chain that does not answer throws.
import { hexToString, parseAbi, type PublicClient } from 'viem'
import { readAll } from '../chain/multicall.js'
import type { Address } from '../../workers/values/index.js'

export type TokenRead =
  | { ok: true; symbol: string; decimals: number }
  | { ok: false; why: 'no-code' | 'not-erc20'; detail: string }

const erc20 = parseAbi([
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function totalSupply() view returns (uint256)',
])
/** MKR-style tokens return symbol() as bytes32 */
const bytes32Symbol = parseAbi(['function symbol() view returns (bytes32)'])

export async function readTokens(client: PublicClient, addresses: readonly Address[], opts: { multicallAddress?: Address } = {}):
  Promise<{ block: bigint; reads: Map<Address, TokenRead> }> {
  const blockNumber = await client.getBlockNumber({ cacheTime: 0 })
  const calls = addresses.flatMap(address => (['symbol', 'decimals', 'totalSupply'] as const).map(functionName => ({ address, abi: erc20, functionName })))
  const results = await readAll(client, calls, { blockNumber, multicallAddress: opts.multicallAddress })
  const reads = new Map<Address, TokenRead>()
  for (const [k, address] of addresses.entries()) {
    const [sym, dec, supply] = [results[3 * k]!, results[3 * k + 1]!, results[3 * k + 2]!]
    if (dec.ok && supply.ok) {
      const symbol = clean(sym.ok ? String(sym.result) : await symbolBytes32(client, address, blockNumber))
      reads.set(address, { ok: true, decimals: Number(dec.result), symbol: symbol || `UNKNOWN-${address.slice(2, 8)}` })
      continue
    }
    const code = await client.getCode({ address, blockNumber })          // throws when the chain stopped answering
    const failed = !dec.ok ? `decimals(): ${dec.error}` : `totalSupply(): ${(supply as { error: string }).error}`
    reads.set(address, !code || code === '0x'
      ? { ok: false, why: 'no-code', detail: `no contract at ${address} on this chain (block ${blockNumber})` }
      : { ok: false, why: 'not-erc20', detail: `the contract at ${address} is not an ERC-20 (${failed.split('\n')[0]})` })
  }
  return { block: blockNumber, reads }
}

async function symbolBytes32(client: PublicClient, address: Address, blockNumber: bigint): Promise<string> {
  const [r] = await readAll(client, [{ address, abi: bytes32Symbol, functionName: 'symbol' }], { blockNumber })
  return r?.ok ? hexToString(r.result as `0x${string}`) : ''
}

// a contract chooses its symbol: no control characters, and no longer than a symbol a client may type
function clean(symbol: string): string {
  return symbol.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim().slice(0, 32)
}
