// The route lane in a process of its own (SOR_LANE=process, the default): a child Node process that holds the
// route threads (lanes.ts createRouteLane, engine/sor/routeThread.ts) as the engine held them before. Why: a route
// thread under SCHED_IDLE in the engine's own process still had its heap collected by V8's shared platform threads,
// which run at normal priority whatever the route thread's policy (~0.3 s of the relay's cores per ~180 searches
// in the relay bench). The child is started under Linux's SCHED_IDLE (util-linux's chrt) and the lane's niceness
// (coreutils' nice) before Node runs, so every thread it ever makes, V8's own included, inherits both.
// The graph feed's messages and the tasks go over the child's IPC channel (V8's serialisation, so bigints pass);
// the child's main thread (routeProcessMain.ts) passes them on to its threads. A task keeps the lane's promises:
// a queue bound (the child's pool answers 'Task queue is at limit'), an AbortSignal that stops the task's thread.
// The child dies: its tasks are answered RouteLaneDown at once and a new child starts (its threads say hello, so
// the feed sends them the graph anew); one that dies young restarts after a growing pause.
import { spawn, type ChildProcess } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { repoRoot } from '../paths.js'
import type { RouteLane } from './routeLane.js'
import type { RunOptions } from './workerPool.js'

/** What the engine tells the route process. */
export type ToRouteProcess =
  | { t: 'graph'; msg: unknown }
  | { t: 'run'; id: number; task: string; input: unknown }
  | { t: 'abort'; id: number }
  | { t: 'close' }
/** What the route process tells the engine. */
export type FromRouteProcess =
  | { t: 'ready' }
  | { t: 'graph'; msg: unknown }
  | { t: 'done'; id: number; value: unknown }
  | { t: 'failed'; id: number; name: string; message: string }

/** The route process ended (crashed, killed) while the task was on it: the lane starts a new one. */
export class RouteLaneDown extends Error {
  override name = 'RouteLaneDown'
}

export interface RouteProcessOptions {
  nice?: number
  idle?: boolean
  /** each time the child ended unasked, with why, before the lane starts another */
  onExit?(why: string): void
}

const MAIN = join(repoRoot, 'dist/engine/pool/routeProcessMain.js')
/** A child that lived less than this is restarted after a pause (doubling, at most MAX_PAUSE_MS), not at once. */
const YOUNG_MS = 5000
const MAX_PAUSE_MS = 5000
/** How long a closing lane waits, unless told less, for its child to stop its threads and exit before it kills it. */
const EXIT_WITHIN_MS = 7000
/**
 * How long a closing lane waits for a child it killed to be gone. A killed process still has to be scheduled to
 * exit, and one starved under SCHED_IDLE by busy cores may wait seconds for it: past this the close returns, since
 * the child holds nothing durable (no socket of the engine's, no database connection) and dies on its own.
 */
const KILLED_WITHIN_MS = 1000

export interface RouteProcessLane extends RouteLane {
  /** the child's pid (a new one after a restart) */
  readonly pid: number | undefined
}

