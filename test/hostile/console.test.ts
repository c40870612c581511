// Hostile requests to the web console's routes: paths that try to leave dist/web, names of every odd shape,
// wrong methods, junk caching and encoding headers. Each gets a clear 4xx (or the page itself), never a file
// from elsewhere, a 500 or a hang; the page is still served afterwards.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { request } from 'node:http'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { consoleBuilt } from '../browser/built.js'

let t: TestEngine
before(async () => {
  await consoleBuilt()
  t = await startTestEngine()
})
after(() => t?.stop())

/** A raw request: fetch would normalise the dot segments this test sends on purpose. */
function raw(
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  const { port } = new URL(t.api)
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, res => {
      let body = ''
      res.on('data', d => {
        body += d
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }))
    })
    req.on('error', reject)
    req.end()
  })
}

test('paths that try to leave the bundle, and odd asset names, are 404 (JSON, with the spec text), never a file', async () => {
  for (const path of [
    '/assets/../package.json',
    '/assets/..%2f..%2fpackage.json',
    '/assets/%2e%2e%2fpackage.json',
    '/assets/..\\..\\package.json',
    '/assets/' + 'a'.repeat(5000) + '.js',
    '/assets/%00.js',
    '/assets/index.html',
    '/assets/.',
    '/../../etc/passwd',
    '/assets/x.js.br',
    '/assets/x.js.gz',
  ]) {
    const r = await raw('GET', path)
    assert.ok(r.status === 404 || r.status === 400, `${path}: ${r.status}`)
    assert.ok(!r.body.includes('"dependencies"') && !r.body.includes('root:'), `${path} leaked a file`)
    if (r.status === 404) assert.equal(JSON.parse(r.body).error, 'Not found', path)
  }
})

test('wrong methods are 405 with Allow; junk caching and encoding headers still get the page', async () => {
  for (const method of ['POST', 'PUT', 'DELETE']) {
    const r = await raw(method, '/')
    assert.equal(r.status, 405, method)
    assert.match(String(r.headers.allow), /GET/)
  }
  for (const headers of <Record<string, string>[]>[
    { 'if-none-match': '"' + 'x'.repeat(4000) },
    { 'accept-encoding': ';;,,q=9, br;q=nope, *' },
    { 'if-none-match': '*' },
  ]) {
    const r = await raw('GET', '/', headers)
    assert.equal(r.status, 200, JSON.stringify(headers).slice(0, 80))
    assert.equal(r.headers['content-type'], 'text/html; charset=utf-8') // the page, in whichever encoding was named
  }
  const config = await raw('GET', '/console/config.json?x=' + '%'.repeat(300))
  assert.equal(config.status, 200)
  assert.equal(typeof JSON.parse(config.body).ports.relay, 'number')
})
