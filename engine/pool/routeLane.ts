// The route lane as the route finder sees it, whichever holds its threads (lanes.ts: the engine's process;
// routeProcess.ts: a child process).
import type { WorkerPool } from './workerPool.js'

/** Where a graph feed (engine/sor/graphFeed.ts) talks with the route threads: what it posts reaches every thread. */
export interface GraphLink {
  post(msg: unknown): void
  close(): void
}
/** The route lane, and the way its threads hear the route graph (engine/sor/graphFeed.ts). */
export interface RouteLane extends WorkerPool {
  /** `hear` gets every thread's words (hello, need, stats) until the link is closed */
  openGraphLink(hear: (msg: unknown) => void): GraphLink
  /** Stops the lane's threads, waiting for them at most `withinMs` (a default of the lane's own) before it stops
   * them hard: a shutdown's deadline bounds it (engine/app.ts). */
  close(withinMs?: number): Promise<void>
}
