// Test kit for the agent API: owners and agents as real viem/ethers wallets, registration signed
// exactly as a client would, and small fetch helpers.
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { registrationMessage } from '../../engine/agents/message.js'

export interface Wallet {
  key: `0x${string}`
  account: PrivateKeyAccount
  address: `0x${string}`
}

export function wallet(key: `0x${string}` = generatePrivateKey()): Wallet {
  const account = privateKeyToAccount(key)
  return { key, account, address: account.address.toLowerCase() as `0x${string}` }
}

export interface RegistrationBody {
  name: string
  ownerWallet: string
  agentWallet: string
  roles: string[]
  timestamp: number
  signature: string
}

export const nowSec = () => Math.floor(Date.now() / 1000)

/** A registration body signed by `owner` with viem (personal_sign). */
export async function signedRegistration(
  owner: Wallet,
  agent: Wallet,
  over: Partial<Omit<RegistrationBody, 'signature'>> = {},
): Promise<RegistrationBody> {
  const f = {
    name: 'bot',
    ownerWallet: owner.account.address,
    agentWallet: agent.account.address,
    roles: ['taker', 'monitor'],
    timestamp: nowSec(),
    ...over,
  }
  const signature = await owner.account.signMessage({ message: registrationMessage(f) })
  return { ...f, signature }
}

export async function post(
  base: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers }
}

export async function get(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(base + path, { headers })
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers }
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` })

/** Registers an agent (a fresh owner and agent wallet unless given) and returns its key and wallets. */
export async function newAgent(
  api: string,
  roles: string[] = ['taker', 'monitor'],
  opts: { owner?: Wallet; agent?: Wallet; name?: string } = {},
) {
  const owner = opts.owner ?? wallet()
  const agent = opts.agent ?? wallet()
  const r = await post(
    api,
    '/api/v1/agent/register',
    await signedRegistration(owner, agent, { roles, name: opts.name ?? 'bot' }),
  )
  if (r.status !== 201) throw new Error(`registration failed: ${r.status} ${JSON.stringify(r.body)}`)
  return {
    owner,
    agent,
    key: r.body.apiKey as string,
    agentId: r.body.agentId as string,
    headers: bearer(r.body.apiKey),
  }
}

/** EIP-712 Quote typed data as the relay checks it (the test engine has no SPOT_RFQ_ADDRESS: the zero address stands in). */
export const quoteDomain = {
  name: 'SpotRFQ',
  version: '1',
  chainId: 31337,
  verifyingContract: '0x0000000000000000000000000000000000000000',
} as const
export const quoteTypes = {
  Quote: [
    { name: 'maker', type: 'address' },
    { name: 'taker', type: 'address' },
    { name: 'tokenIn', type: 'address' },
    { name: 'tokenOut', type: 'address' },
    { name: 'amountIn', type: 'uint256' },
    { name: 'amountOut', type: 'uint256' },
    { name: 'expiry', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const

/** A quote for an RFQ signed by `maker`, in its wire form. */
export async function signedQuote(
  maker: Wallet,
  rfq: { tokenIn: string; tokenOut: string; amountIn?: string },
  over: Partial<Record<string, string | number>> = {},
) {
  const quote = {
    maker: maker.address,
    taker: '0x0000000000000000000000000000000000000000',
    tokenIn: rfq.tokenIn.toLowerCase(),
    tokenOut: rfq.tokenOut.toLowerCase(),
    amountIn: rfq.amountIn ?? '1000',
    amountOut: '2500',
    expiry: nowSec() + 120,
    nonce: '1',
    deadline: nowSec() + 120,
    ...over,
  }
  const signature = await maker.account.signTypedData({
    domain: quoteDomain,
    types: quoteTypes,
    primaryType: 'Quote',
    message: {
      ...quote,
      amountIn: BigInt(quote.amountIn),
      amountOut: BigInt(quote.amountOut),
      expiry: BigInt(quote.expiry),
      nonce: BigInt(quote.nonce),
      deadline: BigInt(quote.deadline),
    } as never,
  })
  return { quote, signature }
}

export interface SseEvent {
  id?: string
  event?: string
  data?: any
  comment?: string
}

/** A live SSE connection: every frame parsed, comments kept (heartbeats), waitFor with a timeout. */
export async function openFeed(api: string, headers: Record<string, string> = {}) {
  const ctl = new AbortController()
  const res = await fetch(api + '/api/v1/feed', { headers, signal: ctl.signal })
  const frames: SseEvent[] = []
  const waiters: (() => void)[] = []
  let buf = ''
  const pump = (async () => {
    if (!res.body) return
    const dec = new TextDecoder()
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buf += dec.decode(chunk, { stream: true })
        let i
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i)
          buf = buf.slice(i + 2)
          const e: SseEvent = {}
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) e.comment = line.slice(1).trim()
            else if (line.startsWith('id: ')) e.id = line.slice(4)
            else if (line.startsWith('event: ')) e.event = line.slice(7)
            else if (line.startsWith('data: ')) e.data = JSON.parse(line.slice(6))
          }
          frames.push(e)
          waiters.splice(0).forEach(w => w())
        }
      }
    } catch {
      /* aborted */
    }
  })()
  return {
    res,
    frames,
    async waitFor(pred: (e: SseEvent) => boolean, timeoutMs = 5000): Promise<SseEvent> {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const hit = frames.find(pred)
        if (hit) return hit
        if (Date.now() > deadline) throw new Error(`no matching SSE frame; got ${JSON.stringify(frames)}`)
        await new Promise<void>(r => {
          waiters.push(r)
          setTimeout(r, 50)
        })
      }
    },
    async close() {
      ctl.abort()
      await pump
    },
  }
}
