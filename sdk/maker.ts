// MakerClient: a small typed relay client for makers. Connects (JSON or msgpack), answers the
// relay's PING, sends its own PING every 30 s, reconnects with exponential backoff (1000 ms
// doubling, up to 10 attempts, as the spec suggests), signs quotes with viem and submits them,
// resolving each submission with its QUOTE_BROADCAST or its ERROR.
import WebSocket from 'ws'
import { Packr } from 'msgpackr'
import { privateKeyToAccount, type LocalAccount } from 'viem/accounts'
import { signCancel, signQuote } from './sign.js'
import type { Address, Eip712Domain, Hex, Quote, QuoteBroadcast, RelayErrorData, RfqBroadcast, SubmitResult } from './types.js'

export interface MakerClientOptions {
  /** ws://host:port of the relay */
  url: string
  /** the maker's key (or an account); needed only to sign */
  privateKey?: Hex
  account?: LocalAccount
  /** the EIP-712 domain; fetched from the relay's GET /health when omitted */
  domain?: Eip712Domain
  encoding?: 'json' | 'msgpack'
  /** which public broadcasts to receive (default both) */
  channels?: ('rfqs' | 'quotes')[]
  /** private RFQs' share tokens to join at connect (and after each reconnect) */
  shareTokens?: string[]
  pingIntervalMs?: number
  reconnect?: { initialDelayMs?: number; maxAttempts?: number } | false
  /** how long a submission waits for its broadcast or error */
  submitTimeoutMs?: number
}

interface Handlers {
  rfq: (b: RfqBroadcast) => void
  quote: (b: QuoteBroadcast) => void
  error: (e: RelayErrorData) => void
  open: () => void
  close: (code: number) => void
  reconnecting: (attempt: number, delayMs: number) => void
  message: (type: string, data: unknown) => void
}

interface Pending { rfqId: string; maker: string; settle(r: SubmitResult): void; timer: NodeJS.Timeout }

const packr = new Packr({ useRecords: false, mapsAsObjects: true })

/** The spec's suggested reconnect: 1000 ms, doubling per attempt, up to 10 attempts. */
export const DEFAULT_RECONNECT = { initialDelayMs: 1000, maxAttempts: 10 } as const

/** Delay before reconnect attempt `n` (0-based). */
export function backoffDelayMs(n: number, initialDelayMs: number = DEFAULT_RECONNECT.initialDelayMs): number {
  return initialDelayMs * 2 ** n
}

export class MakerClient {
  readonly account: LocalAccount | undefined
  private ws: WebSocket | null = null
  private domainValue: Eip712Domain | undefined
  private readonly handlers: { [K in keyof Handlers]: Set<Handlers[K]> } = {
    rfq: new Set(), quote: new Set(), error: new Set(), open: new Set(), close: new Set(), reconnecting: new Set(), message: new Set(),
  }
  private pending: Pending[] = []
  private readonly shareTokens: Set<string>
  private pinger: NodeJS.Timeout | null = null
  private closedByUser = false
  private attempts = 0
  private pongWaiters: (() => void)[] = []
  private nonce = BigInt(Date.now()) * 1000n

  constructor(private readonly opts: MakerClientOptions) {
    this.account = opts.account ?? (opts.privateKey ? privateKeyToAccount(opts.privateKey) : undefined)
    this.domainValue = opts.domain
    this.shareTokens = new Set(opts.shareTokens ?? [])
  }

  get address(): Address | undefined { return this.account?.address.toLowerCase() as Address | undefined }
  get connected(): boolean { return this.ws?.readyState === WebSocket.OPEN }

  on<K extends keyof Handlers>(event: K, fn: Handlers[K]): () => void {
    this.handlers[event].add(fn)
    return () => { this.handlers[event].delete(fn) }
  }

  /** Opens the socket; resolves once it is open. */
  async connect(): Promise<void> {
    this.closedByUser = false
    await this.open()
  }

