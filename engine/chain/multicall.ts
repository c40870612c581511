// Many contract reads at ONE block. With a Multicall3 (aggregate3) address they go through it in a
// few eth_calls; without one, each is its own eth_call pinned to the same block number (batched by the
// transport). Either way every read sees the same state, which is what makes a refresh's asOfBlock true.
import type { Abi, Address, PublicClient } from 'viem'

export interface ContractRead {
  address: Address
  abi: Abi
  functionName: string
  args?: readonly unknown[]
}

export type ReadResult = { ok: true; result: unknown } | { ok: false; error: string }

export interface ReadAllOptions {
  blockNumber: bigint
  /** a deployed Multicall3 (aggregate3); absent: pinned eth_calls */
  multicallAddress?: Address
  /** calls per aggregate3 */
  chunk?: number
}

export async function readAll(
  client: PublicClient,
  reads: readonly ContractRead[],
  { blockNumber, multicallAddress, chunk = 500 }: ReadAllOptions,
): Promise<ReadResult[]> {
  if (!reads.length) return []
  if (multicallAddress) {
    const out = await client.multicall({
      contracts: reads,
      allowFailure: true,
      blockNumber,
      multicallAddress,
      batchSize: chunk * 64,
    })
    return out.map(r =>
      r.status === 'success' ? { ok: true, result: r.result } : { ok: false, error: shortError(r.error) },
    )
  }
  return Promise.all(
    reads.map(r =>
      client.readContract({ ...r, args: r.args ?? [], blockNumber }).then(
        (result): ReadResult => ({ ok: true, result }),
        (e: unknown): ReadResult => ({ ok: false, error: shortError(e) }),
      ),
    ),
  )
}

function shortError(e: unknown): string {
  const err = e as { shortMessage?: string; message?: string }
  return err?.shortMessage ?? err?.message ?? String(e)
}
