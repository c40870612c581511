// Who this node has heard lately. A heartbeat every `heartbeatMs` says a node is there; one not heard for three
// heartbeats is no peer (killed, partitioned), and the caller reconciles with the store: its last word may not have
// left it, so what it stored shows here and what it closed closes here.
export class Peers {
  private readonly heardAt = new Map<string, number>()

  constructor(private readonly heartbeatMs: number) {}

  heard(nodeId: string, at: number): void {
    this.heardAt.set(nodeId, at)
  }

  /** Nodes silent for three heartbeats at `now`: forgotten here, answered once each. */
  silent(now: number): string[] {
    const gone: string[] = []
    for (const [id, at] of this.heardAt)
      if (at < now - 3 * this.heartbeatMs) {
        this.heardAt.delete(id)
        gone.push(id)
      }
    return gone
  }

  /** the nodes heard within three heartbeats, sorted */
  list(now: number): string[] {
    return [...this.heardAt]
      .filter(([, at]) => at >= now - 3 * this.heartbeatMs)
      .map(([id]) => id)
      .sort()
  }
}
