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
const sql = connect(url, { max })
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
