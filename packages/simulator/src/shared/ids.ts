/** Deterministic ids shaped like the service's (`resp_…`, `item_…`, `event_…`): a prefix and a padded counter. */
export class IdGenerator {
  #counters = new Map<string, number>();

  next(
    prefix: 'event' | 'sess' | 'conv' | 'resp' | 'item' | 'call' | 'live' | 'dlg' | 'fc' | 'msg' | 'ditem',
  ): string {
    const n = (this.#counters.get(prefix) ?? 0) + 1;
    this.#counters.set(prefix, n);
    const width = prefix === 'event' ? 21 : 17;
    return `${prefix}_SIM${String(n).padStart(width - 3, '0')}`;
  }
}