  /** The relay's EIP-712 domain (from GET /health unless given). */
  async domain(): Promise<Eip712Domain> {
    if (!this.domainValue) {
      const http = this.opts.url.replace(/^ws/, 'http').replace(/\/+$/, '').split('?')[0]
      const res = await fetch(`${http}/health`)
      const body = await res.json() as { domain: Eip712Domain }
      this.domainValue = { ...body.domain, verifyingContract: body.domain.verifyingContract.toLowerCase() as Address }
    }
    return this.domainValue
  }

  /** A quote for an RFQ broadcast, maker and nonce filled in, ready to sign. */
  quoteFor(b: RfqBroadcast, terms: { amountIn: bigint; amountOut: bigint; ttlSecs?: number; taker?: Address; nonce?: bigint }): Quote {
    if (!this.address) throw new Error('MakerClient needs a privateKey or account to quote')
    const now = Math.floor(Date.now() / 1000)
    return {
      maker: this.address, taker: terms.taker ?? b.rfq.taker, tokenIn: b.rfq.tokenIn, tokenOut: b.rfq.tokenOut,
      amountIn: terms.amountIn.toString(), amountOut: terms.amountOut.toString(),
      expiry: b.rfq.expiry, nonce: (terms.nonce ?? this.nonce++).toString(), deadline: now + (terms.ttlSecs ?? 60),
    }
  }

  async sign(quote: Quote): Promise<Hex> {
    if (!this.account) throw new Error('MakerClient needs a privateKey or account to sign')
    return signQuote(this.account, await this.domain(), quote)
  }

  /** Signs and submits; resolves with the broadcast of this quote or the relay's ERROR. */
  async quote(rfqId: string, quote: Quote, opts: { shareToken?: string } = {}): Promise<SubmitResult> {
    return this.submit(rfqId, quote, await this.sign(quote), opts)
  }

  /** Submits an already signed quote. */
  submit(rfqId: string, quote: Quote, signature: Hex, opts: { shareToken?: string } = {}): Promise<SubmitResult> {
    return new Promise<SubmitResult>(resolve => {
      const p: Pending = {
        rfqId, maker: String(quote?.maker ?? '').toLowerCase(),
        settle: r => { clearTimeout(p.timer); this.pending = this.pending.filter(x => x !== p); resolve(r) },
        timer: setTimeout(() => p.settle({ ok: false, code: 'TIMEOUT', message: 'no broadcast or error from the relay in time' }), this.opts.submitTimeoutMs ?? 10_000),
      }
      this.pending.push(p)
      if (!this.send('QUOTE_SUBMIT', { rfqId, quote, signature, ...(opts.shareToken ? { shareToken: opts.shareToken } : {}) })) {
        p.settle({ ok: false, code: 'NOT_CONNECTED', message: 'not connected to the relay' })
      }
    })
  }

  /** CANCEL_REQUEST; signs the cancel text when the client holds the taker's key and sign is true. */
  async cancel(rfqId: string, opts: { sign?: boolean; signature?: Hex } = {}): Promise<void> {
    const signature = opts.signature ?? (opts.sign && this.account ? await signCancel(this.account, rfqId) : undefined)
    this.send('CANCEL_REQUEST', signature ? { rfqId, signature } : { rfqId })
  }

  /** Joins a private RFQ's broadcasts (kept across reconnects); the relay re-announces it if live. */
  subscribe(opts: { shareToken?: string; channels?: ('rfqs' | 'quotes')[] }): void {
    if (opts.shareToken) this.shareTokens.add(opts.shareToken)
    this.send('SUBSCRIBE', opts)
  }

  /** PING the relay; resolves at its PONG. */
  ping(): Promise<void> {
    return new Promise(resolve => { this.pongWaiters.push(resolve); this.send('PING', {}) })
  }

  /** Sends a raw {type, data} frame; false when not connected. */
  send(type: string, data: unknown): boolean {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false
    const msg = { type, data }
    this.ws.send(this.opts.encoding === 'msgpack' ? packr.pack(msg) : JSON.stringify(msg))
    return true
  }

