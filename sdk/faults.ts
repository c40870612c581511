// The SDK's faults as one line each, for a maker's log.
import type { ClientFault } from './types.js'
/** One line for a fault, for logs. */
export function describeFault(f: ClientFault): string {
  switch (f.kind) {
    case 'frame':
      return f.message
    case 'listener':
      return `a '${f.event}' listener threw: ${f.error instanceof Error ? f.error.message : String(f.error)}`
    case 'connection':
      return `${f.url}: ${f.message}`
  }
}
