// What an ask or a tell fails with: the mailbox's own errors, each with a stable code (actors/mailbox.ts).
export class MailboxFull extends Error {
  override name = 'MailboxFull'
  readonly code = 'MAILBOX_FULL'
  constructor(actor: string, capacity: number) {
    super(`mailbox of ${actor} is full (${capacity} messages)`)
  }
}
export class AskTimeout extends Error {
  override name = 'AskTimeout'
  readonly code = 'ASK_TIMEOUT'
  constructor(actor: string, ms: number) {
    super(`${actor} did not reply within ${ms} ms`)
  }
}
export class ActorStopped extends Error {
  override name = 'ActorStopped'
  readonly code = 'ACTOR_STOPPED'
  constructor(actor: string) {
    super(`${actor} has stopped`)
  }
}
