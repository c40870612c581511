// The last resort: an error nothing else caught (a bug in a timer, a rejected promise nobody awaited)
// is logged and counted instead of taking every port and every live RFQ down with it. A process that
// keeps failing this way is not healthy, though: past a burst it exits 1 so its supervisor restarts it.
import type { Logger } from 'pino'

const BURST = { max: 50, windowMs: 10_000 }
let count = 0
let recent: number[] = []

/** Errors the last resort has caught since start (exported as process_uncaught_errors_total). */
export function uncaughtErrors(): number {
  return count
}

export function installLastResort(log: Logger, exit: (code: number) => void = code => process.exit(code)): void {
  const onError = (kind: string) => (err: unknown) => {
    count++
    const now = Date.now()
    recent = recent.filter(t => now - t < BURST.windowMs)
    recent.push(now)
    log.error({ err, kind }, 'uncaught error: logged and counted, the engine keeps serving')
    if (recent.length > BURST.max) {
      log.fatal({ errors: recent.length, windowMs: BURST.windowMs }, 'too many uncaught errors: exiting for a restart')
      exit(1)
    }
  }
  process.on('uncaughtException', onError('uncaughtException'))
  process.on('unhandledRejection', onError('unhandledRejection'))
}
