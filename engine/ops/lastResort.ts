// The last resort: an error nothing else caught (a bug in a timer, a rejected promise nobody awaited)
// is logged and counted instead of taking every port and every live RFQ down with it. A process that
// keeps failing this way is not healthy, though: past a burst it exits 1 so its supervisor restarts it.
import type { Logger } from 'pino'
import { FailureWindow } from '../../workers/retry/failureWindow.js'

const BURST = { max: 50, windowMs: 10_000 }
let count = 0
const recent = new FailureWindow(BURST.max, BURST.windowMs)

/** Errors the last resort has caught since start (exported as process_uncaught_errors_total). */
export function uncaughtErrors(): number {
  return count
}

export function installLastResort(log: Logger, exit: (code: number) => void = code => process.exit(code)): void {
  const onError = (kind: string) => (err: unknown) => {
    count++
    const tooMany = recent.record(Date.now())
    log.error({ err, kind }, 'uncaught error: logged and counted, the engine keeps serving')
    if (tooMany) {
      log.fatal({ errors: recent.count, windowMs: BURST.windowMs }, 'too many uncaught errors: exiting for a restart')
      exit(1)
    }
  }
  process.on('uncaughtException', onError('uncaughtException'))
  process.on('unhandledRejection', onError('unhandledRejection'))
}
