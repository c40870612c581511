// The sandbox and its CLI as an operator runs them: real processes (`main.js --dir`, `cli.js`), a real
// anvil with the deployed venue, the engine over loopback. Every failure is one line with a code and the
// next step, exit 1, and no stack; the one fill rule holds on chain time; anvil never outlives the sandbox.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServer } from 'node:net'
import { createWalletClient, createPublicClient, http, erc20Abi, formatUnits, type Hex, type Address } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { repoRoot } from '../../engine/paths.js'
import { bestQuote, fillOnChain, waitFor } from '../../engine/sandbox/agentClient.js'
import { testDatabase, type TestDatabase } from '../helpers/db.js'

interface Proc {
  child: ChildProcess
  out: () => string
  err: () => string
  exited: Promise<number>
}

function start(args: string[], env: Record<string, string>): Proc {
  const { NODE_TEST_CONTEXT: _, ...base } = process.env
  const child = spawn(process.execPath, [join(repoRoot, 'dist/engine/sandbox/main.js'), ...args], {
    env: {
      ...base,
      API_PORT: '0',
      TERMINAL_PORT: '0',
      RELAY_PORT: '0',
      HOST: '127.0.0.1',
      POOL_THREADS: '1',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      SANDBOX_RPC_PORT: '0',
      ...env,
    },
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
  return {
    child,
    out: () => out,
    err: () => err,
    exited: new Promise(r => child.once('exit', (code, sig) => r(code ?? (sig ? 128 : 1)))),
  }
}

/** `cli.js` as a person runs it: exit status, stdout, stderr. */
function cli(
  dir: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ status: number; stdout: string; stderr: string }> {
  const { NODE_TEST_CONTEXT: _, ...base } = process.env
  const child = spawn(process.execPath, [join(repoRoot, 'dist/engine/sandbox/cli.js'), '--dir', dir, ...args], {
    env: { ...base, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = '',
    stderr = ''
  child.stdout.on('data', c => {
    stdout += c
  })
  child.stderr.on('data', c => {
    stderr += c
  })
  return new Promise(r => child.once('exit', code => r({ status: code ?? 1, stdout, stderr })))
}

/** One line, its code, no stack, exit 1. */
function failsWith(r: { status: number; stderr: string }, code: string, text: RegExp | string) {
  assert.equal(r.status, 1, r.stderr)
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace')
  const line = r.stderr.trim()
  assert.equal(line.split('\n').length, 1, line)
  assert.ok(line.startsWith(`error ${code}: `), line)
  if (typeof text === 'string') assert.ok(line.includes(text), `${line}\nlacks: ${text}`)
  else assert.match(line, text)
}

const portOpen = (url: string) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
  }).then(
    () => true,
    () => false,
  )

let dir: string, db: TestDatabase, sb: Proc
let state: {
  urls: { api: string; relay: string; rpc: string }
  spotRfq: Address
  accounts: Record<string, { address: Address; privateKey: Hex }>
  tokens: Record<string, { address: Address; decimals: number }>
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-cli-'))
  db = await testDatabase('sbcli')
})
after(async () => {
  sb?.child.kill('SIGKILL')
  await db?.drop()
  rmSync(dir, { recursive: true, force: true })
})

test('no sandbox running: every command says how to start one', async () => {
  for (const args of [['register'], ['rfq'], ['fill', '--last'], ['last']]) {
    failsWith(await cli(dir, args, { KEY: 'x' }), 'NO_SANDBOX', 'no sandbox running; start one with `make sandbox`')
  }
})

test('the sandbox starts with a banner that shows the way; a second one in its directory is one line', async () => {
  sb = start(['--dir', dir], { DATABASE_URL: db.url })
  await waitFor('the sandbox banner', async () => /Ctrl-C stops everything/.test(sb.out()), 60_000, 100)
  state = JSON.parse(readFileSync(join(dir, 'sandbox.json'), 'utf8'))
  const out = sb.out()
  for (const must of [
    'throw-away keys',
    `key ${state.accounts.maker!.privateKey}`,
    `key ${state.accounts.taker!.privateKey}`,
    `${state.urls.api}/api/v1/openapi.json`,
    `${state.urls.api}/metrics`,
    'fill --last',
    `--dir ${dir} register`,
  ])
    assert.ok(out.includes(must), `banner lacks ${must}`)
  const second = start(['--dir', dir], { DATABASE_URL: db.url })
  assert.equal(await second.exited, 1)
  assert.match(
    second.err().trim(),
    new RegExp(`^sandbox already running \\(pid ${sb.child.pid}, ports .*rpc \\d+.*\\)$`),
  )
  assert.ok(await portOpen(state.urls.rpc), "the first sandbox's chain is untouched")
})

test('the walk-through and every CLI failure: bad key, wrong agent (txHash first), shortfalls, expired, filled; the fill rule on chain time', async () => {
  const key = (await cli(dir, ['register'])).stdout.trim()
  assert.match(key, /^rfq_live_/)
  const other = (
    await cli(dir, ['register', '--agent-wallet', '0x00000000000000000000000000000000000000aa'])
  ).stdout.trim()
  assert.match(other, /^rfq_live_/)
  failsWith(await cli(dir, ['fill', 'rfq_x'], { KEY: 'rfq_live_bogus' }), 'BAD_KEY', 'nothing was sent')
  failsWith(await cli(dir, ['fill', '--last'], {}), 'NO_KEY', 'export KEY=')

  const rfq = async (...args: string[]) => {
    const r = await cli(dir, ['rfq', ...args], { KEY: key })
    assert.equal(r.status, 0, r.stderr)
    const id = r.stdout.trim()
    assert.equal((await cli(dir, ['last'])).stdout.trim(), id, 'rfq remembers the id for --last')
    await waitFor('the maker bot quote', () => bestQuote(state.urls.relay, id))
    return id
  }
  // filled on chain now, recorded after its expiry: 20 s, so that its fill (a CLI's start, checks and transaction) is
  // mined before it on a loaded machine too (10 s once was not)
  const short = await rfq('--amount', '0.5', '--ttl', '20')

  // another agent's key: the fill goes on chain, the record is refused; the txHash comes first, then how to record it
  const wrong = await cli(dir, ['fill', short], { KEY: other })
  const tx = /^txHash (0x[0-9a-f]{64})$/m.exec(wrong.stdout)?.[1] as Hex
  assert.ok(tx && wrong.stdout.startsWith(`txHash ${tx}`), wrong.stdout)
  failsWith(wrong, 'NOT_RECORDED', `cli.js record ${short} ${tx}`)

  const expiring = await rfq('--amount', '0.25', '--ttl', '10') // never filled: expires
  const expiryOf = async (id: string) =>
    ((await (await fetch(`${state.urls.api}/api/v1/rfqs/${id}`)).json()) as { rfq: { expiry: number } }).rfq.expiry
  const expiry = Math.max(await expiryOf(short), await expiryOf(expiring)) // both past it before the late record

  // shortfalls are named in token units before anything is sent
  const long = await rfq('--amount', '1', '--ttl', '120')
  const chain = { ...foundry, id: 31337 }
  const as = (who: string) =>
    createWalletClient({
      account: privateKeyToAccount(state.accounts[who]!.privateKey),
      chain,
      transport: http(state.urls.rpc),
    })
  const pub = createPublicClient({ chain, transport: http(state.urls.rpc) })
  const USDC = state.tokens.USDC!.address,
    maker = state.accounts.maker!.address
  const send = async (who: string, fn: 'approve' | 'transfer', args: [Address, bigint]) =>
    pub.waitForTransactionReceipt({
      hash: await as(who).writeContract({ address: USDC, abi: erc20Abi, functionName: fn, args }),
    })
  const quoted = formatUnits(BigInt((await bestQuote(state.urls.relay, long))!.quote.amountOut), 6)
  await send('maker', 'approve', [state.spotRfq, 5n])
  failsWith(
    await cli(dir, ['fill', long], { KEY: key }),
    'MAKER_ALLOWANCE',
    `maker allowance to SpotRFQ 0.000005 USDC < ${quoted} USDC quoted`,
  )
  await send('maker', 'approve', [state.spotRfq, 2n ** 255n])
  const held = await pub.readContract({ address: USDC, abi: erc20Abi, functionName: 'balanceOf', args: [maker] })
  await send('maker', 'transfer', [state.accounts.deployer!.address, held - 1_000_000n])
  failsWith(
    await cli(dir, ['fill', long], { KEY: key }),
    'MAKER_BALANCE',
    `maker balance 1 USDC < ${quoted} USDC quoted`,
  )
  await send('deployer', 'transfer', [maker, held - 1_000_000n])

  const filled = await cli(dir, ['fill', '--last'], { KEY: key })
  assert.equal(filled.status, 0, filled.stderr)
  assert.match(filled.stdout, /^txHash 0x[0-9a-f]{64}\n/)
  assert.equal(JSON.parse(filled.stdout.slice(filled.stdout.indexOf('{'))).success, true)
  failsWith(await cli(dir, ['fill', long], { KEY: key }), 'RFQ_FILLED', 'is already filled (tx 0x')

  // past the expiry: the never-filled RFQ is refused before the chain; the fill mined in time is still recorded
  await new Promise(r => setTimeout(r, Math.max(0, (expiry + 1) * 1000 - Date.now())))
  failsWith(await cli(dir, ['fill', expiring], { KEY: key }), 'RFQ_EXPIRED', 'nothing was sent')
  const late = await cli(dir, ['record', short, tx], { KEY: key })
  assert.equal(late.status, 0, late.stderr)
  assert.equal(
    ((await (await fetch(`${state.urls.api}/api/v1/rfqs/${short}`)).json()) as { status: string }).status,
    'FILLED',
  )

  // and the other way round: mined after the expiry (chain time), recorded before it (wall time): refused
  const next = await rfq('--amount', '0.1', '--ttl', '30')
  const nextExpiry = await expiryOf(next)
  await fetch(state.urls.rpc, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'evm_setNextBlockTimestamp', params: [nextExpiry + 5] }),
  })
  const q = await bestQuote(state.urls.relay, next)
  const { txHash: afterTx } = await fillOnChain(
    state.urls.rpc,
    31337,
    state.spotRfq,
    state.accounts.taker!.privateKey,
    q!,
  )
  failsWith(
    await cli(dir, ['record', next, afterTx], { KEY: key }),
    'NOT_RECORDED',
    '409 RFQ cannot be filled (status EXPIRED)',
  )
})

