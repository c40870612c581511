// The Live view's model: the relay's WebSocket (RFQ_BROADCAST, QUOTE_BROADCAST; PONG to its PING;
// SUBSCRIBE with each share token the user entered), seeded from the relay's REST listing so RFQs that
// were already live show too. Reconnects with the house's backoff (workers/retry: 1 s doubling up to 30 s) and
// re-subscribes.
// Times are the relay's where it gives them (createdAt, receivedAt) and arrival times otherwise.

import { backoffDelayMs } from '../workers/retry/backoff'
import { hasExpired, isOpen } from '../workers/values/rfqStatus'

export interface LiveQuote {
  maker: string
  amountIn: string
  amountOut: string
  receivedAt: number
}
export interface LiveRfq {
  id: string
  taker: string
  tokenIn: string
  tokenOut: string
  kind: number
  amountIn: string | null
  amountOut: string | null
  expiry: number
  visibility: string
  createdAt: number
  quotes: LiveQuote[]
  /** the share token it was seen with (private RFQs) */
  shareToken?: string
  /** how it ended (FILLED, CANCELLED, EXPIRED), once the relay no longer lists it */
  ended?: string
}
export type FeedStatus = 'connecting' | 'open' | 'reconnecting'

/** The relay's frames and listings, as much as this model reads of them (docs/relay.md); other frames pass by */
interface WireRfq {
  taker: string
  tokenIn: string
  tokenOut: string
  kind: number
  amountIn?: string | null
  amountOut?: string | null
  expiry: number
  visibility?: string
}
interface WireQuote {
  maker: string
  amountIn: string
  amountOut: string
}
type RelayFrame =
  | { type: 'PING' }
  | { type: 'RFQ_BROADCAST'; data: { rfqId: string; rfq: WireRfq } }
  | { type: 'QUOTE_BROADCAST'; data: { rfqId: string; quote: WireQuote } }
  | { type: 'ERROR'; data?: { message?: string } }
interface ListedRfq extends Omit<WireRfq, 'tokenIn' | 'tokenOut'> {
  id: string
  tokenIn: string | { address: string }
  tokenOut: string | { address: string }
  visibility: string
  createdAt: string
  quoteCount: number
}

const KEEP = 200 // RFQs kept on screen; older ended ones are dropped
const LATENCIES = 60 // quotes in the latency sparkline
const SHARE_KEY = 'console.shareTokens'
const SWEEP_MS = 3000 // how often the relay's listing is asked what is still live (304 while nothing changed)

export class LiveFeed {
  readonly rfqs = new Map<string, LiveRfq>()
  /** ms from an RFQ's creation to each quote's arrival, oldest first */
  latencies: number[] = []
  status: FeedStatus = 'connecting'
  lastError = ''
  private ws?: WebSocket
  /** reconnects tried since the socket was last open */
  private retries = 0
  private timer?: ReturnType<typeof setTimeout>
  private stopped = false
  private listeners = new Set<() => void>()
  private early = new Map<string, LiveQuote[]>() // quotes that beat their RFQ here
  private sweeper?: ReturnType<typeof setInterval>
  private etags = new Map<string, string>() // the relay listing's ETag per share token ('' public)

  constructor(
    private readonly relay: string,
    private readonly relayWs: string,
  ) {}

  get shareTokens(): string[] {
    return JSON.parse(sessionStorage.getItem(SHARE_KEY) ?? '[]') as string[]
  }

  onChange(fn: () => void): () => void {
    this.listeners.add(fn)
    return () => this.listeners.delete(fn)
  }

