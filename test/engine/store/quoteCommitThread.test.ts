// The group commit on its own thread (engine/store/quoteCommitThread.ts) answers each quote as the commit on the
// relay's thread does: the same batch, on the same kinds of RFQs, gets the same outcome a quote through either, and
// the store holds the same rows. A server nobody answers on is UNAVAILABLE (a maker retries), never a hang; a closed
// writer refuses, and its close ends the thread and its connections; a thread that cannot even start is tried again
// only after a pause, the commits meanwhile refused UNAVAILABLE.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { repoRoot } from '../../../engine/paths.js'
import { testDatabase, type TestDatabase } from '../../helpers/db.js'
import { insertRfq } from '../../../engine/store/rfqs.js'
import { rfqById } from '../../../engine/store/rfqQueries.js'
import { freePort } from '../../../engine/store/embedded.js'
import { createQuoteWriter, quoteWriterOver } from '../../../engine/store/quotes.js'
import { startQuoteCommitThread } from '../../../engine/store/quoteCommitThread.js'
import { A, quote, rfq as rfqOn, kindOf } from './rows.js'

const rfq = (id: string) => rfqOn(id, new Date())

describe('the group commit on its own thread', () => {
  let db: TestDatabase
  before(async () => {
    db = await testDatabase('qt')
  })
  after(() => db.drop())

  test('a batch of every outcome is answered quote by quote as on the relay thread, with the same rows stored', async () => {
    const threaded = quoteWriterOver(startQuoteCommitThread(db.url, 2))
    try {
      const kinds: Record<string, string[]> = {}
      for (const [where, w] of [
        ['here', createQuoteWriter(db.sql)],
        ['thread', threaded],
      ] as const) {
        const open = `rfq_${where}_open`,
          closed = `rfq_${where}_closed`
        await insertRfq(db.sql, rfq(open), null)
        await insertRfq(db.sql, rfq(closed), null)
        await db.sql`update rfqs set status = 'CANCELLED', cancelled_at = now() where id = ${closed}`
        await w.write(quote(open, 10)) // a maker the store holds already
        const batch = [
          quote(open, 10),
          quote(open, 11),
          quote(closed, 12),
          quote(`rfq_${where}_nope`, 13),
          quote(open, 14),
        ]
        const results = await Promise.allSettled(batch.map(q => w.write(q))) // one tick: one batch
        kinds[where] = results.map(kindOf)
        assert.equal(w.stats.rechecked, 1, `${where}: the plain statement met the stored maker, then checked`)
        const rows = await db.sql`select maker from quote_rows where rfq_id = ${open} order by maker`
        assert.deepEqual(
          rows.map(r => r.maker),
          [A(10), A(11), A(14)],
        )
        assert.equal((await rfqById(db.sql, open))!.status, 'QUOTED')
        assert.equal((await rfqById(db.sql, closed))!.quoteCount, 0)
      }
      assert.deepEqual(kinds.thread, ['duplicate', 'stored', 'closed', 'closed', 'stored'])
      assert.deepEqual(kinds.thread, kinds.here)
    } finally {
      await threaded.close()
    }
  })

  test('many writes in flight: flush waits for all, each stored once, the stats count them', async () => {
    await insertRfq(db.sql, rfq('rfq_many'), null)
    const w = quoteWriterOver(startQuoteCommitThread(db.url, 2), { maxInFlight: 2 })
    try {
      const writes = Array.from({ length: 300 }, (_, i) => w.write(quote('rfq_many', 1000 + i)))
      await w.flush()
      await Promise.all(writes)
      assert.equal(w.stats.quotes, 300)
      const [{ n }] =
        (await db.sql`select count(*)::int as n from quote_rows where rfq_id = 'rfq_many'`) as unknown as [
          { n: number },
        ]
      assert.equal(n, 300)
    } finally {
      await w.close()
    }
  })

  test('no server answering: each write is refused UNAVAILABLE, not left hanging; a closed writer refuses', async () => {
    const url = new URL(db.url)
    url.port = String(await freePort())
    const w = quoteWriterOver(startQuoteCommitThread(url.toString(), 1))
    try {
      await assert.rejects(w.write(quote('rfq_x', 1)), (e: { code?: string }) => e.code === 'UNAVAILABLE')
    } finally {
      await w.close()
    }
    await assert.rejects(w.write(quote('rfq_x', 2)), /quote writer closed/)
  })
})

test('a writer thread that dies as it starts is not restarted in a loop: in the pause after, UNAVAILABLE at once', async () => {
  const broken = join(repoRoot, 'dist/test/engine/store/brokenWriter.js')
  const exits: string[] = []
  const w = quoteWriterOver(startQuoteCommitThread('postgres://unused', 1, why => exits.push(why), broken))
  try {
    while (exits.length === 0) await new Promise(r => setTimeout(r, 10)) // the thread made at the start ended
    assert.deepEqual(exits, ['exit code 1: this writer thread cannot start'])
    for (let i = 0; i < 20; i++)
      await assert.rejects(w.write(quote('rfq_y', 2 + i)), (e: { code?: string }) => e.code === 'UNAVAILABLE')
    assert.equal(exits.length, 1, 'no thread started during the pause')
    await new Promise(r => setTimeout(r, 150)) // past the first pause (100 ms): the next commit tries a new thread
    await assert.rejects(
      w.write(quote('rfq_y', 30)),
      /quote writer thread ended \(exit code 1: this writer thread cannot start\): the commit's outcome is unknown/,
    )
    assert.equal(exits.length, 2)
  } finally {
    await w.close()
  }
})
