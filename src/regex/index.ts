/**
 * The regular expressions of a manifest: JavaScript syntax and meaning, matched in linear time
 * (RE2). Stands alone: imports only `re2js`, so both src/schema (`pattern`) and src/expr
 * (`replace()`) can use it.
 */
export { compileRegex, RegexError, type LinearRegex } from './compile.js';
