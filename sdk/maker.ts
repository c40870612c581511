// MakerClient: a small typed relay client for makers. Connects (JSON or msgpack), answers the
// relay's PING, sends its own PING every 30 s, signs quotes with viem and submits them, resolving each
// submission with its QUOTE_BROADCAST or its ERROR. It outlives a relay restart: it reconnects with
// jittered exponential backoff (from 1000 ms, doubling as the spec suggests, capped at 30 s), forever
// unless a cap is set, keeps the process alive while it does (only close() lets it exit), restores its
// subscriptions, and says so (`reconnecting`, `reconnected`; `giveup` and an `error` if a cap is reached).
// Nothing goes silently: a frame it cannot read, a listener that throws, and why a connection ended or an
// attempt failed are each a `fault` (written to console.warn when nobody listens for them).
import WebSocket from 'ws'
import { Packr } from 'msgpackr'
import { privateKeyToAccount, type LocalAccount } from 'viem/accounts'
import { signCancel, signQuote } from './sign.js'
import { DEFAULT_RECONNECT, backoffDelayMs, jittered } from './backoff.js'
import type {
  Address, ClientFault, Eip712Domain, Hex, MakerEvents, Quote, QuoteBroadcast, RelayErrorData, RfqBroadcast, SubmitResult,
} from './types.js'
import { describeFault } from './faults.js'

export { DEFAULT_RECONNECT, backoffDelayMs, jittered } from './backoff.js'
export { describeFault } from './faults.js'

export interface MakerClientOptions {
  /** ws://host:port of the relay */
  url: string
  /** other nodes of the same venue (a cluster): each reconnect tries the next address in turn, so a maker
   *  whose node dies goes on through a survivor */
  fallbackUrls?: string[]
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
  /** false: never reconnect. maxAttempts defaults to Infinity (a cap is opt-in); jitter is the fraction taken off at random */
  reconnect?: { initialDelayMs?: number; maxDelayMs?: number; maxAttempts?: number; jitter?: number } | false
  /** how long a submission waits for its broadcast or error */
  submitTimeoutMs?: number
}


interface Pending { rfqId: string; maker: string; settle(r: SubmitResult): void; timer: NodeJS.Timeout }

const packr = new Packr({ useRecords: false, mapsAsObjects: true })

export class MakerClient {
  readonly account: LocalAccount | undefined
  private ws: WebSocket | null = null
  private domainValue: Eip712Domain | undefined
  private readonly handlers: { [K in keyof MakerEvents]: Set<MakerEvents[K]> } = {
    rfq: new Set(), quote: new Set(), error: new Set(), open: new Set(), close: new Set(), reconnecting: new Set(),
    reconnected: new Set(), giveup: new Set(), message: new Set(), fault: new Set(),
  }
  /** why the connection ended or the last attempt failed: the cause the next `reconnecting` names */
  private lastCause = 'not connected yet'
  private pending: Pending[] = []
  private readonly shareTokens: Set<string>
  private pinger: NodeJS.Timeout | null = null
  private closedByUser = false
  private attempts = 0
  /** which of the venue's addresses the next connection tries (url, then fallbackUrls, in turn) */
  private urlIndex = 0
  private retry: NodeJS.Timeout | null = null
  private pongWaiters: (() => void)[] = []
  private nonce = BigInt(Date.now()) * 1000n

  constructor(private readonly opts: MakerClientOptions) {
    this.account = opts.account ?? (opts.privateKey ? privateKeyToAccount(opts.privateKey) : undefined)
    this.domainValue = opts.domain
    this.shareTokens = new Set(opts.shareTokens ?? [])
  }

  get address(): Address | undefined { return this.account?.address.toLowerCase() as Address | undefined }
  get connected(): boolean { return this.ws?.readyState === WebSocket.OPEN }

  on<K extends keyof MakerEvents>(event: K, fn: MakerEvents[K]): () => void {
    this.handlers[event].add(fn)
    return () => { this.handlers[event].delete(fn) }
  }

  /** The address the next (or current) connection uses: url, then fallbackUrls, in turn. */
  private get currentUrl(): string {
    const urls = [this.opts.url, ...(this.opts.fallbackUrls ?? [])]
    return urls[this.urlIndex % urls.length]!
  }

  /** Opens the socket; resolves once it is open. */
  async connect(): Promise<void> {
    this.closedByUser = false
    await this.open()
  }

