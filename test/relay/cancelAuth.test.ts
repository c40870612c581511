// Cancel is the taker's: off the local chain the relay requires the taker's EIP-191 signature over
// `Cancel RFQ <rfqId>`; on CHAIN_ID 31337 the spec's open {rfqId} cancel stays.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { Client, account, createRfq, waitFor } from './helpers.js'
import { cancelAuthMode, relayCancelMessage } from '../../engine/relay/cancelAuth.js'
import { tempTokenList } from '../helpers/tokenList.js'

let t: TestEngine
let c: Client

before(async () => {
  // off the local chain a start needs its contract and a token list (engine/ops/settings.ts, engine/tokens/)
  const TOKENS_FILE = tempTokenList(999, [
    { address: `0x${'5'.repeat(40)}`, symbol: 'WHYPE', name: 'Wrapped HYPE', decimals: 18 },
  ])
  t = await startTestEngine({
    CHAIN_ID: '999',
    RATE_LIMIT_PER_MIN: '100000',
    SPOT_RFQ_ADDRESS: `0x${'a'.repeat(40)}`,
    TOKENS_FILE,
  })
  c = await Client.open(t.relayWs)
})
after(async () => {
  await c.close()
  await t.stop()
})

test('the default follows the chain and RELAY_CANCEL_AUTH overrides it', () => {
  assert.equal(cancelAuthMode({ CHAIN_ID: 31337 }), 'open')
  assert.equal(cancelAuthMode({ CHAIN_ID: 999 }), 'signature')
  assert.equal(cancelAuthMode({ CHAIN_ID: 999, RELAY_CANCEL_AUTH: 'open' }), 'open')
  assert.equal(cancelAuthMode({ CHAIN_ID: 31337, RELAY_CANCEL_AUTH: 'signature' }), 'signature')
  assert.equal(relayCancelMessage('rfq_1'), 'Cancel RFQ rfq_1')
})

test('on chain 999 a cancel needs the taker signature: missing or wrong is an ERROR, the right one cancels silently', async () => {
  const taker = account(),
    stranger = account()
  const rfq = await createRfq(t, { taker: taker.address.toLowerCase() as `0x${string}` })
  c.send('CANCEL_REQUEST', { rfqId: rfq.id })
  assert.deepEqual((await c.nextOf('ERROR')).data, {
    message: 'Cancel rejected: signature required (EIP-191 by the RFQ taker)',
    rfqId: rfq.id,
    code: 'CANCEL_SIGNATURE_REQUIRED',
  })
  c.send('CANCEL_REQUEST', {
    rfqId: rfq.id,
    signature: await stranger.signMessage({ message: relayCancelMessage(rfq.id) }),
  })
  assert.equal((await c.nextOf('ERROR')).data.code, 'CANCEL_NOT_TAKER')
  c.send('CANCEL_REQUEST', {
    rfqId: rfq.id,
    signature: await taker.signMessage({ message: relayCancelMessage('rfq_other') }),
  })
  assert.equal((await c.nextOf('ERROR')).data.code, 'CANCEL_NOT_TAKER')
  c.send('CANCEL_REQUEST', { rfqId: rfq.id, signature: '0x1234' })
  assert.equal((await c.nextOf('ERROR')).data.code, 'CANCEL_NOT_TAKER')
  assert.equal(t.engine.modules.book.peek(rfq.id)?.rfq.id, rfq.id, 'still live after refused cancels')
  c.send('CANCEL_REQUEST', {
    rfqId: rfq.id,
    signature: await taker.signMessage({ message: relayCancelMessage(rfq.id) }),
  })
  await c.sync()
  assert.equal(c.of('ERROR').length, 4, 'no reply to the successful cancel')
  await waitFor(
    () => t.engine.modules.book.peek(rfq.id),
    v => v === undefined,
  )
  const [row] = await t.db.sql`select status from rfqs where id = ${rfq.id}`
  assert.equal(row!.status, 'CANCELLED')
})
