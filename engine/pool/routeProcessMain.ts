// The route process's main thread (routeProcess.ts starts it): it holds the route threads (a thread lane, lanes.ts)
// and passes on what the engine and they say, the graph feed's messages both ways and the tasks with their aborts.
// It searches nothing itself. Its policy and niceness were set before Node ran, so its threads inherit them and ask
// for none of their own. The engine gone (the IPC channel closed), it stops its threads and exits.
import { asError } from '../../workers/values/index.js'
import { noPretenuring } from '../ops/pretenuring.js'
import { createRouteLane } from './lanes.js'
import type { FromRouteProcess, ToRouteProcess } from './routeProcess.js'

noPretenuring() // before its threads start: a search's short-lived objects are not to be born old (ops/pretenuring.ts)

const send = (m: FromRouteProcess) => void (process.connected && process.send!(m))
const threads = Math.max(1, Number(process.argv[2]) || 1)
const lane = createRouteLane(threads)
const link = lane.openGraphLink(msg => send({ t: 'graph', msg }))
const running = new Map<number, AbortController>()
let closing: Promise<void> | null = null

process.on('message', (m: ToRouteProcess) => {
  switch (m.t) {
    case 'graph':
      link.post(m.msg)
      break
    case 'run':
      run(m.id, m.task, m.input)
      break
    case 'abort':
      running.get(m.id)?.abort()
      break
    case 'close':
      void close()
      break
  }
})
process.on('disconnect', () => void close())
send({ t: 'ready' })

function run(id: number, task: string, input: unknown): void {
  const abort = new AbortController()
  running.set(id, abort)
  lane.run(task, input, { signal: abort.signal }).then(
    value => {
      running.delete(id)
      try {
        send({ t: 'done', id, value })
      } catch (e) {
        failed(id, e) // an answer V8 cannot serialise
      }
    },
    (e: unknown) => {
      running.delete(id)
      failed(id, e)
    },
  )
}

function failed(id: number, e: unknown): void {
  const err = asError(e)
  send({ t: 'failed', id, name: err.name, message: err.message })
}

function close(): Promise<void> {
  return (closing ??= (async () => {
    link.close()
    await lane.close()
    process.exit(0)
  })())
}