  /** The relay's EIP-712 domain (from GET /health unless given). */
  async domain(): Promise<Eip712Domain> {
    if (!this.domainValue) {
      const http = this.currentUrl.replace(/^ws/, 'http').replace(/\/+$/, '').split('?')[0]
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
    if (this.retry) { clearTimeout(this.retry); this.retry = null }
    const ws = this.ws
    if (!ws || ws.readyState === WebSocket.CLOSED) return
    await new Promise<void>(resolve => { ws.once('close', () => resolve()); ws.close() })
  }

  private open(): Promise<void> {
    return new Promise((resolve, reject) => {
      const u = new URL(this.currentUrl)
      if (this.opts.encoding === 'msgpack') u.searchParams.set('encoding', 'msgpack')
      if (this.opts.channels) u.searchParams.set('channels', this.opts.channels.join(','))
      const ws = new WebSocket(u)
      this.ws = ws
      let opened = false
      ws.on('open', () => {
        opened = true
        const after = this.attempts
        this.attempts = 0
        for (const t of this.shareTokens) this.send('SUBSCRIBE', { shareToken: t })
        this.startPinger()
        this.emit('open')
        if (after > 0) this.emit('reconnected', after)
        resolve()
      })
      ws.on('message', (raw, isBinary) => this.receive(raw as Buffer, isBinary))
      ws.on('error', e => {
        const message = `${opened ? 'connection error' : 'could not connect'}: ${e.message}`
        this.fault({ kind: 'connection', message, url: u.href, error: e })
        if (!opened) reject(e)
      })
      ws.on('close', (code, reason) => {
        if (opened && !this.closedByUser) {
          const why = `code ${code}${reason.length ? `, ${reason.toString()}` : ''}`
          this.fault({ kind: 'connection', message: `closed by the relay or the network (${why})`, url: u.href, code })
        }
        this.stopPinger()
        for (const p of [...this.pending]) p.settle({ ok: false, code: 'CONNECTION_CLOSED', message: 'connection closed before an answer' })
        this.emit('close', code)
        if (opened && !this.closedByUser) this.reconnect()
      })
    })
  }

  private reconnect(): void {
    const r = this.opts.reconnect
    if (r === false || this.closedByUser) return
    const max = r?.maxAttempts ?? DEFAULT_RECONNECT.maxAttempts
    if (this.attempts >= max) {
      this.emit('giveup', this.attempts)
      this.emit('error', { code: 'RECONNECT_FAILED', message: `could not reconnect to ${this.opts.url} after ${this.attempts} attempts` })
      return
    }
    if (this.opts.fallbackUrls?.length) this.urlIndex++        // the next node of the venue
    const delay = jittered(backoffDelayMs(this.attempts++, r?.initialDelayMs, r?.maxDelayMs), r?.jitter ?? DEFAULT_RECONNECT.jitter)
    this.emit('reconnecting', this.attempts, delay, this.lastCause)
    // not unref'd: a maker bot whose relay restarts must still be running when it comes back
    this.retry = setTimeout(() => {
      this.retry = null
      if (this.closedByUser) return
      this.open().catch(() => this.reconnect())      // the cause is already a fault (the socket's error)
    }, delay)
  }

  private receive(raw: Buffer, isBinary: boolean): void {
    let msg: { type?: unknown; data?: unknown } | null
    try {
      msg = (isBinary ? packr.unpack(raw) : JSON.parse(raw.toString('utf8'))) as typeof msg
    } catch (e) {
      const message = `unreadable ${isBinary ? 'msgpack' : 'JSON'} frame from the relay: ${(e as Error).message}`
      return this.fault({ kind: 'frame', message })
    }
    const { type, data } = msg ?? {}
    if (typeof type !== 'string') {
      return this.fault({ kind: 'frame', message: 'a frame from the relay without a string type' })
    }
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

  private emit<K extends keyof MakerEvents>(event: K, ...args: Parameters<MakerEvents[K]>): void {
    for (const fn of this.handlers[event]) {
      // a listener's bug is not the client's: it goes on, and says so
      try { (fn as (...a: unknown[]) => void)(...args) } catch (error) { this.fault({ kind: 'listener', event, error }) }
    }
  }

  private fault(f: ClientFault): void {
    if (f.kind === 'connection') this.lastCause = f.message
    if (!this.handlers.fault.size) return console.warn(`[maker-sdk] ${describeFault(f)}`)
    for (const fn of this.handlers.fault) {
      try { fn(f) } catch (error) {
        console.warn(`[maker-sdk] a fault listener threw: ${String(error)} (on: ${describeFault(f)})`)
      }
    }
  }
}

