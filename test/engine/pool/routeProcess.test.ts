// The route lane in a process of its own (engine/pool/routeProcess.ts): every thread of the child, V8's own
// included, runs at the lane's policy and niceness while the engine's threads keep theirs; the child killed
// mid-search, the search is answered at once (SEARCH_UNAVAILABLE, 503) and a new child takes the graph anew and
// answers the next search, exact as before.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { pathToFileURL } from 'node:url'
import { join } from 'node:path'
import { readFileSync } from 'node:fs'
import pino from 'pino'
import { loadConfig } from '../../../engine/config.js'
import { createLanes } from '../../../engine/pool/lanes.js'
import { createRouteProcess, type RouteProcessLane } from '../../../engine/pool/routeProcess.js'
import { repoRoot } from '../../../engine/paths.js'
import { PoolGraph } from '../../../engine/sor/poolGraph.js'
import { publishGraph } from '../../../engine/sor/graphFeed.js'
import { searchRoutes } from '../../../engine/sor/routeSearch.js'
import { SorFailure } from '../../../engine/sor/errors.js'
import { searchRoute } from '../../../workers/sor/findRoute.js'

import { RouteGraph, defaultMeta } from '../../../workers/sor/routeGraph.js'
import { spinCounter, threadsSched } from './laneProbe.js'
import { poolAddress, token, v2 } from '../../workers/sor/search/fixtures.js'

const SPIN = pathToFileURL(join(repoRoot, 'dist/test/engine/pool/spin.task.js')).href
const config = { POOL_THREADS: 1, POOL_TASKS_PER_THREAD: 4, SOR_THREADS: 2, SOR_THREAD_NICE: 10, SOR_LANE: 'process' }
const SCHED_IDLE = 5

test('process lane: every thread of the route process runs at the lane policy and niceness; the engine threads keep theirs', async () => {
  for (const policy of ['idle', 'normal'] as const) {
    const lanes = createLanes({ ...config, SOR_LANE: 'process', SOR_THREAD_POLICY: policy })
    const route = lanes.route as RouteProcessLane
    try {
      await Promise.all([route.run(SPIN, { ms: 50 }), route.run(SPIN, { ms: 50 })]) // both route threads started
      const pid = route.pid
      assert.ok(pid, 'the route process runs')
      const threads = threadsSched(pid)
      assert.ok(threads.length >= 3, `its main thread, 2 route threads and V8's: ${threads.length}`)
      for (const t of threads) {
        assert.equal(t.nice, config.SOR_THREAD_NICE, 'every thread at the lane niceness')
        assert.equal(t.policy, policy === 'idle' ? SCHED_IDLE : 0, `SOR_THREAD_POLICY=${policy}`)
      }
      assert.ok(
        threadsSched().every(t => t.policy === 0 && t.nice === 0),
        "the engine's threads are left as they were",
      )
    } finally {
      await Promise.all([lanes.sig.close(), lanes.route.close()])
    }
  }
})

test('process lane: the route process killed mid-task, the task is answered at once and a new process runs the next', async () => {
  const exits: string[] = []
  const lane = createRouteProcess(1, { onExit: why => exits.push(why) })
  try {
    const { counter, read } = spinCounter('process')
    const stuck = lane.run(SPIN, { ms: 120_000, counter })
    while (read() === 0) await new Promise(r => setTimeout(r, 5)) // it runs in the child
    const first = lane.pid!
    process.kill(first, 'SIGKILL')
    await assert.rejects(stuck, (e: Error) => e.name === 'RouteLaneDown' && /killed by SIGKILL/.test(e.message))
    assert.deepEqual(exits, ['killed by SIGKILL'])
    assert.equal(await lane.run(SPIN, { ms: 1 }), 'done', 'a new process took the next task')
    assert.notEqual(lane.pid, first)
  } finally {
    await lane.close()
  }
})

test('process lane: a search whose process dies answers SEARCH_UNAVAILABLE; the next, on a new process fed the graph anew, is exact', async () => {
  const [A, B, C] = [token(1), token(2), token(3)]
  const E18 = 10n ** 18n
  const pools = [v2(poolAddress(1), A, B, 1000n * E18, 2000n * E18), v2(poolAddress(2), B, C, 2000n * E18, 3000n * E18)]
  const graph = new PoolGraph()
  for (const p of pools)
    graph.track({
      address: p.address,
      protocol: 'uniswap-v2',
      poolType: 'v2',
      tokens: [p.token0, p.token1],
      fee: p.feePpm,
      tickSpacing: null,
      createdBlock: 0,
    })
  graph.setStates(pools, 7n, Date.now())
  const lane = createRouteProcess(1)
  const feed = publishGraph(graph, lane, pino({ level: 'silent' }))
  const deps = { routePool: lane, feed, config: loadConfig({ SOR_QUOTE_TIMEOUT_MS: '20000' }) }
  const q = { tokenIn: A, tokenOut: C, maxHops: 2 as const, maxRoutes: 3, maxSplit: 4, slugs: null }
  const expected = new RouteGraph()
  for (const p of pools) expected.set(p, defaultMeta(p))
  const exact = searchRoute(expected, { ...q, slugs: undefined, amountIn: 5n * E18 })
  try {
    assert.deepEqual((await searchRoutes(deps, q, [5n * E18]))[0]!.result, exact, 'the first process searches')
    const killing = {
      ...deps,
      routePool: {
        ...lane,
        run: <I, O>(task: string, input: I) => {
          // the process is stopped before the task is sent, so it cannot answer in the moment before it is killed
          // (killed right after the send, a fast child on the other core once answered first)
          process.kill(lane.pid!, 'SIGSTOP')
          const run = lane.run<I, O>(task, input)
          process.kill(lane.pid!, 'SIGKILL') // the task is on its way to the process: it dies before answering
          return run
        },
      },
    }
    const down = await searchRoutes(killing, q, [5n * E18]).then(
      () => null,
      (e: unknown) => e,
    )
    assert.ok(down instanceof SorFailure, String(down))
    assert.equal(down.refusal.code, 'SEARCH_UNAVAILABLE')
    assert.match(down.message, /^Route finder is restarting its search process \(route process killed by SIGKILL\)/)
    const again = await searchRoutes(deps, q, [5n * E18])
    assert.deepEqual(again[0]!.result, exact, 'the new process has the whole graph and finds the same route')
  } finally {
    feed.close()
    await lane.close()
  }
})

test('process lane: a close whose child cannot stop on its own (stopped) kills it after the time it is given', async () => {
  const lane = createRouteProcess(1)
  assert.equal(await lane.run(SPIN, { ms: 1 }), 'done', 'the child runs')
  const pid = lane.pid!
  process.kill(pid, 'SIGSTOP')
  try {
    await lane.close(100)
    const state = /\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1]
    assert.ok(state === undefined || state === 'Z', `the child is killed, not left stopped: ${state}`)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e // gone and reaped: killed
  } finally {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      /* gone */
    }
  }
})
