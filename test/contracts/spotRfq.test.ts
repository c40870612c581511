import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { decodeEventLog, getAddress, type Address, type Hex } from 'viem'
import { Wallet } from 'ethers'
import { deploySpotRfq } from '../../engine/chain/spotRfq.js'
import { domainSeparator, quoteDigest } from '../../workers/sig/quoteHash.js'
import { toHex } from '../../workers/sig/keccak.js'
import type { Domain, QuoteMessage } from '../../workers/sig/types.js'
import { quoteTypes, swappedTypes, toHighS } from '../workers/sig/fixtures.js'
import { balanceOf, KEYS, revertOf, send, spotRfqAbi, startStage, tokenAbi, SUPPLY_IN, SUPPLY_OUT, type Role, type Stage } from './chain.js'

const ZERO: Address = '0x0000000000000000000000000000000000000000'
let stage: Stage
let nonce = 100n

before(async () => { stage = await startStage() })
after(async () => { await stage?.stop() })

const domainOf = (verifyingContract: Address, name = 'SpotRFQ'): Domain => ({ name, version: '1', chainId: 31337, verifyingContract })

async function newQuote(over: Partial<QuoteMessage> = {}): Promise<QuoteMessage> {
  const now = (await stage.publicClient.getBlock()).timestamp
  return {
    maker: stage.accounts.maker.address, taker: stage.accounts.taker.address,
    tokenIn: stage.tokenIn, tokenOut: stage.tokenOut,
    amountIn: 3n * 10n ** 17n, amountOut: 987_654_321n,
    expiry: now + 30n, nonce: nonce++, deadline: now + 3600n, ...over,
  }
}

function sign(quote: QuoteMessage, { domain = domainOf(stage.spotRfq), types = quoteTypes }:
  { domain?: ReturnType<typeof domainOf>; types?: typeof quoteTypes | typeof swappedTypes } = {}): Promise<Hex> {
  return stage.accounts.maker.signTypedData({ domain: { ...domain, chainId: BigInt(domain.chainId) }, types, primaryType: 'Quote', message: quote })
}

const fillCall = (quote: QuoteMessage, signature: Hex, by: Role = 'taker', address = stage.spotRfq) =>
  ({ address, abi: spotRfqAbi(), functionName: 'fill', args: [quote, signature], account: stage.accounts[by] }) as const

/** The revert a fill would hit, via eth_call. */
const fillRevert = (quote: QuoteMessage, signature: Hex, by: Role = 'taker', address = stage.spotRfq) =>
  revertOf(stage.publicClient.simulateContract(fillCall(quote, signature, by, address)))

const fill = (quote: QuoteMessage, signature: Hex, by: Role = 'taker', address = stage.spotRfq) =>
  send(stage.publicClient, stage.wallet(by).writeContract(fillCall(quote, signature, by, address)))

const write = (by: Role, functionName: string, args: unknown[]) =>
  send(stage.publicClient, stage.wallet(by).writeContract({ address: stage.spotRfq, abi: spotRfqAbi(), functionName, args }))

const read = <T>(functionName: string, args: unknown[] = []) =>
  stage.publicClient.readContract({ address: stage.spotRfq, abi: spotRfqAbi(), functionName, args }) as Promise<T>

test('hashQuote and domainSeparator equal the TS quoteDigest and domainSeparator', async () => {
  const quote = await newQuote()
  const sep = domainSeparator(domainOf(stage.spotRfq))
  assert.equal(await read<Hex>('domainSeparator'), toHex(sep))
  assert.equal(await read<Hex>('hashQuote', [quote]), toHex(quoteDigest(sep, quote)))
})

