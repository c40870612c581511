// The mailbox runtime: order per actor, concurrency across actors, isolation of failures,
// bounded mailboxes, ask timeouts and actor-owned timers.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { ActorSystem, MailboxFull, AskTimeout, ActorStopped, type Behavior, type Reply } from '../../actors/mailbox.js'

type Msg =
  | { type: 'Add'; n: number }
  | { type: 'SlowAdd'; n: number; ms: number }
  | { type: 'Get'; replyTo: Reply<number[]> }
  | { type: 'Boom'; replyTo: Reply<number[]> }
  | { type: 'Arm'; key: string; ms: number; n: number }
  | { type: 'Disarm'; key: string }
  | { type: 'Stop' }

const recorder: Behavior<number[], Msg> = {
  async receive(seen, msg, ctx) {
    switch (msg.type) {
      case 'Add':
        return [...seen, msg.n]
      case 'SlowAdd':
        await new Promise(r => setTimeout(r, msg.ms))
        return [...seen, msg.n]
      case 'Get':
        msg.replyTo(seen)
        return seen
      case 'Boom':
        throw new Error('handler exploded')
      case 'Arm':
        ctx.setTimer(msg.key, msg.ms, { type: 'Add', n: msg.n })
        return seen
      case 'Disarm':
        ctx.cancelTimer(msg.key)
        return seen
      case 'Stop':
        ctx.stop()
        return seen
    }
  },
}

const get = (ref: { ask: <R>(m: (r: Reply<R>) => Msg, t: number) => Promise<R> }) =>
  ref.ask<number[]>(replyTo => ({ type: 'Get', replyTo }), 1000)

test('an actor handles its messages one at a time, in the order sent', async () => {
  const sys = new ActorSystem()
  const a = sys.spawn('a', recorder, [])
  a.tell({ type: 'SlowAdd', n: 1, ms: 20 }) // a slow handler must not let later messages overtake it
  a.tell({ type: 'Add', n: 2 })
  a.tell({ type: 'SlowAdd', n: 3, ms: 5 })
  a.tell({ type: 'Add', n: 4 })
  assert.deepEqual(await get(a), [1, 2, 3, 4])
})

test('different actors run concurrently: a slow one does not hold the others up', async () => {
  const sys = new ActorSystem()
  const slow = sys.spawn('slow', recorder, [])
  const fast = sys.spawn('fast', recorder, [])
  slow.tell({ type: 'SlowAdd', n: 1, ms: 300 })
  fast.tell({ type: 'Add', n: 7 })
  const order: string[] = []
  await Promise.all([get(slow).then(() => order.push('slow')), get(fast).then(() => order.push('fast'))])
  assert.deepEqual(order, ['fast', 'slow'])
})

test('a throwing handler rejects the asker, keeps the previous state, and the actor keeps running', async () => {
  const errors: string[] = []
  const sys = new ActorSystem({ onError: name => errors.push(name) })
  const a = sys.spawn('a', recorder, [])
  const b = sys.spawn('b', recorder, [])
  a.tell({ type: 'Add', n: 1 })
  b.tell({ type: 'Add', n: 9 })
  await assert.rejects(
    a.ask(replyTo => ({ type: 'Boom', replyTo }), 1000),
    /handler exploded/,
  )
  a.tell({ type: 'Add', n: 2 })
  assert.deepEqual(await get(a), [1, 2])
  assert.deepEqual(await get(b), [9], 'the other actor is untouched')
  assert.deepEqual(errors, ['a'])
})

test('past its failure intensity an actor stops and escalates', async () => {
  const escalated: string[] = []
  const sys = new ActorSystem({ supervision: { intensity: 2, periodMs: 10_000 }, onEscalate: n => escalated.push(n) })
  const a = sys.spawn('fragile', recorder, [])
  for (let i = 0; i < 3; i++) await a.ask(replyTo => ({ type: 'Boom', replyTo }), 1000).catch(() => {}) // each Boom fails by design
  assert.deepEqual(escalated, ['fragile'])
  assert.equal(a.stopped, true)
  assert.throws(() => a.tell({ type: 'Add', n: 1 }), ActorStopped)
})

test('a full mailbox refuses with a clear error', async () => {
  const sys = new ActorSystem()
  const a = sys.spawn('small', recorder, [], { capacity: 3 })
  a.tell({ type: 'SlowAdd', n: 0, ms: 50 }) // taken off the queue at once; the next three wait
  await new Promise(r => setImmediate(r))
  a.tell({ type: 'Add', n: 1 })
  a.tell({ type: 'Add', n: 2 })
  a.tell({ type: 'Add', n: 3 })
  assert.throws(
    () => a.tell({ type: 'Add', n: 4 }),
    (e: unknown) => e instanceof MailboxFull && /full \(3 messages\)/.test(e.message),
  )
  await assert.rejects(get(a), MailboxFull)
  await new Promise(r => setTimeout(r, 80))
  assert.deepEqual(await get(a), [0, 1, 2, 3])
})