export function createRouteProcess(threads: number, o: RouteProcessOptions = {}): RouteProcessLane {
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>()
  const hearers = new Set<(msg: unknown) => void>()
  let child: ChildProcess,
    ready = false,
    closing = false,
    waiting: ToRouteProcess[] = [],
    nextId = 0,
    startedAt = 0,
    young = 0,
    restart: NodeJS.Timeout | undefined
  start()

  return {
    threads,
    get pid() {
      return child.pid
    },
    get queueSize() {
      return Math.max(0, pending.size - threads) // one task a thread: the rest wait in the child's queue
    },
    run<I, O>(task: string, input: I, { signal }: RunOptions = {}): Promise<O> {
      if (closing) return Promise.reject(new Error('route lane closed'))
      if (signal?.aborted) return Promise.reject(abortError())
      const id = ++nextId
      return new Promise<O>((resolve, reject) => {
        const onAbort = () => {
          settle()
          send({ t: 'abort', id })
          reject(abortError())
        }
        const settle = () => {
          pending.delete(id)
          signal?.removeEventListener('abort', onAbort)
          hold()
        }
        pending.set(id, {
          resolve: v => (settle(), resolve(v as O)),
          reject: e => (settle(), reject(e)),
        })
        signal?.addEventListener('abort', onAbort, { once: true })
        hold()
        send({ t: 'run', id, task, input })
      })
    },
    openGraphLink(hear) {
      hearers.add(hear)
      return {
        // while a child starts its threads have no graph to keep in step: they ask for one (hello) once they run
        post: msg => void (ready && child.connected && child.send({ t: 'graph', msg })),
        close: () => void hearers.delete(hear),
      }
    },
    async close(withinMs = EXIT_WITHIN_MS) {
      closing = true
      clearTimeout(restart)
      for (const p of pending.values()) p.reject(new Error('route lane closed'))
      if (child.exitCode !== null || child.signalCode !== null || !child.pid) return
      child.ref() // the child holds the event loop while the close waits; the waits' timers do not
      const exited = new Promise<true>(r => child.once('exit', () => r(true)))
      if (child.connected) child.send({ t: 'close' } satisfies ToRouteProcess)
      if (await Promise.race([exited, sleep(withinMs, false, { ref: false })])) return
      child.kill('SIGKILL')
      await Promise.race([exited, sleep(KILLED_WITHIN_MS, false, { ref: false })])
      child.unref() // not gone yet: it must not hold the engine's exit
    },
  }

  function start(): void {
    ready = false
    startedAt = Date.now()
    const [cmd, ...args] = command(threads, o.nice ?? 0, o.idle ?? false)
    child = spawn(cmd!, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' })
    hold()
    const self = child
    self.on('message', (m: FromRouteProcess) => heard(m))
    self.once('error', e => ended(self, `could not start: ${e.message}`)) // no exit event follows a failed spawn
    self.once('exit', (code, sig) => ended(self, sig ? `killed by ${sig}` : `exited with code ${code}`))
  }

  function heard(m: FromRouteProcess): void {
    switch (m.t) {
      case 'ready':
        ready = true
        for (const w of waiting) child.send(w)
        waiting = []
        break
      case 'graph':
        for (const h of hearers) h(m.msg)
        break
      case 'done':
        pending.get(m.id)?.resolve(m.value)
        break
      case 'failed':
        pending.get(m.id)?.reject(Object.assign(new Error(m.message), { name: m.name }))
        break
    }
  }

  function send(m: ToRouteProcess): void {
    if (ready && child.connected) child.send(m)
    else if (m.t !== 'graph') waiting.push(m)
  }

  function ended(which: ChildProcess, why: string): void {
    if (which !== child || closing) return
    ready = false
    waiting = []
    const down = new RouteLaneDown(`route process ${why}`)
    for (const p of pending.values()) p.reject(down)
    o.onExit?.(why)
    young = Date.now() - startedAt < YOUNG_MS ? young + 1 : 0
    const pause = young === 0 ? 0 : Math.min(MAX_PAUSE_MS, 100 * 2 ** (young - 1))
    restart = setTimeout(start, pause)
    hold()
  }

  /** While an answer is owed the engine waits for it (the child, its channel or its restart holds the event loop). */
  function hold(): void {
    const owed = pending.size > 0
    for (const h of [child, child.channel, restart]) {
      if (owed) h?.ref()
      else h?.unref()
    }
  }
}

/** node and the child's script, behind nice and chrt where asked and found (without them it still runs). */
function command(threads: number, nice: number, idle: boolean): string[] {
  let argv = [process.execPath, MAIN, String(threads)]
  const niceBin = nice > 0 ? onPath('nice') : null
  if (niceBin) argv = [niceBin, '-n', String(nice), ...argv]
  const chrt = idle ? onPath('chrt') : null
  if (chrt) argv = [chrt, '--idle', '0', ...argv]
  return argv
}

function onPath(name: string): string | null {
  for (const dir of [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/bin']) {
    if (!dir) continue
    try {
      accessSync(join(dir, name), constants.X_OK)
      return join(dir, name)
    } catch {
      /* not here */
    }
  }
  return null
}

/** Piscina's answer to an aborted task, so callers tell the two lanes apart by nothing. */
function abortError(): Error {
  return Object.assign(new Error('The task has been aborted'), { name: 'AbortError' })
}
