// What an agent developer does against the sandbox, as plain functions over HTTP and the chain:
// register, ask for a price, fill the best quote on chain, record the fill. The CLI and the
// end-to-end test both use them, so the README walk-through is the tested path.
import { createPublicClient, createWalletClient, http, parseEventLogs, type Address, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { registrationMessage } from '../agents/message.js'
import { spotRfqArtifact } from '../chain/spotRfq.js'
import { onChainQuote, type RelayQuote } from './relayQuote.js'
import { ApiRefusal } from './cliFailure.js'

export async function call<T>(method: string, url: string, body?: unknown, apiKey?: string): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const parsed = await res.json().catch(() => null) // a body that is not JSON: the refusal names the status alone
  if (!res.ok) throw new ApiRefusal(res.status, parsed as { error?: string; code?: string } | null, `${method} ${url}`)
  return parsed as T
}

export interface Registered {
  agentId: string
  apiKey: string
  agentWallet: string
}

/** Registers an agent owned by `ownerKey` whose wallet is `agent` (a key: its address; or the address itself). */
export async function registerAgent(
  api: string,
  ownerKey: Hex,
  agent: Hex | Address,
  name = 'sandbox-agent',
  roles = ['taker', 'monitor'],
): Promise<Registered> {
  const owner = privateKeyToAccount(ownerKey)
  const agentWallet = agent.length === 42 ? agent : privateKeyToAccount(agent).address
  const timestamp = Math.floor(Date.now() / 1000)
  const fields = {
    name,
    ownerWallet: owner.address.toLowerCase(),
    agentWallet: agentWallet.toLowerCase(),
    roles,
    timestamp,
  }
  const signature = await owner.signMessage({ message: registrationMessage(fields) })
  return call('POST', `${api}/api/v1/agent/register`, { ...fields, signature })
}

export interface CreatedRfq {
  rfqId: string
  shareToken: string | null
  expiry: number
  ttlSeconds: number
  activeCount: number
}

export function createRfq(api: string, apiKey: string, body: Record<string, unknown>): Promise<CreatedRfq> {
  return call('POST', `${api}/api/v1/agent/rfqs`, body, apiKey)
}

export type { RelayQuote }

/** The quote paying the most tokenOut, from the relay's REST polling endpoint. */
export async function bestQuote(relay: string, rfqId: string, shareToken?: string | null): Promise<RelayQuote | null> {
  const r = await call<{ quotes: RelayQuote[] }>(
    'GET',
    `${relay}/quotes?rfqId=${encodeURIComponent(rfqId)}${shareToken ? `&shareToken=${encodeURIComponent(shareToken)}` : ''}`,
  )
  return r.quotes.reduce<RelayQuote | null>(
    (best, q) => (!best || BigInt(q.quote.amountOut) > BigInt(best.quote.amountOut) ? q : best),
    null,
  )
}

/** The taker fills the maker's signed quote on SpotRFQ and waits for the receipt. */
export async function fillOnChain(
  rpcUrl: string,
  chainId: number,
  spotRfq: Address,
  takerKey: Hex,
  q: RelayQuote,
  onSent?: (txHash: Hex) => void,
): Promise<{ txHash: Hex; quoteHash: Hex }> {
  const chain = { ...foundry, id: chainId }
  const account = privateKeyToAccount(takerKey)
  const wallet = createWalletClient({ account, chain, transport: http(rpcUrl) })
  const pub = createPublicClient({ chain, transport: http(rpcUrl) })
  const { abi } = spotRfqArtifact()
  const txHash = await wallet.writeContract({
    address: spotRfq,
    abi,
    functionName: 'fill',
    args: [onChainQuote(q), q.signature],
    account,
    chain,
  })
  onSent?.(txHash) // before the receipt: whatever happens next, the hash is known
  const receipt = await pub.waitForTransactionReceipt({ hash: txHash, pollingInterval: 50 })
  if (receipt.status !== 'success') throw new Error(`fill reverted: ${txHash}`)
  const [event] = parseEventLogs({ abi, logs: receipt.logs, eventName: 'QuoteFilled' }) as unknown as {
    args: { quoteHash: Hex }
  }[]
  if (!event) throw new Error(`fill ${txHash} succeeded without a QuoteFilled event: not SpotRFQ's fill`)
  return { txHash, quoteHash: event.args.quoteHash }
}

export interface AgentFillReply {
  success: true
  rfqId: string
  txHash: string
  fill: { id: string; improvementBps: number; takerPoints: number; makerPoints: number }
}

export function recordAgentFill(
  api: string,
  apiKey: string,
  rfqId: string,
  q: RelayQuote,
  txHash: Hex,
  amountInUsd: number,
): Promise<AgentFillReply> {
  return call(
    'POST',
    `${api}/api/v1/agent/rfqs/${encodeURIComponent(rfqId)}/fill`,
    {
      txHash,
      maker: q.quote.maker,
      amountIn: q.quote.amountIn,
      amountOut: q.quote.amountOut,
      amountInUsd,
    },
    apiKey,
  )
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null | undefined>,
  timeoutMs = 10_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    let last: unknown
    const v = await probe().catch((e: unknown) => {
      last = e
      return null
    }) // not yet: probed again until the deadline
    if (v) return v
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${last instanceof Error ? ` (last: ${last.message})` : ''}`)
    await new Promise(r => setTimeout(r, everyMs))
  }
}
