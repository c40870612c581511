// One engine per data directory, exclusive ports, a private directory as root, and exits that say
// what happened: each a real engine process over loopback.
import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { createServer, connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { testDatabase } from '../helpers/db.js'
import { VERSION } from '../../engine/version.js'
import { spawnEngine, refusedStart } from './process.js'

describe('one engine per data directory', () => {
  test('a second engine on the same DATA_DIR exits non-zero within seconds with one line naming the first; the first is untouched', async () => {
    const db = await testDatabase('f')
    const dataDir = mkdtempSync(join(tmpdir(), 'engine-'))
    const first = await spawnEngine({ DATA_DIR: dataDir, DATABASE_URL: db.url })
    try {
      const second = await refusedStart({ DATA_DIR: dataDir, DATABASE_URL: db.url })
      assert.equal(second.code, 1)
      assert.ok(second.ms < 10_000, `refused in ${second.ms} ms`)
      const lines = second.stderr.trim().split('\n')
      assert.equal(lines.length, 1, second.stderr)
      assert.match(
        lines[0]!,
        new RegExp(
          `^engine already running \\(pid ${first.child.pid}, ports api ${first.ports.api}, terminal ${first.ports.terminal}, relay ${first.ports.relay}, data dir .+\\)$`,
        ),
      )
      assert.equal((await fetch(`${first.api}/health`)).status, 200) // untouched
      assert.equal(await first.term(), 0)
    } finally {
      first.child.kill('SIGKILL')
      rmSync(dataDir, { recursive: true, force: true })
      await db.drop()
    }
  })

  test('a lock held by a process killed with -9 does not block the next start', async () => {
    const db = await testDatabase('f')
    const dataDir = mkdtempSync(join(tmpdir(), 'engine-'))
    try {
      const first = await spawnEngine({ DATA_DIR: dataDir, DATABASE_URL: db.url })
      await first.kill9()
      const next = await spawnEngine({ DATA_DIR: dataDir, DATABASE_URL: db.url })
      assert.equal((await fetch(`${next.api}/health`)).status, 200)
      assert.equal(await next.term(), 0)
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
      await db.drop()
    }
  })
})

describe('ports', () => {
  test('a busy port: one line naming the port, "in use" and the variable; exit 1', async () => {
    const busy = createServer()
    await new Promise<void>(r => busy.listen(0, '127.0.0.1', () => r()))
    const port = (busy.address() as { port: number }).port
    const db = await testDatabase('f')
    const dataDir = mkdtempSync(join(tmpdir(), 'engine-'))
    try {
      for (const variable of ['API_PORT', 'TERMINAL_PORT', 'RELAY_PORT']) {
        const r = await refusedStart({ DATA_DIR: dataDir, DATABASE_URL: db.url, [variable]: String(port) })
        assert.equal(r.code, 1)
        assert.equal(
          r.stderr.trim(),
          `port ${port} (${variable}) is in use on 127.0.0.1: stop what holds it, or set ${variable} to a free port`,
        )
      }
    } finally {
      busy.close()
      rmSync(dataDir, { recursive: true, force: true })
      await db.drop()
    }
  })

  test('a second engine cannot share a port (no SO_REUSEPORT)', async () => {
    const db = await testDatabase('f')
    const [d1, d2] = [mkdtempSync(join(tmpdir(), 'engine-')), mkdtempSync(join(tmpdir(), 'engine-'))]
    const first = await spawnEngine({ DATA_DIR: d1, DATABASE_URL: db.url })
    try {
      const r = await refusedStart({ DATA_DIR: d2, DATABASE_URL: db.url, RELAY_PORT: String(first.ports.relay) })
      assert.equal(r.code, 1)
      assert.match(r.stderr, /\(RELAY_PORT\) is in use/)
      assert.equal(await first.term(), 0)
    } finally {
      first.child.kill('SIGKILL')
      for (const d of [d1, d2]) rmSync(d, { recursive: true, force: true })
      await db.drop()
    }
  })
})

describe('exits', () => {
  test('SIGTERM with an upload aborted mid-body exits 0 at once (the aborted request leaves the in-flight count)', async () => {
    const db = await testDatabase('f')
    const dataDir = mkdtempSync(join(tmpdir(), 'engine-'))
    const e = await spawnEngine({ DATA_DIR: dataDir, DATABASE_URL: db.url, SHUTDOWN_TIMEOUT_MS: '5000' })
    try {
      const sock = connect(e.ports.api, '127.0.0.1')
      await new Promise<void>(r => sock.once('connect', () => r()))
      sock.write(
        'POST /api/v1/fills HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"txHash":',
      )
      await new Promise(r => setTimeout(r, 200))
      sock.destroy()
      await new Promise(r => setTimeout(r, 200))
      const t0 = Date.now()
      assert.equal(await e.term(), 0)
      assert.ok(Date.now() - t0 < 4000, `exited in ${Date.now() - t0} ms (a leaked count waits the full 5 s)`)
    } finally {
      e.child.kill('SIGKILL')
      rmSync(dataDir, { recursive: true, force: true })
      await db.drop()
    }
  })
  test('SIGTERM with the route process starved of CPU (stopped) still exits 0, and that process is killed', async () => {
    // a route process under SCHED_IDLE on two busy cores gets no CPU to stop on its own: the shutdown must not wait
    // for it past its deadline, or main.ts's hard stop ends the engine with 1 before PostgreSQL is closed
    const db = await testDatabase('f')
    const dataDir = mkdtempSync(join(tmpdir(), 'engine-'))
    const e = await spawnEngine({ DATA_DIR: dataDir, DATABASE_URL: db.url, SHUTDOWN_TIMEOUT_MS: '1000' })
    let route: number | undefined
    try {
      while ((route = childRunning(e.child.pid!, 'routeProcessMain.js')) === undefined)
        await new Promise(r => setTimeout(r, 20))
      process.kill(route, 'SIGSTOP')
      assert.equal(await e.term(), 0, 'a clean exit, not the hard stop')
      assert.ok(!['R', 'S', 'T', 'D'].includes(processState(route) ?? 'gone'), `route process ${processState(route)}`)
    } finally {
      e.child.kill('SIGKILL')
      if (route !== undefined && processState(route) !== undefined) process.kill(route, 'SIGKILL')
      rmSync(dataDir, { recursive: true, force: true })
      await db.drop()
    }
  })
})

/** The pid of `parent`'s child whose command line names `script`, once it runs. */
function childRunning(parent: number, script: string): number | undefined {
  for (const task of readdirSync(`/proc/${parent}/task`)) {
    for (const pid of readFileSync(`/proc/${parent}/task/${task}/children`, 'utf8').split(' ').filter(Boolean)) {
      try {
        if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(script)) return Number(pid)
      } catch {
        /* gone already */
      }
    }
  }
  return undefined
}

