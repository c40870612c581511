// A pino logger whose lines a test reads back: what a unit logged, with its level and fields.
import { pino, type Logger } from 'pino'

export interface LogLine {
  level: number
  msg: string
  [field: string]: unknown
}

export function memoryLog(): { log: Logger; lines: LogLine[]; said(msg: string | RegExp): LogLine[] } {
  const lines: LogLine[] = []
  const log = pino(
    { level: 'debug' },
    {
      write: (line: string) => {
        lines.push(JSON.parse(line) as LogLine)
      },
    },
  )
  return { log, lines, said: msg => lines.filter(l => (typeof msg === 'string' ? l.msg === msg : msg.test(l.msg))) }
}
