/**
 * Source positions. Lines and columns are 1-based (columns count Unicode code points, as HCL does);
 * byte offsets are 0-based UTF-8 offsets into the file, so they match hashicorp/hcl's `hcl.Pos`.
 */
export interface Pos {
  readonly line: number;
  readonly column: number;
  readonly byte: number;
}

/** A half-open span [start, end) inside one file. */
export interface Range {
  readonly filename: string;
  readonly start: Pos;
  readonly end: Pos;
}

export function rangeBetween(from: Range, to: Range): Range {
  return { filename: from.filename, start: from.start, end: to.end };
}
