// V8's gc() for a bench that must start a measurement from a collected heap, without `node --expose-gc` on its
// command line: the flag set at run time, the function read from a fresh context (the current one was made before it).
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

export type Gc = (options?: { type: 'minor' | 'major' }) => void

export function exposedGc(): Gc {
  setFlagsFromString('--expose-gc')
  return runInNewContext('gc') as Gc
}