test('ask times out when no reply comes', async () => {
  const sys = new ActorSystem()
  const a = sys.spawn('busy', recorder, [])
  a.tell({ type: 'SlowAdd', n: 1, ms: 200 })
  await assert.rejects(get({ ask: (m, _t) => a.ask(m, 30) }), AskTimeout)
})

test('asks across many deadline arrays: each answered one resolves, each unanswered one times out, once', async () => {
  // more asks than one of the deadline wheel's arrays holds, answered and not interleaved, over two timeouts: the
  // answered ones leave their cells, the rest expire from them, and none is answered twice
  const sys = new ActorSystem()
  const held: Reply<number>[] = []
  const a = sys.spawn(
    'half',
    {
      receive(s: null, m: { i: number; replyTo: Reply<number> }) {
        if (m.i % 3 === 0) m.replyTo(m.i)
        else held.push(m.replyTo) // never answered in time
        return s
      },
    },
    null,
  )
  const ask = (i: number) =>
    a.ask<number>(
      replyTo => ({ i, replyTo }),
      40,
      e => (e instanceof AskTimeout ? -1 : -2),
    )
  // a waiting ask keeps no process alive (askDeadlines.ts): the test holds the event loop open for its deadlines
  // itself, instead of counting on a timer an earlier test left behind (gone first on a loaded machine)
  const alive = setInterval(() => {}, 1000)
  try {
    const first = Array.from({ length: 700 }, (_, i) => ask(i))
    await new Promise(r => setTimeout(r, 15)) // a second batch in a later slot of the same wheel
    const second = Array.from({ length: 700 }, (_, i) => ask(700 + i))
    const got = await Promise.all([...first, ...second])
    for (const [i, v] of got.entries()) assert.equal(v, i % 3 === 0 ? i : -1, `ask ${i}`)
    for (const r of held) r(99) // a late answer changes nothing
    assert.deepEqual(await Promise.all([ask(0), ask(1)]), [0, -1]) // the wheel starts again after it went idle
  } finally {
    clearInterval(alive)
  }
})

test('timers belong to the actor: they fire as messages, can be cancelled, and die with it', async () => {
  const sys = new ActorSystem()
  const a = sys.spawn('timed', recorder, [])
  a.tell({ type: 'Arm', key: 'x', ms: 20, n: 1 })
  a.tell({ type: 'Arm', key: 'y', ms: 20, n: 2 })
  a.tell({ type: 'Disarm', key: 'y' })
  await new Promise(r => setTimeout(r, 60))
  assert.deepEqual(await get(a), [1])
  a.tell({ type: 'Arm', key: 'z', ms: 30, n: 3 })
  a.tell({ type: 'Stop' })
  await new Promise(r => setTimeout(r, 60))
  assert.equal(a.stopped, true)
  assert.equal(sys.size, 0)
})

test('drain lets every mailbox empty before stopping the actors', async () => {
  const sys = new ActorSystem()
  const seen: number[] = []
  const a = sys.spawn(
    'd',
    {
      async receive(s: null, m: number) {
        await new Promise(r => setTimeout(r, 2))
        seen.push(m)
        return s
      },
    },
    null,
  )
  for (let i = 0; i < 20; i++) a.tell(i)
  await sys.drain(2000)
  assert.equal(seen.length, 20)
  assert.equal(a.stopped, true)
})

test("property: any interleaving of messages to many actors keeps each actor's own order", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.record({ actor: fc.nat(7), slow: fc.boolean() }), { minLength: 1, maxLength: 120 }),
      async sends => {
        const sys = new ActorSystem()
        const refs = Array.from({ length: 8 }, (_, i) => sys.spawn(`p${i}`, recorder, []))
        const expected: number[][] = refs.map(() => [])
        sends.forEach((s, i) => {
          refs[s.actor]!.tell(s.slow ? { type: 'SlowAdd', n: i, ms: 1 } : { type: 'Add', n: i })
          expected[s.actor]!.push(i)
        })
        const got = await Promise.all(refs.map(get))
        assert.deepEqual(got, expected)
      },
    ),
    { numRuns: 60, seed: 42 },
  )
})

