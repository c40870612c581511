// Signer recovery on the system's libsecp256k1 (workers/sig/native/recover.c) against the secp256k1 npm package's
// bundled library: the same key for every signature either recovers, the same refusals, and the package in its place
// when asked. The module is compiled by `make build` (engine/ops/native-build.sh); without it this suite fails with
// what to install.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import fc from 'fast-check'
import { privateKeyToAccount } from 'viem/accounts'
import { recoveryLibrary } from '../../../workers/sig/recover.js'
import { recoverQuoteSigner } from '../../../workers/sig/recoverQuoteSigner.js'
import { domainSeparator } from '../../../workers/sig/quoteHash.js'
import { repoRoot } from '../../../engine/paths.js'
import { domain, MAKER_KEY, makeQuote, quoteTypes, SECP256K1_N, toJson } from './fixtures.js'

const load = createRequire(import.meta.url)
interface System {
  recover(compact: Uint8Array, recid: number, digest: Uint8Array, out: Uint8Array): boolean
}
interface Package {
  ecdsaSign(message: Uint8Array, key: Uint8Array): { signature: Uint8Array; recid: number }
  ecdsaRecover(signature: Uint8Array, recid: number, message: Uint8Array, compressed: boolean): Uint8Array
}
const MODULE = join(repoRoot, 'dist/native/recover.node')
const pkg = load('secp256k1/bindings') as Package

function system(): System {
  try {
    return load(MODULE) as System
  } catch {
    assert.fail(
      `${MODULE} is not built: install a C compiler and Debian's libsecp256k1 (apt-get install gcc libsecp256k1-dev), then make build`,
    )
  }
}

/** what each binding recovers: the key's 65 bytes as hex, or null */
function both(compact: Uint8Array, recid: number, digest: Uint8Array): [string | null, string | null] {
  const out = new Uint8Array(65)
  const mine = system().recover(compact, recid, digest, out) ? Buffer.from(out).toString('hex') : null
  let theirs: string | null
  try {
    theirs = Buffer.from(pkg.ecdsaRecover(compact, recid, digest, false)).toString('hex')
  } catch {
    theirs = null
  }
  return [mine, theirs]
}

const word = (n: bigint) => Buffer.from(n.toString(16).padStart(64, '0'), 'hex')

test('the signature pool recovers on the system libsecp256k1 that make build compiled', () => {
  system()
  assert.equal(recoveryLibrary, 'system libsecp256k1')
})

test('for any key and digest, the system library recovers the key the package does, and the signer', () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ minLength: 32, maxLength: 32 }),
      fc.uint8Array({ minLength: 32, maxLength: 32 }),
      (k, d) => {
        const key = Buffer.from(k),
          digest = Buffer.from(d)
        const n = BigInt(`0x${key.toString('hex')}`)
        fc.pre(n > 0n && n < SECP256K1_N)
        const { signature, recid } = pkg.ecdsaSign(digest, key)
        const [mine, theirs] = both(signature, recid, digest)
        assert.notEqual(mine, null)
        assert.equal(mine, theirs)
        // the other recid recovers some other key, or none, the same for both
        const [m2, t2] = both(signature, 1 - recid, digest)
        assert.equal(m2, t2)
        assert.notEqual(m2, mine)
      },
    ),
    { numRuns: 150 },
  )
})

test('r or s of zero or past the group order recovers nothing, as the package says', () => {
  const digest = randomBytes(32)
  const { signature } = pkg.ecdsaSign(digest, randomBytes(32))
  const r = signature.subarray(0, 32),
    s = signature.subarray(32)
  for (const [rr, ss] of [
    [word(0n), s],
    [r, word(0n)],
    [word(SECP256K1_N), s],
    [r, word(SECP256K1_N)],
    [word((1n << 256n) - 1n), s],
  ] as const) {
    const compact = Buffer.concat([rr, ss])
    assert.deepEqual(both(compact, 0, digest), [null, null])
    assert.deepEqual(both(compact, 1, digest), [null, null])
  }
})

test('arguments of another shape are refused by a TypeError, not read past their ends', () => {
  const out = new Uint8Array(65)
  const sig = new Uint8Array(64).fill(1),
    digest = new Uint8Array(32).fill(2)
  for (const args of [
    [new Uint8Array(63), 0, digest, out],
    [sig, 2, digest, out],
    [sig, 0, new Uint8Array(31), out],
    [sig, 0, digest, new Uint8Array(64)],
    [sig, 0, digest],
    [Array.from(sig), 0, digest, out],
  ])
    assert.throws(() => (system().recover as (...a: unknown[]) => boolean)(...args), TypeError)
})

test('SIG_RECOVERY=package recovers through the npm package, to the same signer', async () => {
  const account = privateKeyToAccount(MAKER_KEY)
  const quote = makeQuote(account.address)
  const signature = await account.signTypedData({ domain, types: quoteTypes, primaryType: 'Quote', message: quote })
  const script = `
    const { recoveryLibrary } = await import(${JSON.stringify(join(repoRoot, 'dist/workers/sig/recover.js'))})
    const { recoverQuoteSigner } = await import(${JSON.stringify(join(repoRoot, 'dist/workers/sig/recoverQuoteSigner.js'))})
    const { domainSeparator } = await import(${JSON.stringify(join(repoRoot, 'dist/workers/sig/quoteHash.js'))})
    const d = ${JSON.stringify(domain)}
    console.log(JSON.stringify([recoveryLibrary, recoverQuoteSigner(domainSeparator(d), ${JSON.stringify(toJson(quote))}, ${JSON.stringify(signature)})]))`
  const run = (env: NodeJS.ProcessEnv) =>
    JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        env: { ...process.env, ...env },
      }).toString(),
    ) as [string, string]
  const [library, signer] = run({ SIG_RECOVERY: 'package' })
  assert.match(library, /^secp256k1 npm package .*SIG_RECOVERY=package/)
  assert.equal(signer, account.address.toLowerCase())
  assert.deepEqual(run({ SIG_RECOVERY: '' }), ['system libsecp256k1', signer])
  assert.equal(recoverQuoteSigner(domainSeparator(domain), toJson(quote), signature), signer) // this thread's, system
})
