// What the chain says about token addresses: symbol, decimals and totalSupply of each, read at ONE block
// (one multicall with MULTICALL_ADDRESS, else eth_calls pinned to that block, batched by the transport).
// A read that the chain answered but that failed (a revert, no data, data that does not decode) is the token's
// answer: one eth_getCode at the same block then says which it is, no contract there or a contract that is no
// ERC-20. A read the chain did not answer (refused, timed out, an RPC error) throws: a flaky RPC must never make
// a real token look like no ERC-20.
import {
  AbiDecodingDataSizeTooSmallError,
  AbiDecodingZeroDataError,
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  ExecutionRevertedError,
  RawContractError,
  hexToString,
  parseAbi,
  type PublicClient,
} from 'viem'
import type { Address } from '../../workers/values/index.js'

export type TokenRead =
  { ok: true; symbol: string; decimals: number } | { ok: false; why: 'no-code' | 'not-erc20'; detail: string }

const erc20 = parseAbi([
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function totalSupply() view returns (uint256)',
])
/** MKR-style tokens return symbol() as bytes32 */
const bytes32Symbol = parseAbi(['function symbol() view returns (bytes32)'])
const ANSWERED = [
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  ExecutionRevertedError,
  RawContractError,
  AbiDecodingZeroDataError,
  AbiDecodingDataSizeTooSmallError,
]

type Read = { ok: true; result: unknown } | { ok: false; error: unknown }
interface Call {
  address: Address
  abi: typeof erc20 | typeof bytes32Symbol
  functionName: 'symbol' | 'decimals' | 'totalSupply'
}

export async function readTokens(
  client: PublicClient,
  addresses: readonly Address[],
  opts: { multicallAddress?: Address } = {},
): Promise<{ block: bigint; reads: Map<Address, TokenRead> }> {
  const blockNumber = await client.getBlockNumber({ cacheTime: 0 })
  const read = (calls: Call[]) => readAt(client, calls, blockNumber, opts.multicallAddress)
  const fns = ['symbol', 'decimals', 'totalSupply'] as const
  const results = await read(
    addresses.flatMap(address => fns.map(functionName => ({ address, abi: erc20, functionName }))),
  )
  const reads = new Map<Address, TokenRead>()
  for (const [k, address] of addresses.entries()) {
    const [sym, dec, supply] = [results[3 * k]!, results[3 * k + 1]!, results[3 * k + 2]!]
    for (const r of [sym, dec, supply]) if (!r.ok && !answered(r.error)) throw r.error // the chain, not the token
    if (dec.ok && supply.ok) {
      const fallback = sym.ok ? [] : await read([{ address, abi: bytes32Symbol, functionName: 'symbol' }])
      const raw = sym.ok ? String(sym.result) : fallback[0]?.ok ? hexToString(fallback[0].result as `0x${string}`) : ''
      reads.set(address, {
        ok: true,
        decimals: Number(dec.result),
        symbol: clean(raw) || `UNKNOWN-${address.slice(2, 8)}`,
      })
      continue
    }
    const code = await client.getCode({ address, blockNumber })
    const failed = !dec.ok
      ? `decimals(): ${short(dec.error)}`
      : `totalSupply(): ${short((supply as { error: unknown }).error)}`
    reads.set(
      address,
      !code || code === '0x'
        ? { ok: false, why: 'no-code', detail: `no contract at ${address} on this chain (block ${blockNumber})` }
        : { ok: false, why: 'not-erc20', detail: `the contract at ${address} is not an ERC-20 (${failed})` },
    )
  }
  return { block: blockNumber, reads }
}

async function readAt(
  client: PublicClient,
  calls: Call[],
  blockNumber: bigint,
  multicallAddress?: Address,
): Promise<Read[]> {
  if (multicallAddress) {
    const out = (await client.multicall({
      contracts: calls as never,
      allowFailure: true,
      blockNumber,
      multicallAddress,
    })) as ({ status: 'success'; result: unknown } | { status: 'failure'; error: unknown })[]
    return out.map((r): Read =>
      r.status === 'success' ? { ok: true, result: r.result } : { ok: false, error: r.error },
    )
  }
  return Promise.all(
    calls.map(c =>
      client.readContract({ ...c, args: [], blockNumber }).then(
        (result): Read => ({ ok: true, result }),
        (error: unknown): Read => ({ ok: false, error }),
      ),
    ),
  )
}

/** the contract answered, and the answer is not what an ERC-20 gives (as opposed to the chain not answering) */
function answered(e: unknown): boolean {
  return e instanceof BaseError && !!e.walk(x => ANSWERED.some(k => x instanceof k))
}

function short(e: unknown): string {
  const err = e as { shortMessage?: string; message?: string }
  return (err?.shortMessage ?? err?.message ?? String(e)).split('\n')[0]!
}

// a contract chooses its symbol: no control characters, and no longer than a symbol a client may type
function clean(symbol: string): string {
  return symbol
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
    .trim()
    .slice(0, 32)
}
