// Quotes bound to their RFQ's taker (relay and REST, viem- and ethers-signed), and nobody acting as a
// wallet they do not own: the wallet-claim attack refused at every step.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { Wallet } from 'ethers'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { newAgent, post, wallet, signedRegistration } from '../api/agentKit.js'
import { Client, account, createRfq, makeQuote, sign, domainOf, ZERO } from '../relay/helpers.js'
import { quoteTypes } from '../../sdk/sign.js'

const MISMATCH = {
  message: "Quote rejected: taker must be the RFQ's taker or the zero address",
  code: 'TAKER_MISMATCH',
}

describe("quotes are bound to their RFQ's taker", () => {
  let t: TestEngine
  before(async () => {
    t = await startTestEngine({ RATE_LIMIT_PER_MIN: '100000', PUBLIC_RATE_LIMIT_PER_MIN: '100000' })
  })
  after(() => t.stop())

  const signers = {
    viem: async (q: ReturnType<typeof makeQuote>) => {
      const m = account()
      const quote = { ...q, maker: m.address.toLowerCase() as `0x${string}` }
      return { quote, signature: await sign(m, domainOf(t), quote) }
    },
    ethers: async (q: ReturnType<typeof makeQuote>) => {
      const w = Wallet.createRandom()
      const quote = { ...q, maker: w.address.toLowerCase() as `0x${string}` }
      return { quote, signature: await w.signTypedData(domainOf(t), { Quote: [...quoteTypes.Quote] }, quote) }
    },
  }

  for (const [name, signed] of Object.entries(signers)) {
    test(`${name}: a quote for a third party is refused on the relay and on REST; the RFQ's taker and the zero address are accepted`, async () => {
      const rfq = await createRfq(t)
      const c = await Client.open(t.relayWs)
      const third = await signed(makeQuote(account(), rfq, { taker: account().address.toLowerCase() as `0x${string}` }))
      assert.deepEqual(await c.error({ rfqId: rfq.id, ...third }), { ...MISMATCH, rfqId: rfq.id })
      const rest = await post(t.api, '/api/v1/quotes', { rfqId: rfq.id, ...third })
      assert.deepEqual([rest.status, rest.body], [400, { error: MISMATCH.message, code: 'TAKER_MISMATCH' }])
      // the rule's place: right after the token pair (a wrong tokenOut is reported first), before the deadline
      const both = await signed(
        makeQuote(account(), rfq, {
          taker: account().address.toLowerCase() as `0x${string}`,
          tokenOut: ZERO,
          deadline: 1,
        }),
      )
      assert.equal((await c.error({ rfqId: rfq.id, ...both })).code, 'TOKEN_OUT_MISMATCH')
      const beforeDeadline = await signed(
        makeQuote(account(), rfq, { taker: account().address.toLowerCase() as `0x${string}`, deadline: 1 }),
      )
      assert.equal((await c.error({ rfqId: rfq.id, ...beforeDeadline })).code, 'TAKER_MISMATCH')
      for (const taker of [rfq.taker, ZERO]) {
        const ok = await signed(makeQuote(account(), rfq, { taker }))
        c.send('QUOTE_SUBMIT', { rfqId: rfq.id, ...ok })
        assert.equal(
          (await c.next(f => f.type === 'QUOTE_BROADCAST' && f.data.quote.maker === ok.quote.maker)).data.quote.taker,
          taker,
        )
      }
      await c.close()
    })
  }
})

