// Each line of an archive is checked before it is sent to COPY ... FROM STDIN: its field count, UTF-8, and the form
// of every value whose type we know. A bad line is refused here, naming its number, instead of by the server, whose
// refusal after the last chunk postgres.js (3.4) never reports to the stream (restore.ts catches that case too).
import { Transform, type TransformCallback } from 'node:stream'
import type { Column } from './manifest.js'

type Check = (v: string) => boolean

const digits = (max: number): Check => {
  const re = new RegExp(`^-?\\d{1,${max}}$`)
  return v => re.test(v)
}
const validDay = (v: string) => {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(v)
  if (!m) return false
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))
  return d.toISOString().startsWith(m[0])
}
const TIMESTAMPTZ = /^\d{4}-\d{2}-\d{2} ([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?[+-]\d{2}(:\d{2}){0,2}$/
const INT8_MAX = 2n ** 63n
/** COPY's text form of bytea: its hex output (`\x` + hex digits) with the backslash escaped */
const BYTEA = /^\\\\x([0-9a-f]{2})*$/

/** The check for a column's values, by its type (format_type's name); types we do not know are the server's. */
function checkFor(type: string): Check | undefined {
  if (type === 'bigint') return v => digits(19)(v) && BigInt(v) < INT8_MAX && BigInt(v) >= -INT8_MAX
  if (type === 'integer') return v => digits(10)(v) && Math.abs(Number(v)) <= 2 ** 31
  const numeric = /^numeric\((\d+),0\)$/.exec(type)
  if (numeric) return digits(Number(numeric[1]))
  if (type === 'date') return v => /^\d{4}-\d{2}-\d{2}$/.test(v) && validDay(v)
  if (type === 'timestamp with time zone') return v => TIMESTAMPTZ.test(v) && validDay(v)
  if (type === 'bytea') return v => BYTEA.test(v)
  if (type === 'boolean') return v => v === 't' || v === 'f'
  return undefined
}

export class BadLine extends Error {
  constructor(
    readonly line: number,
    why: string,
  ) {
    super(`line ${line}: ${why}`)
  }
}

/** A pass-through that counts lines and fails with a BadLine at the first that is not a row of `columns`. */
export class LineCheck extends Transform {
  /** the lines passed whole so far */
  lines = 0
  private rest: Buffer = Buffer.alloc(0)
  private readonly checks: (Check | undefined)[]
  private readonly utf8 = new TextDecoder('utf-8', { fatal: true })

  constructor(private readonly columns: readonly Column[]) {
    super()
    this.checks = columns.map(c => checkFor(c.type))
  }

  override _transform(chunk: Buffer, _e: BufferEncoding, done: TransformCallback): void {
    const data = this.rest.length ? Buffer.concat([this.rest, chunk]) : chunk
    let start = 0
    for (let nl = data.indexOf(10); nl !== -1; nl = data.indexOf(10, start)) {
      const why = this.problem(data.subarray(start, nl))
      if (why) return done(new BadLine(this.lines + 1, why))
      this.lines++
      start = nl + 1
    }
    this.rest = Buffer.from(data.subarray(start))
    done(null, data.subarray(0, start))
  }

  override _flush(done: TransformCallback): void {
    if (this.rest.length) return done(new BadLine(this.lines + 1, 'cut short: the file ends inside it'))
    done()
  }

  private problem(bytes: Buffer): string | undefined {
    let line: string
    try {
      line = this.utf8.decode(bytes)
    } catch {
      return 'not UTF-8'
    }
    if (line === '\\.') return 'an end-of-data marker inside the data'
    const fields = line.split('\t')
    if (fields.length !== this.columns.length) {
      return `${fields.length} fields where the manifest lists ${this.columns.length} columns`
    }
    for (const [i, v] of fields.entries()) {
      if (v === '\\N') continue
      if (this.checks[i]?.(v) === false)
        return `${this.columns[i]!.name} is not a ${this.columns[i]!.type}: ${v.slice(0, 80)}`
    }
    return undefined
  }
}
