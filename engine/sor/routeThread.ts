// The route lane's thread (engine/pool/lanes.ts): it keeps a copy of every route graph the engine publishes on
// its lane's channel (replica.ts), and answers route tasks (graphMessages.ts) by searching its copy with the
// pure search of workers/sor. A search checks its deadline as it goes and answers timedOut past it, so the
// thread is free again at once; the engine's abort (a stopped thread) is only the backstop.
import { BroadcastChannel, threadId } from 'node:worker_threads'
import { getHeapStatistics } from 'node:v8'
import { readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'
import { execFileSync } from 'node:child_process'
import { workerData } from 'piscina'
import { searchRoute } from '../../workers/sor/findRoute.js'
import { fitOf } from '../../workers/sor/legs.js'
import { SearchDeadline } from '../../workers/sor/routeSource.js'
import { Replica } from './replica.js'
import type { Found, GraphMessage, RouteTask, RouteTaskResult } from './graphMessages.js'

const { channel: channelName, nice, idle } = (workerData ?? {}) as { channel?: string; nice?: number; idle?: boolean }
/** This thread's copies and heap go to the engine (graphFeed.ts, /metrics) at most once every REPORT_MS. */
const REPORT_MS = 2000
let reported = 0
const replicas = new Map<string, Replica>()
const channel = channelName ? new BroadcastChannel(channelName) : null

/** Asks the engine for the whole graph (a thread that just started, or lost step). */
function need(graph: string): void {
  channel?.postMessage({ type: 'need', graph } satisfies GraphMessage)
}

function replicaOf(graph: string): Replica {
  let r = replicas.get(graph)
  if (!r) replicas.set(graph, (r = new Replica(() => need(graph))))
  return r
}

if (channel) {
  channel.unref()
  channel.onmessage = (event: unknown) => {
    const msg = (event as { data: GraphMessage }).data
    switch (msg.type) {
      case 'snapshot':
      case 'delta':
        replicaOf(msg.graph).receive(msg)
        report()
        break
      case 'drop':
        replicas.delete(msg.graph)
        report()
        break
      case 'hello':
      case 'need':
      case 'stats':
        break // the threads' own words to the engine, not for a thread
    }
  }
  channel.postMessage({ type: 'hello' } satisfies GraphMessage)
  setInterval(() => {
    reported = 0
    report()
  }, REPORT_MS * 2).unref() // alive and how big, even when idle
}
lowerPriority(nice ?? 0, idle ?? false)

export default async function route(task: RouteTask | { ping: true }): Promise<RouteTaskResult<Found> | 'pong'> {
  if ('ping' in task) return 'pong' // the lane asks before it closes: this thread is loaded
  const replica = replicaOf(task.graph)
  if (replica.version < 0 && !replica.receiving) need(task.graph)
  if (replica.version < task.version && !(await reached(replica, task.version, task.deadline)))
    return { timedOut: true }
  try {
    const { tokenIn, tokenOut, maxHops, maxRoutes, maxSplit, slugs, deadline } = task
    const states = { get: (a: `0x${string}`) => replica.graph.state(a) }
    const results = task.amounts.map(amountIn => {
      const search = { tokenIn, tokenOut, amountIn, maxHops, maxRoutes, maxSplit, ...(slugs ? { slugs } : {}) }
      const result = searchRoute(replica.graph, search, deadline)
      return { result, routable: fitOf(result, states) }
    })
    report()
    return { timedOut: false, version: replica.version, results }
  } catch (e) {
    if (e instanceof SearchDeadline) return { timedOut: true }
    throw e
  }
}

function report(): void {
  const t = Date.now()
  if (!channel || t - reported < REPORT_MS) return
  reported = t
  let pools = 0,
    curves = 0
  for (const r of replicas.values()) {
    pools += r.graph.poolCount
    curves += r.graph.curveCount
  }
  const heapBytes = getHeapStatistics().used_heap_size
  channel.postMessage({ type: 'stats', thread: threadId, pools, curves, heapBytes, at: t } satisfies GraphMessage)
}

/** Waits for the copy to reach `version`; false if the deadline comes first. */
function reached(replica: Replica, version: number, deadline: number): Promise<boolean> {
  return new Promise(resolve => {
    const timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()))
    void replica.until(version).then(() => {
      clearTimeout(timer)
      resolve(true)
    })
  })
}

// Linux: a thread's niceness is its own (setpriority on its thread id), so the route threads yield the cores to
// the relay's main and signature threads without slowing them. Niceness alone still lets a search run out its time
// slice (up to a few ms) before a relay thread that wakes gets the core; under SCHED_IDLE the scheduler preempts
// it at once. Node has no call for a thread's policy, so util-linux's chrt sets it (once, at the thread's start).
// Elsewhere, without chrt, or without the right, it stays as is: the lane still runs.
function lowerPriority(niceness: number, idle: boolean): void {
  let tid: number
  try {
    tid = Number(readlinkSync('/proc/thread-self').split('/').pop())
    if (!Number.isInteger(tid) || tid <= 0) return
    if (niceness > 0) setPriority(tid, niceness)
  } catch {
    return /* not Linux, or not allowed */
  }
  if (!idle) return
  try {
    execFileSync('chrt', ['--idle', '-p', '0', String(tid)], { stdio: 'ignore', timeout: 5000 })
  } catch {
    /* no chrt (util-linux) or not allowed: niceness only */
  }
}
