// V8's allocation-site pretenuring, off for the engine (issue 29). V8 watches each site that allocates objects: when a
// scavenge finds nearly all of a site's recent objects still alive, it decides the site's objects are long-lived and
// allocates them in the old generation from then on. On the relay the sites a quote passes through see quotes in
// flight at a scavenge, alive to the last one (`--trace-pretenuring-statistics`: ratio 0.95-1.0, then "tenure", 88
// times in one bench run). From then on those objects are born old, die within milliseconds, and stay until a
// mark-compact; every young object they point to survives the scavenges through them, and is promoted in turn. The
// relay bench's main thread promoted ~2.2 KB a quote in that state and spent ~12 µs a quote in scavenges; without
// pretenuring, ~0.5 KB (what the book keeps) and ~5 µs (docs/benchmarks.md, 0.14.3).
//
// An operator keeps the last word: `--allocation-site-pretenuring` given to node is left as it is.
import { setFlagsFromString } from 'node:v8'

/** Turns allocation-site pretenuring off unless node's own flags chose; true when this call did. Process-wide. */
export function noPretenuring(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.some(a => /^--(no-)?allocation[-_]site[-_]pretenuring(=|$)/.test(a))) return false
  setFlagsFromString('--no-allocation-site-pretenuring')
  return true
}
