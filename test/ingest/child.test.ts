// `make run` with INGEST_SOURCE set: the engine starts the ingestion as a child process on its own
// database; here a replay of the shipped recording, read back through the terminal.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { SAMPLE, get } from '../options/fixture.js'

let t: TestEngine
before(async () => {
  t = await startTestEngine({ INGEST_SOURCE: 'replay', INGEST_FILE: SAMPLE })
})
after(async () => {
  await t?.stop()
})

test("the engine spawns the ingestion child, which fills the engine's database", async () => {
  let count = 0
  for (let i = 0; i < 400 && count < 8; i++) {
    count = (await get(t.terminal, '/options/tape')).body.count
    if (count < 8) await new Promise(r => setTimeout(r, 50))
  }
  assert.equal(count, 8)
  // the child records its state per stream (BTC, ETH) with the trades it stores
  let total = 0
  for (let i = 0; i < 200 && total < 8; i++) {
    const [state] = await t.db
      .sql`select coalesce(sum(trades_total), 0)::int8 as trades_total from ingest_state where source = 'replay'`
    total = Number(state?.trades_total ?? 0)
    if (total < 8) await new Promise(r => setTimeout(r, 50))
  }
  assert.equal(total, 8)
})
