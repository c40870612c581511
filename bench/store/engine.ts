// The store bench's engine: bench/store.ts forked with --engine (relayEngine.ts's engineMain, the relay bench's), on
// the bench's database; RFQs made live on request, each quoted by every one of a few fresh makers (pre-signed, as the
// relay bench signs them), and the retention run inside the engine's process, as its upkeep timer runs it.
import { fork, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { presignQuotes, type Maker, type PresignedQuote } from '../lib/presign.js'
import { wireTerms, type WireRfq } from '../lib/relayEngine.js'
import type { Domain } from '../../workers/sig/types.js'
import { rfqIdAt } from '../../workers/values/rfqId.js'

export const DOMAIN: Domain & { chainId: number } = {
  name: 'SpotRFQ',
  version: '1',
  chainId: 31337,
  verifyingContract: '0x0000000000000000000000000000000000000000',
}

export interface BenchEngine {
  child: ChildProcess
  relay: string
  api: string
  request<T>(msg: object, reply: string): Promise<T>
  /** `n` quotes over n / makers live RFQs, every maker quoting each: made live now, signed, in RFQ order */
  quotes(n: number, makers: Maker[]): Promise<PresignedQuote[]>
  stop(): Promise<void>
}

export async function startBenchEngine(script: string, databaseUrl: string): Promise<BenchEngine> {
  const child = fork(script, ['--engine'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // reads at a bench's pace: the public API's per-client limit (PUBLIC_RATE_LIMIT_PER_MIN) off
    env: { ...process.env, DATABASE_URL: databaseUrl, PUBLIC_RATE_LIMIT_PER_MIN: '1000000000' },
  })
  const ready = await new Promise<{ port: number; api: number }>((resolve, reject) => {
    child.once('message', resolve)
    child.once('exit', code => reject(new Error(`engine exited ${code}`)))
  })
  const request = <T>(msg: object, reply: string) =>
    new Promise<T>(resolve => {
      const on = (m: { cmd?: string }) => {
        if (m.cmd !== reply) return
        child.off('message', on)
        resolve(m as T)
      }
      child.on('message', on)
      child.send(msg)
    })
  return {
    child,
    relay: `ws://127.0.0.1:${ready.port}`,
    api: `http://127.0.0.1:${ready.api}`,
    request,
    async quotes(n, makers) {
      const now = Date.now()
      const rfqs: WireRfq[] = Array.from({ length: Math.ceil(n / makers.length) }, (_, i) => ({
        id: rfqIdAt(now, randomBytes(16).toString('hex')), // as the engine makes them: the day in the id
        taker: makers[i % makers.length]!.address,
        expiry: Math.floor(now / 1000) + 3000,
        createdAt: now,
      }))
      await request({ cmd: 'create', rfqs }, 'created')
      const terms = wireTerms(rfqs)
      const signed = presignQuotes(DOMAIN, terms, makers, n, Math.floor(now / 1000) + 3600)
      // presignQuotes goes maker by maker: sent RFQ by RFQ instead, as quotes come when an RFQ is broadcast
      const byRfq = new Map(rfqs.map(r => [r.id, [] as PresignedQuote[]]))
      for (const q of signed) byRfq.get(q.rfqId)!.push(q)
      return [...byRfq.values()].flat()
    },
    stop: () =>
      new Promise(resolve => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.send({ cmd: 'stop' })
      }),
  }
}
