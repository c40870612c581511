// The engine's chain reader: one viem public client on RPC_URL. JSON-RPC batching is on, so the
// many eth_calls of a pool-state refresh (each pinned to one block) go out as a few HTTP requests.
import { createPublicClient, http, type PublicClient } from 'viem'

export interface ChainClientOptions {
  /** calls per JSON-RPC batch request */
  batchSize?: number
  timeoutMs?: number
}

export function createChainClient(
  rpcUrl: string,
  { batchSize = 200, timeoutMs = 20_000 }: ChainClientOptions = {},
): PublicClient {
  return createPublicClient({
    transport: http(rpcUrl, { batch: { batchSize, wait: 0 }, timeout: timeoutMs, retryCount: 1 }),
  })
}
