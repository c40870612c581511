// The nats-server the cluster suite and `make cluster` run: a real server (its INFO greeting on a raw socket),
// found the way test-servers.sh finds it, stopped on request, and gone when the process that started it is
// killed with SIGKILL. A missing binary is the one line that says what to install.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import {
  DEBIAN_NATS_SERVER,
  NATS_MISSING,
  findNatsServer,
  startNatsServer,
} from '../../engine/devcluster/natsServer.js'
import { repoRoot } from '../../engine/paths.js'
import { natsGreeting } from './natsGreeting.js'

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
async function gone(pid: number, ms = 5000): Promise<boolean> {
  for (const t0 = Date.now(); Date.now() - t0 < ms;) {
    if (!alive(pid)) return true
    await new Promise(r => setTimeout(r, 25))
  }
  return !alive(pid)
}

test(
  'starts a real nats-server on a free port: it greets a raw socket with INFO; stop() ends it',
  { timeout: 30_000 },
  async () => {
    assert.ok(findNatsServer(), NATS_MISSING) // the cluster suite fails, never skips, without one
    const nats = await startNatsServer()
    try {
      assert.match(nats.url, /^nats:\/\/127\.0\.0\.1:\d+$/)
      assert.equal(nats.url, `nats://127.0.0.1:${nats.port}`)
      assert.notEqual(nats.port, 4222, 'a random port, not the default one')
      const info = await natsGreeting(nats.port)
      assert.equal(info.port, nats.port)
      assert.equal(typeof info.server_id, 'string')
      assert.equal(info.jetstream ?? false, false, 'JetStream only when asked')
      assert.match(nats.log(), /Server is ready/)
      assert.ok(alive(nats.pid))
    } finally {
      await nats.stop()
    }
    assert.ok(!alive(nats.pid), 'stop() waits for the exit')
    await assert.rejects(natsGreeting(nats.port))
  },
)

test(
  'JetStream when asked, on the store folder given; kill9() ends the server at once',
  { timeout: 30_000 },
  async () => {
    const storeDir = mkdtempSync(join(tmpdir(), 'nats-store-'))
    try {
      const nats = await startNatsServer({ jetstream: true, storeDir })
      try {
        const info = await natsGreeting(nats.port)
        assert.equal(info.jetstream, true)
        assert.ok(existsSync(join(storeDir, 'jetstream')), 'the store lives where it was told')
      } finally {
        await nats.kill9()
      }
      assert.ok(!alive(nats.pid))
      assert.doesNotMatch(nats.log(), /Server Exiting/, 'killed, not shut down')
    } finally {
      rmSync(storeDir, { recursive: true, force: true })
    }
  },
)

test('findNatsServer: NATS_SERVER_BIN, then PATH, then /usr/sbin; null when none is executable', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nats-bin-'))
  try {
    const debian = existsSync(DEBIAN_NATS_SERVER) ? DEBIAN_NATS_SERVER : null
    assert.equal(findNatsServer({ NATS_SERVER_BIN: '/nonexistent', PATH: '' }), debian)
    const real = findNatsServer()!
    const onPath = join(dir, 'nats-server')
    symlinkSync(real, onPath)
    assert.equal(findNatsServer({ PATH: `/nonexistent:${dir}` }), onPath, 'PATH before /usr/sbin')
    const chosen = join(dir, 'my-nats')
    symlinkSync(real, chosen)
    assert.equal(findNatsServer({ NATS_SERVER_BIN: chosen, PATH: dir }), chosen, 'NATS_SERVER_BIN first')
    const notExecutable = join(dir, 'plain')
    writeFileSync(notExecutable, '')
    chmodSync(notExecutable, 0o644)
    assert.equal(
      findNatsServer({ NATS_SERVER_BIN: notExecutable, PATH: dir }),
      onPath,
      'a file that is not executable is passed over',
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('a missing binary rejects with the one line that says what to install', async () => {
  await assert.rejects(startNatsServer({ bin: '/nonexistent/nats-server' }), (e: Error) => e.message === NATS_MISSING)
  await assert.rejects(startNatsServer({ bin: null }), (e: Error) => e.message === NATS_MISSING)
  assert.equal(NATS_MISSING, 'nats-server is missing: apt-get install nats-server (or set NATS_SERVER_BIN)')
})

test("a port already taken: rejects with the server's own words", { timeout: 30_000 }, async () => {
  const first = await startNatsServer()
  try {
    await assert.rejects(startNatsServer({ port: first.port }), /exited .*before listening: .*address already in use/)
  } finally {
    await first.stop()
  }
})

test(
  'the server dies with the process that started it, even when that process is killed with SIGKILL',
  { timeout: 30_000 },
  async () => {
    const module = pathToFileURL(join(repoRoot, 'dist/engine/devcluster/natsServer.js')).href
    const { NODE_TEST_CONTEXT: _, ...env } = process.env
    // the timer keeps the parent alive (the server does not: it is unref'd) until the SIGKILL
    const parent = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { startNatsServer } = await import(${JSON.stringify(module)}); const s = await startNatsServer(); console.log(s.pid, s.port); setInterval(() => {}, 1000)`,
      ],
      { env, stdio: ['ignore', 'pipe', 'inherit'] },
    )
    const [pid, port] = await new Promise<[number, number]>((resolve, reject) => {
      let out = ''
      parent.stdout.on('data', d => {
        out += d
        const m = /^(\d+) (\d+)\n/.exec(out)
        if (m) resolve([Number(m[1]), Number(m[2])])
      })
      parent.on('exit', code => reject(new Error(`the parent exited (${code}) before starting nats-server: ${out}`)))
    })
    try {
      await natsGreeting(port)
    } finally {
      parent.kill('SIGKILL')
    }
    assert.ok(await gone(pid), `nats-server ${pid} outlived its parent`)
  },
)

test('a server nobody stops neither keeps its process alive nor outlives it', { timeout: 30_000 }, async () => {
  const module = pathToFileURL(join(repoRoot, 'dist/engine/devcluster/natsServer.js')).href
  const { NODE_TEST_CONTEXT: _, ...env } = process.env
  const parent = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { startNatsServer } = await import(${JSON.stringify(module)}); const s = await startNatsServer(); console.log(s.pid, s.port)`,
    ],
    { env, stdio: ['ignore', 'pipe', 'inherit'] },
  )
  let out = ''
  parent.stdout.on('data', d => {
    out += d
  })
  const code = await new Promise<number | null>(resolve => parent.on('exit', resolve))
  assert.equal(code, 0, out)
  const pid = Number(/^(\d+) \d+\n/.exec(out)?.[1])
  assert.ok(pid > 0, out)
  assert.ok(await gone(pid), `nats-server ${pid} outlived its parent`)
})
