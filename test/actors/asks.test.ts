// An ask as one object (actors/asks.ts), `ctx.deliver`, a quote's message that hears both of its trips' answers
// itself (actors/quoteInFlight.ts) and a frame's wakes drained as it ends (actors/wakeups.ts): what the relay's quotes ride
// on without closures or microtasks made for each.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  ActorSystem,
  AskTimeout,
  ActorStopped,
  MailboxFull,
  type ActorContext,
  type Reply,
} from '../../actors/mailbox.js'
import type { Answered } from '../../actors/actorTypes.js'
import { QuoteInFlight, withReply } from '../../actors/quoteInFlight.js'
import { T_IN, testQuote } from '../helpers/rfqFixtures.js'
import { holdingWakes } from '../../actors/wakeups.js'

type Msg =
  | { type: 'Echo'; tag: string; replyTo: Reply<string> }
  | { type: 'EchoTo'; tag: string; ask: Answered<string> }
  | { type: 'Hold'; ms: number }
  | { type: 'Keep'; ctx: (c: ActorContext<Msg>) => void }
  | { type: 'Note'; v: string }
  | { type: 'Seen'; replyTo: Reply<string[]> }
  | { type: 'Stop' }

function spawn(capacity = 100, onError?: (name: string, e: unknown) => void) {
  const seen: string[] = []
  const ref = new ActorSystem().spawn<string[], Msg>(
    'asked',
    {
      async receive(state, msg, ctx) {
        if (msg.type === 'Echo') msg.replyTo(`echo ${msg.tag}`)
        else if (msg.type === 'EchoTo') msg.ask.answered(`echo ${msg.tag}`)
        else if (msg.type === 'Hold') await new Promise(r => setTimeout(r, msg.ms))
        else if (msg.type === 'Keep') msg.ctx(ctx)
        else if (msg.type === 'Note') state.push(msg.v)
        else if (msg.type === 'Seen') msg.replyTo([...state])
        else ctx.stop()
        return state
      },
    },
    seen,
    { capacity, ...(onError ? { onError } : {}) },
  )
  return ref
}

test('askTo hands its arg to make and to orElse, so neither is a closure of the ask; each ask answered once', async () => {
  const ref = spawn(2)
  const made: string[] = []
  const failed: string[] = []
  const answers: string[] = []
  const make = (ask: Answered<string>, tag: string): Msg => {
    made.push(tag)
    return { type: 'EchoTo', tag, ask }
  }
  const orElse = (e: unknown, tag: string) => {
    const kind =
      e instanceof AskTimeout
        ? 'timeout'
        : e instanceof MailboxFull
          ? 'full'
          : e instanceof ActorStopped
            ? 'stopped'
            : 'other'
    failed.push(`${tag}: ${kind}`)
    return `${kind} ${tag}`
  }
  const ask = (tag: string, ms = 1000) => ref.askTo(make, tag, ms, orElse, { answered: v => void answers.push(v) })
  ask('a')
  await new Promise(r => setImmediate(r))
  assert.deepEqual(answers, ['echo a'])
  ref.tell({ type: 'Hold', ms: 120 })
  await new Promise(r => setImmediate(r)) // taken: two places left
  ask('b', 30) // waits behind the hold, past its deadline
  ref.tell({ type: 'Hold', ms: 0 })
  ask('c') // the mailbox holds two: refused at once
  assert.deepEqual(answers.slice(1), ['full c'])
  await new Promise(r => setTimeout(r, 200))
  assert.deepEqual(answers.slice(2), ['timeout b'], 'the late reply does not answer the timed-out ask again')
  ref.tell({ type: 'Stop' })
  await new Promise(r => setImmediate(r))
  ask('d')
  assert.deepEqual(answers.slice(3), ['stopped d'])
  assert.deepEqual(made, ['a', 'b', 'c'], 'a stopped actor makes no message')
  assert.deepEqual(failed, ['c: full', 'b: timeout', 'd: stopped'])
})

test('ask: orElse answers a failure, none rejects with it; a reply settles once', async () => {
  const ref = spawn()
  assert.equal(await ref.ask<string>(replyTo => ({ type: 'Echo', tag: 'x', replyTo }), 1000), 'echo x')
  ref.tell({ type: 'Hold', ms: 80 })
  await assert.rejects(
    ref.ask<string>(replyTo => ({ type: 'Echo', tag: 'y', replyTo }), 20),
    AskTimeout,
  )
  const late = await ref.ask<string>(replyTo => ({ type: 'Echo', tag: 'z', replyTo }), 1000)
  assert.equal(late, 'echo z')
  ref.tell({ type: 'Stop' })
  await new Promise(r => setImmediate(r))
  assert.equal(
    await ref.ask<string>(
      replyTo => ({ type: 'Echo', tag: 'w', replyTo }),
      1000,
      e => String(e instanceof ActorStopped),
    ),
    'true',
  )
  await assert.rejects(
    ref.ask<string>(replyTo => ({ type: 'Echo', tag: 'v', replyTo }), 1000),
    ActorStopped,
  )
})

