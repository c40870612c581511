// What findRoute asks of a candidate source beyond the split optimiser's questions: the per-protocol
// alternatives and the counts the answer reports. And the deadline a search checks as it goes, so a search
// past its time ends on its own thread, freeing it, instead of running on after nobody waits for it.
import type { CandidateSource } from './candidates.js'

export interface RouteSource extends CandidateSource {
  /** the same questions over the paths using one protocol alone */
  forProtocol(protocol: string): CandidateSource
  /** paths within maxHops, and those whose pools all trade (a positive zero-size rate) */
  counts(): { paths: number; live: number }
  /** protocols some path uses alone (by name), and the one protocol every trading path uses, if any */
  protocols(): { alone: string[]; only: string | null }
}

export class SearchDeadline extends Error {
  override name = 'SearchDeadline'
  constructor(readonly deadline: number) {
    super(`route search passed its deadline (${new Date(deadline).toISOString()})`)
  }
}

/** A check to call per unit of work: every 256 calls it reads the clock; it throws once `deadline` (epoch ms) is past. */
export function deadlineCheck(deadline: number): () => void {
  if (deadline === Infinity) return () => {}
  let n = 0
  return () => {
    if ((++n & 255) === 0 && Date.now() > deadline) throw new SearchDeadline(deadline)
  }
}
