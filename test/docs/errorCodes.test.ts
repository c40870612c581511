// docs/errors.md lists exactly the machine codes the code writes: a code added to the engine, the actors
// or the SDK without a line in the table (status, meaning, what to do) fails here, and so does a line
// for a code nothing sends any more. A code is written as `code: 'X'`, or made by `refuse('X')` (the one result type's
// refusal, engine/rfq/outcomes.ts).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { repoRoot } from '../../engine/paths.js'

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap(n => {
    const p = join(dir, n)
    return statSync(p).isDirectory() ? sources(p) : n.endsWith('.ts') ? [p] : []
  })
}

test('the error-code table equals the codes in the code', () => {
  const inCode = new Set<string>()
  for (const floor of ['engine', 'actors', 'workers', 'sdk']) {
    for (const file of sources(join(repoRoot, floor))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/(?:code: |code = |\be\(|\brefuse\()'([A-Z][A-Z0-9_]+)'/g))
        inCode.add(m[1]!)
    }
  }
  const doc = readFileSync(join(repoRoot, 'docs/errors.md'), 'utf8')
  const inDoc = new Set<string>()
  for (const line of doc.split('\n')) {
    if (!line.startsWith('| `')) continue
    const first = line.split('|')[1]!
    for (const m of first.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) inDoc.add(m[1]!)
  }
  assert.ok(inCode.size >= 30, `codes found in the code: ${inCode.size}`)
  assert.deepEqual([...inCode].filter(c => !inDoc.has(c)).sort(), [], 'codes without a line in docs/errors.md')
  assert.deepEqual([...inDoc].filter(c => !inCode.has(c)).sort(), [], 'lines for codes nothing sends')
})
