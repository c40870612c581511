// The store bench's loads. Throughput: pre-signed quotes sent with a bounded window in flight, as fast as the relay
// accepts them (the relay bench's phase 1: makers told BUSY back off for the hint and halve their window), counted at
// an observer's QUOTE_BROADCAST. Detail reads: one RFQ with its quotes over HTTP (GET /api/v1/rfqs/:id, then the
// relay's GET /quotes?rfqId=, the two a client reads a past RFQ by), a few in parallel, timed into Node's histogram.
import http from 'node:http'
import { createHistogram, type RecordableHistogram } from 'node:perf_hooks'
import { openSocket } from '../lib/openSocket.js'
import { refusalOf, SendWindow } from '../lib/sendWindow.js'
import type { PresignedQuote } from '../lib/presign.js'

export interface Throughput {
  rate: number
  accepted: number
  errors: number
  busy: number
}

export async function throughput(relay: string, quotes: PresignedQuote[], clients = 50, maxWindow = 256) {
  const observer = await openSocket(`${relay}/?channels=quotes`)
  const submitters = await Promise.all(Array.from({ length: clients }, () => openSocket(`${relay}/?channels=`)))
  const window = new SendWindow(maxWindow, 32, 16)
  let accepted = 0,
    errors = 0,
    busy = 0,
    next = 0
  let pump = () => {}
  observer.on('message', raw => {
    if (!(raw as Buffer).toString().startsWith('{"type":"QUOTE_BROADCAST"')) return
    accepted++
    window.taken()
    pump()
  })
  for (const s of submitters)
    s.on('message', raw => {
      const text = (raw as Buffer).toString()
      const refusal = refusalOf(text)
      if (refusal === 'none') return
      errors++
      if (refusal === 'busy') {
        busy++
        window.busy(text)
      } else if (errors - busy <= 3) console.error('ERROR', text)
      pump()
    })
  const started = performance.now()
  await new Promise<void>(resolve => {
    pump = () => {
      if (window.paused(pump)) return
      while (next < quotes.length && next - (accepted + errors) < window.size) {
        submitters[next % clients]!.send(quotes[next]!.frame)
        next++
      }
      if (accepted + errors >= quotes.length) resolve()
    }
    pump()
  })
  const rate = accepted / ((performance.now() - started) / 1000)
  await Promise.all([observer, ...submitters].map(ws => new Promise(r => (ws.once('close', r), ws.close()))))
  return { rate, accepted, errors, busy } satisfies Throughput
}

export interface Reads {
  latency: RecordableHistogram
  /** the same reads by the group `groupOf` puts each id in (e.g. old days and today) */
  groups: Map<string, RecordableHistogram>
  errors: number
}

/** `count` reads of an RFQ with its quotes, the ids taken in turn, `concurrency` at once. */
export async function detailReads(
  api: string,
  relay: string,
  ids: readonly string[],
  count: number,
  groupOf: (id: string) => string = () => 'all',
  concurrency = 4,
) {
  const groups = new Map<string, RecordableHistogram>()
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency * 2 })
  const latency = createHistogram()
  let errors = 0,
    next = 0
  const relayHttp = relay.replace(/^ws/, 'http')
  const get = (url: string) =>
    new Promise<void>(resolve => {
      http
        .get(url, { agent }, res => {
          if (res.statusCode !== 200 && errors++ === 0) console.error(`  ${url}: HTTP ${res.statusCode}`)
          res.resume().on('end', resolve)
        })
        .on('error', () => {
          errors++
          resolve()
        })
    })
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const id = ids[next++ % ids.length]!
        const t0 = performance.now()
        await get(`${api}/api/v1/rfqs/${id}`)
        await get(`${relayHttp}/quotes?rfqId=${id}`)
        const us = Math.max(1, Math.round((performance.now() - t0) * 1000))
        latency.record(us)
        const group = groupOf(id)
        if (!groups.has(group)) groups.set(group, createHistogram())
        groups.get(group)!.record(us)
      }
    }),
  )
  agent.destroy()
  return { latency, groups, errors } satisfies Reads
}
