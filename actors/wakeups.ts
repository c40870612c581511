// The mailboxes' one microtask. An actor that gets a message while idle is woken here, and every actor woken in a turn
// is drained by one reaction on a settled promise, in the order they woke.
import { asError } from '../workers/values/index.js'

/** the microtask that drains the woken mailboxes hangs off this one settled promise */
const SETTLED = Promise.resolve()

/**
 * Mailboxes woken since the last drain, run in the order they woke by one microtask (one reaction on SETTLED) for all
 * of them. A microtask a wake-up was a promise, a reaction and a job each time an idle actor got a message: three a
 * quote on the relay (submitted, its signer back, its commit back), ~90 bytes each, while a signature batch or a
 * commit coming back wakes dozens of actors in one turn. A mailbox woken while they run joins the same pass.
 * Filled from 0 each turn and emptied cell by cell, never truncated: `length = 0` gave its backing store back, and
 * the next turn's pushes grew one again by copies (17, 41, 77 cells...) for the dozens an answered batch wakes.
 */
const woken: ({ run(): void } | undefined)[] = []
let count = 0
let drainQueued = false

/** while a caller holds the wakes (`holdingWakes`): they wait for its end, not for a microtask */
let held = false

/** `actor.run()` in this turn's drain, after the actors woken before it */
export function wake(actor: { run(): void }): void {
  woken[count++] = actor // a cell kept from an earlier turn, or one more at the end
  if (drainQueued || held) return
  drainQueued = true
  void SETTLED.then(drainWoken)
}

/**
 * `handle(a, b, c)`, then the actors it woke, at once: for a callback from native code (the relay's every frame),
 * after which Node would run the drain's microtask anyway. Each frame is its own turn, so each had paid a promise and
 * a reaction for it (~100 bytes a quote). Arguments, not a closure, for the same reason. A bug thrown by the drain
 * surfaces as an unhandled rejection, as from the microtask; `handle`'s own throw is the caller's, after the drain.
 */
export function holdingWakes<A, B, C>(handle: (a: A, b: B, c: C) => void, a: A, b: B, c: C): void {
  if (held || drainQueued) return handle(a, b, c) // inside another hold, or a drain already queued: it takes these
  held = true
  try {
    handle(a, b, c)
  } finally {
    held = false
    if (count > 0) {
      drainQueued = true
      try {
        drainWoken()
      } catch (error) {
        void Promise.reject(asError(error))
      }
    }
  }
}

function drainWoken(): void {
  let thrown: { error: unknown } | undefined
  // `woken` may grow while this runs; each actor is run once, and a throw (a bug: handlers' throws are caught in
  // run) costs no other actor its turn; the first is thrown once all have run, so it surfaces as before
  for (let i = 0; i < count; i++)
    try {
      woken[i]!.run()
    } catch (error) {
      thrown ??= { error }
    }
  woken.fill(undefined, 0, count) // nothing kept alive until the next busy turn
  count = 0
  drainQueued = false
  if (thrown) throw thrown.error
}
