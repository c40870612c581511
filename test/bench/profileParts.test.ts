// The relay bench's main-thread breakdown (bench/lib/profileParts.ts): a sample goes to the first part named on its
// stack from the leaf up, GC is its own part, idle is left out.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { profileParts } from '../../bench/lib/profileParts.js'

const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({
  id,
  callFrame: { functionName, url },
  children,
})

test('a profile is summed into parts by the nearest named frame, GC apart, idle left out', () => {
  // root -> decode (relay) -> JSON.parse (native); root -> commit (store) -> write (postgres.js); GC; idle
  const nodes = [
    frame(1, '(root)', '', [2, 4, 6, 7]),
    frame(2, 'decode', 'file:///x/dist/engine/relay/codec.js', [3]),
    frame(3, 'parse', ''),
    frame(4, 'commit', 'file:///x/dist/engine/store/quotes.js', [5]),
    frame(5, 'write', 'file:///x/node_modules/postgres/src/connection.js'),
    frame(6, '(garbage collector)', ''),
    frame(7, '(idle)', ''),
  ]
  const samples = [3, 3, 5, 4, 6, 7, 7, 7]
  const timeDeltas = [100, 100, 300, 100, 400, 5000, 5000, 5000]
  const file = join(mkdtempSync(join(tmpdir(), 'prof-')), 'main.cpuprofile')
  writeFileSync(file, JSON.stringify({ nodes, samples, timeDeltas, startTime: 0, endTime: 16100 }))
  const parts = Object.fromEntries(profileParts(file).map(p => [p.part, p.share]))
  assert.deepEqual(parts, {
    GC: 0.4,
    'PostgreSQL client (postgres.js)': 0.3,
    'relay: receive, decode, verbs, broadcast': 0.2,
    'store: the group commit': 0.1,
  })
})
