// The benches' PostgreSQL CPU (bench/lib/procCpu.ts treeSince): a process tree's time between two snapshots, by
// role. A child that ends in between reaches its parent's reaped-children time with its whole life; only what it
// spent after the first snapshot is the phase's. (Role by role, subtracting two sums charged the root with the
// ended child's whole life and its own role with minus what it had before: the relay bench once showed a
// "postmaster" share that was a set-up connection's life, and its backends that much too low.)
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { ENDED, processTree, treeSince, treeUsSince, type TreeSnapshot } from '../../bench/lib/procCpu.js'

const snapshot = (rootUs: number, children: [number, number, string][]): TreeSnapshot => ({
  rootUs,
  children: new Map(children.map(([pid, us, role]) => [pid, { us, role }])),
})

test("a child that ended between the snapshots is charged only its time after the first, as the root's", () => {
  // 11 ended: it had 800 at `a` and 950 when reaped (the root's time grows by those 950); 12 lives on; 13 was born
  const a = snapshot(1_000, [
    [11, 800, 'backend'],
    [12, 300, 'backend'],
    [20, 50, 'walwriter'],
  ])
  const b = snapshot(1_000 + 950 + 5, [
    [12, 420, 'backend'],
    [13, 70, 'backend'],
    [20, 60, 'walwriter'],
  ])
  assert.deepEqual(
    treeSince(a, b),
    new Map([
      [ENDED, 5 + 150],
      ['backend', 120 + 70],
      ['walwriter', 10],
    ]),
  )
  assert.equal(treeUsSince(a, b), 155 + 190 + 10)
})

// A root that starts two children and reaps them: the first burns its CPU before the first snapshot and ends after
// it, the second burns between the snapshots. Ticks are 10 ms: the bounds are wide.
const ROOT = `
  const { spawn } = require('node:child_process')
  const burn = ms => \`const t = Date.now(); while (Date.now() - t < \${ms}); process.stdin.once('data', () => process.exit(0))\`
  const early = spawn(process.execPath, ['-e', burn(600)], { stdio: ['pipe', 'inherit', 'inherit'] })
  let late
  process.stdin.on('data', d => {
    const cmd = d.toString().trim()
    if (cmd === 'end-early') { early.on('exit', () => console.log('early-ended')); early.stdin.write('x') }
    if (cmd === 'burn-late') {
      late = spawn(process.execPath, ['-e', burn(200)], { stdio: ['pipe', 'inherit', 'inherit'] })
      late.on('spawn', () => setTimeout(() => { late.on('exit', () => console.log('late-ended')); late.stdin.write('x') }, 400))
    }
  })
  console.log('started')
`

async function line(root: ReturnType<typeof spawn>, want: string): Promise<void> {
  let seen = ''
  while (!seen.includes(want)) seen += String((await once(root.stdout!, 'data'))[0])
}

test("a live tree: the root is charged an ended child's time in the phase only, and no role goes below zero", async () => {
  const root = spawn(process.execPath, ['-e', ROOT], { stdio: ['pipe', 'pipe', 'inherit'] })
  try {
    await line(root, 'started')
    await new Promise(r => setTimeout(r, 900)) // the early child has burned its 600 ms
    const a = processTree(root.pid!)
    const early = [...a.children.values()].reduce((s, c) => s + c.us, 0)
    assert.ok(early >= 400_000, `the early child spent ${early} µs before the first snapshot`)
    root.stdin.write('end-early\n')
    await line(root, 'early-ended')
    root.stdin.write('burn-late\n')
    await line(root, 'late-ended')
    await new Promise(r => setTimeout(r, 50))
    const b = processTree(root.pid!)
    assert.equal(b.children.size, 0, 'both children are reaped')
    const roles = treeSince(a, b)
    // the late child's 200 ms (and the root's own bit); the early child's 600 ms before `a` are not the phase's
    const reaped = roles.get(ENDED)!
    assert.ok(reaped >= 150_000 && reaped < 450_000, `the root was charged ${reaped} µs`)
    for (const [role, us] of roles) assert.ok(us >= 0, `${role}: ${us} µs`)
    assert.equal(
      treeUsSince(a, b),
      [...roles.values()].reduce((x, y) => x + y, 0),
    )
  } finally {
    root.kill()
  }
})
