// Frames that used to take the whole engine down: a `type` nested 5,000 arrays deep (JSON.stringify
// overflowed the stack) and a msgpack `type` that is an int64 (a bigint no JSON path can print). Each
// now gets one ERROR with a code, and the engine keeps serving every port.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { Packr } from 'msgpackr'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { Client } from '../relay/helpers.js'

describe('relay frames that crashed the engine', () => {
  let t: TestEngine
  before(async () => {
    t = await startTestEngine({ RATE_LIMIT_PER_MIN: '100000' })
  })
  after(() => t.stop())

  async function stillServing(): Promise<void> {
    const c = await Client.open(t.relayWs)
    await c.sync()
    await c.close()
    for (const base of [t.api, t.terminal, t.relay]) assert.equal((await fetch(`${base}/health`)).status, 200)
  }

  test('a type nested 5,000 arrays deep: one ERROR naming the JS type, engine alive', async () => {
    const c = await Client.open(t.relayWs)
    const deep = '['.repeat(5000) + ']'.repeat(5000)
    c.raw(`{"type":${deep},"data":{}}`)
    const err = await c.nextOf('ERROR')
    assert.equal(err.data.code, 'UNKNOWN_MESSAGE_TYPE')
    assert.equal(err.data.message, 'Unknown message type: array')
    await c.close()
    await stillServing()
  })

  test('a msgpack frame whose type is an int64: one ERROR, engine alive', async () => {
    const c = await Client.open(`${t.relayWs}/?encoding=msgpack`, { binary: true })
    const raw = new Packr({ useRecords: false, mapsAsObjects: true, useBigIntExtension: false })
    // { type: int64 9007199254740993, data: {} } encoded by hand: fixmap(2), "type", 0xd3 int64, "data", fixmap(0)
    const frame = Buffer.concat([
      Buffer.from([0x82, 0xa4]),
      Buffer.from('type'),
      Buffer.from([0xd3, 0, 0x20, 0, 0, 0, 0, 0, 1]),
      Buffer.from([0xa4]),
      Buffer.from('data'),
      Buffer.from([0x80]),
    ])
    assert.equal(typeof raw.unpack(frame).type, 'bigint') // what a default decoder makes of it
    c.raw(frame)
    const err = await c.nextOf('ERROR')
    assert.equal(err.data.code, 'UNKNOWN_MESSAGE_TYPE')
    assert.match(err.data.message, /^Unknown message type: 9007199254740993$/)
    await c.close()
    await stillServing()
  })

  test('a parse error never echoes more than a bounded, printable text', async () => {
    const c = await Client.open(t.relayWs)
    c.raw('{"type": "\u0000' + 'x'.repeat(60_000))
    const err = await c.nextOf('ERROR')
    assert.equal(err.data.code, 'PARSE_ERROR')
    assert.ok(err.data.message.length < 200, err.data.message)
    assert.doesNotMatch(err.data.message, /[\u0000-\u001f]/)
    await c.close()
    await stillServing()
  })
})
