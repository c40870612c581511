// Every bad setting is named, by a real `node dist/engine/main.js`: settings valid alone but wrong together or for
// this machine (two surfaces on one port, a HOST that is not this machine's, the kit's placeholders, a zero or
// missing contract on a real chain, TOKENS_POLICY=chain with no chain) stop the start with one line per variable,
// exit 2, before anything is touched; an unreachable DATABASE_URL is one line naming it and what to do, exit 1.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { refusedStart } from './process.js'
import { freePort } from '../../engine/store/embedded.js'

const CONTRACT = `0x${'a'.repeat(40)}`
const ZERO = `0x${'0'.repeat(40)}`
const freshDir = () => join(mkdtempSync(join(tmpdir(), 'settings-')), 'data')

async function refused(env: Record<string, string>): Promise<string[]> {
  const dataDir = freshDir()
  const r = await refusedStart({ DATA_DIR: dataDir, DATABASE_URL: '', ...env })
  assert.equal(r.code, 2, r.stderr)
  assert.ok(!existsSync(dataDir), 'refused before the data directory was touched')
  return r.stderr.trim().split('\n')
}

test('two surfaces on one port: named as such, not as a port in use', async () => {
  const port = String(await freePort())
  assert.deepEqual(await refused({ API_PORT: port, TERMINAL_PORT: port }), [
    `API_PORT and TERMINAL_PORT are both ${port}: each surface needs a port of its own`,
  ])
  assert.deepEqual(await refused({ API_PORT: port, TERMINAL_PORT: port, RELAY_PORT: port }), [
    `API_PORT and TERMINAL_PORT are both ${port}: each surface needs a port of its own`,
    `TERMINAL_PORT and RELAY_PORT are both ${port}: each surface needs a port of its own`,
  ])
})

test('a HOST this machine cannot listen on: not one of its addresses, or no such name', async () => {
  const [line] = await refused({ HOST: '192.0.2.7' })
  assert.match(
    line!,
    /^HOST=192\.0\.2\.7 is not an address of this machine \(its addresses: .*127\.0\.0\.1.*\): use one of them, or 0\.0\.0\.0 for all$/,
  )
  assert.deepEqual(await refused({ HOST: 'no-such-host.invalid' }), [
    'HOST=no-such-host.invalid: no such host name here: use an address of this machine, or 0.0.0.0',
  ])
})

test("the kit's placeholders and a zero or missing contract off the local chain: one line each, no value echoed", async () => {
  const lines = await refused({
    CHAIN_ID: '1',
    API_KEY: 'REPLACE-with-a-long-random-key',
    AGG_API_KEY: 'REPLACE',
    SPOT_RFQ_ADDRESS: ZERO,
    MULTICALL_ADDRESS: ZERO,
    DATABASE_URL: 'postgres://rfq_engine:REPLACE-password@10.0.0.20:5432/rfq',
  })
  assert.deepEqual(lines, [
    "DATABASE_URL still holds the deployment kit's placeholder (REPLACE…): set its real value",
    "API_KEY still holds the deployment kit's placeholder (REPLACE…): set its real value",
    "AGG_API_KEY still holds the deployment kit's placeholder (REPLACE…): set its real value",
    'SPOT_RFQ_ADDRESS is the zero address: on chain 1 (CHAIN_ID) set the deployed SpotRFQ contract, the verifyingContract of every quote signature',
    "MULTICALL_ADDRESS is the zero address: set chain 1's Multicall3, or leave it unset",
  ])
  assert.deepEqual(await refused({ CHAIN_ID: '8453' }), [
    'SPOT_RFQ_ADDRESS is unset: on chain 8453 (CHAIN_ID) set the deployed SpotRFQ contract, the verifyingContract of every quote signature',
  ])
  assert.deepEqual(await refused({ CHAIN_ID: '1', SPOT_RFQ_ADDRESS: CONTRACT, TOKENS_POLICY: 'chain' }), [
    'TOKENS_POLICY=chain reads unknown tokens on chain: set RPC_URL, or TOKENS_POLICY=list',
  ])
})

test('an unreachable DATABASE_URL: one line naming it, where it points (no password) and what to do; exit 1', async () => {
  const r = await refusedStart({ DATA_DIR: freshDir(), DATABASE_URL: 'postgres://rfq:secret@127.0.0.1:1/rfq' })
  assert.equal(r.code, 1)
  assert.equal(
    r.stderr.trim(),
    'DATABASE_URL (postgres://rfq@127.0.0.1:1/rfq): connection refused: is PostgreSQL running there, and listening ' +
      'on TCP at that address and port?; or unset DATABASE_URL to run an embedded PostgreSQL under DATA_DIR',
  )
})

test('a retention setting that is not 0 or 2 days or more stops the start, naming it', async () => {
  for (const bad of ['1', '-3', 'week']) {
    const [line, ...rest] = await refused({ QUOTES_RETENTION_DAYS: bad })
    assert.match(line!, /QUOTES_RETENTION_DAYS/)
    assert.deepEqual(rest, [])
  }
})

test("an RFQ retention that is not 0 or 2 days or more, or shorter than the quotes', stops the start in one line", async () => {
  for (const bad of ['1', '-3', 'week']) {
    const [line, ...rest] = await refused({ RFQS_RETENTION_DAYS: bad })
    assert.match(line!, /RFQS_RETENTION_DAYS/)
    assert.deepEqual(rest, [])
  }
  // RFQs would go before their quotes: while quotes are kept, or kept longer
  const envs: Record<string, string>[] = [
    { RFQS_RETENTION_DAYS: '30' },
    { RFQS_RETENTION_DAYS: '30', QUOTES_RETENTION_DAYS: '31' },
  ]
  for (const env of envs) {
    const [line, ...rest] = await refused(env)
    assert.match(line!, /^RFQS_RETENTION_DAYS=30 would drop RFQs before their quotes/)
    assert.deepEqual(rest, [])
  }
})

test('an ARCHIVE_DIR that is missing, a file or not writable stops the start with one line naming it', async () => {
  const base = mkdtempSync(join(tmpdir(), 'archive-dir-'))
  const file = join(base, 'a-file')
  writeFileSync(file, '')
  const missing = join(base, 'missing')
  assert.deepEqual(await refused({ ARCHIVE_DIR: missing }), [
    `ARCHIVE_DIR=${missing}: no such directory (${missing}): create it, or unset ARCHIVE_DIR`,
  ])
  assert.deepEqual(await refused({ ARCHIVE_DIR: file }), [`ARCHIVE_DIR=${file}: not a directory (${file})`])
  // root writes through file modes: /proc takes no new file from anyone
  const readOnly = process.getuid?.() === 0 ? '/proc' : join(base, 'read-only')
  if (readOnly !== '/proc') {
    mkdirSync(readOnly)
    chmodSync(readOnly, 0o555)
  }
  const [line, ...rest] = await refused({ ARCHIVE_DIR: readOnly })
  assert.match(line!, new RegExp(`^ARCHIVE_DIR=${readOnly}: not writable by this process \\(E[A-Z]+\\)$`))
  assert.deepEqual(rest, [])
})
