import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Router } from '../../../engine/front/router.js'
import { ok } from '../../../engine/front/request.js'
import { normaliseIp } from '../../../engine/front/ip.js'

const h = (name: string) => () => ok(name)

test('exact and parameterised routes, per method', () => {
  const r = new Router()
    .get('/api/v1/rfqs', h('list'))
    .get('/api/v1/rfqs/:id', h('detail'))
    .post('/api/v1/rfqs/:id/cancel', h('cancel'))
  const m = r.match('GET', '/api/v1/rfqs/abc%20d')
  assert.equal(m.kind, 'found')
  if (m.kind === 'found') {
    assert.deepEqual(m.params, { id: 'abc d' })
    assert.equal(m.pattern, '/api/v1/rfqs/:id')
  }
  assert.equal(r.match('GET', '/api/v1/rfqs/').kind, 'found', 'a trailing slash is the same path')
  const wrong = r.match('GET', '/api/v1/rfqs/x/cancel')
  assert.deepEqual(wrong, { kind: 'method', allow: ['POST'] })
  assert.deepEqual(r.match('GET', '/api/v1/nothing'), { kind: 'none' })
  assert.deepEqual(
    r.match('GET', '/api/v1/rfqs/%E0%A4%A'),
    { kind: 'none' },
    'a malformed escape is not a match, not a crash',
  )
})

test('IPv4-mapped addresses fold back to dotted quads', () => {
  assert.equal(normaliseIp('0000:0000:0000:0000:0000:ffff:7f00:0001'), '127.0.0.1')
  assert.equal(normaliseIp('::ffff:10.1.2.3'), '10.1.2.3')
  assert.equal(normaliseIp('::1'), '::1')
})
