// The quote writer's own connections reach the embedded server over its Unix socket, and come back by themselves
// after a real PostgreSQL stop and start: while it is down a write is refused UNAVAILABLE (the relay's ERROR code,
// a maker retries), never left hanging; once it is back the same writer commits again, with nothing lost.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startEmbeddedPostgres, freePort } from '../../../engine/store/embedded.js'
import { connect } from '../../../engine/store/db.js'
import { migrate } from '../../../engine/store/migrate.js'
import { insertRfq } from '../../../engine/store/rfqs.js'
import { createQuoteWriter } from '../../../engine/store/quotes.js'
import type { AcceptedQuote, Address } from '../../../actors/rfqTypes.js'

const A = (n: number): Address => `0x${n.toString(16).padStart(40, '0')}`
const quote = (maker: number): AcceptedQuote => ({
  rfqId: 'rfq_r',
  signature: `0x${'11'.repeat(65)}`,
  receivedAt: new Date(),
  quote: {
    maker: A(maker),
    taker: A(0),
    tokenIn: A(2),
    tokenOut: A(3),
    amountIn: '10',
    amountOut: '20',
    expiry: 1,
    nonce: '1',
    deadline: 2,
  },
})

test(
  'the writer over a Unix socket reconnects after PostgreSQL is stopped and started',
  { timeout: 90_000 },
  async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pgw-'))
    const port = await freePort()
    let server = await startEmbeddedPostgres({ dataDir, port, fast: true })
    assert.ok(server.socketDir, 'the embedded server listens on a Unix socket')
    const url = await server.database('rfq')
    const sql = connect(`${url}?host=${encodeURIComponent(server.socketDir)}`, { max: 2 })
    try {
      await migrate(sql)
      const [where] = await sql`select inet_server_addr() as addr`
      assert.equal(where!.addr, null, 'a Unix socket connection has no server address')
      await insertRfq(
        sql,
        {
          id: 'rfq_r',
          taker: A(1),
          tokenIn: A(2),
          tokenOut: A(3),
          kind: 0,
          amountIn: 10n,
          amountOut: null,
          expiry: Math.floor(Date.now() / 1000) + 600,
          visibility: 'public',
          allowedMakers: [],
          shareToken: null,
          createdAt: new Date(),
          agentId: null,
        },
        null,
      )
      const w = createQuoteWriter(sql)
      await w.write(quote(10))

      await server.stop()
      await assert.rejects(w.write(quote(11)), (e: { code?: string }) => e.code === 'UNAVAILABLE')

      server = await startEmbeddedPostgres({ dataDir, port, fast: true })
      let stored = false
      for (let i = 0; i < 50 && !stored; i++) {
        // the pool's first try may meet a connection that died with the server
        stored = await w.write(quote(12)).then(
          () => true,
          (e: unknown) => {
            assert.equal((e as { code?: string }).code, 'UNAVAILABLE')
            return new Promise<boolean>(r => setTimeout(() => r(false), 100))
          },
        )
      }
      assert.ok(stored, 'the writer commits again once the server is back')
      const rows =
        await sql`select maker, (select quote_count from rfqs where id = 'rfq_r') as n from quotes where rfq_id = 'rfq_r' order by maker`
      assert.deepEqual(
        rows.map(r => r.maker),
        [A(10), A(12)],
      )
      assert.equal(rows[0]!.n, 2)
    } finally {
      await sql.end({ timeout: 1 })
      await server.stop()
      rmSync(dataDir, { recursive: true, force: true })
    }
  },
)
