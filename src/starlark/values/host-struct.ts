// Struct-like values a host hands to a script (svc's `ctx`, `ctx.request`, `ctx.steps`): fields by
// attribute (`ctx.request`), by index (`ctx["request"]`) and by `in`, listed by dir(), seen by
// hasattr/getattr, printed by str() like struct(...). Immutable, like a struct: a script cannot add
// or replace a field, only mutate the (mutable) values it reads from one.

import { Struct, type Value } from './types.js';

/** An indexable struct over fields already converted (names are JS text, as a struct's are). */
export class HostStruct extends Struct {
  override get indexable(): boolean {
    return true;
  }
}

/**
 * A HostStruct over JS data whose fields are converted on first read, by `convert`, and kept: only
 * what a script reads is converted, and a script that mutates a value it read (a dict, a list)
 * sees its mutation on every later read of that field, while the JS data is never written (the
 * conversion copies). The whole struct is converted only when a script takes it as a whole
 * (str(), ==, hash, json.encode, returning it).
 */
export class LazyStruct extends HostStruct {
  #complete = false;
  constructor(
    private readonly source: Readonly<Record<string, unknown>>,
    private readonly convert: (value: unknown, name: string) => Value,
  ) {
    super(new Map());
  }

  override field(name: string): Value | undefined {
    const v = this.entries.get(name);
    if (v !== undefined || this.#complete) return v;
    if (!Object.hasOwn(this.source, name)) return undefined;
    const converted = this.convert(this.source[name], name);
    this.entries.set(name, converted);
    return converted;
  }

  override hasField(name: string): boolean {
    return this.entries.has(name) || Object.hasOwn(this.source, name);
  }

  override fieldNames(): string[] {
    return Object.keys(this.source);
  }

  override get fields(): ReadonlyMap<string, Value> {
    if (!this.#complete) {
      // in the source's order, whatever order the fields were read in
      const all = new Map<string, Value>();
      for (const name of this.fieldNames()) all.set(name, this.field(name)!);
      this.entries = all;
      this.#complete = true;
    }
    return this.entries;
  }
}
