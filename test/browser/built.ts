// The console bundle the browser suites test: dist/web/ as `make build` left it when it is newer than
// every file under web/, else built again here (so `tsc && node dist/test/run.js browser` tests the
// current sources too). Suites run side by side, so the check and the build happen under a lock
// directory: one builds, the other waits and finds it fresh.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { buildConsole, type ConsoleManifest } from '../../engine/console/build.js'
import { repoRoot } from '../../engine/paths.js'

const manifestPath = join(repoRoot, 'dist/web/manifest.json')

export async function consoleBuilt(): Promise<ConsoleManifest> {
  const lock = join(repoRoot, 'dist/web.lock')
  for (;;) {
    try {
      mkdirSync(lock)
      break
    } catch {
      const held = statSync(lock, { throwIfNoEntry: false })
      if (held && Date.now() - held.mtimeMs > 120_000) rmSync(lock, { recursive: true, force: true }) // left by a run killed mid-build
      await new Promise(r => setTimeout(r, 50))
    }
  }
  try {
    if (existsSync(manifestPath) && statSync(manifestPath).mtimeMs > newest(join(repoRoot, 'web')))
      return JSON.parse(readFileSync(manifestPath, 'utf8'))
    return await buildConsole()
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

function newest(dir: string): number {
  return Math.max(
    0,
    ...readdirSync(dir).map(n => {
      const p = join(dir, n)
      const s = statSync(p)
      return s.isDirectory() ? newest(p) : s.mtimeMs
    }),
  )
}
