// Accepted quotes are durable: every quote the relay broadcast is in Postgres after the engine
// stops, and the next engine on the same database brings the live RFQ back with them.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { loadConfig } from '../../engine/config.js'
import { startEngine, type Engine } from '../../engine/app.js'
import { testDatabase } from '../helpers/db.js'
import { rfqById } from '../../engine/store/rfqQueries.js'
import { Client, account, makeRfq, makeQuote, sign, ZERO } from './helpers.js'

const domain = { name: 'SpotRFQ', version: '1', chainId: 31337, verifyingContract: ZERO }

async function start(url: string): Promise<{ engine: Engine; ws: string; http: string }> {
  const engine = await startEngine(
    loadConfig({
      API_PORT: '0',
      TERMINAL_PORT: '0',
      RELAY_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      POOL_THREADS: '1',
      RATE_LIMIT_PER_MIN: '100000',
      DATABASE_URL: url,
    }),
  )
  return { engine, ws: `ws://127.0.0.1:${engine.ports.relay}`, http: `http://127.0.0.1:${engine.ports.relay}` }
}

test('no accepted quote is lost across a stop and a start', async () => {
  const db = await testDatabase('r')
  let first: Awaited<ReturnType<typeof start>> | undefined
  let second: Awaited<ReturnType<typeof start>> | undefined
  try {
    first = await start(db.url)
    const rfq = makeRfq({ expiry: Math.floor(Date.now() / 1000) + 50 })
    await first.engine.modules.book.create(rfq)
    const makers = Array.from({ length: 20 }, () => account())
    const submitted = await Promise.all(
      makers.map(async m => {
        const q = makeQuote(m, rfq)
        return { rfqId: rfq.id, quote: q, signature: await sign(m, domain, q) }
      }),
    )
    const c = await Client.open(first.ws)
    submitted.forEach(s => c.send('QUOTE_SUBMIT', s))
    // every broadcast is an accepted quote; stop right after the last one arrives
    for (let i = 0; i < submitted.length; i++) await c.next(f => f.type === 'QUOTE_BROADCAST')
    await c.close()
    await first.engine.stop()
    first = undefined

    const stored = await db.sql`select maker, signature from quote_rows where rfq_id = ${rfq.id} order by maker`
    assert.deepEqual(
      stored.map(r => r.maker),
      submitted.map(s => s.quote.maker).sort(),
    )
    const [row] = await db.sql`select status from rfqs where id = ${rfq.id}`
    assert.deepEqual([row?.status, (await rfqById(db.sql, rfq.id))?.quoteCount], ['QUOTED', 20])

    second = await start(db.url)
    const quotes = (await (await fetch(`${second.http}/quotes?rfqId=${rfq.id}`)).json()) as any
    assert.equal(quotes.count, 20)
    assert.deepEqual(
      new Set(quotes.quotes.map((q: any) => q.signature)),
      new Set(submitted.map(s => s.signature.toLowerCase())),
    )
    const health = (await (await fetch(`${second.http}/health`)).json()) as any
    assert.equal(health.activeRfqs, 1)
    assert.equal(health.totalQuotes, 20)
    // the restored RFQ still knows its makers: a second quote from one of them is a duplicate
    const c2 = await Client.open(second.ws)
    const again = makeQuote(makers[0]!, rfq, { nonce: '424242' })
    assert.equal(
      (await c2.error({ rfqId: rfq.id, quote: again, signature: await sign(makers[0]!, domain, again) })).message,
      'Duplicate quote from this maker for this RFQ',
    )
    await c2.close()
  } finally {
    await first?.engine.stop()
    await second?.engine.stop()
    await db.drop()
  }
})
