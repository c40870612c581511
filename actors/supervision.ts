// What an actor is spawned with: its mailbox's bound, and how many failures it survives before it stops for good
// (mailbox.ts). Nothing restarts a stopped actor; its owner is told (onEscalate) and decides what the stop means.
export interface Supervision {
  intensity: number
  periodMs: number
}

export interface SpawnOptions {
  capacity?: number
  supervision?: Supervision
  /** called when the actor gives up after too many failures */
  onEscalate?: (name: string, error: unknown) => void
  /** every failure: a handler that threw, a message that could not be queued, an ask's callback that threw */
  onError?: (name: string, error: unknown) => void
}

/** ten failures within ten seconds stop an actor */
export const defaultSupervision: Supervision = { intensity: 10, periodMs: 10_000 }
