// The one result type of the house: every domain entry point (the RFQ service, the route finder, agent
// registration, fill recording and verification, the quote checks, token resolution, the RFQ actors' answers)
// answers `{ok: true, ...}` or a refusal `{ok: false, code}` whose code is one of a closed union of literals.
// No status and no text is chosen below the surfaces: each surface maps every code in one table
// (engine/replies/), and the compiler holds the table whole (an exhaustive switch ending in `unmapped`, or a
// record `satisfies Record<Code, ...>`), so a new code cannot reach a client unworded.

/** A refusal: its code, and whatever the surfaces need to word it. */
export type Refused<C extends string = string> = { ok: false; code: C }

/** A result `T` (its fields beside `ok: true`), or one of the refusals `R`. */
export type Outcome<T extends object, R extends Refused> = ({ ok: true } & T) | R

/** The default of an exhaustive switch over codes: it compiles only when every code has its case. */
export function unmapped(code: never): never {
  throw new Error(`no reply for outcome code ${JSON.stringify(code)}`)
}
