// What an actor is to the code around it: a reference to tell and ask it, the context its handler runs in, and its
// behaviour. The runtime that delivers the messages is mailbox.ts.
export type Reply<R> = (value: R) => void
/**
 * An answer's way back as an object's method rather than a function: a message that goes on a trip carries it, so no
 * closure is made for the trip (the relay's quotes: quoteInFlight.ts, asks.ts).
 */
export interface Answered<T> {
  answered(value: T): void
}
/**
 * `askTo`'s message maker and failure answer: `arg` is what a closure made for the ask would have captured; the
 * message answers through `ask` (its `answered`, once and only while the ask waits)
 */
export type AskMaker<M, R, A> = (ask: Answered<R>, arg: A) => M
export type AskOrElse<R, A> = (error: unknown, arg: A) => R

export interface ActorRef<M> {
  readonly name: string
  tell(msg: M): void
  /** `orElse` turns a failure (a timeout, a stopped actor, a full mailbox, a throwing handler) into an answer */
  ask<R>(make: (replyTo: Reply<R>) => M, timeoutMs: number, orElse?: (error: unknown) => R): Promise<R>
  /**
   * ask with `orElse`, its answer handed to `done`: no promise and no reaction (the relay's quotes take this way).
   * `arg` is handed to `make` and `orElse`, so neither needs to be a closure made for the ask, and the message
   * answers through the ask object itself (`Answered`), so the ask makes none either.
   */
  askTo<R, A>(make: AskMaker<M, R, A>, arg: A, timeoutMs: number, orElse: AskOrElse<R, A>, done: Answered<R>): void
  readonly depth: number
  readonly stopped: boolean
}

export interface ActorContext<M> {
  readonly self: ActorRef<M>
  now(): number
  /** The outcome of slow work comes back as a message: the actor is not held while it runs. */
  pipeToSelf<T>(work: Promise<T>, toMessage: (result: T | Error) => M): void
  /** pipeToSelf for work that answers through a callback: the function returned sends the outcome back as a message
   *  (nothing once the actor has stopped). No promise and no reaction: the relay's quotes take this way. */
  toSelf<T>(toMessage: (result: T | Error) => M): (result: T | Error) => void
  /** A message to this actor from outside its handlers, such as a callback's: nothing once it has stopped, a full
   *  mailbox reported (onError), never thrown at the caller. One function for the actor's life: a message that
   *  carries its own outcome comes back without a closure made for it (the relay's quotes, quoteInFlight.ts). */
  readonly deliver: (msg: M) => void
  /** One timer per key; setting a key again replaces it. Timers die with the actor. */
  setTimer(key: string, delayMs: number, msg: M): void
  cancelTimer(key: string): void
  stop(): void
}

export interface Behavior<S, M> {
  receive(state: S, msg: M, ctx: ActorContext<M>): S | Promise<S>
  onStop?(state: S): void
}
