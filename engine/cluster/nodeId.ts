// A node's name in the cluster (logs, /health, the banner): NODE_ID, else hostname and pid, so two nodes on
// one host never share one. Kept apart from the link so the banner never loads the NATS client.
import { hostname } from 'node:os'

export function nodeIdOf(config: { NODE_ID?: string }): string {
  return config.NODE_ID ?? `${hostname()}-${process.pid}`
}
