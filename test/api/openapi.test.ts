// The OpenAPI document stays true: every documented operation answers on its own port (never
// 404-unrouted or 405), and every route the engine mounts is documented.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { operations, openapiDocument, serversFrom } from '../../engine/openapi/document.js'
import { get, post, newAgent } from './agentKit.js'

describe('OpenAPI', () => {
  let t: TestEngine
  let agent: Awaited<ReturnType<typeof newAgent>>
  let rfqId: string
  before(async () => {
    t = await startTestEngine({ PUBLIC_RATE_LIMIT_PER_MIN: '100000' })
    agent = await newAgent(t.api, ['taker', 'monitor', 'maker'])
    rfqId = (
      await post(
        t.api,
        '/api/v1/agent/rfqs',
        { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '5', ttlSeconds: 300 },
        agent.headers,
      )
    ).body.rfqId
  })
  after(() => t.stop())

  const colon = (p: string) => p.replace(/\{(\w+)\}/g, ':$1')

  test('GET /api/v1/openapi.json serves the OpenAPI 3.1 document', async () => {
    const r = await get(t.api, '/api/v1/openapi.json')
    assert.equal(r.status, 200)
    assert.equal(r.body.openapi, '3.1.0')
    assert.deepEqual(r.body, JSON.parse(JSON.stringify(openapiDocument(serversFrom(t.engine.ctx.config)))))
    // servers from the running configuration: the API relative, the others at their configured ports
    const servers = r.body.servers as { url: string }[]
    assert.deepEqual(
      servers.map(x => x.url),
      ['/', `http://{host}:${t.engine.ctx.config.TERMINAL_PORT}`, `http://{host}:${t.engine.ctx.config.RELAY_PORT}`],
    )
    for (const [path, item] of Object.entries(r.body.paths as Record<string, Record<string, { responses: object }>>)) {
      assert.ok(path.startsWith('/'), path)
      for (const m of ['get', 'post'])
        if (item[m]) assert.ok(Object.keys(item[m].responses).length >= 1, `${m} ${path}`)
    }
  })

  test('every documented operation answers on its port (not 404/405)', async ctx => {
    const base = { api: t.api, terminal: t.terminal, relay: t.relay }
    const problems: string[] = []
    for (const op of operations) {
      let path = op.path.replace('{id}', rfqId)
      for (const p of op.params ?? []) if (p.in === 'path') path = path.replace(`{${p.name}}`, String(p.example))
      const query = new URLSearchParams()
      for (const p of op.params ?? [])
        if (p.in === 'query' && p.required) query.set(p.name, p.name === 'rfqId' ? rfqId : String(p.example))
      const url = base[op.surface] + path + (query.size ? `?${query.toString()}` : '')
      const match = t.engine.ctx.surfaces[op.surface].match(op.method.toUpperCase(), path)
      if (match.kind !== 'found' || match.pattern !== colon(op.path)) {
        problems.push(`${op.method.toUpperCase()} ${op.path} on ${op.surface}: not routed`)
        continue
      }
      const ctl = new AbortController()
      const res = await fetch(url, {
        method: op.method.toUpperCase(),
        signal: ctl.signal,
        headers: { ...agent.headers, 'content-type': 'application/json' },
        body: op.method === 'post' ? '{}' : undefined,
      })
      const status = res.status
      const text = op.path === '/api/v1/feed' ? '' : await res.text()
      ctl.abort() // the SSE feed never ends by itself
      await res.body?.cancel().catch(() => {})
      // a handler's own 404 (an unknown id) is an answer only where the document lists 404
      if (status === 405 || (status === 404 && !op.errors?.includes(404)))
        problems.push(`${op.method.toUpperCase()} ${op.path} on ${op.surface}: ${status}`)
      if (status >= 500) ctx.diagnostic(`${op.method.toUpperCase()} ${url}: ${status} ${text.slice(0, 200)}`)
    }
    assert.deepEqual(problems, [])
  })

  test('every route the engine mounts is documented, on the right port', () => {
    const documented = new Set(operations.map(op => `${op.surface} ${op.method.toUpperCase()} ${colon(op.path)}`))
    const missing: string[] = []
    for (const surface of ['api', 'terminal', 'relay'] as const) {
      for (const r of t.engine.ctx.surfaces[surface].list()) {
        const key = `${surface} ${r.method} ${r.pattern}`
        if (!documented.has(key)) missing.push(key)
      }
    }
    assert.deepEqual(missing, [])
  })
})