test('a viem-signed fill moves exact amounts both ways and emits QuoteFilled with every amount', async () => {
  const { publicClient: pc, accounts, tokenIn, tokenOut } = stage
  const before = await Promise.all([balanceOf(pc, tokenIn, accounts.taker.address), balanceOf(pc, tokenIn, accounts.maker.address),
    balanceOf(pc, tokenOut, accounts.taker.address), balanceOf(pc, tokenOut, accounts.maker.address)])
  const quote = await newQuote()
  const receipt = await fill(quote, await sign(quote))
  const after = await Promise.all([balanceOf(pc, tokenIn, accounts.taker.address), balanceOf(pc, tokenIn, accounts.maker.address),
    balanceOf(pc, tokenOut, accounts.taker.address), balanceOf(pc, tokenOut, accounts.maker.address)])
  assert.deepEqual(after, [before[0] - quote.amountIn, before[1] + quote.amountIn, before[2] + quote.amountOut, before[3] - quote.amountOut])
  assert.equal(before[0], SUPPLY_IN)
  assert.equal(before[3], SUPPLY_OUT)

  const hash = toHex(quoteDigest(domainSeparator(domainOf(stage.spotRfq)), quote))
  const log = receipt.logs.find(l => l.address.toLowerCase() === stage.spotRfq.toLowerCase())!
  const event = decodeEventLog({ abi: spotRfqAbi(), data: log.data, topics: log.topics })
  assert.equal(event.eventName, 'QuoteFilled')
  assert.deepEqual(event.args, { quoteHash: hash, maker: accounts.maker.address, taker: accounts.taker.address,
    tokenIn: getAddress(tokenIn), tokenOut: getAddress(tokenOut), amountIn: quote.amountIn, amountOut: quote.amountOut, nonce: quote.nonce })
  assert.equal(await read('used', [hash]), true)
})

test('an ethers-signed quote fills', async () => {
  const quote = await newQuote()
  const signature = await new Wallet(KEYS.maker).signTypedData(domainOf(stage.spotRfq), { Quote: [...quoteTypes.Quote] }, quote) as Hex
  const receipt = await fill(quote, signature)
  assert.equal(receipt.status, 'success')
})

test('refilling a quote reverts QuoteAlreadyUsed', async () => {
  const quote = await newQuote()
  const signature = await sign(quote)
  await fill(quote, signature)
  assert.equal(await fillRevert(quote, signature), 'QuoteAlreadyUsed')
})

test('a quote signed with amountOut before amountIn reverts InvalidSignature', async () => {
  const quote = await newQuote()
  assert.equal(await fillRevert(quote, await sign(quote, { types: swappedTypes })), 'InvalidSignature')
})

test('wrong signer, wrong domain, altered field, high-S and short signatures revert InvalidSignature', async () => {
  const quote = await newQuote()
  const good = await sign(quote)
  const stranger = await stage.accounts.stranger.signTypedData({ domain: domainOf(stage.spotRfq), types: quoteTypes, primaryType: 'Quote', message: quote })
  assert.equal(await fillRevert(quote, stranger), 'InvalidSignature')
  assert.equal(await fillRevert(quote, await sign(quote, { domain: { ...domainOf(stage.spotRfq), chainId: 999 } })), 'InvalidSignature')
  assert.equal(await fillRevert(quote, await sign(quote, { domain: domainOf(stage.spotRfq, 'OtherRFQ') })), 'InvalidSignature')
  assert.equal(await fillRevert({ ...quote, amountOut: quote.amountOut + 1n }, good), 'InvalidSignature')
  assert.equal(await fillRevert(quote, toHighS(good)), 'InvalidSignature')
  assert.equal(await fillRevert(quote, good.slice(0, 130) as Hex), 'InvalidSignature')
  assert.equal((await fill(quote, good)).status, 'success', 'the untouched signature still fills')
})

test('a contract deployed with another domain name accepts only quotes signed for that name', async () => {
  const other = await deploySpotRfq(stage.wallet('owner'), stage.publicClient, 'OtherRFQ')
  for (const token of [stage.tokenIn, stage.tokenOut]) for (const role of ['maker', 'taker'] as const) {
    await send(stage.publicClient, stage.wallet(role).writeContract({ address: token, abi: tokenAbi(),
      functionName: 'approve', args: [other, 2n ** 256n - 1n] }))
  }
  const quote = await newQuote()
  assert.equal(await fillRevert(quote, await sign(quote, { domain: domainOf(other) }), 'taker', other), 'InvalidSignature')
  assert.equal((await fill(quote, await sign(quote, { domain: domainOf(other, 'OtherRFQ') }), 'taker', other)).status, 'success')
})

test('cancel by the maker makes the quote QuoteAlreadyUsed; nobody else may cancel it', async () => {
  const quote = await newQuote()
  const signature = await sign(quote)
  assert.equal(await revertOf(stage.publicClient.simulateContract({ address: stage.spotRfq, abi: spotRfqAbi(),
    functionName: 'cancel', args: [[quote]], account: stage.accounts.taker })), 'NotMaker')
  await write('maker', 'cancel', [[quote]])
  assert.equal(await fillRevert(quote, signature), 'QuoteAlreadyUsed')
})

