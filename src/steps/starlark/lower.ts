/** `starlark` blocks -> StarlarkStepSpec: the decoder of the kind's definition. */
import { dirname } from 'node:path';
import type { Block } from '../../hcl/index.js';
import {
  type BodySchema,
  type FileAccess,
  type LowerContext,
  blockHeader,
  decodeBody,
  readContainedFile,
  readDuration,
  readInt,
  readString,
  resolveFile,
} from '../../manifest/index.js';
import { collectModules } from './modules.js';
import type { StarlarkStepSpec } from './spec.js';

const STARLARK_BODY: BodySchema = { attributes: { source: {}, file: {}, max_steps: {}, timeout: {} } };

export function lower(block: Block, cx: LowerContext): StarlarkStepSpec | undefined {
  const s = cx.scope;
  const d = decodeBody(block.body, STARLARK_BODY, s, block);
  const sourceAttr = d.attrs.get('source');
  const fileAttr = d.attrs.get('file');
  const maxSteps = readInt(d.attrs.get('max_steps'), s, { min: 1 });
  const timeoutMs = readDuration(d.attrs.get('timeout'), s);
  const common = {
    kind: 'starlark' as const,
    name: block.labels[0]!,
    ...(maxSteps !== undefined ? { maxSteps } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    range: block.range,
    blockPath: s.path,
  };
  if (sourceAttr && fileAttr) {
    s.error('Conflicting arguments', fileAttr.nameRange, { detail: 'Give the program inline (`source`) or as a `file`, not both.' });
    return undefined;
  }
  if (sourceAttr) {
    const source = readString(sourceAttr, s);
    if (source === undefined) return undefined;
    if (!/\bdef\s+execute\s*\(/.test(source)) {
      s.error('Missing execute function', sourceAttr.expr.range, { detail: "A starlark step's program defines `def execute(ctx):` and returns its result." });
    }
    const loads = modulesOf(source, block.range.filename, s.baseDir, cx.env.files);
    return { ...common, source, sourceName: block.range.filename, sourceRange: sourceAttr.expr.range, ...loads };
  }
  if (fileAttr) {
    const name = readString(fileAttr, s);
    if (name === undefined) return undefined;
    const f = resolveFile(fileAttr, name, s.baseDir, cx.env.files, s);
    if (!f) return undefined;
    const source = f.text ?? '';
    const loads = modulesOf(source, f.path, dirname(f.path), cx.env.files);
    return { ...common, source, sourceName: f.path, file: f.path, ...loads };
  }
  s.error('Missing required argument', blockHeader(block), { detail: 'A starlark step needs `source` (inline program) or `file`.' });
  return undefined;
}

/** The modules the program loads (./modules.ts), read now; one that cannot be read fails its `load` at boot. */
function modulesOf(source: string, sourceName: string, dir: string, files: FileAccess): Pick<StarlarkStepSpec, 'modules' | 'moduleDir'> | undefined {
  if (!/\bload\s*\(/.test(source)) return undefined;
  const modules = collectModules(source, sourceName, dir, (path) => {
    const file = readContainedFile(path, dir, files);
    if (!file.ok) return { problem: `${file.summary.toLowerCase()}: ${file.detail}` };
    return file.text === undefined ? { problem: 'an in-memory build reads no files' } : { text: file.text };
  });
  return { modules, moduleDir: dir };
}
