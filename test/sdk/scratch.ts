// A scratch project that depends on the packed SDK, with a complete lock: the SDK's entry (its tarball's
// integrity) and every package its dependencies need, copied from the repository's lock (same versions, same
// resolved URLs and integrity). `npm ci --offline` then installs from the npm cache alone.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { repoRoot } from '../../engine/paths.js'

interface LockEntry {
  version?: string
  dependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
  dev?: boolean
  devOptional?: boolean
}

export function scratchLock(tarball: string, integrity: string): { pkg: object; lock: object } {
  const sdk = JSON.parse(readFileSync(join(repoRoot, 'sdk/package.json'), 'utf8'))
  const root = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>
  }
  const entries = root.packages
  // node's resolution inside the lock: from a package's folder up to the root's node_modules
  const find = (from: string, name: string): string | undefined => {
    for (
      let base = from;
      ;
      base = base.includes('/node_modules/') ? base.slice(0, base.lastIndexOf('/node_modules/')) : ''
    ) {
      const key = `${base ? base + '/' : ''}node_modules/${name}`
      if (entries[key]) return key
      if (!base) return undefined
    }
  }
  const needed = new Set<string>()
  const walk = (key: string | undefined, name: string) => {
    if (!key) throw new Error(`${name} is not in the repository's package-lock.json`)
    if (needed.has(key)) return
    needed.add(key)
    const e = entries[key]!
    for (const d of Object.keys(e.dependencies ?? {})) walk(find(key, d), d)
    for (const d of Object.keys(e.optionalDependencies ?? {})) {
      const k = find(key, d)
      if (k) walk(k, d)
    }
  }
  for (const name of Object.keys(sdk.dependencies)) walk(find('', name), name)

  const dep = { [sdk.name]: `file:${tarball}` }
  const packages: Record<string, object> = { '': { name: 'sdk-consumer', version: '1.0.0', dependencies: dep } }
  packages[`node_modules/${sdk.name}`] = {
    version: sdk.version,
    resolved: `file:${tarball}`,
    integrity,
    dependencies: sdk.dependencies,
    engines: sdk.engines,
  }
  for (const key of [...needed].sort()) {
    const { dev: _d, devOptional: _o, ...entry } = entries[key]!
    packages[key] = entry
  }
  return {
    pkg: { name: 'sdk-consumer', version: '1.0.0', private: true, type: 'module', dependencies: dep },
    lock: { name: 'sdk-consumer', version: '1.0.0', lockfileVersion: 3, requires: true, packages },
  }
}
