// `make ingest` beside a running `make run`, as an operator runs them: two real processes on one data directory.
// The engine runs its embedded PostgreSQL (random password, under DATA_DIR); the ingestion finds that server and
// logs in with what the engine wrote there, stores its trades where the engine reads them, and exits 0. A database
// it cannot reach is one line naming it, with no stack.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { repoRoot } from '../../engine/paths.js'
import { spawnEngine } from '../faults/process.js'
import { SAMPLE } from '../options/fixture.js'

function ingest(env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  const { NODE_TEST_CONTEXT: _, DATABASE_URL: __, ...base } = process.env
  const child = spawn(process.execPath, [join(repoRoot, 'dist/engine/ingest/main.js')], {
    env: { ...base, LOG_LEVEL: 'info', LOG_FORMAT: 'json', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = '',
    err = ''
  child.stdout.on('data', c => {
    out += c
  })
  child.stderr.on('data', c => {
    err += c
  })
  return new Promise(resolve => child.once('exit', code => resolve({ code: code ?? 1, out, err })))
}

test("beside a running engine on its embedded PostgreSQL: the ingestion writes to the engine's database and exits 0", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'beside-'))
  const engine = await spawnEngine({ DATA_DIR: dir, DATABASE_URL: '' })
  try {
    const r = await ingest({ DATA_DIR: dir, INGEST_SOURCE: 'replay', INGEST_FILE: SAMPLE })
    assert.equal(r.code, 0, r.out + r.err)
    assert.equal(r.err, '')
    assert.match(r.out, /"msg":"ingest: database connected"/)
    assert.doesNotMatch(
      r.out,
      /"msg":"embedded PostgreSQL started"/,
      "it used the engine's server, it did not start one",
    )
    const tape = (await (await fetch(`http://127.0.0.1:${engine.ports.terminal}/options/tape`)).json()) as {
      count: number
    }
    assert.equal(tape.count, 8, 'the engine reads what the ingestion wrote')
    assert.equal(await engine.term(), 0)
  } finally {
    engine.child.kill('SIGKILL')
    rmSync(dir, { recursive: true, force: true })
  }
})

test('an unreachable DATABASE_URL: one line naming it, where it points (no password) and what to do; exit 1, no stack', async () => {
  const r = await ingest({ INGEST_SOURCE: 'synthetic', DATABASE_URL: 'postgres://rfq:secret@127.0.0.1:1/rfq' })
  assert.equal(r.code, 1)
  assert.equal(
    r.err.trim(),
    'DATABASE_URL (postgres://rfq@127.0.0.1:1/rfq): connection refused: is PostgreSQL running there, and listening ' +
      'on TCP at that address and port?; or unset DATABASE_URL to run an embedded PostgreSQL under DATA_DIR',
  )
})
