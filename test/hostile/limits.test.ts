// Limits on every door: a client cannot pick its own address through X-Forwarded-For; the terminal and
// the relay's REST have rate limits; WebSocket connections are capped per address; an SSE reader that
// stops reading is closed past its byte cap; failed authentications are limited per address; the
// terminal asks for its key before routing; the relay's health says which cancel mode is in force.
import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { connect } from 'node:net'
import WebSocket from 'ws'
import { startTestEngine } from '../helpers/engine.js'
import { forwardedClient } from '../../engine/front/ip.js'
import { makeRfq } from '../relay/helpers.js'

describe('limits on every door', () => {
  test('X-Forwarded-For: only the entry our proxies wrote counts; rotating the left part passes nothing', async () => {
    assert.equal(forwardedClient('6.6.6.6, 10.0.0.1', 1), '10.0.0.1')
    assert.equal(forwardedClient('6.6.6.6, 7.7.7.7, 10.0.0.1', 2), '7.7.7.7')
    assert.equal(forwardedClient('10.0.0.1', 2), undefined)
    const t = await startTestEngine({ TRUST_PROXY: 'true', PUBLIC_RATE_LIMIT_PER_MIN: '100' })
    try {
      const statuses: number[] = []
      for (let i = 0; i < 150; i++) {
        const r = await fetch(`${t.api}/api/v1/tokens`, {
          headers: { 'x-forwarded-for': `${i}.${i}.${i}.${i}, 203.0.113.9` },
        })
        await r.arrayBuffer()
        statuses.push(r.status)
      }
      assert.equal(statuses.filter(s => s === 200).length, 100)
      assert.equal(statuses.filter(s => s === 429).length, 50)
    } finally {
      await t.stop()
    }
  })

  test('the terminal and the relay REST have per-IP rate limits (429 with Retry-After); health probes are exempt', async () => {
    const t = await startTestEngine({ TERMINAL_RATE_LIMIT_PER_MIN: '5', RELAY_REST_RATE_LIMIT_PER_MIN: '5' })
    try {
      for (const url of [`${t.terminal}/options/tape`, `${t.relay}/rfqs`]) {
        const s: number[] = []
        for (let i = 0; i < 7; i++) {
          const r = await fetch(url)
          await r.arrayBuffer()
          s.push(r.status)
        }
        assert.deepEqual(s, [200, 200, 200, 200, 200, 429, 429], url)
        const r = await fetch(url)
        assert.ok(Number(r.headers.get('retry-after')) >= 1)
        assert.equal(((await r.json()) as { code: string }).code, 'RATE_LIMITED')
      }
      for (let i = 0; i < 10; i++) assert.equal((await fetch(`${t.relay}/health`)).status, 200)
    } finally {
      await t.stop()
    }
  })

  test('WebSocket connections are capped per address: one more is refused with 429, and a closed one frees its place', async () => {
    const t = await startTestEngine({ RELAY_MAX_CONNECTIONS_PER_IP: '3' })
    const open = () =>
      new Promise<WebSocket | number>(resolve => {
        const ws = new WebSocket(t.relayWs)
        ws.once('open', () => resolve(ws))
        ws.once('unexpected-response', (_req, res) => resolve(res.statusCode!))
      })
    try {
      const held = await Promise.all([open(), open(), open()])
      assert.ok(held.every(w => w instanceof WebSocket))
      assert.equal(await open(), 429)
      const first = held[0] as WebSocket
      await new Promise(r => {
        first.once('close', r)
        first.close()
      })
      const again = await open()
      assert.ok(again instanceof WebSocket)
      for (const w of [...held.slice(1), again]) (w as WebSocket).close()
    } finally {
      await t.stop()
    }
  })

  test('an SSE reader that stops reading is closed once its unsent bytes pass the cap', async () => {
    const t = await startTestEngine({ SSE_MAX_BUFFER_BYTES: '100000' })
    try {
      const sock = connect(t.engine.ports.api, '127.0.0.1')
      await new Promise<void>(r => sock.once('connect', () => r()))
      sock.write('GET /api/v1/feed HTTP/1.1\r\nHost: x\r\n\r\n')
      await new Promise(r => setTimeout(r, 200))
      sock.pause() // stop reading: the kernel's buffers fill, then uWS's
      // 40 MB of events (far more than loopback's socket buffers hold) for a reader that reads nothing
      const events = t.engine.modules.book.events
      for (let i = 0; i < 4000; i++)
        events.publish({
          type: 'rfq.created',
          rfq: { ...makeRfq(), id: `rfq_${i}_${'x'.repeat(10_000)}` },
          shareTokenHash: null,
        })
      const closed = await new Promise<boolean>(resolve => {
        sock.once('close', () => resolve(true))
        setTimeout(() => resolve(false), 20_000)
        setTimeout(() => sock.resume(), 1000) // drain what the kernel holds, to see the close
      })
      assert.ok(closed, 'the server closed the connection')
      assert.equal((await fetch(`${t.api}/health`)).status, 200)
    } finally {
      await t.stop()
    }
  })

  test('failed authentications are limited per address, before any lookup; a good key from elsewhere still works', async () => {
    const t = await startTestEngine({ AUTH_FAILURES_PER_MIN: '5' })
    try {
      const s: number[] = []
      for (let i = 0; i < 7; i++) {
        const r = await fetch(`${t.api}/api/v1/agent/auth`, {
          headers: { authorization: `Bearer rfq_live_${'A'.repeat(43)}` },
        })
        await r.arrayBuffer()
        s.push(r.status)
      }
      assert.deepEqual(s, [401, 401, 401, 401, 401, 429, 429])
      const other = await new Promise<number>(resolve =>
        http.get(
          `${t.api}/api/v1/agent/auth`,
          { localAddress: '127.0.0.9', headers: { authorization: 'Bearer nope' } },
          res => {
            res.resume()
            resolve(res.statusCode!)
          },
        ),
      )
      assert.equal(other, 401, 'another address is not blocked')
    } finally {
      await t.stop()
    }
  })

  test('with API_KEY set, the terminal answers 401 before routing: unknown paths and wrong methods too', async () => {
    const t = await startTestEngine({ API_KEY: 'k' })
    try {
      for (const [method, path] of [
        ['GET', '/nope'],
        ['POST', '/options/tape'],
        ['GET', '/options/tape'],
        ['DELETE', '/x'],
      ]) {
        assert.equal((await fetch(`${t.terminal}${path}`, { method })).status, 401, `${method} ${path}`)
      }
      assert.equal((await fetch(`${t.terminal}/health`)).status, 200)
      assert.equal((await fetch(`${t.terminal}/nope`, { headers: { authorization: 'Bearer k' } })).status, 404)
    } finally {
      await t.stop()
    }
  })

  test('the relay health reports the cancel mode in force', async () => {
    const open = await startTestEngine()
    const signed = await startTestEngine({ RELAY_CANCEL_AUTH: 'signature' })
    try {
      assert.equal(((await (await fetch(`${open.relay}/health`)).json()) as { cancelAuth: string }).cancelAuth, 'open')
      assert.equal(
        ((await (await fetch(`${signed.relay}/health`)).json()) as { cancelAuth: string }).cancelAuth,
        'signature',
      )
    } finally {
      await open.stop()
      await signed.stop()
    }
  })
})
