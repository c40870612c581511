// The engine turns V8's allocation-site pretenuring off (engine/ops/pretenuring.ts): with it on, the sites a relay quote
// passes through were tenured and their short-lived objects born old (issue 29). Shown by V8's own report of its
// pretenuring decisions (`--trace-pretenuring-statistics`), in a node that keeps every object of one site alive:
// V8 tenures that site unless the engine's call turned pretenuring off, and an operator's explicit flag wins.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { pathToFileURL } from 'node:url'
import { join } from 'node:path'
import { repoRoot } from '../../engine/paths.js'
import { noPretenuring } from '../../engine/ops/pretenuring.js'

const MODULE = pathToFileURL(join(repoRoot, 'dist/engine/ops/pretenuring.js')).href

/** a node that calls `noPretenuring` or not, then keeps 1,000,000 objects of one site: V8's decisions and the call's */
function run(call: boolean, nodeFlags: string[] = []): { tenured: number; set: string } {
  const script = `
    const { noPretenuring } = await import(${JSON.stringify(MODULE)})
    console.log('set ' + (${call} ? noPretenuring() : 'not called'))
    const keep = []
    const make = i => ({ i, s: 'x' })
    for (let i = 0; i < 1_000_000; i++) keep.push(make(i))
    console.log('kept ' + keep.length)`
  const r = spawnSync(
    process.execPath,
    [...nodeFlags, '--trace-pretenuring-statistics', '--input-type=module', '-e', script],
    { encoding: 'utf8' },
  )
  assert.equal(r.status, 0, r.stderr)
  assert.match(r.stdout, /kept 1000000/)
  return {
    tenured: r.stdout.split('\n').filter(l => l.includes('pretenuring:') && l.endsWith('=> tenure')).length,
    set: /^set (.*)$/m.exec(r.stdout)![1]!,
  }
}

test('without the call V8 tenures a site whose objects all survive; with it, no site is tenured', () => {
  const plain = run(false)
  assert.ok(plain.tenured >= 1, 'V8 tenured the site (its report is the witness the next run is read by)')
  const off = run(true)
  assert.equal(off.set, 'true')
  assert.equal(off.tenured, 0)
})

test("node's own pretenuring flag, either way, is left as the operator gave it", () => {
  const on = run(true, ['--allocation-site-pretenuring'])
  assert.equal(on.set, 'false')
  assert.ok(on.tenured >= 1)
  assert.equal(noPretenuring(['--no-allocation-site-pretenuring']), false)
  assert.equal(noPretenuring(['--allocation_site_pretenuring']), false)
  assert.equal(noPretenuring(['--allocation-site-pretenuring=false']), false)
})
