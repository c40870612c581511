// The hostile-input suite, HTTP side: every route of every route table (enumerated from the engine's
// own routers, so a route added later is covered without a change here) is driven with wrong types,
// huge and negative numbers, bad hex, deep nesting, control characters, invalid UTF-8 and oversize
// bodies, with no key, a bad key and a real agent key. Every answer is a 4xx (or 200), never a 5xx, a
// hang or a crash; 503 only where a dependency is documented to be absent (the route finder without a
// chain). Raw-framing tricks over TCP follow. The engine is healthy afterwards.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { connect } from 'node:net'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { newAgent } from '../api/agentKit.js'
import { body, pathParam, pct, query } from './arbitraries.js'
import { byJson } from '../helpers/order.js'

type Surface = 'api' | 'terminal' | 'relay'
const RUNS = Number(process.env.HOSTILE_RUNS ?? 40)
/** a documented 503: no chain is configured for the route finder in this engine */
const mayBeUnavailable = (surface: Surface, pattern: string) => surface === 'api' && pattern.startsWith('/api/v1/sor/')

describe('hostile input: every route of every route table', () => {
  let t: TestEngine
  let key: string
  const counts = new Map<string, Record<string, number>>()
  before(async () => {
    t = await startTestEngine({
      PUBLIC_RATE_LIMIT_PER_MIN: '100000000',
      TERMINAL_RATE_LIMIT_PER_MIN: '100000000',
      RELAY_REST_RATE_LIMIT_PER_MIN: '100000000',
      AGENT_RATE_PER_MIN: '100000000',
      AGENT_RATE_PER_HOUR: '100000000',
      AGENT_REGISTRATION_PER_HOUR: '100000000',
      AGENT_REGISTRATION_PER_DAY: '100000000',
      AUTH_FAILURES_PER_MIN: '100000000',
      API_KEY: 'terminal-key',
    })
    key = (await newAgent(t.api, ['taker', 'maker', 'monitor'])).key
  })
  after(async () => {
    const rows = [...counts]
      .sort(byJson)
      .map(
        ([group, c]) =>
          `${group.padEnd(48)} ${['2xx', '3xx', '4xx', '5xx'].map(k => `${k} ${String(c[k] ?? 0).padStart(4)}`).join('  ')}`,
      )
    console.log(`hostile HTTP requests by route group and status class:\n${rows.join('\n')}`)
    await t.stop()
  })

  async function send(
    surface: Surface,
    method: string,
    path: string,
    auth: string | undefined,
    payload: Buffer | undefined,
  ) {
    const base = { api: t.api, terminal: t.terminal, relay: t.relay }[surface]
    const ctl = new AbortController()
    const timer = setTimeout(() => ctl.abort(), 8000)
    try {
      const res = await fetch(base + path, {
        method,
        signal: ctl.signal,
        body: payload,
        headers: {
          ...(auth ? { authorization: auth } : {}),
          ...(payload ? { 'content-type': 'application/json' } : {}),
        },
      })
      if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
        ctl.abort()
        return res.status
      }
      await res.arrayBuffer()
      return res.status
    } catch (e) {
      if ((e as Error).name === 'AbortError') throw new Error(`${method} ${path}: no answer within 8 s`)
      throw new Error(`${method} ${path}: ${(e as Error).message}`)
    } finally {
      clearTimeout(timer)
    }
  }

  test(
    'every route answers every hostile request with a 4xx (or 200), never a 5xx or a hang',
    { timeout: 600_000 },
    async () => {
      const routes = (['api', 'terminal', 'relay'] as const).flatMap(surface =>
        t.engine.ctx.surfaces[surface].list().map(r => ({ surface, ...r })),
      )
      assert.ok(routes.length >= 40, `routes enumerated: ${routes.length}`)
      for (const r of routes) {
        const group = `${r.surface} ${r.method} ${r.pattern}`
        const c: Record<string, number> = {}
        counts.set(group, c)
        await fc.assert(
          fc.asyncProperty(
            fc.array(pathParam, { minLength: 4, maxLength: 4 }),
            query,
            fc.option(body, { nil: undefined }),
            fc.constantFrom<'none' | 'bad' | 'agent' | 'terminal'>('none', 'bad', 'agent', 'terminal'),
            async (params, q, payload, auth) => {
              let i = 0
              const path = r.pattern.replace(/:[A-Za-z]+/g, () => pct(params[i++]!)) + (q ? `?${q}` : '')
              const header =
                auth === 'none'
                  ? undefined
                  : auth === 'bad'
                    ? 'Bearer rfq_live_' + 'x'.repeat(43)
                    : auth === 'agent'
                      ? `Bearer ${key}`
                      : 'Bearer terminal-key'
              const status = await send(r.surface, r.method, path, header, r.method === 'GET' ? undefined : payload)
              const cls = `${Math.floor(status / 100)}xx`
              c[cls] = (c[cls] ?? 0) + 1
              const ok = status < 500 || (status === 503 && mayBeUnavailable(r.surface, r.pattern))
              if (!ok) throw new Error(`${r.method} ${path} on ${r.surface}: ${status}`)
            },
          ),
          { numRuns: RUNS },
        )
      }
    },
  )

  test('raw framing tricks over TCP: answered or closed, never a crash', async () => {
    const tricks = [
      'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n',
      'POST /api/v1/fills HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n{}',
      'POST /api/v1/fills HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}',
      'POST /api/v1/fills HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nnot a chunk\r\n0\r\n\r\n',
      'POST /api/v1/fills HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\nContent-Length: 20\r\n\r\n{"a":1}',
      'GARBAGE\r\n\r\n',
      'GET /' + 'a'.repeat(100_000) + ' HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /health HTTP/1.1\r\nHost: x\r\nX-Bad\r\n\r\n',
      'GET /health\r\n\r\n',
      '\u0000\u0001\u0002\u0003',
      'POST /api/v1/rfq/baseline HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"rfqId":', // truncated, then closed
    ]
    for (const port of [t.engine.ports.api, t.engine.ports.terminal, t.engine.ports.relay]) {
      for (const trick of tricks) {
        await new Promise<void>(resolve => {
          const s = connect(port, '127.0.0.1', () => {
            s.write(trick)
            setTimeout(() => s.end(), 100)
          })
          s.on('data', () => {})
          s.on('error', () => resolve())
          s.on('close', () => resolve())
          setTimeout(() => {
            s.destroy()
            resolve()
          }, 2000)
        })
      }
    }
  })

  test('afterwards the engine is healthy on every port', async () => {
    for (const base of [t.api, t.relay]) assert.equal((await fetch(`${base}/health`)).status, 200)
    assert.equal((await fetch(`${t.terminal}/health`)).status, 200)
    assert.equal(
      (await fetch(`${t.terminal}/options/tape`, { headers: { authorization: 'Bearer terminal-key' } })).status,
      200,
    )
  })
})