test('ctx.deliver: a message from outside the handlers joins the queue; a full mailbox is reported, a stopped actor drops it', async () => {
  const errors: unknown[] = []
  const ref = spawn(2, (_n, e) => errors.push(e))
  let ctx: ActorContext<Msg> | undefined
  ref.tell({ type: 'Keep', ctx: c => (ctx = c) })
  await new Promise(r => setImmediate(r))
  const deliver = ctx!.deliver
  assert.equal(deliver, ctx!.deliver, 'one function for the actor, not one a call')
  deliver({ type: 'Note', v: 'one' })
  deliver({ type: 'Note', v: 'two' })
  assert.doesNotThrow(() => deliver({ type: 'Note', v: 'three' }), 'a full mailbox is never thrown at the caller')
  assert.ok(errors[0] instanceof MailboxFull)
  await new Promise(r => setImmediate(r))
  assert.deepEqual(await ref.ask<string[]>(replyTo => ({ type: 'Seen', replyTo }), 1000), ['one', 'two'])
  ref.tell({ type: 'Stop' })
  await new Promise(r => setImmediate(r))
  assert.doesNotThrow(() => deliver({ type: 'Note', v: 'four' }))
  assert.equal(errors.length, 1, 'nothing reported for a stopped actor')
})

test("a quote's message hears the pool's answer, then the store's, and comes back as itself each time", () => {
  const delivered: string[] = []
  const msg = new QuoteInFlight('rfq_ab', { maker: '0x1' }, '0xsig', null, true, undefined)
  assert.throws(() => msg.replyTo({ ok: true } as never), /before its ask gave it a reply channel/)
  const verdicts: unknown[] = []
  assert.equal(withReply({ answered: v => verdicts.push(v) }, msg), msg)
  msg.replyTo({ ok: true } as never)
  assert.equal(verdicts.length, 1)
  const quote = testQuote('0x00000000000000000000000000000000000000aa', T_IN)
  const signed = msg.checked(quote, m =>
    delivered.push(`${m.type} ${String(m.signer)} ${m.error?.message ?? 'stored'}`),
  )
  assert.equal(signed, msg, 'the message itself goes to the pool')
  assert.equal(signed.quote, quote)
  assert.equal(signed.signature, '0xsig')
  msg.answered('0xabc')
  msg.answered(undefined)
  assert.deepEqual(delivered, ['SignerRecovered 0xabc stored', 'QuoteCommitted 0xabc stored'])
  const refused = new QuoteInFlight('rfq_ab', {}, '0xsig', null, true, undefined)
  refused.checked(quote, m => delivered.push(`${m.type} ${String(m.signer)} ${m.error?.message ?? 'stored'}`))
  refused.answered(new Error('pool down'))
  assert.equal(refused.signer instanceof Error, true)
  refused.answered(Object.assign(new Error('duplicate'), { code: 'DUPLICATE_QUOTE' }))
  assert.deepEqual(delivered.slice(2), [
    'SignerRecovered Error: pool down stored',
    'QuoteCommitted Error: pool down duplicate',
  ])
})

test('holdingWakes: the actors a callback woke run as it ends, before any microtask, in the order they woke', async () => {
  const order: string[] = []
  const sys = new ActorSystem()
  const mk = (name: string) =>
    sys.spawn<null, { type: 'Go'; then?: () => void }>(
      name,
      {
        receive(s, msg) {
          order.push(name)
          msg.then?.()
          return s
        },
      },
      null,
    )
  const [a, b, c] = [mk('a'), mk('b'), mk('c')]
  holdingWakes(
    (x: string, y: number, z: boolean) => {
      order.push(`handle ${x} ${y} ${z}`)
      queueMicrotask(() => order.push('microtask'))
      b.tell({ type: 'Go', then: () => c.tell({ type: 'Go' }) }) // woken by b's handler: the same pass
      a.tell({ type: 'Go' })
      assert.deepEqual(order, ['handle x 1 true'], 'nothing runs while the callback does')
    },
    'x',
    1,
    true,
  )
  assert.deepEqual(
    order,
    ['handle x 1 true', 'b', 'a', 'c'],
    'drained as the callback returned, no microtask waited for',
  )
  await new Promise(r => setImmediate(r))
  assert.deepEqual(order.slice(4), ['microtask'])
  // the callback's own throw is its caller's, and the actors it woke still run
  assert.throws(
    () =>
      holdingWakes(
        () => {
          a.tell({ type: 'Go' })
          throw new Error('frame bug')
        },
        0,
        0,
        0,
      ),
    /frame bug/,
  )
  assert.deepEqual(order.slice(5), ['a'])
  // without a hold, a wake waits for the microtask as before
  a.tell({ type: 'Go' })
  assert.deepEqual(order.slice(6), [])
  await Promise.resolve()
  assert.deepEqual(order.slice(6), ['a'])
})
