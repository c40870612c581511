import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { enumeratePaths } from '../../../../workers/sor/graph.js'
import { poolTokens } from '../../../../workers/sor/pool.js'
import type { PoolState } from '../../../../workers/sor/types.js'
import { poolAddress, stable, token, v2 } from './fixtures.js'

const [A, B, C, D] = [token(1), token(2), token(3), token(4)]

test('every 1-hop and 2-hop path is enumerated, each pool at most once per path', () => {
  const pools = [
    v2(poolAddress(1), A, D, 10n ** 20n, 10n ** 20n),
    v2(poolAddress(2), A, D, 10n ** 20n, 10n ** 20n),
    v2(poolAddress(3), A, B, 10n ** 20n, 10n ** 20n),
    v2(poolAddress(4), B, D, 10n ** 20n, 10n ** 20n),
    stable(poolAddress(5), [A, C, D], [10n ** 20n, 10n ** 20n, 10n ** 20n], [18, 18, 18]),
    v2(poolAddress(6), C, D, 10n ** 20n, 10n ** 20n),
  ]
  const keys = enumeratePaths(pools, A, D, 2)
    .map(p => p.key)
    .sort()
  const p = (n: number) => poolAddress(n)
  assert.deepEqual(keys, [p(1), p(2), p(5), `${p(3)}>${p(4)}`, `${p(5)}>${p(6)}`].sort())
  assert.deepEqual(
    enumeratePaths(pools, A, D, 1)
      .map(x => x.key)
      .sort(),
    [p(1), p(2), p(5)].sort(),
  )
})

test('unknown tokens and tokenIn = tokenOut give no paths', () => {
  const pools = [v2(poolAddress(1), A, B, 10n ** 20n, 10n ** 20n)]
  assert.deepEqual(enumeratePaths(pools, A, token(99), 2), [])
  assert.deepEqual(enumeratePaths(pools, A, A, 2), [])
  assert.deepEqual(enumeratePaths([], A, B, 2), [])
})

test('the path count equals a brute-force count over all pool pairs (random graphs)', () => {
  const tokens = [1, 2, 3, 4, 5].map(token)
  const arbPool = fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 })).filter(([a, b]) => a !== b)
  fc.assert(
    fc.property(fc.array(arbPool, { maxLength: 14 }), edges => {
      const pools: PoolState[] = edges.map(([a, b], i) =>
        v2(poolAddress(i), tokens[a]!, tokens[b]!, 10n ** 18n, 10n ** 18n),
      )
      const [tin, tout] = [tokens[0]!, tokens[4]!]
      let expected = 0
      for (const x of pools) {
        const tx = poolTokens(x)
        if (tx.includes(tin) && tx.includes(tout)) expected++
        for (const y of pools) {
          if (x === y || !tx.includes(tin) || !poolTokens(y).includes(tout)) continue
          for (const mid of tx) if (mid !== tin && mid !== tout && poolTokens(y).includes(mid)) expected++
        }
      }
      const paths = enumeratePaths(pools, tin, tout, 2)
      assert.equal(paths.length, expected)
      for (const path of paths) assert.equal(new Set(path.hops.map(h => h.pool.address)).size, path.hops.length)
    }),
    { seed: 7, numRuns: 200 },
  )
})
