// A V8 CPU profile of the engine's main thread (BENCH_PROFILE) summed into the relay's parts, so a run says where
// a quote's main-thread time goes without opening the profile in a viewer. Each sample goes to the first part
// named by a frame on its stack, from the leaf up (JSON.parse called by the relay's decode is the relay's; a
// postgres.js frame under the group commit is the PostgreSQL client's). Self time only, idle left out. The profile's
// samples are wall-clock: a part that wakes another thread is also charged the wait for a core that often follows.
import { readFileSync } from 'node:fs'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string }
  children?: number[]
}
interface CpuProfile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

/** the part a frame's script belongs to: the first pattern its URL holds */
const PARTS: [string, string][] = [
  ['node_modules/postgres/', 'PostgreSQL client (postgres.js)'],
  ['node_modules/prom-client/', 'metrics (prom-client)'],
  ['node_modules/piscina/', 'signature pool hand-off (piscina, batcher)'],
  ['/engine/pool/', 'signature pool hand-off (piscina, batcher)'],
  ['/engine/store/', 'store: the group commit'],
  ['/actors/', 'actors: mailbox, RFQ actor, book'],
  ['/engine/relay/', 'relay: receive, decode, verbs, broadcast'],
  ['/engine/front/', 'front: uWS, limits'],
  ['/workers/', 'workers/: checks, values'],
  ['/engine/', 'engine, other'],
]
const VM: Record<string, string> = { '(garbage collector)': 'GC', '(program)': 'V8 and native, unattributed' }

/** Each part's share of the main thread's busy time, largest first. */
export function profileParts(file: string): { part: string; share: number }[] {
  const p = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile
  const byId = new Map(p.nodes.map(n => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const selfUs = new Map<number, number>()
  p.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)))
  const parts = new Map<string, number>()
  let busy = 0
  for (const [id, us] of selfUs) {
    const leaf = byId.get(id)!.callFrame.functionName
    if (leaf === '(idle)') continue
    busy += us
    const part = VM[leaf] ?? partOf(id, byId, parent)
    parts.set(part, (parts.get(part) ?? 0) + us)
  }
  return [...parts].map(([part, us]) => ({ part, share: busy ? us / busy : 0 })).sort((a, b) => b.share - a.share)
}

function partOf(id: number, byId: Map<number, ProfileNode>, parent: Map<number, number>): string {
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const url = byId.get(at)!.callFrame.url
    for (const [pattern, part] of PARTS) if (url.includes(pattern)) return part
  }
  return 'Node.js internals'
}
