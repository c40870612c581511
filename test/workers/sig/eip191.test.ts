import { test } from 'node:test'
import assert from 'node:assert/strict'
import { hashMessage } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { Wallet } from 'ethers'
import { personalMessageDigest, recoverPersonalSigner } from '../../../workers/sig/eip191.js'
import { toHex } from '../../../workers/sig/keccak.js'
import { MAKER_KEY, OTHER_KEY, toHighS } from './fixtures.js'

const account = privateKeyToAccount(MAKER_KEY)
const owner = account.address.toLowerCase()
const messages = ['Register agent bot-1 at 1900000000', '', 'naïve ünïcode ✓ 🚀', 'x'.repeat(1000)]

test('digest equals viem hashMessage, length counted in UTF-8 bytes', () => {
  for (const m of messages) assert.equal(toHex(personalMessageDigest(m)), hashMessage(m))
})

test('viem signMessage recovers to the signer', async () => {
  for (const m of messages) assert.equal(recoverPersonalSigner(m, await account.signMessage({ message: m })), owner)
})

test('ethers signMessage recovers to the signer', async () => {
  const wallet = new Wallet(MAKER_KEY)
  for (const m of messages) assert.equal(recoverPersonalSigner(m, await wallet.signMessage(m)), owner)
})

test('another key, another message, high-S or junk do not recover the signer', async () => {
  const m = messages[0]!
  const sig = await account.signMessage({ message: m })
  assert.notEqual(recoverPersonalSigner(m, await privateKeyToAccount(OTHER_KEY).signMessage({ message: m })), owner)
  assert.notEqual(recoverPersonalSigner(m + '!', sig), owner)
  assert.equal(recoverPersonalSigner(m, toHighS(sig)), null)
  assert.equal(recoverPersonalSigner(m, '0xdeadbeef'), null)
  assert.equal(recoverPersonalSigner(m, 12), null)
})