test('ask with orElse answers a failure instead of rejecting: a timeout, a throwing handler, a stopped actor', async () => {
  const sys = new ActorSystem()
  const a = sys.spawn('quiet', recorder, [])
  const orElse = (e: unknown) => [e instanceof AskTimeout ? -1 : e instanceof ActorStopped ? -2 : -3]
  a.tell({ type: 'SlowAdd', n: 1, ms: 200 })
  assert.deepEqual(await a.ask<number[]>(replyTo => ({ type: 'Get', replyTo }), 30, orElse), [-1])
  assert.deepEqual(await a.ask<number[]>(replyTo => ({ type: 'Boom', replyTo }), 1000, orElse), [-3])
  assert.deepEqual(
    await a.ask<number[]>(replyTo => ({ type: 'Get', replyTo }), 1000, orElse),
    [1],
    'answered asks still answer',
  )
  a.tell({ type: 'Stop' })
  await new Promise(r => setTimeout(r, 10))
  assert.deepEqual(await a.ask<number[]>(replyTo => ({ type: 'Get', replyTo }), 1000, orElse), [-2])
})

test('an answered ask is settled once: a late timeout or a stop does not answer it again', async () => {
  const sys = new ActorSystem()
  let answers = 0
  const a = sys.spawn(
    'twice',
    {
      receive(s: null, m: { replyTo: Reply<number> }) {
        m.replyTo(1)
        m.replyTo(2)
        return s
      },
    },
    null,
  )
  const got = await Promise.all(
    Array.from({ length: 50 }, () =>
      a.ask<number>(
        replyTo => ({ replyTo }),
        20,
        () => {
          answers++
          return -1
        },
      ),
    ),
  )
  assert.deepEqual(new Set(got), new Set([1]))
  await new Promise(r => setTimeout(r, 60)) // past every deadline: none of them fires
  assert.equal(answers, 0)
  const waiting = a.ask<number>(() => ({ replyTo: () => {} }), 10_000) // never answered: the stop fails it
  await new Promise(r => setImmediate(r))
  await sys.drain(100)
  await assert.rejects(waiting, ActorStopped)
})

test("toSelf: a callback's outcome comes back as a message in order with the rest, and nothing once the actor stopped", async () => {
  type M =
    | { type: 'Start' }
    | { type: 'Got'; v: number | Error }
    | { type: 'Get'; replyTo: Reply<string[]> }
    | { type: 'Stop' }
  let later: ((v: number | Error) => void)[] = []
  const ref = new ActorSystem().spawn<string[], M>(
    'callbacks',
    {
      receive(seen, msg, ctx) {
        if (msg.type === 'Start') later.push(ctx.toSelf<number>(v => ({ type: 'Got', v })))
        else if (msg.type === 'Got') seen.push(msg.v instanceof Error ? `error ${msg.v.message}` : `got ${msg.v}`)
        else if (msg.type === 'Get') msg.replyTo(seen)
        else ctx.stop()
        return seen
      },
    },
    [],
  )
  ref.tell({ type: 'Start' })
  ref.tell({ type: 'Start' })
  await new Promise(r => setTimeout(r, 5))
  later[1]!(2) // answers in any order: each is a message of its own
  later[0]!(new Error('refused'))
  assert.deepEqual(await ref.ask<string[]>(replyTo => ({ type: 'Get', replyTo }), 1000), ['got 2', 'error refused'])
  ref.tell({ type: 'Start' })
  ref.tell({ type: 'Stop' })
  await new Promise(r => setTimeout(r, 5))
  assert.equal(ref.stopped, true)
  assert.doesNotThrow(() => later[2]!(3)) // a stopped actor: the outcome is dropped, never thrown at the worker
  later = []
})

