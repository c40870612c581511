// Following a chain that does not answer: retried with a doubling pause (not a request storm, not a log line
// a second), and healed without a restart once the chain answers.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createServer } from 'node:net'
import { startTestEngine } from '../helpers/engine.js'
import { startAnvil } from '../../engine/devchain/anvil.js'
import { waitFor } from '../relay/helpers.js'

test('an unreachable RPC is retried with backoff, and following resumes when it answers', async () => {
  const probe = createServer().listen(0, '127.0.0.1')
  await new Promise(r => probe.once('listening', r))
  const port = (probe.address() as { port: number }).port
  await new Promise(r => probe.close(r))
  const t = await startTestEngine({ RPC_URL: `http://127.0.0.1:${port}`, SOR_FOLLOW_INTERVAL_MS: '50' })
  let anvil: Awaited<ReturnType<typeof startAnvil>> | undefined
  try {
    const health = async () => (await (await fetch(`${t.api}/api/v1/sor/health`)).json()) as any
    await new Promise(r => setTimeout(r, 1500))
    const down = await health()
    // at a fixed 50 ms that would be about 60 calls; doubling from 50 ms it is a handful
    assert.ok(down.follow.rpcCalls > 0 && down.follow.rpcCalls < 20, JSON.stringify(down.follow))
    assert.equal(down.follow.headBlock, null)
    anvil = await startAnvil({ port })
    await waitFor(health, h => h.follow.headBlock !== null, 15_000)
  } finally {
    await t.stop()
    await anvil?.stop()
  }
})
