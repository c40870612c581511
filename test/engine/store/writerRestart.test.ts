// The quote writer's own connections reach the embedded server over its Unix socket, and come back by themselves
// after a real PostgreSQL stop and start: while it is down a write is refused UNAVAILABLE (the relay's ERROR code,
// a maker retries), never left hanging; once it is back the same writer commits again, with nothing lost. Both
// ways a commit runs: on the calling thread, and on the writer's own thread (the engine's, quoteCommitThread.ts).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startEmbeddedPostgres, freePort } from '../../../engine/store/embedded.js'
import { connect } from '../../../engine/store/db.js'
import { migrate } from '../../../engine/store/migrate.js'
import { insertRfq } from '../../../engine/store/rfqs.js'
import { rfqById } from '../../../engine/store/rfqQueries.js'
import { createQuoteWriter, quoteWriterOver, type QuoteWriter } from '../../../engine/store/quotes.js'
import { startQuoteCommitThread } from '../../../engine/store/quoteCommitThread.js'
import type { Sql } from '../../../engine/store/db.js'
import { A, quote, rfq } from './rows.js'

const ways: [string, (sql: Sql, url: string) => QuoteWriter][] = [
  ['on the calling thread', sql => createQuoteWriter(sql)],
  ['on its own thread', (_sql, url) => quoteWriterOver(startQuoteCommitThread(url, 2))],
]

for (const [where, writerOf] of ways)
  test(
    `the writer over a Unix socket reconnects after PostgreSQL is stopped and started (${where})`,
    { timeout: 90_000 },
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'pgw-'))
      const port = await freePort()
      let server = await startEmbeddedPostgres({ dataDir, port, fast: true })
      assert.ok(server.socketDir, 'the embedded server listens on a Unix socket')
      const url = await server.database('rfq')
      const socketUrl = `${url}?host=${encodeURIComponent(server.socketDir)}`
      const sql = connect(socketUrl, { max: 2 })
      let w: QuoteWriter | undefined
      try {
        await migrate(sql)
        const [where] = await sql`select inet_server_addr() as addr`
        assert.equal(where!.addr, null, 'a Unix socket connection has no server address')
        await insertRfq(sql, rfq('rfq_r', new Date()), null)
        w = writerOf(sql, socketUrl)
        await w.write(quote('rfq_r', 10))

        await server.stop()
        await assert.rejects(w.write(quote('rfq_r', 11)), (e: { code?: string }) => e.code === 'UNAVAILABLE')

        server = await startEmbeddedPostgres({ dataDir, port, fast: true })
        let stored = false
        for (let i = 0; i < 50 && !stored; i++) {
          // the pool's first try may meet a connection that died with the server
          stored = await w.write(quote('rfq_r', 12)).then(
            () => true,
            (e: unknown) => {
              assert.equal((e as { code?: string }).code, 'UNAVAILABLE')
              return new Promise<boolean>(r => setTimeout(() => r(false), 100))
            },
          )
        }
        assert.ok(stored, 'the writer commits again once the server is back')
        const rows = await sql`select maker from quote_rows where rfq_id = 'rfq_r' order by maker`
        assert.deepEqual(
          rows.map(r => r.maker),
          [A(10), A(12)],
        )
        assert.equal((await rfqById(sql, 'rfq_r'))?.quoteCount, 2)
      } finally {
        await w?.close()
        await sql.end({ timeout: 1 })
        await server.stop()
        rmSync(dataDir, { recursive: true, force: true })
      }
    },
  )