  async close(): Promise<void> {
    this.closedByUser = true
    this.stopPinger()
    const ws = this.ws
    if (!ws || ws.readyState === WebSocket.CLOSED) return
    await new Promise<void>(resolve => { ws.once('close', () => resolve()); ws.close() })
  }

  private open(): Promise<void> {
    return new Promise((resolve, reject) => {
      const u = new URL(this.opts.url)
      if (this.opts.encoding === 'msgpack') u.searchParams.set('encoding', 'msgpack')
      if (this.opts.channels) u.searchParams.set('channels', this.opts.channels.join(','))
      const ws = new WebSocket(u)
      this.ws = ws
      let opened = false
      ws.on('open', () => {
        opened = true
        this.attempts = 0
        for (const t of this.shareTokens) this.send('SUBSCRIBE', { shareToken: t })
        this.startPinger()
        this.emit('open')
        resolve()
      })
      ws.on('message', (raw, isBinary) => this.receive(raw as Buffer, isBinary))
      ws.on('error', e => { if (!opened) reject(e) })
      ws.on('close', code => {
        this.stopPinger()
        for (const p of [...this.pending]) p.settle({ ok: false, code: 'CONNECTION_CLOSED', message: 'connection closed before an answer' })
        this.emit('close', code)
        if (opened && !this.closedByUser) this.reconnect()
      })
    })
  }

  private reconnect(): void {
    const r = this.opts.reconnect
    if (r === false) return
    const max = r?.maxAttempts ?? DEFAULT_RECONNECT.maxAttempts
    if (this.attempts >= max) return
    const delay = backoffDelayMs(this.attempts++, r?.initialDelayMs)
    this.emit('reconnecting', this.attempts, delay)
    setTimeout(() => {
      if (this.closedByUser) return
      this.open().catch(() => this.reconnect())
    }, delay).unref()
  }

  private receive(raw: Buffer, isBinary: boolean): void {
    let msg: { type?: string; data?: any }
    try {
      msg = isBinary ? packr.unpack(raw) : JSON.parse(raw.toString('utf8'))
    } catch { return }
    const { type, data } = msg
    if (typeof type !== 'string') return
    this.emit('message', type, data)
    switch (type) {
      case 'RFQ_BROADCAST': return this.emit('rfq', data as RfqBroadcast)
      case 'QUOTE_BROADCAST': {
        const b = data as QuoteBroadcast
        this.pending.find(p => p.rfqId === b.rfqId && p.maker === b.quote.maker.toLowerCase())?.settle({ ok: true, broadcast: b })
        return this.emit('quote', b)
      }
      case 'ERROR': {
        const e = data as RelayErrorData
        // errors name their rfqId (a relay extension); the oldest submission for it is the one answered
        const p = e.rfqId !== undefined ? this.pending.find(x => x.rfqId === e.rfqId) : e.code === 'RATE_LIMITED' ? undefined : this.pending[0]
        if (e.code === 'RATE_LIMITED') for (const x of [...this.pending]) x.settle({ ok: false, code: 'RATE_LIMITED', message: e.message })
        p?.settle({ ok: false, code: e.code ?? 'ERROR', message: e.message })
        return this.emit('error', e)
      }
      case 'PING': this.send('PONG', {}); return
      case 'PONG': { const w = this.pongWaiters.shift(); w?.(); return }
    }
  }

  private startPinger(): void {
    this.stopPinger()
    this.pinger = setInterval(() => this.send('PING', {}), this.opts.pingIntervalMs ?? 30_000)
    this.pinger.unref()
  }

  private stopPinger(): void {
    if (this.pinger) clearInterval(this.pinger)
    this.pinger = null
  }

  private emit<K extends keyof Handlers>(event: K, ...args: Parameters<Handlers[K]>): void {
    for (const fn of this.handlers[event]) {
      try { (fn as (...a: unknown[]) => void)(...args) } catch { /* a listener's bug is not the client's */ }
    }
  }
}