describe('nobody acts as a wallet they do not own', () => {
  let t: TestEngine
  before(async () => {
    t = await startTestEngine({
      PUBLIC_RATE_LIMIT_PER_MIN: '100000',
      FILL_VERIFY: 'off',
      MAX_ACTIVE_RFQS_PER_WALLET: '10',
    })
  })
  after(() => t.stop())

  test('the wallet-claim attack is refused at every step', async () => {
    const victimAgentWallet = wallet()
    const victim = await newAgent(t.api, ['taker'], { agent: victimAgentWallet })
    const rfq1 = (
      await post(
        t.api,
        '/api/v1/agent/rfqs',
        { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1000', ttlSeconds: 300 },
        victim.headers,
      )
    ).body.rfqId
    const rfq2 = (
      await post(
        t.api,
        '/api/v1/agent/rfqs',
        { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1000', ttlSeconds: 300 },
        victim.headers,
      )
    ).body.rfqId

    // 1. registering an agent that claims the victim's agent wallet: 409
    const attackerOwner = wallet()
    const claim = await post(
      t.api,
      '/api/v1/agent/register',
      await signedRegistration(attackerOwner, victimAgentWallet, { roles: ['taker'] }),
    )
    assert.deepEqual(
      [claim.status, claim.body.error, claim.body.code],
      [409, 'agentWallet is already registered to another owner', 'AGENT_WALLET_TAKEN'],
    )
    // the victim's own owner may still register another agent for that wallet (the spec's registration keeps working)
    const sibling = await post(
      t.api,
      '/api/v1/agent/register',
      await signedRegistration(victim.owner, victimAgentWallet, { roles: ['taker'], name: 'sibling' }),
    )
    assert.equal(sibling.status, 201)

    // 2. cancel and fill are bound to the agent that created the RFQ, not to whoever holds the same wallet:
    //    even the owner's second agent on that wallet is refused, and so is any other agent
    const siblingHeaders = { authorization: `Bearer ${sibling.body.apiKey}` }
    assert.equal((await post(t.api, `/api/v1/rfqs/${rfq1}/cancel`, {}, siblingHeaders)).status, 403)
    assert.equal(
      (
        await post(
          t.api,
          `/api/v1/agent/rfqs/${rfq2}/fill`,
          { txHash: `0x${'ef'.repeat(32)}`, maker: account().address, amountIn: '1', amountOut: '1', amountInUsd: 1 },
          siblingHeaders,
        )
      ).status,
      403,
    )
    const attacker = await newAgent(t.api, ['taker'])
    const cancel = await post(t.api, `/api/v1/rfqs/${rfq1}/cancel`, {}, attacker.headers)
    assert.deepEqual(
      [cancel.status, cancel.body.error],
      [403, 'Forbidden: only the taker that created this RFQ can cancel it'],
    )
    const fill = await post(
      t.api,
      `/api/v1/agent/rfqs/${rfq2}/fill`,
      { txHash: `0x${'ee'.repeat(32)}`, maker: account().address, amountIn: '1000', amountOut: '5', amountInUsd: 5000 },
      attacker.headers,
    )
    assert.deepEqual(
      [fill.status, fill.body.error],
      [403, 'Forbidden: only the taker that created this RFQ can fill it'],
    )
    const [f] = await t.db.sql`select count(*)::int as n from fills where tx_hash = ${`0x${'ee'.repeat(32)}`}`
    assert.equal(f!.n, 0, 'no fill, no points')

    // 3. the attacker's RFQs count against the attacker's cap, never the victim's
    for (let i = 0; i < 10; i++)
      assert.equal(
        (
          await post(
            t.api,
            '/api/v1/agent/rfqs',
            { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1', ttlSeconds: 300 },
            attacker.headers,
          )
        ).status,
        201,
      )
    const third = await post(
      t.api,
      '/api/v1/agent/rfqs',
      { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1000', ttlSeconds: 300 },
      victim.headers,
    )
    assert.equal(third.status, 201, 'the victim still creates RFQs')
    assert.equal(third.body.activeCount, 3)

    // the victim's RFQs are untouched and still its own to cancel
    assert.equal((await post(t.api, `/api/v1/rfqs/${rfq1}/cancel`, {}, victim.headers)).status, 200)
  })
})

test('startup warns when relay cancel is open (the local-chain default), and not when it needs a signature', async () => {
  const { spawnEngine } = await import('../faults/process.js')
  const { testDatabase } = await import('../helpers/db.js')
  const { mkdtempSync, rmSync } = await import('node:fs')
  const { tmpdir } = await import('node:os')
  const path = await import('node:path')
  const db = await testDatabase('w')
  for (const [mode, warns] of [
    ['', true],
    ['signature', false],
  ] as const) {
    const dir = mkdtempSync(path.join(tmpdir(), 'engine-'))
    const e = await spawnEngine({ DATA_DIR: dir, DATABASE_URL: db.url, RELAY_CANCEL_AUTH: mode })
    await new Promise(r => setTimeout(r, 100))
    assert.equal(
      /relay CANCEL_REQUEST is open/.test(e.stdout() + e.stderr()),
      warns,
      `RELAY_CANCEL_AUTH=${mode || '(default)'}`,
    )
    assert.equal(await e.term(), 0)
    rmSync(dir, { recursive: true, force: true })
  }
  await db.drop()
})
