// A tape reply far larger than the socket takes at once (500 trades with 20 kB counterparties, ~10 MB),
// read by a client that waits before reading: the server writes the reply's parts as the socket
// drains (front/server.ts endWithParts). The bytes must arrive whole, in order, under the declared
// Content-Length, and the keep-alive connection must then serve the next request.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { runReplay } from '../../engine/ingest/sources/replay.js'
import { createLogger } from '../../engine/log.js'
import { tape } from '../../engine/store/options.js'
import { tradeView } from '../../engine/options/views.js'
import { SAMPLE } from './fixture.js'

let t: TestEngine
before(async () => {
  t = await startTestEngine()
  await runReplay({ sql: t.db.sql, log: createLogger('silent'), file: SAMPLE })
  await t.db.sql`
    insert into option_trades (venue, trade_ref, instrument_id, instrument, underlying, is_call, strike, expiry_ts, price, amount,
      premium_usd, iv, spot_ref, side, counterparty, liquidity_guess, source, ts)
    select 'VENUE_B', 'big-' || g, i.id, i.name, 'BIG', i.is_call, i.strike, i.expiry_ts, g / 7.0, 1, null, null, null, 'buy',
      repeat(chr(65 + g % 26), 20000) || g, 'UNKNOWN', 'replay', timestamptz '2025-01-01' + g * interval '1 second'
    from option_instruments i, generate_series(1, 600) g where i.id = (select min(id) from option_instruments)`
})
after(async () => { await t?.stop() })

interface RawReply { status: number; headers: Map<string, string>; body: Buffer }

/**
 * One keep-alive connection: each request is sent, the client waits before reading anything, then
 * reads exactly the declared Content-Length; the next request goes out on the same connection.
 */
async function oneConnection(paths: string[], waitMs: number): Promise<RawReply[]> {
  const { hostname, port } = new URL(t.terminal)
  const socket = net.connect(Number(port), hostname)
  socket.pause()
  await new Promise<void>((resolve, reject) => { socket.once('connect', resolve); socket.once('error', reject) })
  const replies: RawReply[] = []
  let buf = Buffer.alloc(0)
  try {
    for (const p of paths) {
      socket.write(`GET ${p} HTTP/1.1\r\nhost: ${hostname}\r\n\r\n`)
      await new Promise(r => setTimeout(r, waitMs))
      replies.push(await new Promise<RawReply>((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          buf = Buffer.concat([buf, chunk])
          const headEnd = buf.indexOf('\r\n\r\n')
          if (headEnd < 0) return
          const [statusLine, ...lines] = buf.subarray(0, headEnd).toString('latin1').split('\r\n')
          const headers = new Map(lines.map(l => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]))
          const length = Number(headers.get('content-length'))
          if (buf.length < headEnd + 4 + length) return
          socket.pause()
          socket.off('data', onData)
          socket.off('error', reject)
          const body = buf.subarray(headEnd + 4, headEnd + 4 + length)
          buf = buf.subarray(headEnd + 4 + length)
          resolve({ status: Number(statusLine!.split(' ')[1]), headers, body })
        }
        socket.on('data', onData)
        socket.once('error', reject)
        socket.resume()
      }))
      assert.equal(buf.length, 0, 'nothing after the declared body')
    }
  } finally {
    socket.destroy()
  }
  return replies
}

test('a ~10 MB tape page arrives whole after the client stalls, and the connection serves the next request', { timeout: 30_000 }, async () => {
  const big = await tape(t.db.sql, { underlying: 'BIG', liqClass: null, venue: null, limit: 500, offset: 0 })
  assert.equal(big.rows.length, 500)
  const small = await tape(t.db.sql, { underlying: 'BTC', liqClass: null, venue: null, limit: 50, offset: 0 })
  const [first, second] = await oneConnection(['/options/tape?underlying=big&limit=500', '/options/tape?underlying=BTC'], 300)
  assert.equal(first!.status, 200)
  assert.equal(first!.headers.get('content-type'), 'application/json')
  assert.ok(first!.body.length > 10_000_000, String(first!.body.length))
  assert.equal(first!.body.toString('utf8'), JSON.stringify({ trades: big.rows.map(tradeView), count: 600 }))
  assert.equal(second!.status, 200)
  assert.equal(second!.body.toString('utf8'), JSON.stringify({ trades: small.rows.map(tradeView), count: small.total }))
})
