// The few API calls a load test of a running deployment needs, over plain fetch: the relay's EIP-712
// domain (from its /health), the taker agent's wallet, RFQs created and cancelled through the API,
// and, when no key is given, a throw-away taker agent registered with a fresh owner key.
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { registrationMessage } from '../../engine/agents/message.js'
import type { Domain } from '../../workers/sig/types.js'

export interface LiveRfq {
  rfqId: string
  expiry: number
}

export class VenueError extends Error {
  override name = 'VenueError'
}

/** One call; `T` is what the caller reads of the answer's body (the API's docs say what it holds) */
async function call<T>(url: string, init: RequestInit = {}): Promise<T> {
  let res: Response
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) })
  } catch (e) {
    throw new VenueError(`cannot reach ${url}: ${(e as Error).message}`)
  }
  const text = await res.text()
  const body = (text ? JSON.parse(text) : undefined) as (T & { error?: string }) | undefined
  if (!res.ok)
    throw Object.assign(new VenueError(`${init.method ?? 'GET'} ${url}: ${res.status} ${body?.error ?? text}`), {
      status: res.status,
    })
  return body as T
}

const json = (key: string | undefined, body?: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
  body: JSON.stringify(body ?? {}),
})

/** The relay's EIP-712 domain, as makers sign under it. */
export async function relayDomain(relayHttp: string): Promise<Domain & { chainId: number }> {
  const h = await call<{ domain?: Domain & { chainId: number } } | undefined>(`${relayHttp}/health`)
  if (!h?.domain) throw new VenueError(`${relayHttp}/health has no EIP-712 domain`)
  return { ...h.domain, verifyingContract: h.domain.verifyingContract.toLowerCase() as `0x${string}` }
}

export async function agentWallet(api: string, key: string): Promise<string> {
  const a = await call<{ roles?: string[]; agentWallet: string }>(`${api}/api/v1/agent/auth`, {
    headers: { authorization: `Bearer ${key}` },
  })
  if (!a.roles?.includes('taker')) throw new VenueError("the key's agent lacks the taker role: it cannot create RFQs")
  return String(a.agentWallet).toLowerCase()
}

/** A fresh owner registers a fresh taker agent; returns its API key. */
export async function registerTaker(api: string): Promise<string> {
  const owner = privateKeyToAccount(generatePrivateKey())
  const agent = privateKeyToAccount(generatePrivateKey())
  const fields = {
    name: 'loadtest',
    ownerWallet: owner.address,
    agentWallet: agent.address,
    roles: ['taker'],
    timestamp: Math.floor(Date.now() / 1000),
  }
  const signature = await owner.signMessage({ message: registrationMessage(fields) })
  return (await call<{ apiKey: string }>(`${api}/api/v1/agent/register`, json(undefined, { ...fields, signature })))
    .apiKey
}

export async function tokenPair(api: string): Promise<[string, string]> {
  const { tokens } = await call<{ tokens?: { address: string }[] }>(`${api}/api/v1/tokens`)
  if (!tokens || tokens.length < 2) throw new VenueError('the token registry has fewer than two tokens')
  const [a, b] = tokens as [{ address: string }, { address: string }] // two at least, as just checked
  return [a.address, b.address]
}

/** Up to `n` RFQs; stops early at the active-RFQ cap (429) and returns what it made. */
export async function createRfqs(
  api: string,
  key: string,
  n: number,
  terms: { tokenIn: string; tokenOut: string; amountIn: bigint; ttlSeconds: number },
): Promise<LiveRfq[]> {
  const out: LiveRfq[] = []
  for (let i = 0; i < n; i++) {
    try {
      const r = await call<LiveRfq>(
        `${api}/api/v1/agent/rfqs`,
        json(key, {
          tokenIn: terms.tokenIn,
          tokenOut: terms.tokenOut,
          amountIn: terms.amountIn.toString(),
          ttlSeconds: terms.ttlSeconds,
        }),
      )
      out.push({ rfqId: r.rfqId, expiry: r.expiry })
    } catch (e) {
      if ((e as { status?: number }).status === 429 && out.length) break
      throw e
    }
  }
  return out
}

export async function cancelRfqs(api: string, key: string, rfqs: LiveRfq[]): Promise<void> {
  await Promise.all(rfqs.map(r => call(`${api}/api/v1/rfqs/${r.rfqId}/cancel`, json(key)).catch(() => {}))) // best effort: an RFQ that already ended needs no cancel
}
