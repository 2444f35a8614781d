// PubChan client (protocol v1): one WebSocket, reconnected with backoff; every subscription is
// renewed after a reconnect with afterSeq + epoch so the server replays what was missed (or says resync).
import { ApiError, OVER_WEBSOCKET, refreshPageToken, reportAuthError, token } from './api';
import { serverPacketProblem, isServerPacket } from './packets';
import type { ClientPacket, ServerPacket, SubscribePacket } from './protocol.gen';
import type { Packet } from './types';

export type ConnState = 'connecting' | 'open' | 'closed' | 'unauthorized';

interface Sub {
  lastSeq: number | null;
}

export class PubChan {
  private ws: WebSocket | null = null;
  private epoch: string | null = null;
  private subs = new Map<string, Sub>();
  private attempt = 0;
  private timer: number | undefined;
  private stopped = false;
  private pending = new Map<string, { resolve: () => void; reject: (e: Error) => void }>();
  scriptedOffline: boolean | null = null;

  constructor(
    private readonly onPacket: (p: Packet) => void,
    private readonly onState: (s: ConnState) => void,
  ) {}

  connect(): void {
    if (this.stopped) return;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const protocols = ['parley.v1'];
    const tok = token();
    if (tok) protocols.push('parley-token.' + tok);
    this.onState('connecting');
    let ws: WebSocket;
    try {
      ws = new WebSocket(`${proto}//${location.host}/ws`, protocols);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.send({ type: 'hello', protocol: 1 });
    };
    ws.onmessage = (ev) => {
      let value: unknown;
      try {
        value = JSON.parse(String(ev.data));
      } catch {
        return;
      }
      // A packet this page does not understand is left out, said once in the console.
      if (isServerPacket(value)) this.handle(value);
      else console.warn(`PubChan: packet ignored: ${serverPacketProblem(value)}`);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.welcomed = false;
      for (const [, w] of this.pending) w.reject(new Error('connection closed'));
      this.pending.clear();
      if (ev.code === 4401) {
        // A restarted server has a new secret: take it from the page and connect again.
        void refreshPageToken().then((fresh) => {
          if (fresh) {
            this.connect();
            return;
          }
          this.stopped = true;
          this.onState('unauthorized');
          reportAuthError();
        });
        return;
      }
      this.onState('closed');
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    const delay = Math.min(10000, 300 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
    this.attempt++;
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => this.connect(), delay);
  }

  private handle(p: ServerPacket): void {
    if (p.type === 'welcome') {
      const epoch = p.epoch;
      const sameEpoch = this.epoch === epoch;
      this.scriptedOffline = p.scriptedOffline;
      const previousEpoch = this.epoch;
      if (this.epoch === null || !sameEpoch) this.epoch = epoch;
      if (this.ws && this.ws.readyState === WebSocket.OPEN && !this.welcomed) {
        this.welcomed = true;
        this.onState('open');
        for (const [id, sub] of this.subs) {
          if (previousEpoch !== null && sub.lastSeq === null) {
            // Subscribed before the drop but saw no event: nothing to resume from; start live and refetch.
            this.sendSubscribe(id, sub, null);
            this.onPacket({ type: 'resync', dialog: { selfId: id }, local: true });
          } else {
            this.sendSubscribe(id, sub, previousEpoch);
          }
        }
      }
      return;
    }
    if (p.type === 'ack' || p.type === 'error') {
      const ref = p.ref ?? null;
      const w = ref ? this.pending.get(ref) : undefined;
      if (w && ref) {
        this.pending.delete(ref);
        if (p.type === 'ack') w.resolve();
        // The same codes as REST's: an ApiError, so the UI says its code in the page's language.
        else w.reject(new ApiError(OVER_WEBSOCKET, p.code || 'error', p.message || p.code || 'error'));
        return;
      }
    }
    // A dialog's events carry the seq to resume from after a reconnect.
    if ('seq' in p) {
      const sub = this.subs.get(p.dialog.selfId);
      if (sub && p.type === 'resync') sub.lastSeq = p.seq;
      else if (sub) sub.lastSeq = Math.max(sub.lastSeq ?? 0, p.seq);
    }
    this.onPacket(p);
  }

  private welcomed = false;

  get isOpen(): boolean {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN && this.welcomed;
  }

  private sendSubscribe(id: string, sub: Sub, epoch: string | null): void {
    const pkt: SubscribePacket = { type: 'subscribe', dialog: { selfId: id } };
    if (sub.lastSeq !== null && epoch) {
      pkt.afterSeq = sub.lastSeq;
      pkt.epoch = epoch;
    }
    this.send(pkt);
  }

  /** Subscribes to a dialog's live events (from now on). */
  subscribe(id: string): void {
    if (this.subs.has(id)) return;
    const sub: Sub = { lastSeq: null };
    this.subs.set(id, sub);
    if (this.isOpen) this.sendSubscribe(id, sub, null);
  }

  unsubscribe(id: string): void {
    if (!this.subs.delete(id)) return;
    if (this.isOpen) this.send({ type: 'unsubscribe', dialog: { selfId: id } });
  }

  subscribed(): string[] {
    return [...this.subs.keys()];
  }

  send(p: ClientPacket): boolean {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(p));
    return true;
  }

  /** Sends an input packet and resolves on its `ack` (ref = msgId or type). */
  request(p: ClientPacket, ref: string): Promise<void> {
    return new Promise((resolve, reject) => {
      if (!this.isOpen) {
        reject(new Error('not connected'));
        return;
      }
      this.pending.set(ref, { resolve, reject });
      this.send(p);
    });
  }

}
