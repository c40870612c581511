// Structured JSON logs (pino): one line per event, machine-readable, cheap on the hot path.
import { pino, type Logger } from 'pino'

export type { Logger }

export function createLogger(level: string, name = 'rfq-engine'): Logger {
  return pino({ name, level, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime })
}
