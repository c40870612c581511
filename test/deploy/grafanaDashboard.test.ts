// deploy/grafana/rfq-venue.json is a dashboard Grafana imports: unique panel ids, panels that do not overlap on its
// 24-column grid, every query on the chosen Prometheus data source and nodes, the sections the venue needs, and every
// panel explained in docs/operations.md. (That its queries name only live metrics: test/metrics/namesExist.test.ts.)
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { repoRoot } from '../../engine/paths.js'

interface Panel {
  id: number
  type: string
  title: string
  gridPos: { x: number; y: number; w: number; h: number }
  datasource?: { uid: string }
  targets?: { expr: string; refId: string; datasource: { uid: string } }[]
}
const dash = JSON.parse(readFileSync(join(repoRoot, 'deploy/grafana/rfq-venue.json'), 'utf8')) as {
  uid: string
  title: string
  panels: Panel[]
  templating: { list: { name: string; type: string }[] }
}
const doc = readFileSync(join(repoRoot, 'docs/operations.md'), 'utf8')
const graphs = dash.panels.filter(p => p.type !== 'row')

test('the sections a venue needs, each a row', () => {
  assert.deepEqual(
    dash.panels.filter(p => p.type === 'row').map(p => p.title),
    ['Relay', 'Database', 'Signer pool', 'Route finder', 'Cluster', 'Options ingestion'],
  )
})

test('unique ids, and panels inside the grid that never overlap', () => {
  assert.equal(new Set(dash.panels.map(p => p.id)).size, dash.panels.length)
  const cells = new Set<string>()
  for (const p of dash.panels) {
    const g = p.gridPos
    assert.ok(g.x >= 0 && g.w > 0 && g.x + g.w <= 24, `${p.title} inside the grid`)
    for (let x = g.x; x < g.x + g.w; x++)
      for (let y = g.y; y < g.y + g.h; y++) {
        assert.ok(!cells.has(`${x},${y}`), `${p.title} overlaps another panel at ${x},${y}`)
        cells.add(`${x},${y}`)
      }
  }
})

test('every query runs on the chosen data source and nodes', () => {
  assert.deepEqual(
    dash.templating.list.map(v => [v.name, v.type]),
    [
      ['datasource', 'datasource'],
      ['instance', 'query'],
    ],
  )
  for (const p of graphs) {
    assert.ok(p.targets?.length, `${p.title} has queries`)
    assert.equal(p.datasource?.uid, '${datasource}')
    assert.equal(new Set(p.targets.map(t => t.refId)).size, p.targets.length, `${p.title}: unique refIds`)
    for (const t of p.targets) {
      assert.equal(t.datasource.uid, '${datasource}')
      assert.match(t.expr, /instance=~"\$instance"/, `${p.title}: ${t.expr} follows the node picker`)
    }
  }
})

test('every panel is explained in docs/operations.md', () => {
  for (const p of graphs) assert.ok(doc.includes(`*${p.title}*`), `${p.title} in docs/operations.md`)
})
