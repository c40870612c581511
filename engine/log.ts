// Logs through pino: JSON lines for machines (one per event, cheap on the hot path), or pino-pretty's
// readable lines for a person at a terminal. LOG_FORMAT picks; unset, a TTY gets pretty and anything
// else (a file, a pipe, journald) JSON. pino-pretty runs as an in-process stream, not a worker thread:
// log lines then leave in order with the rest of stdout and nothing is lost on exit.
import { pino, type Logger } from 'pino'
import { PinoPretty } from 'pino-pretty'

export type { Logger }
export type LogFormat = 'pretty' | 'json'

export function defaultLogFormat(): LogFormat {
  return process.stdout.isTTY ? 'pretty' : 'json'
}

export function createLogger(level: string, name = 'rfq-engine', format: LogFormat = defaultLogFormat()): Logger {
  const options = { name, level, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime }
  if (format === 'json') return pino(options)
  return pino(
    options,
    PinoPretty({
      colorize: !!process.stdout.isTTY,
      sync: true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname',
    }),
  )
}
