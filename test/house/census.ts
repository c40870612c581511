// The house's census for issue 33's before/after table: circles in the import graph, the largest functions,
// result shapes, copies of the shared rules, typed and untyped SQL, swallowed errors and wide lines.
// Not a test (it asserts nothing): `make build && node dist/test/house/census.js [--list] [--root DIR]` prints
// the figures; `--list` also prints every place counted, so a heuristic's count can be checked by eye, and
// `--root` counts another checkout (e.g. `git archive main | tar -x -C DIR`, for a before/after table).
import { repoRoot } from '../../engine/paths.js'
import { loadSources, isProduction, type Source } from './census/program.js'
import { areaOf, circles, fileGraph, folderGraph, mutualPairs } from './census/graph.js'
import { functionSizes, nonNullAssertions, queries, resultShapes, rfqRowMappers, swallowed } from './census/syntax.js'
import { expiryByDatabaseClock, ruleCopies, wideLines } from './census/rules.js'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
const { values: args } = parseArgs({ options: { list: { type: 'boolean' }, root: { type: 'string' } } })
const list = args.list ?? false
const sources = loadSources(resolve(args.root ?? repoRoot))
const production = sources.filter(s => isProduction(s.path)),
  rest = sources.filter(s => !isProduction(s.path))

function row(label: string, value: string | number, places: string[] = []): void {
  console.log(`${label.padEnd(62)} ${value}`)
  if (list) for (const p of places) console.log(`    ${p}`)
}
const split = (of: (s: Source[]) => string[]) => {
  const p = of(production),
    r = of(rest)
  return { text: `${p.length} (tests and benches: ${r.length})`, places: p }
}

console.log(
  `census of ${sources.length} TypeScript files (${production.length} production: engine, actors, workers, sdk, web, examples)\n`,
)

const files = fileGraph(sources),
  areas = folderGraph(files, areaOf),
  folders = folderGraph(files)
const show = (sets: string[][]) => sets.map(c => c.join(' <-> '))
console.log('import graph (every relative import, type-only included)')
const areaPairs = mutualPairs(areas),
  prodPairs = areaPairs.filter(([a]) => isProduction(`${a}/`))
row(
  '  folder circles: areas importing each other',
  `${prodPairs.length} (tests and benches: ${areaPairs.length - prodPairs.length})`,
  show(areaPairs),
)
console.log(
  "    (an area is engine/x with its sub-folders; a floor's root files, engine/app.ts and the like, are left out)",
)
row('  knots of areas (strongly connected sets)', circles(areas).length, show(circles(areas)))
row(
  '  directory pairs importing each other (nothing rolled up)',
  mutualPairs(folders).length,
  show(mutualPairs(folders)),
)
row('  file circles (strongly connected sets of files)', circles(files).length, show(circles(files)))

console.log(
  '\nthe 10 largest functions (lines; branches = if, ?:, case, catch, loops, && || ??; nested closures included)',
)
const sizes = functionSizes(production)
const sized = (f: { name: string; where: string; lines: number; branches: number }) =>
  console.log(
    `  ${`${f.name} (${f.where})`.padEnd(70)} ${String(f.lines).padStart(4)} lines ${String(f.branches).padStart(4)} branches`,
  )
for (const f of sizes.slice(0, 10)) sized(f)
console.log('the three issue 33 names (absent: split into named units under other names)')
for (const [name, file] of [
  ['mountRelaySockets', 'engine/relay/'],
  ['joinCluster', 'engine/cluster/link.ts'],
  ['quote', 'engine/sor/quote.ts'],
] as const) {
  const f = sizes.find(f => f.name === name && f.where.startsWith(file))
  if (f) sized(f)
  else console.log(`  ${name} (${file})`.padEnd(72) + 'absent')
}

const shapes = resultShapes(production)
console.log('\nresult shapes (production)')
row('  types named *Outcome, *Verdict, *Result', shapes.named.length, shapes.named)
row('  types holding an { ok: … } object type', shapes.okUnions.length, shapes.okUnions)
row('  code/reason members typed plain string in those', shapes.stringCodes.length, shapes.stringCodes)
row('  failure shapes beside ok: false (types using each)', shapes.failures.size)
for (const [shape, places] of [...shapes.failures].sort((a, b) => b[1].length - a[1].length))
  row(`    ${shape}`, places.length, places)

console.log('\ncopies of the shared rules (production; line heuristics, run with --list to see each place)')
for (const rule of ruleCopies(production)) row(`  ${rule.name}`, rule.places.length, rule.places)
row(
  "  expiry judged by PostgreSQL's now() (a second clock)",
  expiryByDatabaseClock(production).length,
  expiryByDatabaseClock(production),
)
const mappers = rfqRowMappers(production)
row('  row -> RFQ mapper (token_in -> tokenIn beside kind)', mappers.length, mappers)

const q = queries(production)
console.log('\nSQL (production; a tagged sql`select …` is one query, a fragment is not)')
row('  typed queries (sql<Row[]>`…`)', q.typed.length, q.typed)
row('  untyped queries (sql`…`)', q.untyped.length, q.untyped)

console.log('\nswallowed errors')
row(
  '  catch with no binding (catch {)',
  split(s => swallowed(s).bareCatch).text,
  split(s => swallowed(s).bareCatch).places,
)
row('  catch with an empty block', split(s => swallowed(s).emptyCatch).text, split(s => swallowed(s).emptyCatch).places)
row(
  '  .catch(() => …) (the handler cannot see the error)',
  split(s => swallowed(s).catchIgnoringError).text,
  split(s => swallowed(s).catchIgnoringError).places,
)
row(
  '  of the two: neither thrown, returned, logged nor explained there',
  split(s => swallowed(s).unexplained).text,
  split(s => swallowed(s).unexplained).places,
)
row('  void f() (a promise let go)', split(s => swallowed(s).voidCalls).text, split(s => swallowed(s).voidCalls).places)

row('  non-null assertions (x!)', split(nonNullAssertions).text, split(nonNullAssertions).places)

console.log('\nline widths')
row('  lines over 120 characters', `${wideLines(production, 120)} (tests and benches: ${wideLines(rest, 120)})`)
row('  lines over 140 characters', `${wideLines(production, 140)} (tests and benches: ${wideLines(rest, 140)})`)
