// A fresh clone's `make build` leaves `git status` empty: nothing the build writes is tracked, and the
// install step (npm ci) never rewrites the lock file. The clone gets the checkout's installed packages
// as hard links (same filesystem, under the ignored .data/), so the test needs no registry.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { closeSync, existsSync, openSync, rmSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { repoRoot } from '../../engine/paths.js'

test('git status is empty after `make build` in a fresh clone', { timeout: 180_000 }, () => {
  if (!existsSync(join(repoRoot, '.git')))
    assert.fail('the checkout is not a git clone: run the suite from one (CI does)')
  const clone = join(repoRoot, '.data', `clone-${process.pid}`)
  rmSync(clone, { recursive: true, force: true })
  try {
    execFileSync('git', ['clone', '--quiet', '--no-hardlinks', repoRoot, clone])
    execFileSync('cp', ['-al', join(repoRoot, 'node_modules'), join(clone, 'node_modules')])
    const stamp = join(clone, 'node_modules/.installed')
    const now = new Date()
    closeSync(openSync(stamp, 'a'))
    utimesSync(stamp, now, now) // installed from this very lock file: make skips npm ci
    execFileSync('make', ['build'], { cwd: clone, stdio: 'pipe' })
    assert.ok(existsSync(join(clone, 'dist/engine/main.js')), 'the build wrote dist/')
    assert.ok(
      existsSync(join(clone, 'dist/web/index.html')),
      'and the console (deploy/README.md ships what make build makes)',
    )
    assert.equal(execFileSync('git', ['status', '--porcelain'], { cwd: clone, encoding: 'utf8' }), '')
  } finally {
    rmSync(clone, { recursive: true, force: true })
  }
})
