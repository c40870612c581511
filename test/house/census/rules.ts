// Copies of the shared rules issue 33 names, found by line patterns over the text (heuristics: each place is
// listed so a reader can check the count), and the lines over 120 and 140 characters.
import type { Source } from './program.js'

export interface Rule {
  name: string
  how: string
  places: string[]
}

function matchLines(sources: Source[], test: (line: string, path: string) => boolean): string[] {
  const places: string[] = []
  for (const { path, file } of sources) {
    file.text.split('\n').forEach((line, i) => {
      if (test(line, path)) places.push(`${path}:${i + 1}`)
    })
  }
  return places
}

const openList = /'OPEN',\s*'QUOTED'|'QUOTED',\s*'OPEN'/
const openTest = /===\s*'OPEN'\s*\|\|[^|]*===\s*'QUOTED'|!==\s*'OPEN'\s*&&[^&]*!==\s*'QUOTED'/
const plainObject = /typeof\s+[\w.]+\s*[!=]==\s*'object'/
const backoffCap = /Math\.min\(.*(\*\s*2\s*\*\*|\w\s*\*\s*2\b)/
const backoffWords = /backoff|retr(y|ies)|delay|reconnect|attempt|failure/i
const failureWindow = /([\w.]+)\s*=\s*\1\.filter\(\s*\w+\s*=>\s*\w+\s*-\s*\w+\s*<|while\s*\([^)]*-\s*\w+\[0\]!?\s*>/

export function ruleCopies(sources: Source[]): Rule[] {
  return [
    {
      name: '"open means OPEN or QUOTED"',
      how:
        "an 'OPEN', 'QUOTED' list (not a whole enumeration with 'FILLED') or an " + "=== 'OPEN' || === 'QUOTED' test",
      places: matchLines(sources, l => (openList.test(l) && !l.includes("'FILLED'")) || openTest.test(l)),
    },
    {
      name: 'plain-object check',
      how: "typeof x === 'object' with Array.isArray on the same line, or an isPlainObject/isRecord function",
      places: matchLines(
        sources,
        l =>
          (plainObject.test(l) && l.includes('Array.isArray')) ||
          /function\s+is(Plain)?(Object|Record)\b|const\s+is(Plain)?(Object|Record)\s*=/.test(l),
      ),
    },
    {
      name: 'backoff',
      how: 'a delay doubled (x * 2, x * 2 ** n) under a Math.min cap, on a line or in a file about retries',
      places: matchLines(sources, (l, path) => backoffCap.test(l) && (backoffWords.test(l) || /backoff/i.test(path))),
    },
    {
      name: '"N failures within T" window',
      how: 'a list of failure times pruned by age (filter by now - t < T, or shift while older)',
      places: matchLines(sources, l => failureWindow.test(l)),
    },
  ]
}

/**
 * Expiry judged by the database's clock: a line that names an expiry and asks PostgreSQL for its time (now(),
 * current_timestamp, clock_timestamp()). The engine's clock (Date.now()) judges it everywhere else, so one such line
 * is a second clock.
 */
export function expiryByDatabaseClock(sources: Source[]): string[] {
  // comments left out: they say which clock judges, often by naming the other
  return matchLines(
    sources,
    l =>
      !/^\s*(\/\/|\*|\/\*)/.test(l) &&
      /expir/i.test(l) &&
      /(?<![.\w])now\(\)|current_timestamp|clock_timestamp\(\)/i.test(l),
  )
}

export function wideLines(sources: Source[], width: number): number {
  let n = 0
  for (const { file } of sources) for (const line of file.text.split('\n')) if (line.length > width) n++
  return n
}
