// The group commit on a thread of its own. Why: postgres.js's work (a statement's parameters written, its socket,
// its replies parsed) was a fifth of the relay's main-thread CPU, and what it leaves behind after a commit was most
// of what each main-thread scavenge had to copy (issue 29): on this thread neither touches the relay. The main thread
// posts a batch as one flat array (quotes.ts flatBatch) and hears back its refused quotes; the statements, the fence
// and the durability are quotes.ts's, unchanged: a quote is acknowledged only once its commit's answer is back here.
// The thread ends (a crash): the commits it held fail (their outcome is unknown, as on a lost connection) and the
// next starts a new thread; one that ended young is started again only after a pause that doubles (a thread that
// cannot even load must not be restarted in a loop), and a commit in that pause is refused UNAVAILABLE at once, so
// its maker retries.
import { Worker } from 'node:worker_threads'
import { once } from 'node:events'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { repoRoot } from '../paths.js'
import type { CommitBatch, CommitOutcome, FlatBatch } from './quotes.js'

export type ToCommitThread = { t: 'commit'; id: number; flat: FlatBatch } | { t: 'close' }
export type FromCommitThread =
  { id: number; outcome: CommitOutcome } | { id: number; failed: { message: string; code: string | undefined } }

const MAIN = join(repoRoot, 'dist/engine/store/quoteCommitWorker.js')
/** How long a close waits for the thread to end its connections before it stops it. */
const CLOSE_WITHIN_MS = 6000
/** A thread that lived less than this is started again only after a pause (doubling, at most MAX_PAUSE_MS). */
const YOUNG_MS = 5000
const MAX_PAUSE_MS = 5000

export interface QuoteCommitThread {
  /** posts the batch at once, so the batch is copied before it returns (quotes.ts may write over its array) */
  commit: CommitBatch
  readonly copiesBatch: true
  /** ends the thread's connections and the thread (after the writer's flush: a commit still held fails) */
  close(): Promise<void>
}

/**
 * `url`: the writer's server (a Unix socket where it has one); `max`: its connections, one a commit in flight;
 * `onExit`: the thread ended unasked, with why, before the next commit starts another; `script`: the thread's module
 * (a test's own, to make one that fails)
 */
export function startQuoteCommitThread(
  url: string,
  max: number,
  onExit?: (why: string) => void,
  script = MAIN,
): QuoteCommitThread {
  const pending = new Map<number, { resolve(o: CommitOutcome): void; reject(e: Error): void }>()
  let next = 0,
    closing = false,
    startedAt = 0,
    young = 0,
    notBefore = 0,
    worker: Worker | undefined = start()

  function start(): Worker {
    startedAt = Date.now()
    const w = new Worker(script, { workerData: { url, max } })
    w.unref() // held only while a commit is owed
    w.on('message', (m: FromCommitThread) => {
      const p = pending.get(m.id)
      if (!p) return
      pending.delete(m.id)
      if (pending.size === 0) w.unref()
      if ('outcome' in m) p.resolve(m.outcome)
      else p.reject(Object.assign(new Error(m.failed.message), { code: m.failed.code }))
    })
    let failure = ''
    w.on('error', e => (failure = `: ${e.message}`)) // an uncaught error ends the thread: its exit answers what it held
    w.once('exit', code => {
      const why = `exit code ${code}${failure}`
      const ended = new Error(`quote writer thread ended (${why}): the commit's outcome is unknown`)
      for (const p of pending.values()) p.reject(ended)
      pending.clear()
      if (closing) return
      onExit?.(why)
      young = Date.now() - startedAt < YOUNG_MS ? young + 1 : 0
      notBefore = young === 0 ? 0 : Date.now() + Math.min(MAX_PAUSE_MS, 100 * 2 ** (young - 1))
      worker = undefined // the next commit starts another, once the pause is over
    })
    return w
  }

  return {
    copiesBatch: true,
    commit(flat) {
      if (closing) return Promise.reject(new Error('quote writer closed'))
      if (!worker && Date.now() < notBefore)
        return Promise.reject(Object.assign(new Error('quote writer thread restarting'), { code: 'UNAVAILABLE' }))
      const id = ++next,
        w = (worker ??= start())
      return new Promise<CommitOutcome>((resolve, reject) => {
        pending.set(id, { resolve, reject })
        w.ref()
        w.postMessage({ t: 'commit', id, flat } satisfies ToCommitThread)
      })
    },
    async close() {
      if (closing) return
      closing = true
      const w = worker
      if (!w) return
      const ended = once(w, 'exit')
      w.postMessage({ t: 'close' } satisfies ToCommitThread)
      if (await Promise.race([ended.then(() => true), sleep(CLOSE_WITHIN_MS, false, { ref: false })])) return
      await w.terminate()
    },
  }
}
