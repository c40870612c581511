// Where each opened message stands in its sender's order. A node numbers its messages per channel from 1 within
// one run (its epoch, larger at every start: epoch.ts). So a message at or below the last one heard, or from an
// earlier run, was heard already or is a recording played back: it is dropped. One past the last is the next;
// further on, messages were lost on the way (a gap: the node reconciles with the store); a larger epoch is a
// restart. The numbers are kept across silences and reconnects, so a node that comes back after a partition is
// caught by its first word. Only listed peers reach here (envelope.ts), so the map stays as small as the venue.
import type { Channel } from './subjects.js'

export type Place = 'first' | 'next' | 'gap' | 'restart' | 'replayed'

interface PeerOrder {
  epoch: number
  last: Partial<Record<Channel, number>>
}

export class Sequences {
  private readonly peers = new Map<string, PeerOrder>()

  /** Where this message stands; every place but `replayed` moves the channel's last number to it. */
  admit(origin: string, channel: Channel, epoch: number, seq: number): Place {
    const p = this.peers.get(origin)
    if (!p) {
      this.peers.set(origin, { epoch, last: { [channel]: seq } })
      return 'first'
    }
    if (epoch < p.epoch) return 'replayed'
    if (epoch > p.epoch) {
      p.epoch = epoch
      p.last = { [channel]: seq }
      return 'restart'
    }
    const last = p.last[channel]
    if (last !== undefined && seq <= last) return 'replayed'
    p.last[channel] = seq
    return last === undefined ? 'first' : seq === last + 1 ? 'next' : 'gap'
  }

  /**
   * A heartbeat says the last batch its node sent: `behind` when this node has not heard it yet (lost on the way, or
   * sent into a dropped link), and the batches it missed are then taken as heard. A number at or below the last heard
   * loses nothing. Call after `admit` of the heartbeat.
   */
  sent(origin: string, lastSent: number): 'first' | 'heard' | 'behind' {
    const p = this.peers.get(origin)
    if (!p) return 'first'
    const last = p.last.events
    if (last !== undefined && lastSent <= last) return 'heard'
    p.last.events = lastSent
    return last === undefined ? 'first' : 'behind'
  }
}
