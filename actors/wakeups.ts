// The mailboxes' one microtask. An actor that gets a message while idle is woken here, and every actor woken in a turn
// is drained by one reaction on a settled promise, in the order they woke.
/** the microtask that drains the woken mailboxes hangs off this one settled promise */
const SETTLED = Promise.resolve()

/**
 * Mailboxes woken since the last drain, run in the order they woke by one microtask (one reaction on SETTLED) for all
 * of them. A microtask a wake-up was a promise, a reaction and a job each time an idle actor got a message: three a
 * quote on the relay (submitted, its signer back, its commit back), ~90 bytes each, while a signature batch or a
 * commit coming back wakes dozens of actors in one turn. A mailbox woken while they run joins the same pass.
 */
const woken: { run(): void }[] = []
let drainQueued = false

/** `actor.run()` in this turn's drain, after the actors woken before it */
export function wake(actor: { run(): void }): void {
  woken.push(actor)
  if (drainQueued) return
  drainQueued = true
  void SETTLED.then(drainWoken)
}

function drainWoken(): void {
  let thrown: { error: unknown } | undefined
  // `woken` may grow while this runs; each actor is run once, and a throw (a bug: handlers' throws are caught in
  // run) costs no other actor its turn; the first is thrown once all have run, so it surfaces as before
  for (let i = 0; i < woken.length; i++)
    try {
      woken[i]!.run()
    } catch (error) {
      thrown ??= { error }
    }
  woken.length = 0
  drainQueued = false
  if (thrown) throw thrown.error
}
