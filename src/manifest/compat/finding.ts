/**
 * What a compatibility rule reports: one diagnostic and the edits that say the same thing in svc's
 * own spelling. A warning's edits are what the loader decodes and what `svc fmt --fix` writes; an
 * error's edits only keep the loader from reporting the same construct a second time.
 */
import type { Diagnostic, Range } from '../../diag/index.js';
import type { Attribute, Block, File } from '../../hcl/index.js';
import type { Edit } from './edit.js';

export interface Finding {
  readonly diagnostic: Diagnostic;
  readonly edits: readonly Edit[];
}

/** The files of the manifest by name, for the text of a range. */
export class Sources {
  private readonly texts: Map<string, string>;
  private readonly bytes = new Map<string, Buffer>();

  constructor(files: readonly File[]) {
    this.texts = new Map(files.map((f) => [f.filename, f.source]));
  }

  /** A file's UTF-8 bytes, made when first needed (most manifests have no hclapi construct). */
  private get byName(): { get(name: string): Buffer | undefined } {
    return {
      get: (name) => {
        let b = this.bytes.get(name);
        if (b === undefined) {
          const text = this.texts.get(name);
          if (text === undefined) return undefined;
          b = Buffer.from(text, 'utf8');
          this.bytes.set(name, b);
        }
        return b;
      },
    };
  }

  text(r: Range): string {
    return this.byName.get(r.filename)?.subarray(r.start.byte, r.end.byte).toString('utf8') ?? '';
  }

  /** The whitespace before `r` on its line, when nothing else is (the indentation of a line's item). */
  indent(r: Range): string {
    const bytes = this.byName.get(r.filename);
    if (!bytes) return '';
    let i = r.start.byte;
    while (i > 0 && (bytes[i - 1] === 0x20 || bytes[i - 1] === 0x09)) i--;
    return i === 0 || bytes[i - 1] === 0x0a ? bytes.subarray(i, r.start.byte).toString('utf8') : '';
  }

  /**
   * An edit removing an item (an attribute or a block): its whole line(s) when nothing else shares
   * them, else just its text.
   */
  remove(item: Attribute | Block): Edit {
    const r = item.range;
    const bytes = this.byName.get(r.filename)!;
    let start = r.start.byte;
    while (start > 0 && (bytes[start - 1] === 0x20 || bytes[start - 1] === 0x09)) start--;
    let end = r.end.byte;
    while (end < bytes.length && (bytes[end] === 0x20 || bytes[end] === 0x09 || bytes[end] === 0x0d)) end++;
    // A trailing comment stays with the line it is on.
    const ownLine = (start === 0 || bytes[start - 1] === 0x0a) && (end === bytes.length || bytes[end] === 0x0a);
    if (ownLine) return { filename: r.filename, start, end: Math.min(bytes.length, end + 1), text: '' };
    return { filename: r.filename, start: r.start.byte, end: r.end.byte, text: '' };
  }
}

export function replace(r: Range, text: string): Edit {
  return { filename: r.filename, start: r.start.byte, end: r.end.byte, text };
}

export function insertAt(filename: string, byte: number, text: string): Edit {
  return { filename, start: byte, end: byte, text };
}

/** A warning: an hclapi spelling accepted with its svc meaning. */
export function alias(summary: string, subject: Range, detail: string, edits: readonly Edit[], path?: readonly string[]): Finding {
  return { diagnostic: { severity: 'warning', summary, subject, detail, ...(path ? { path } : {}) }, edits };
}
