// How the engine serves the console on the API port: the page and its hashed assets from dist/web/,
// compressed as the browser accepts, cached by ETag (the page) or for good (the assets); where to find
// the other surfaces; and a clear 503, never a crash, when `make build` has not bundled it.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { gunzipSync, brotliDecompressSync } from 'node:zlib'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import type { ConsoleManifest } from '../../engine/console/build.js'
import { consoleBuilt } from './built.js'
import { staleSizeDocs } from '../../engine/console/sizeDocs.js'
import { consoleRoutes } from '../../engine/console/routes.js'
import { Router } from '../../engine/front/router.js'
import type { EngineContext } from '../../engine/context.js'
import type { Req } from '../../engine/front/request.js'
import { loadConfig, ConfigError } from '../../engine/config.js'

describe('the console on the API port', () => {
  let t: TestEngine
  let built: ConsoleManifest
  before(async () => {
    built = await consoleBuilt()
    t = await startTestEngine({ API_KEY: 'terminal-secret' })
  })
  after(() => t?.stop())

  test('GET / is the page, naming the hashed assets; brotli, gzip or plain as accepted; 304 on its ETag', async () => {
    const plain = await fetch(`${t.api}/`, { headers: { 'accept-encoding': 'identity' } })
    assert.equal(plain.status, 200)
    assert.equal(plain.headers.get('content-type'), 'text/html; charset=utf-8')
    assert.equal(plain.headers.get('cache-control'), 'no-cache')
    const html = await plain.text()
    assert.ok(html.includes(`/assets/${built.script}`) && html.includes(`/assets/${built.stylesheet}`))
    assert.ok(!/https?:\/\//.test(html.replace(/<!--[\s\S]*?-->/g, '')), 'the page names no other origin')
    for (const [enc, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const raw = await rawGet(`${t.api}/`, enc)
      assert.equal(raw.headers['content-encoding'], enc)
      assert.equal(decode(raw.body).toString('utf8'), html)
    }
    const again = await fetch(`${t.api}/`, { headers: { 'if-none-match': plain.headers.get('etag')! } })
    assert.equal(again.status, 304)
  })

  test('assets are immutable and typed; an unknown one is 404; config.json says where the terminal and relay are', async () => {
    const js = await fetch(`${t.api}/assets/${built.script}`)
    assert.equal(js.status, 200)
    assert.equal(js.headers.get('content-type'), 'text/javascript; charset=utf-8')
    assert.equal(js.headers.get('cache-control'), 'public, max-age=31536000, immutable')
    assert.ok((await js.text()).length > 10_000)
    assert.equal(
      (await fetch(`${t.api}/assets/${built.stylesheet}`)).headers.get('content-type'),
      'text/css; charset=utf-8',
    )
    for (const name of ['nope.js', '..%2Fmanifest.json', built.script + '.gz'])
      assert.equal((await fetch(`${t.api}/assets/${name}`)).status, 404, name)
    const cfg = (await (await fetch(`${t.api}/console/config.json`)).json()) as {
      ports: unknown
      terminalKeyRequired: boolean
    }
    assert.deepEqual(cfg.ports, t.engine.ports)
    assert.equal(cfg.terminalKeyRequired, true)
  })

  test("with API_KEY the terminal answers the page's cross-port preflight for Authorization, and the key", async () => {
    const pre = await fetch(`${t.terminal}/options/tape`, {
      method: 'OPTIONS',
      headers: {
        origin: t.api,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    })
    assert.equal(pre.status, 204)
    assert.equal(pre.headers.get('access-control-allow-origin'), '*')
    assert.match(pre.headers.get('access-control-allow-headers') ?? '', /authorization/i)
    assert.equal(
      (
        await fetch(`${t.terminal}/options/underlyings`, {
          headers: { authorization: 'Bearer terminal-secret', origin: t.api },
        })
      ).status,
      200,
    )
  })

  test("config.json: no public URLs by default; behind a proxy, the terminal's and the relay's (two forms, one setting)", async () => {
    const plain = (await (await fetch(`${t.api}/console/config.json`)).json()) as { urls: unknown }
    assert.deepEqual(plain.urls, { terminal: null, relay: null, relayWs: null })
    const served = (env: Record<string, string>) => {
      const api = new Router()
      consoleRoutes({ surfaces: { api }, config: loadConfig(env) } as unknown as EngineContext, t.engine.ports)
      const m = api.match('GET', '/console/config.json') as { handler: (r: Req) => { body: { urls: unknown } } }
      return m.handler({ headers: {}, params: {} } as unknown as Req).body.urls
    }
    const both = { PUBLIC_TERMINAL_URL: 'https://terminal.example.com/', PUBLIC_RELAY_URL: 'wss://relay.example.com' }
    assert.deepEqual(served(both), {
      terminal: 'https://terminal.example.com',
      relay: 'https://relay.example.com',
      relayWs: 'wss://relay.example.com',
    })
    assert.deepEqual(served({ PUBLIC_RELAY_URL: 'http://127.0.0.1:9000/relay' }), {
      terminal: null,
      relay: 'http://127.0.0.1:9000/relay',
      relayWs: 'ws://127.0.0.1:9000/relay',
    })
    for (const [name, bad] of [
      ['PUBLIC_TERMINAL_URL', 'wss://terminal.example.com'],
      ['PUBLIC_TERMINAL_URL', 'terminal.example.com'],
      ['PUBLIC_RELAY_URL', 'ftp://relay.example.com'],
      ['PUBLIC_RELAY_URL', 'https://relay.example.com/?x=1'],
    ] as const) {
      const named = (e: Error) =>
        e instanceof ConfigError && e.message.startsWith(`invalid configuration: ${name}=`) && !e.message.includes(';')
      assert.throws(() => loadConfig({ [name]: bad }), named, `${name}=${bad}`)
    }
  })

  test("the docs give the console's size as the build measured it (docs/console.md, README)", () => {
    assert.deepEqual(staleSizeDocs(built), [], "run `make docs`: it writes the build's figures into the docs")
  })

  test('not built: / answers 503 saying to run make build, and assets 404', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'console-unbuilt-'))
    try {
      const api = new Router()
      consoleRoutes(
        { surfaces: { api }, config: t.engine.ctx.config } as unknown as EngineContext,
        t.engine.ports,
        empty,
      )
      const call = (path: string) => {
        const m = api.match('GET', path)
        assert.equal(m.kind, 'found')
        return (m as { handler: (r: Req) => unknown }).handler({
          headers: {},
          params: (m as { params: Record<string, string> }).params,
        } as unknown as Req)
      }
      assert.deepEqual(await call('/'), {
        status: 503,
        body: {
          error: 'The console is not built: run `make build` (it bundles web/ into dist/web/)',
          code: 'CONSOLE_NOT_BUILT',
        },
      })
      assert.equal(((await call('/assets/main.js')) as { status: number }).status, 404)
    } finally {
      rmSync(empty, { recursive: true, force: true })
    }
  })
})

/** A GET whose body is not decoded (fetch would undo the encoding we want to see). */
async function rawGet(url: string, encoding: string): Promise<{ headers: Record<string, string>; body: Buffer }> {
  const { request } = await import('node:http')
  return new Promise((resolve, reject) => {
    request(url, { headers: { 'accept-encoding': encoding } }, res => {
      const chunks: Buffer[] = []
      res.on('data', c => chunks.push(c))
      res.on('end', () => resolve({ headers: res.headers as Record<string, string>, body: Buffer.concat(chunks) }))
    })
      .on('error', reject)
      .end()
  })
}
