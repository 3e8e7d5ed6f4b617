// The root of the value representation (see types.ts for the concrete
// classes): the Value union, the SValue base class and the runtime error type.
// It imports nothing, so that the thread (../thread.ts), which both the value
// classes and the value operations refer to, can build on it without a cycle.

export type Value = null | boolean | number | bigint | string | SValue;

export abstract class SValue {
  abstract get type(): string;
  /** Freeze this value and everything reachable from it. */
  freeze(): void {}
  truth(): boolean {
    return true;
  }
}

export interface RuntimePos {
  file: string;
  line: number;
  col: number;
}

/** A Starlark runtime error. Positions and frames are filled in while it unwinds. */
export class EvalErr extends Error {
  /** innermost-first frames recorded while unwinding */
  frames: { name: string; pos: RuntimePos | null }[] = [];
  /** position in the frame currently unwinding, not yet recorded */
  pos: RuntimePos | null = null;
  /** the kind of error, for hosts: 'eval' | 'steps' | 'timeout' | 'size' | 'stack' | 'fail' | 'cancelled' */
  kind: string;
  constructor(
    public msg: string,
    kind = 'eval',
  ) {
    super(msg);
    this.kind = kind;
  }
}
