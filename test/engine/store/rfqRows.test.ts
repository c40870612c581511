// The `rfqs` table's one mapper and the lifetime rule as SQL, against a real PostgreSQL: a row read back by every
// reader (the REST API's rfqById, the book's loadLiveRfqs) is the RFQ that went in, and the SQL fragments select
// exactly the rows the JS rule (workers/values/rfqStatus.ts) calls live, at the edge of an expiry second.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { testDatabase, type TestDatabase } from '../../helpers/db.js'
import { insertRfq, loadLiveRfqs, quotesOfRfqs } from '../../../engine/store/rfqs.js'
import { rfqById } from '../../../engine/store/rfqQueries.js'
import { liveSql, openSql } from '../../../engine/store/rfqOpen.js'
import { createQuoteWriter } from '../../../engine/store/quotes.js'
import { RFQ_STATUSES, isLive, isOpen, toUnixSeconds } from '../../../workers/values/index.js'
import type { Address, NumberedQuote, Rfq } from '../../../actors/rfqTypes.js'

const A = (n: number): Address => `0x${n.toString(16).padStart(40, '0')}`

describe('the rfqs table: one mapper, one lifetime rule', () => {
  let db: TestDatabase
  before(async () => {
    db = await testDatabase('rr')
  })
  after(() => db.drop())

  test('an RFQ read back by rfqById and by loadLiveRfqs is the RFQ that was stored, amounts exact', async () => {
    const rfq: Rfq = {
      id: 'rfq_rows_1',
      taker: A(1),
      tokenIn: A(2),
      tokenOut: A(3),
      kind: 1,
      amountIn: null,
      amountOut: 2n ** 255n + 7n,
      expiry: toUnixSeconds(Date.now()) + 60,
      visibility: 'private',
      allowedMakers: [A(4), A(5)],
      shareToken: 'secret',
      createdAt: new Date(Math.floor(Date.now() / 1000) * 1000),
      agentId: null,
    }
    await insertRfq(db.sql, rfq, 'hash-of-secret')
    const quote: NumberedQuote = {
      rfqId: rfq.id,
      signature: `0x${'ab'.repeat(65)}`,
      receivedAtMs: Date.now(),
      arrival: 1,
      quote: {
        maker: A(4),
        taker: A(1),
        tokenIn: A(2),
        tokenOut: A(3),
        amountIn: '123456789012345678901234567890',
        amountOut: rfq.amountOut!.toString(),
        expiry: rfq.expiry,
        nonce: '99999999999999999999',
        deadline: rfq.expiry,
      },
    }
    await createQuoteWriter(db.sql).write(quote)
    const { arrival: _numbered, ...read } = quote // its number orders the RFQ's quotes; it is not a quote's field

    const row = await rfqById(db.sql, rfq.id)
    assert.ok(row)
    assert.deepEqual(
      { ...row, seq: 0 },
      {
        seq: 0,
        id: rfq.id,
        taker: rfq.taker,
        tokenIn: rfq.tokenIn,
        tokenOut: rfq.tokenOut,
        kind: 1,
        amountIn: null,
        amountOut: rfq.amountOut,
        expiry: rfq.expiry,
        visibility: 'private',
        allowedMakers: [A(4), A(5)],
        agentId: null,
        shareTokenHash: 'hash-of-secret',
        status: 'QUOTED',
        quoteCount: 1,
        fillTxHash: null,
        cancelledAt: null,
        endedAt: null,
        endedBy: null,
        createdAt: rfq.createdAt,
      },
    )
    assert.equal(typeof row.seq, 'number')

    const [restored] = await loadLiveRfqs(db.sql, Date.now(), { id: rfq.id })
    assert.deepEqual(
      restored,
      { rfq: { ...rfq, shareToken: null }, shareTokenHash: 'hash-of-secret', quotes: [read] },
      'the share token itself is never stored; its quotes come back as the maker signed them',
    )
    assert.deepEqual((await quotesOfRfqs(db.sql, [rfq.id])).get(rfq.id), [read])
  })

  test('the SQL fragments select exactly what isOpen and isLive say, on each side of an expiry second', async () => {
    const nowMs = Date.now()
    const s = toUnixSeconds(nowMs)
    const rows: { id: string; status: string; expiry: number }[] = []
    for (const status of RFQ_STATUSES) {
      for (const expiry of [s - 1, s, s + 1]) {
        const id = `rfq_edge_${status}_${expiry - s + 1}`
        await insertRfq(
          db.sql,
          {
            id,
            taker: A(9),
            tokenIn: A(2),
            tokenOut: A(3),
            kind: 0,
            amountIn: 1n,
            amountOut: null,
            expiry,
            visibility: 'public',
            allowedMakers: [],
            shareToken: null,
            createdAt: new Date(),
            agentId: null,
          },
          null,
        )
        await db.sql`update rfqs set status = ${status} where id = ${id}`
        rows.push({ id, status, expiry })
      }
    }
    const ids = (list: { id: string }[]) => list.map(r => r.id).sort()
    const like = 'rfq_edge_%'
    assert.deepEqual(
      ids(await db.sql<{ id: string }[]>`select id from rfqs where id like ${like} and ${liveSql(db.sql, nowMs)}`),
      ids(rows.filter(r => isLive(r.status, r.expiry, nowMs))),
    )
    assert.deepEqual(
      ids(await db.sql<{ id: string }[]>`select id from rfqs where id like ${like} and ${openSql(db.sql)}`),
      ids(rows.filter(r => isOpen(r.status))),
    )
    assert.deepEqual(
      ids(
        await db.sql<
          { id: string }[]
        >`select r.id from rfqs r where r.id like ${like} and ${liveSql(db.sql, nowMs, 'r')}`,
      ),
      ids(rows.filter(r => isLive(r.status, r.expiry, nowMs))),
      'under a table alias too',
    )
  })

  test('the open rule reaches the partial indexes: a live read can use rfqs_open_expiry', async () => {
    const plan = await db.sql.begin(async tx => {
      await tx`set local enable_seqscan = off`
      return tx<{ 'QUERY PLAN': string }[]>`explain select id from rfqs where ${liveSql(tx, 1000)}`
    })
    const text = plan.map(l => l['QUERY PLAN']).join('\n')
    // rfqs is partitioned by day (migration 101): the plan reads the partitions' own indexes of the partial one
    const parts = await db.sql`select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'rfqs_open_expiry'::regclass`
    assert.ok(parts.length > 0)
    assert.ok(
      parts.some(p => text.includes(p.relname as string)),
      text,
    )
  })
})
