import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Piscina } from 'piscina'
import { privateKeyToAccount } from 'viem/accounts'
import verifyQuotes from '../../../workers/sig/verifyQuotes.task.js'
import { QUOTE_CELLS, quoteAt, quoteCells } from '../../../workers/sig/signedQuoteCells.js'
import { domain, MAKER_KEY, OTHER_KEY, makeQuote, quoteTypes, toHighS, toJson } from './fixtures.js'

const makers = [privateKeyToAccount(MAKER_KEY), privateKeyToAccount(OTHER_KEY)]

async function batch() {
  const items = []
  for (let i = 0; i < 6; i++) {
    const account = makers[i % 2]!
    const quote = makeQuote(account.address, { nonce: BigInt(i) })
    const signature = await account.signTypedData({ domain, types: quoteTypes, primaryType: 'Quote', message: quote })
    items.push({ quote: toJson(quote), signature })
  }
  items.push({ quote: { ...items[0]!.quote, amountIn: 'lots' }, signature: items[0]!.signature }) // unparsable
  items.push({ quote: items[1]!.quote, signature: toHighS(items[1]!.signature) }) // high-S
  const expected = [...items.slice(0, 6).map((_, i) => makers[i % 2]!.address.toLowerCase()), null, null]
  return { items, expected }
}

test('inline: one signer or null per item, in order', async () => {
  const { items, expected } = await batch()
  assert.deepEqual(verifyQuotes({ domain, cells: quoteCells(items) }), expected)
})

test('a malformed domain fails every item instead of throwing', async () => {
  const { items } = await batch()
  assert.deepEqual(
    verifyQuotes({ domain: { ...domain, chainId: 1.5 }, cells: quoteCells(items) }),
    items.map(() => null),
  )
})

test('on a real Piscina worker thread the same batch gives the same answer', async () => {
  const pool = new Piscina({
    filename: new URL('../../../workers/sig/verifyQuotes.task.js', import.meta.url).href,
    minThreads: 1,
    maxThreads: 1,
  })
  try {
    const { items, expected } = await batch()
    assert.deepEqual(await pool.run({ domain, cells: quoteCells(items) }), expected)
  } finally {
    await pool.destroy()
  }
})

test('cells, as the relay sends a batch: the same signers in the same order, inline and on a worker thread', async () => {
  const { items, expected } = await batch()
  const cells = quoteCells(items)
  assert.equal(cells.length, items.length * QUOTE_CELLS)
  assert.deepEqual(quoteAt(cells, QUOTE_CELLS), items[1]!.quote) // a quote's cells make the same object again
  assert.equal(cells[QUOTE_CELLS + 9], items[1]!.signature)
  assert.deepEqual(verifyQuotes({ domain, cells }), expected)
  // a signature moved to the next quote recovers no one it names: cells are read by position, not by luck
  const swapped = [...cells]
  ;[swapped[9], swapped[QUOTE_CELLS + 9]] = [swapped[QUOTE_CELLS + 9]!, swapped[9]!]
  const got = verifyQuotes({ domain, cells: swapped })
  assert.notEqual(got[0], expected[0])
  assert.notEqual(got[1], expected[1])
  assert.deepEqual(got.slice(2), expected.slice(2))
  // a batch of another size reuses the blanks without leaking the last batch's cells
  assert.deepEqual(quoteCells(items.slice(0, 2)), cells.slice(0, 2 * QUOTE_CELLS))
  const pool = new Piscina({
    filename: new URL('../../../workers/sig/verifyQuotes.task.js', import.meta.url).href,
    minThreads: 1,
    maxThreads: 1,
  })
  try {
    assert.deepEqual(await pool.run({ domain, cells }), expected)
  } finally {
    await pool.destroy()
  }
})