test('setMinNonce voids lower nonces with NonceTooLow and cannot be lowered', async () => {
  const low = await newQuote()
  const lowSig = await sign(low)
  const high = await newQuote()
  await write('maker', 'setMinNonce', [high.nonce])
  assert.equal(await read('minNonce', [stage.accounts.maker.address]), high.nonce)
  assert.equal(await fillRevert(low, lowSig), 'NonceTooLow')
  assert.equal(await revertOf(stage.publicClient.simulateContract({ address: stage.spotRfq, abi: spotRfqAbi(),
    functionName: 'setMinNonce', args: [high.nonce - 1n], account: stage.accounts.maker })), 'NonceTooLow')
  assert.equal((await fill(high, await sign(high))).status, 'success', 'nonce equal to the minimum still fills')
})

test('deadline: fills at block time == deadline, QuoteExpired after', async () => {
  const now = (await stage.publicClient.getBlock()).timestamp
  const past = await newQuote({ deadline: now - 1n })
  assert.equal(await fillRevert(past, await sign(past)), 'QuoteExpired')
  const edge = await newQuote({ deadline: now + 100n })
  const signature = await sign(edge)
  await stage.publicClient.request({ method: 'evm_setNextBlockTimestamp' as never, params: [Number(edge.deadline)] as never })
  const receipt = await fill(edge, signature)
  assert.equal((await stage.publicClient.getBlock({ blockNumber: receipt.blockNumber })).timestamp, edge.deadline)
})

test('taker: a named taker is enforced (TakerMismatch); the zero address lets anyone fill', async () => {
  const named = await newQuote()
  assert.equal(await fillRevert(named, await sign(named), 'stranger'), 'TakerMismatch')
  await send(stage.publicClient, stage.wallet('owner').writeContract({ address: stage.tokenIn, abi: tokenAbi(),
    functionName: 'mint', args: [stage.accounts.stranger.address, 10n ** 18n] }))
  const open = await newQuote({ taker: ZERO })
  const before = await balanceOf(stage.publicClient, stage.tokenOut, stage.accounts.stranger.address)
  await fill(open, await sign(open), 'stranger')
  assert.equal(await balanceOf(stage.publicClient, stage.tokenOut, stage.accounts.stranger.address), before + open.amountOut)
})

test('ZeroAmount and InvalidTokenPair', async () => {
  for (const over of [{ amountIn: 0n }, { amountOut: 0n }]) {
    const q = await newQuote(over)
    assert.equal(await fillRevert(q, await sign(q)), 'ZeroAmount')
  }
  for (const over of [{ tokenIn: ZERO }, { tokenOut: ZERO }, { tokenOut: stage.tokenIn }]) {
    const q = await newQuote(over)
    assert.equal(await fillRevert(q, await sign(q)), 'InvalidTokenPair')
  }
})

test('pause: only the owner; a paused contract reverts Paused; unpausing restores fills', async () => {
  const quote = await newQuote()
  const signature = await sign(quote)
  assert.equal(await revertOf(stage.publicClient.simulateContract({ address: stage.spotRfq, abi: spotRfqAbi(),
    functionName: 'setPaused', args: [true], account: stage.accounts.maker })), 'OwnableUnauthorizedAccount')
  await write('owner', 'setPaused', [true])
  try {
    assert.equal(await read('paused'), true)
    assert.equal(await fillRevert(quote, signature), 'Paused')
  } finally {
    await write('owner', 'setPaused', [false])
  }
  assert.equal((await fill(quote, signature)).status, 'success')
})

test('token failures carry the spec texts', async () => {
  const tooBig = await newQuote({ amountOut: SUPPLY_OUT * 2n })
  assert.equal(await fillRevert(tooBig, await sign(tooBig)), 'ERC20: transfer amount exceeds balance')
  await send(stage.publicClient, stage.wallet('taker').writeContract({ address: stage.tokenIn, abi: tokenAbi(),
    functionName: 'approve', args: [stage.spotRfq, 1n] }))
  try {
    const q = await newQuote()
    assert.equal(await fillRevert(q, await sign(q)), 'ERC20: insufficient allowance')
  } finally {
    await send(stage.publicClient, stage.wallet('taker').writeContract({ address: stage.tokenIn, abi: tokenAbi(),
      functionName: 'approve', args: [stage.spotRfq, 2n ** 256n - 1n] }))
  }
  const noCode = await newQuote({ tokenIn: '0x000000000000000000000000000000000000dEaD' })
  assert.equal(await fillRevert(noCode, await sign(noCode)), 'SafeERC20: low-level call failed')
})