  start(): void {
    this.connect()
    // the relay broadcasts no ends: its listing says which RFQs are still live, and /quotes how one ended
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_MS)
  }

  stop(): void {
    this.stopped = true
    clearTimeout(this.timer)
    clearInterval(this.sweeper)
    this.ws?.close()
  }

  /** RFQs the relay no longer lists (and not just born) are asked how they ended. */
  private async sweep(): Promise<void> {
    for (const token of [undefined, ...this.shareTokens]) {
      try {
        const key = token ?? ''
        const asked = Date.now()
        const res = await fetch(`${this.relay}/rfqs${token ? `?shareToken=${encodeURIComponent(token)}` : ''}`, {
          headers: this.etags.has(key) ? { 'if-none-match': this.etags.get(key)! } : {},
        })
        if (res.status === 304 || !res.ok) continue
        this.etags.set(key, res.headers.get('etag') ?? '')
        const live = new Set(((await res.json()) as { rfqs: { id: string }[] }).rfqs.map(r => r.id))
        const gone = [...this.rfqs.values()].filter(
          r => !r.ended && !live.has(r.id) && (r.shareToken ?? '') === key && r.createdAt < asked - 1000,
        )
        for (const r of gone.slice(0, 20)) {
          const q = await fetch(
            `${this.relay}/quotes?rfqId=${encodeURIComponent(r.id)}${token ? `&shareToken=${encodeURIComponent(token)}` : ''}`,
          )
          const status = q.ok ? ((await q.json()) as { status?: string }).status : undefined
          r.ended = status && !isOpen(status) ? status : 'ENDED'
        }
        if (gone.length) this.changed()
      } catch {
        /* the socket's reconnect loop reports the relay as down */
      }
    }
  }

  /** How an RFQ ended, learned elsewhere (the API's detail of a selected RFQ): its row stops counting down. */
  markEnded(id: string, status: string): void {
    const r = this.rfqs.get(id)
    if (!r || r.ended) return
    r.ended = status
    this.changed()
  }

  /** Private RFQs show once their share token is entered: subscribe now and list what is live. */
  addShareToken(token: string): void {
    const t = token.trim()
    if (!t || this.shareTokens.includes(t)) return
    sessionStorage.setItem(SHARE_KEY, JSON.stringify([...this.shareTokens, t]))
    this.send({ type: 'SUBSCRIBE', data: { shareToken: t } })
    void this.seed([t])
  }

  private connect(): void {
    const ws = (this.ws = new WebSocket(`${this.relayWs}/?channels=rfqs,quotes`))
    ws.onopen = () => {
      this.status = 'open'
      this.retries = 0
      this.lastError = ''
      for (const t of this.shareTokens) this.send({ type: 'SUBSCRIBE', data: { shareToken: t } })
      void this.seed(this.shareTokens)
      this.changed()
    }
    ws.onmessage = ev => {
      if (typeof ev.data === 'string') this.receive(JSON.parse(ev.data) as RelayFrame)
    }
    ws.onclose = () => {
      if (this.stopped) return
      this.status = 'reconnecting'
      this.changed()
      this.timer = setTimeout(() => this.connect(), backoffDelayMs(this.retries++, 1000, 30_000))
    }
  }

  private send(msg: unknown): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg))
  }

  private receive(msg: RelayFrame): void {
    switch (msg.type) {
      case 'PING':
        return this.send({ type: 'PONG', data: {} })
      case 'RFQ_BROADCAST': {
        const r = msg.data.rfq
        this.addRfq({
          id: msg.data.rfqId,
          taker: r.taker,
          tokenIn: r.tokenIn,
          tokenOut: r.tokenOut,
          kind: r.kind,
          amountIn: r.amountIn ?? null,
          amountOut: r.amountOut ?? null,
          expiry: r.expiry,
          visibility: r.visibility ?? 'public',
          createdAt: Date.now(),
          quotes: [],
        })
        return this.changed()
      }
      case 'QUOTE_BROADCAST': {
        const q = msg.data.quote
        this.addQuote(msg.data.rfqId, {
          maker: q.maker,
          amountIn: q.amountIn,
          amountOut: q.amountOut,
          receivedAt: Date.now(),
        })
        return this.changed()
      }
      case 'ERROR':
        this.lastError = msg.data?.message ?? 'relay error'
        return this.changed()
    }
  }

  /** The relay's REST listing (public, and each share token's), then the quotes of RFQs that have some. */
  private async seed(shareTokens: string[]): Promise<void> {
    for (const token of [undefined, ...shareTokens]) {
      try {
        const res = await fetch(`${this.relay}/rfqs${token ? `?shareToken=${encodeURIComponent(token)}` : ''}`)
        if (!res.ok) continue
        const { rfqs } = (await res.json()) as { rfqs: ListedRfq[] }
        for (const r of rfqs) {
          if (token && r.visibility !== 'private') continue
          const known = this.rfqs.has(r.id)
          this.addRfq({
            id: r.id,
            taker: r.taker,
            tokenIn: addressOf(r.tokenIn),
            tokenOut: addressOf(r.tokenOut),
            kind: r.kind,
            amountIn: r.amountIn ?? null,
            amountOut: r.amountOut ?? null,
            expiry: r.expiry,
            visibility: r.visibility,
            createdAt: Date.parse(r.createdAt) || Date.now(),
            quotes: [],
            shareToken: token,
          })
          if (!known && r.quoteCount > 0) await this.seedQuotes(r.id, token)
        }
      } catch {
        /* the socket's reconnect loop reports the relay as down */
      }
    }
    this.changed()
  }

  private async seedQuotes(rfqId: string, token?: string): Promise<void> {
    const res = await fetch(
      `${this.relay}/quotes?rfqId=${encodeURIComponent(rfqId)}${token ? `&shareToken=${encodeURIComponent(token)}` : ''}`,
    )
    if (!res.ok) return
    const { quotes } = (await res.json()) as { quotes: { quote: WireQuote; receivedAt: string }[] }
    for (const q of quotes)
      this.addQuote(
        rfqId,
        {
          maker: q.quote.maker,
          amountIn: q.quote.amountIn,
          amountOut: q.quote.amountOut,
          receivedAt: Date.parse(q.receivedAt) || Date.now(),
        },
        false,
      )
  }

  private addRfq(r: LiveRfq): void {
    const known = this.rfqs.get(r.id)
    if (known) {
      if (r.shareToken) known.shareToken = r.shareToken
      return
    }
    this.rfqs.set(r.id, r)
    for (const q of this.early.get(r.id) ?? []) this.addQuote(r.id, q)
    this.early.delete(r.id)
    if (this.rfqs.size > KEEP) {
      const now = Date.now()
      const ended = [...this.rfqs.values()]
        .filter(x => hasExpired(x.expiry, now))
        .sort((a, b) => a.createdAt - b.createdAt)
      for (const x of ended.slice(0, this.rfqs.size - KEEP)) this.rfqs.delete(x.id)
    }
  }

  private addQuote(rfqId: string, q: LiveQuote, live = true): void {
    const rfq = this.rfqs.get(rfqId)
    if (!rfq) {
      if (live) this.early.set(rfqId, [...(this.early.get(rfqId) ?? []), q])
      return
    }
    if (rfq.quotes.some(x => x.maker === q.maker)) return // one quote per maker per RFQ (relay rule)
    rfq.quotes.push(q)
    this.latencies = [...this.latencies, Math.max(0, q.receivedAt - rfq.createdAt)].slice(-LATENCIES)
  }

  private changed(): void {
    for (const fn of this.listeners) fn()
  }
}

function addressOf(t: string | { address: string }): string {
  return typeof t === 'string' ? t : t.address
}

/** The best quote for the taker: most out for EXACT_IN (kind 0), least in for EXACT_OUT. */
export function bestQuote(r: LiveRfq): LiveQuote | undefined {
  const better = (a: LiveQuote, b: LiveQuote) =>
    r.kind === 1 ? BigInt(a.amountIn) < BigInt(b.amountIn) : BigInt(a.amountOut) > BigInt(b.amountOut)
  return r.quotes.reduce<LiveQuote | undefined>((best, q) => (!best || better(q, best) ? q : best), undefined)
}

export function firstQuoteMs(r: LiveRfq): number | undefined {
  if (!r.quotes.length) return undefined
  return Math.max(0, Math.min(...r.quotes.map(q => q.receivedAt)) - r.createdAt)
}