test('kill -9 of the sandbox takes its chain with it', async () => {
  assert.ok(await portOpen(state.urls.rpc))
  sb.child.kill('SIGKILL')
  await sb.exited
  await waitFor('anvil to stop', async () => !(await portOpen(state.urls.rpc)), 10_000, 100)
})

test('SANDBOX_RPC_PORT in use: one line naming it, exit 1, nothing left running; a bad value: exit 2', async () => {
  const holder = createServer().listen(0, '127.0.0.1')
  await new Promise(r => holder.once('listening', r))
  const port = (holder.address() as { port: number }).port
  try {
    const p = start(['--dir', mkdtempSync(join(tmpdir(), 'sandbox-port-'))], {
      DATABASE_URL: db.url,
      SANDBOX_RPC_PORT: String(port),
    })
    assert.equal(await p.exited, 1)
    assert.equal(
      p.err().trim(),
      `port ${port} (SANDBOX_RPC_PORT) is in use on 127.0.0.1: stop what holds it, or set SANDBOX_RPC_PORT to a free port`,
    )
    const bad = start(['--dir', mkdtempSync(join(tmpdir(), 'sandbox-port-'))], {
      DATABASE_URL: db.url,
      SANDBOX_RPC_PORT: 'eighty',
    })
    assert.equal(await bad.exited, 2)
    assert.match(bad.err().trim(), /^invalid configuration: SANDBOX_RPC_PORT/)
  } finally {
    holder.close()
  }
})

test('SIGTERM (or Ctrl-C) stops the sandbox cleanly: exit 0, its chain stopped, its lock free', async () => {
  const d = mkdtempSync(join(tmpdir(), 'sandbox-term-'))
  const p = start(['--dir', d], { DATABASE_URL: db.url })
  await waitFor('the sandbox banner', async () => /Ctrl-C stops everything/.test(p.out()), 60_000, 100)
  const rpc = JSON.parse(readFileSync(join(d, 'sandbox.json'), 'utf8')).urls.rpc as string
  assert.ok(await portOpen(rpc))
  p.child.kill('SIGTERM')
  assert.equal(await p.exited, 0, p.err())
  assert.equal(await portOpen(rpc), false)
  failsWith(await cli(d, ['last']), 'NO_SANDBOX', 'start one with `make sandbox`')
  rmSync(d, { recursive: true, force: true })
})
