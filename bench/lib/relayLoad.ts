// Drives pre-signed quotes at a relay at a fixed rate over real WebSockets and measures each accepted
// quote from its submit to its QUOTE_BROADCAST at an observer socket. Submitters subscribe to nothing
// (`?channels=`), so the generator parses only the observer's broadcasts and the submitters' ERRORs.
// Latencies go into Node's built-in HDR histogram (perf_hooks.createHistogram), in microseconds.
import { createHistogram, type RecordableHistogram } from 'node:perf_hooks'
import type { PresignedQuote } from './presign.js'
import { closeSocket, openSocket } from './openSocket.js'

export interface SecondStats {
  t: number
  sent: number
  accepted: number
  errors: number
  p50Ms: number
  p99Ms: number
}

export interface StepResult {
  rate: number
  sent: number
  accepted: number
  errors: Record<string, number>
  durationSec: number
  latency: RecordableHistogram
  perSecond: SecondStats[]
}

export interface StepOptions {
  /** where submitters connect; several relays (the nodes of a cluster) take connections in turn */
  relayUrl: string | string[]
  /** where the observer listens for broadcasts (default: the first relay) */
  observerUrl?: string
  quotes: PresignedQuote[]
  rate: number
  connections: number
  /** seconds to wait for outstanding answers after the last send */
  drainSecs?: number
  onSecond?(s: SecondStats, totals: { sent: number; accepted: number; errors: Record<string, number> }): void
}

export async function runStep(o: StepOptions): Promise<StepResult> {
  const bases = (Array.isArray(o.relayUrl) ? o.relayUrl : [o.relayUrl]).map(u => u.replace(/\/$/, ''))
  const observer = await openSocket(`${(o.observerUrl ?? bases[0]!).replace(/\/$/, '')}/?channels=quotes`)
  const submitters = await Promise.all(
    Array.from({ length: o.connections }, (_, i) => openSocket(`${bases[i % bases.length]}/?channels=`)),
  )
  const latency = createHistogram()
  let second = createHistogram()
  const sentAt = new Map<string, number>()
  const errors: Record<string, number> = {}
  let sent = 0,
    accepted = 0,
    errorCount = 0
  const perSecond: SecondStats[] = []
  let lastTick = { sent: 0, accepted: 0, errors: 0 }

  observer.on('message', raw => {
    const text = (raw as Buffer).toString() // a Buffer: ws's default binaryType
    if (!text.startsWith('{"type":"QUOTE_BROADCAST"')) return
    const m = JSON.parse(text) as { data: { rfqId: string; quote: { maker: string } } }
    const key = `${m.data.rfqId}:${m.data.quote.maker}`
    const t = sentAt.get(key)
    if (t === undefined) return // someone else's quote
    sentAt.delete(key)
    const us = Math.max(1, Math.round((performance.now() - t) * 1000))
    latency.record(us)
    second.record(us)
    accepted++
  })
  for (const s of submitters)
    s.on('message', raw => {
      const text = (raw as Buffer).toString() // a Buffer: ws's default binaryType
      if (!text.startsWith('{"type":"ERROR"')) return
      const code = (JSON.parse(text) as { data: { code?: string } }).data.code ?? 'UNKNOWN'
      errors[code] = (errors[code] ?? 0) + 1
      errorCount++
    })

  const started = performance.now()
  const reporter = setInterval(() => {
    const s: SecondStats = {
      t: Math.round((performance.now() - started) / 1000),
      sent: sent - lastTick.sent,
      accepted: accepted - lastTick.accepted,
      errors: errorCount - lastTick.errors,
      p50Ms: pct(second, 50),
      p99Ms: pct(second, 99),
    }
    lastTick = { sent, accepted, errors: errorCount }
    second = createHistogram()
    perSecond.push(s)
    o.onSecond?.(s, { sent, accepted, errors })
  }, 1000)

  await new Promise<void>(resolve => {
    const tick = () => {
      const due = Math.min(o.quotes.length, Math.floor(((performance.now() - started) / 1000) * o.rate))
      while (sent < due) {
        const q = o.quotes[sent]!
        sentAt.set(`${q.rfqId}:${q.maker}`, performance.now())
        submitters[sent % submitters.length]!.send(q.frame)
        sent++
      }
      if (sent < o.quotes.length)
        setTimeout(tick, 1) // a timer, not a spin: the target may share these cores
      else resolve()
    }
    tick()
  })
  const sendSecs = (performance.now() - started) / 1000
  const drainUntil = performance.now() + (o.drainSecs ?? 5) * 1000
  while (accepted + errorCount < sent && performance.now() < drainUntil) await new Promise(r => setTimeout(r, 10))
  clearInterval(reporter)
  await Promise.all([observer, ...submitters].map(closeSocket))
  const unanswered = sent - accepted - errorCount
  if (unanswered > 0) errors.NO_ANSWER = unanswered
  return { rate: o.rate, sent, accepted, errors, durationSec: sendSecs, latency, perSecond }
}

/** A percentile in ms (NaN when empty). */
export function pct(h: RecordableHistogram, p: number): number {
  return h.count ? h.percentile(p) / 1000 : NaN
}
