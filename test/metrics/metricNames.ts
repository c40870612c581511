// The metric names an expression, a dashboard or a doc names, and whether a scrape has them: for the tests that hold
// the kit's rules, the dashboard and the docs to what a live engine exports.

const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan'])

/** the metric names a PromQL expression selects (functions, label names, strings and ranges left out) */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
  return [...bare.matchAll(/(?<![\w.$])([a-zA-Z_:][a-zA-Z0-9_:]*)\b(?!\s*\()/g)]
    .map(m => m[1]!)
    .filter(n => !KEYWORDS.has(n.toLowerCase()))
}

/** the families a scrape declares (`# TYPE name type`), with a histogram's series names beside its own */
export function exported(scrape: string): Set<string> {
  const names = new Set<string>()
  for (const [, name, type] of scrape.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name!)
    if (type === 'histogram') for (const s of ['_bucket', '_sum', '_count']) names.add(name! + s)
  }
  return names
}
