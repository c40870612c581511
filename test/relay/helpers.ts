// Relay test material: RFQs made like the RFQ API makes them, quotes signed by viem, and a small
// WebSocket client over the `ws` package that queues frames for assertions. Every frame the relay sends to
// it is checked against the relay's AsyncAPI document (test/contract/conformance.ts): a frame that breaks it
// fails the next wait on that client, and the suite at its end, so every suite using it is a conformance check.
import { after } from 'node:test'
import { randomBytes } from 'node:crypto'
import WebSocket from 'ws'
import { Packr } from 'msgpackr'
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import type { Address, Rfq } from '../../actors/rfqTypes.js'
import type { TestEngine } from '../helpers/engine.js'
import { quoteTypes } from '../../sdk/sign.js'
import type { Eip712Domain, Quote } from '../../sdk/types.js'
import { outbound } from '../contract/conformance.js'
import { testRfq } from '../helpers/rfqFixtures.js'

/** Frames the relay sent that break its document, across every client of this process. */
const violations: string[] = []
after(() => {
  if (violations.length) throw new Error(`frames that break the relay's AsyncAPI document:\n${violations.join('\n')}`)
})

export { T_IN as TOKEN_IN, T_OUT as TOKEN_OUT } from '../helpers/rfqFixtures.js'
export const ZERO = '0x0000000000000000000000000000000000000000' as Address

export function account(): PrivateKeyAccount {
  return privateKeyToAccount(`0x${randomBytes(32).toString('hex')}`)
}

export function makeRfq(over: Partial<Rfq> = {}): Rfq {
  const id = 'rfq_' + randomBytes(8).toString('hex')
  return testRfq(id, account().address.toLowerCase() as Address, { amountIn: 10n ** 18n, ...over })
}

export async function createRfq(t: TestEngine, over: Partial<Rfq> = {}): Promise<Rfq> {
  const rfq = makeRfq(over)
  await t.engine.modules.book.create(rfq)
  return rfq
}

export function makeQuote(maker: PrivateKeyAccount, rfq: Rfq, over: Partial<Quote> = {}): Quote {
  return {
    maker: maker.address.toLowerCase() as Address,
    taker: rfq.taker,
    tokenIn: rfq.tokenIn,
    tokenOut: rfq.tokenOut,
    amountIn: '1000000000000000000',
    amountOut: '2500000000',
    expiry: rfq.expiry,
    nonce: String(Math.floor(Math.random() * 1e9)),
    deadline: Math.floor(Date.now() / 1000) + 60,
    ...over,
  }
}

export function domainOf(t: TestEngine): Eip712Domain {
  const c = t.engine.ctx.config
  return { name: c.EIP712_NAME, version: '1', chainId: c.CHAIN_ID, verifyingContract: c.SPOT_RFQ_ADDRESS ?? ZERO }
}

export function sign(
  maker: PrivateKeyAccount,
  domain: Eip712Domain,
  q: Quote,
  types: typeof quoteTypes | Record<string, readonly { name: string; type: string }[]> = quoteTypes,
): Promise<`0x${string}`> {
  return maker.signTypedData({
    domain: { ...domain, chainId: BigInt(domain.chainId) },
    types: types as typeof quoteTypes,
    primaryType: 'Quote',
    message: {
      ...q,
      amountIn: BigInt(q.amountIn),
      amountOut: BigInt(q.amountOut),
      expiry: BigInt(q.expiry),
      nonce: BigInt(q.nonce),
      deadline: BigInt(q.deadline),
    },
  })
}

export interface Frame {
  type: string
  data: any
}

const packr = new Packr({ useRecords: false, mapsAsObjects: true })

/** A relay client that keeps every frame; `next` waits for the first unread one matching. */
export class Client {
  readonly frames: Frame[] = []
  /** this client's frames that broke the document */
  readonly violations: string[] = []
  private read = new Set<Frame>()
  private waiters: { match(f: Frame): boolean; resolve(f: Frame): void }[] = []
  closeCode: number | null = null
  closed: Promise<number>

  private constructor(
    readonly ws: WebSocket,
    readonly binary: boolean,
    readonly autoPong: boolean,
  ) {
    ws.on('message', (raw, isBinary) => {
      const f = (isBinary ? packr.unpack(raw as Buffer) : JSON.parse((raw as Buffer).toString('utf8'))) as Frame
      const wrong = outbound(f, isBinary ? 'msgpack' : 'json')
      if (f.type === 'PING' && this.autoPong) this.send('PONG', {})
      if (wrong) {
        this.violations.push(wrong)
        violations.push(`${isBinary ? 'msgpack' : 'json'}: ${wrong}`)
      }
      this.frames.push(f)
      const w = this.waiters.find(w => w.match(f))
      if (w) {
        this.read.add(f)
        this.waiters.splice(this.waiters.indexOf(w), 1)
        w.resolve(f)
      }
    })
    this.closed = new Promise(resolve =>
      ws.on('close', code => {
        this.closeCode = code
        resolve(code)
      }),
    )
  }

  /** `autoPong`: answer the relay's PING, as a real client does (for a suite with a short ping interval). */
  static async open(
    url: string,
    opts: { protocols?: string[]; binary?: boolean; autoPong?: boolean } = {},
  ): Promise<Client> {
    const ws = new WebSocket(url, opts.protocols)
    // listening before the open: a frame the relay sends from its open handler can arrive in the same read
    const client = new Client(ws, opts.binary ?? false, opts.autoPong ?? false)
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve())
      ws.once('error', reject)
    })
    return client
  }

  send(type: string, data: unknown): void {
    const msg = { type, data }
    this.ws.send(this.binary ? packr.pack(msg) : JSON.stringify(msg))
  }

  raw(text: string | Buffer): void {
    this.ws.send(text)
  }

  next(match: (f: Frame) => boolean = () => true, timeoutMs = 5000): Promise<Frame> {
    if (this.violations.length)
      return Promise.reject(new Error(`the relay broke its AsyncAPI document: ${this.violations[0]}`))
    const have = this.frames.find(f => !this.read.has(f) && match(f))
    if (have) {
      this.read.add(have)
      return Promise.resolve(have)
    }
    return new Promise((resolve, reject) => {
      const w = {
        match,
        resolve: (f: Frame) => {
          clearTimeout(timer)
          resolve(f)
        },
      }
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(w), 1)
        reject(new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(this.frames.slice(-5))}`))
      }, timeoutMs)
      this.waiters.push(w)
    })
  }

  nextOf(type: string, timeoutMs?: number): Promise<Frame> {
    return this.next(f => f.type === type, timeoutMs)
  }

  /** Submits and returns the ERROR frame for it (or throws when none arrives). */
  async error(data: unknown): Promise<Frame['data']> {
    this.send('QUOTE_SUBMIT', data)
    return (await this.nextOf('ERROR')).data
  }

  /** PING/PONG round trip: every frame the relay sent before the PONG has arrived. */
  async sync(): Promise<void> {
    this.send('PING', {})
    await this.nextOf('PONG')
  }

  of(type: string): Frame[] {
    return this.frames.filter(f => f.type === type)
  }

  async close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return
    this.ws.close()
    await this.closed
  }
}

export async function waitFor<T>(fn: () => T | Promise<T>, ok: (v: T) => boolean, timeoutMs = 5000): Promise<T> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const v = await fn()
    if (ok(v)) return v
    if (Date.now() > end)
      throw new Error(
        `condition not met within ${timeoutMs} ms; last ${JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? x.toString() : x))}`,
      )
    await new Promise(r => setTimeout(r, 25))
  }
}
