import { test } from 'node:test'
import assert from 'node:assert/strict'
import { recoverTypedDataAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { Wallet } from 'ethers'
import { domainSeparator } from '../../../workers/sig/quoteHash.js'
import { recoverQuoteSigner } from '../../../workers/sig/recoverQuoteSigner.js'
import type { Domain } from '../../../workers/sig/types.js'
import { domain, MAKER_KEY, makeQuote, quoteTypes, swappedTypes, toHighS, toJson } from './fixtures.js'

const account = privateKeyToAccount(MAKER_KEY)
const wallet = new Wallet(MAKER_KEY)
const maker = account.address.toLowerCase()
const sep = domainSeparator(domain)
const quote = makeQuote(account.address)

const viemSign = (d: Domain, types: typeof quoteTypes | typeof swappedTypes = quoteTypes) =>
  account.signTypedData({ domain: d, types, primaryType: 'Quote', message: quote })
const ethersSign = (d: Domain) =>
  wallet.signTypedData(
    { ...d, chainId: Number(d.chainId) },
    { Quote: [...quoteTypes.Quote] },
    quote,
  ) as Promise<`0x${string}`>

test('a viem-signed quote recovers to the maker, as viem recoverTypedDataAddress says', async () => {
  const signature = await viemSign(domain)
  const reference = await recoverTypedDataAddress({
    domain,
    types: quoteTypes,
    primaryType: 'Quote',
    message: quote,
    signature,
  })
  assert.equal(recoverQuoteSigner(sep, toJson(quote), signature), maker)
  assert.equal(reference.toLowerCase(), maker)
})

test('an ethers-signed quote recovers to the maker', async () => {
  const signature = await ethersSign(domain)
  assert.equal(recoverQuoteSigner(sep, toJson(quote), signature), maker)
})

test('v as 0/1 recovers the same signer as 27/28', async () => {
  const signature = await viemSign(domain)
  const v = parseInt(signature.slice(130), 16) - 27
  assert.equal(recoverQuoteSigner(sep, toJson(quote), `${signature.slice(0, 130)}0${v}`), maker)
})

test('a quote signed with amountOut before amountIn recovers a different address', async () => {
  const signature = await viemSign(domain, swappedTypes)
  const signer = recoverQuoteSigner(sep, toJson(quote), signature)
  assert.notEqual(signer, null)
  assert.notEqual(signer, maker)
})

test('a different chainId, name or verifyingContract recovers a different address', async () => {
  for (const d of [
    { ...domain, chainId: 999 },
    { ...domain, name: 'OtherRFQ' },
    { ...domain, verifyingContract: '0x0000000000000000000000000000000000000001' as const },
  ]) {
    for (const signature of [await viemSign(d), await ethersSign(d)]) {
      const signer = recoverQuoteSigner(sep, toJson(quote), signature)
      assert.notEqual(signer, maker, JSON.stringify(d))
    }
  }
})

test('a changed field recovers a different address', async () => {
  const signature = await viemSign(domain)
  assert.notEqual(recoverQuoteSigner(sep, { ...toJson(quote), amountOut: '2500000001' }, signature), maker)
})

test('the high-S twin of a valid signature is rejected', async () => {
  const signature = await viemSign(domain)
  const high = toHighS(signature)
  // the twin is a valid ECDSA signature for the same key: viem still recovers the maker from it
  const reference = await recoverTypedDataAddress({
    domain,
    types: quoteTypes,
    primaryType: 'Quote',
    message: quote,
    signature: high,
  })
  assert.equal(reference.toLowerCase(), maker)
  assert.equal(recoverQuoteSigner(sep, toJson(quote), high), null)
})

test('malformed quotes and signatures give null, not a throw', async () => {
  const signature = await viemSign(domain)
  assert.equal(recoverQuoteSigner(sep, { ...toJson(quote), amountIn: '-1' }, signature), null)
  assert.equal(recoverQuoteSigner(sep, toJson(quote), signature.slice(0, 100)), null)
  assert.equal(recoverQuoteSigner(sep, toJson(quote), undefined), null)
  // r = x of no curve point: well-formed but unrecoverable
  const unrecoverable = `0x${'00'.repeat(31)}05${'00'.repeat(31)}011b`
  assert.equal(recoverQuoteSigner(sep, toJson(quote), unrecoverable), null)
})
