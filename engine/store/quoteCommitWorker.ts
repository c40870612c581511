// The quote writer's thread (quoteCommitThread.ts): its own postgres.js pool, and each batch the relay's main thread
// posts committed by the same statements as on the main thread (quotes.ts). A failure goes back as its message and
// code (a cloned Error would lose its code), an outage's code as UNAVAILABLE: unavailable.ts takes a Unix socket's
// ENOENT for one only with its syscall, which the copy would not carry.
import { parentPort, workerData } from 'node:worker_threads'
import { connect } from './db.js'
import { sqlCommitter } from './quotes.js'
import { isUnavailable } from './unavailable.js'
import { asError } from '../../workers/values/index.js'
import type { ToCommitThread, FromCommitThread } from './quoteCommitThread.js'

const { url, max } = workerData as { url: string; max: number }
// One plan for each statement text, made once a connection (quotes.ts: the texts are fixed). Left to choose, PostgreSQL
// planned each commit anew (a custom plan beats the generic one's estimate on partitioned tables): ~0.6 ms of its CPU
// a commit, more than the rows of a 10-quote commit cost. Measured in bench/commit.js; the generic plan stays
// cheaper with a year of day partitions (its pruning runs at the executor's start), docs/benchmarks.md 0.14.0.
const sql = connect(url, { max, connection: { plan_cache_mode: 'force_generic_plan' } })
const commit = sqlCommitter(sql)
const port = parentPort!

port.on('message', (m: ToCommitThread) => {
  if (m.t === 'close') {
    void sql.end({ timeout: 5 }).finally(() => port.close())
    return
  }
  commit(m.flat).then(
    outcome => port.postMessage({ id: m.id, outcome } satisfies FromCommitThread),
    (e: unknown) => {
      const err = asError(e)
      const code = (e as { code?: unknown }).code
      const sent = isUnavailable(e) ? 'UNAVAILABLE' : typeof code === 'string' ? code : undefined
      port.postMessage({ id: m.id, failed: { message: err.message, code: sent } } satisfies FromCommitThread)
    },
  )
})
