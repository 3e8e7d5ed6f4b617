/**
 * The one ajv instance of the process. Every validator is compiled on it at boot; nothing compiles at
 * request time.
 */
import Ajv2020Module, { type Ajv2020 } from 'ajv/dist/2020.js';
import { compileRegex } from '../regex/index.js';
import { FORMATS } from './formats.js';
import { allDistinct, UNIQUE_ITEMS_KEYWORD } from './unique.js';

// ajv is CommonJS: under NodeNext the default import is `module.exports`, whose `.default` is the class
// (ajv sets both), which is also what the type declarations describe.
const Ajv = Ajv2020Module.default;

let instance: Ajv2020 | undefined;

/**
 * ajv's `code.regExp`: called with the pattern and `u`. The `u` is the meaning src/regex always gives.
 * `code` names the engine only in standalone code, which svc does not generate.
 */
const linearRegExp = Object.assign((pattern: string, _flags: string) => compileRegex(pattern), { code: 'compileRegex' });

export function sharedAjv(): Ajv2020 {
  if (instance !== undefined) return instance;
  instance = new Ajv({
    // Report every failed constraint at once (SPEC.md §7 rule 2).
    allErrors: true,
    // Defaults are injected while validating, so steps see them (SPEC.md §2.4 rule 5).
    useDefaults: true,
    // Strict: an unknown keyword or format, or a keyword that cannot apply, is a boot error rather
    // than a constraint silently not checked.
    strict: true,
    // `default = null` makes `type: [T, "null"]` (json-schema.ts).
    allowUnionTypes: true,
    // Only the spec's formats exist; ajv's own would otherwise not be loaded anyway (no ajv-formats
    // plugin), and an unknown name must fail at compile time.
    formats: { ...FORMATS },
    // The schemas carry no $id and are never referenced by other schemas.
    addUsedSchema: false,
    // svc writes every schema itself (json-schema.ts), and `strict` still refuses an unknown keyword:
    // checking each against the draft's meta-schema only cost a boot the meta-schema's compilation
    // (70 ms of the quickstart's start; bench/users README "A lighter start").
    validateSchema: false,
    // `pattern` runs in linear time (src/regex): a backtracking engine lets one request value stall the
    // process. check.ts refuses at boot what src/regex cannot compile, so this never throws.
    code: { regExp: linearRegExp },
  });
  instance.addKeyword({
    keyword: UNIQUE_ITEMS_KEYWORD,
    type: 'array',
    schemaType: 'boolean',
    validate: (enabled: boolean, data: unknown[]) => !enabled || allDistinct(data),
  });
  return instance;
}
