// A counter whose counts are kept elsewhere (plain numbers on a hot path, a module's own stats) and handed to
// prom-client when /metrics is read. Reset then inc: a counter has no set, and a collect runs whole before the
// scrape reads the value.
import { Counter, type Registry } from 'prom-client'

/** One series per value `collect` yields for `label`, each carrying its count at every scrape. */
export function scrapedCounterBy(
  registers: Registry[],
  name: string,
  help: string,
  label: string,
  collect: () => Iterable<readonly [string, number]>,
): void {
  new Counter({
    name,
    help,
    labelNames: [label],
    registers,
    collect() {
      this.reset()
      for (const [value, n] of collect()) this.inc({ [label]: value }, n)
    },
  })
}
