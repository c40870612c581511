// The two kinds of ask (mailbox.ts): one that settles a promise, and one that hands its answer to an object's
// `answered` (the relay's quotes: tens of thousands a second). Each is one object holding what its reply and its
// failure do, where an ask had been a PendingAsk and four closures around it (the reply, the success, the failure and
// the callback's guard) with their contexts (issue 29, docs/benchmarks.md 0.14.8). The second makes no closure at all:
// its message answers through the ask itself (`answered`), and the ask through the asker's object (0.14.10).
import { PendingAsk, type PendingAsks } from './askDeadlines.js'
import type { Answered, AskOrElse, Reply } from './actorTypes.js'

type AskingActor = { readonly name: string; readonly pending: PendingAsks }

/** an ask's end as its handler sees it: `answered`, which answers once and only while the ask waits */
export abstract class ReplyingAsk<R> extends PendingAsk implements Answered<R> {
  answered(value: R): void {
    if (this.settle()) this.answer(value)
  }
  protected abstract answer(value: R): void
}

/** `ask`: a promise, resolved by the reply, or by `orElse` of a failure (rejected with it when there is none) */
export class PromisedAsk<R> extends ReplyingAsk<R> {
  /** the handler's reply channel, for a message that carries a function: the one closure this kind of ask makes */
  readonly reply: Reply<R> = (value: R) => this.answered(value)
  constructor(
    actor: AskingActor,
    timeoutMs: number,
    private readonly resolve: (value: R) => void,
    private readonly reject: (e: unknown) => void,
    private readonly orElse: ((error: unknown) => R) | undefined,
  ) {
    super(actor, timeoutMs)
  }
  protected answer(value: R): void {
    this.resolve(value)
  }
  fail(e: unknown): void {
    if (this.orElse) this.resolve(this.orElse(e))
    else this.reject(e)
  }
}

/**
 * `askTo`: the reply, or `orElse` of a failure, handed to `done`. `arg` rides along for `orElse` (what a closure
 * would have captured). A `done` that throws (its owner's bug) is reported to `onError`, and never unwinds the
 * handler that replied or the deadline's timer.
 */
export class AnsweredAsk<R, A> extends ReplyingAsk<R> {
  constructor(
    actor: AskingActor,
    timeoutMs: number,
    private readonly arg: A,
    private readonly orElse: AskOrElse<R, A>,
    private readonly done: Answered<R>,
    private readonly onError: ((name: string, e: unknown) => void) | undefined,
  ) {
    super(actor, timeoutMs)
  }
  protected answer(value: R): void {
    try {
      this.done.answered(value)
    } catch (e) {
      this.onError?.(this.actor.name, e)
    }
  }
  fail(e: unknown): void {
    this.answer(this.orElse(e, this.arg))
  }
}