test('askTo hands its answer to a callback once: a reply, a timeout, a full mailbox, a stopped actor; a throwing callback is reported', async () => {
  const errors: unknown[] = []
  const a = new ActorSystem().spawn('callback', recorder, [], {
    capacity: 2,
    supervision: { intensity: 1, periodMs: 60_000 }, // a second failure would stop it
    onError: (_n, e) => errors.push(e),
  })
  const orElse = (e: unknown) => [
    e instanceof AskTimeout ? -1 : e instanceof ActorStopped ? -2 : e instanceof MailboxFull ? -4 : -3,
  ]
  const answers: number[][] = []
  const askTo = (timeoutMs: number, done: Reply<number[]> = v => answers.push(v)) =>
    a.askTo<number[], undefined>(
      ask => ({ type: 'Get', replyTo: v => ask.answered(v) }),
      undefined,
      timeoutMs,
      orElse,
      {
        answered: done,
      },
    )
  a.tell({ type: 'Add', n: 7 })
  askTo(1000)
  assert.deepEqual(answers, [], 'no answer before the actor ran')
  await new Promise(r => setImmediate(r))
  assert.deepEqual(answers, [[7]])
  a.tell({ type: 'SlowAdd', n: 8, ms: 120 })
  await new Promise(r => setImmediate(r)) // the slow one is taken; two places left
  askTo(30) // queued behind the slow handler, past its deadline
  a.tell({ type: 'Add', n: 9 })
  askTo(1000) // the mailbox holds two: refused at once
  assert.deepEqual(answers.slice(1), [[-4]], 'a full mailbox answers at once')
  await new Promise(r => setTimeout(r, 80))
  assert.deepEqual(answers.slice(2), [[-1]], 'the deadline answered while the actor was busy')
  await new Promise(r => setTimeout(r, 80))
  assert.equal(answers.length, 3, 'the late reply does not answer the timed-out ask again')
  // a callback that throws (its owner's bug) is reported, and the actor goes on
  for (let i = 0; i < 2; i++) {
    askTo(1000, () => {
      throw new Error('callback bug')
    })
    await new Promise(r => setImmediate(r))
  }
  askTo(1000)
  await new Promise(r => setImmediate(r))
  assert.deepEqual(
    errors.map(e => (e as Error).message),
    ['callback bug', 'callback bug'],
  )
  assert.deepEqual(answers[3], [7, 8, 9], 'the next ask is answered: the throw did not unwind the handler')
  assert.equal(a.stopped, false, 'not counted as failures of the actor')
  a.tell({ type: 'Stop' })
  await new Promise(r => setImmediate(r))
  askTo(1000)
  assert.deepEqual(answers[4], [-2], 'a stopped actor answers at once')
})

test('a mailbox emptied starts again at its front, and one flooded keeps its order and a bounded array', async () => {
  const sys = new ActorSystem()
  const ref = sys.spawn('box', recorder, [] as number[], { capacity: 10_000 })
  const cells = () => (ref as unknown as { queue: unknown[] }).queue.length
  // a life of short bursts: never more than three waiting, so never more than three cells
  for (let burst = 0; burst < 200; burst++) {
    for (let i = 0; i < 3; i++) ref.tell({ type: 'Add', n: burst * 3 + i })
    await get(ref)
  }
  assert.ok(cells() <= 4, `${cells()} cells for at most 4 waiting`) // three Adds and the Get
  assert.deepEqual(
    await get(ref),
    Array.from({ length: 600 }, (_, i) => i),
  )
  // a flood behind a slow message: 3,000 waiting, taken in order through the array's compaction
  ref.tell({ type: 'SlowAdd', n: -1, ms: 30 })
  for (let i = 0; i < 3000; i++) ref.tell({ type: 'Add', n: 600 + i })
  assert.equal(ref.depth, 3001)
  const seen = await get(ref)
  assert.deepEqual(seen.slice(600), [-1, ...Array.from({ length: 3000 }, (_, i) => 600 + i)])
  assert.equal(ref.depth, 0)
  ref.tell({ type: 'Add', n: 9999 })
  assert.equal((await get(ref)).at(-1), 9999)
})

test('actors woken in one turn each run once, in the order they woke, a failing one costing the others nothing', async () => {
  const order: string[] = []
  const named = (name: string): Behavior<null, { type: 'Go' }> => ({
    receive(s) {
      order.push(name)
      if (name === 'c') throw new Error('c failed')
      return s
    },
  })
  const reported: string[] = []
  const sys = new ActorSystem({ onError: (name, e) => reported.push(`${name}: ${(e as Error).message}`) })
  const refs = ['a', 'b', 'c', 'd', 'e'].map(n => sys.spawn(n, named(n), null))
  for (const i of [3, 0, 2, 4, 1]) refs[i]!.tell({ type: 'Go' }) // d, a, c, e, b
  refs[1]!.tell({ type: 'Go' }) // b is woken already: its second message is handled in the same run
  assert.deepEqual(order, [], 'nothing runs before the microtask')
  await new Promise(r => setImmediate(r))
  assert.deepEqual(order, ['d', 'a', 'c', 'e', 'b', 'b'])
  assert.deepEqual(reported, ['c: c failed'])
  // an actor woken by another's handler runs in the same pass, and the runtime wakes actors afterwards as before
  const relay = sys.spawn<null, { type: 'Go' }>('relay', { receive: s => (refs[4]!.tell({ type: 'Go' }), s) }, null)
  relay.tell({ type: 'Go' })
  refs[0]!.tell({ type: 'Go' })
  await new Promise(r => setImmediate(r))
  assert.deepEqual(order.slice(6), ['a', 'e'])
})