/** A process's state letter from /proc (R running, S sleeping, T stopped, Z zombie), or undefined once it is gone. */
function processState(pid: number): string | undefined {
  try {
    return /\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1]
  } catch {
    return undefined
  }
}

describe('embedded PostgreSQL', () => {
  test('started from a private directory (mode 0700; as root, one the postgres user cannot enter), with a random password kept 0600 under DATA_DIR', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'private-'))
    assert.equal(statSync(parent).mode & 0o777, 0o700)
    const dataDir = join(parent, 'data')
    try {
      const e = await spawnEngine({ DATA_DIR: dataDir, DATABASE_URL: '' })
      const h = (await (await fetch(`${e.api}/health`)).json()) as { status: string; database: string }
      assert.deepEqual(h, { status: 'ok', database: 'ok', version: VERSION })
      const pw = join(dataDir, 'pg-password')
      assert.equal(statSync(pw).mode & 0o777, 0o600)
      assert.notEqual(readFileSync(pw, 'utf8').trim(), 'postgres')
      assert.ok(readFileSync(pw, 'utf8').trim().length >= 24)
      assert.equal(await e.term(), 0)
    } finally {
      const located = join(dataDir, 'pg-location')
      if (existsSync(located)) rmSync(readFileSync(located, 'utf8').trim(), { recursive: true, force: true })
      rmSync(parent, { recursive: true, force: true })
    }
  })
})

describe('stale-server cleanup', () => {
  test('stops a postmaster left running for this cluster, and never a process a stale pid file happens to name', async () => {
    const { startEmbeddedPostgres, stopStale, isPostmasterOf } = await import('../../engine/store/embedded.js')
    const { spawn } = await import('node:child_process')
    const { writeFileSync, mkdirSync } = await import('node:fs')
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0)
        return true
      } catch {
        return false
      }
    }
    // an unrelated live process named by a stale pid file: left alone
    const bystander = spawn('sleep', ['30'], { stdio: 'ignore' })
    const fake = mkdtempSync(join(tmpdir(), 'stale-'))
    mkdirSync(join(fake, 'pg'))
    writeFileSync(join(fake, 'pg', 'postmaster.pid'), `${bystander.pid}\n${join(fake, 'pg')}\n`)
    assert.equal(isPostmasterOf(bystander.pid!, join(fake, 'pg')), false)
    await stopStale(join(fake, 'pg'))
    assert.ok(alive(bystander.pid!), 'the bystander was not signalled')
    bystander.kill()
    // this cluster's own postmaster, orphaned: stopped
    const dataDir = mkdtempSync(join(tmpdir(), 'stale-'))
    const pg = await startEmbeddedPostgres({ dataDir, fast: true })
    const pid = Number(readFileSync(join(pg.clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0])
    assert.ok(isPostmasterOf(pid, pg.clusterDir))
    await stopStale(pg.clusterDir)
    assert.equal(alive(pid), false)
    await pg.stop()
    for (const d of [fake, dataDir]) rmSync(d, { recursive: true, force: true })
  })
})
