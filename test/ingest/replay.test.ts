// The replay source reads a recording line by line: unreadable lines and unreadable records are
// skipped and counted, the rest ingested; nothing else stops it.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { testDatabase, type TestDatabase } from '../helpers/db.js'
import { createLogger } from '../../engine/log.js'
import { runReplay } from '../../engine/ingest/sources/replay.js'

let db: TestDatabase
const dir = mkdtempSync(join(tmpdir(), 'replay-'))
before(async () => {
  db = await testDatabase('rep')
})
after(async () => {
  await db?.drop()
  rmSync(dir, { recursive: true, force: true })
})

test('bad lines and non-option records are skipped and counted; good ones land', async () => {
  const file = join(dir, 'mixed.jsonl')
  const ok = {
    trade_id: '7',
    instrument_name: 'ETH-27JUN25-4000-C',
    price: 0.05,
    amount: 3,
    direction: 'buy',
    index_price: 3000,
    timestamp: 1750000000000,
  }
  writeFileSync(
    file,
    [
      '{not json',
      JSON.stringify({
        method: 'public/get_last_trades_by_currency',
        params: { currency: 'ETH' },
        result: { trades: [ok, { ...ok, trade_id: '8', instrument_name: 'ETH-PERPETUAL' }], has_more: false },
      }),
      JSON.stringify({ params: {} }),
      JSON.stringify({ method: 'public/get_order_book', result: {} }),
      '',
    ].join('\n'),
  )
  const r = await runReplay({ sql: db.sql, log: createLogger('silent'), file })
  assert.equal(r.lines, 2)
  assert.equal(r.bad, 2)
  assert.equal(r.newTrades, 1)
  const rows = await db.sql`select trade_ref, instrument, premium_usd, source from option_trades`
  assert.deepEqual(
    rows.map(x => ({ ...x })),
    [{ trade_ref: '7', instrument: 'ETH-20250627-4000-C', premium_usd: 450, source: 'replay' }],
  )
})
