/**
 * src/schema's boot checks of field specs (what ajv would refuse or silently ignore: reserved field
 * names, non-scalar path parameters, defaults that break their own constraints...), turned into
 * diagnostics at the offending attribute of the field (its name when no attribute is at fault), with
 * the field's block path. Issues of fields the decoder already reported are skipped, and a schema
 * used as a body is checked once, as a schema.
 */
import type { Diagnostics } from '../../diag/diagnostic.js';
import type { Range } from '../../diag/range.js';
import { fieldSites, type FieldSite } from '../../manifest/field.js';
import { checkObjectType, checkRequestSpec, type SchemaIssue } from '../../schema/check.js';
import type { ObjectTypeSpec } from '../../schema/field.js';
import type { EndpointModel } from '../types.js';

export function checkFieldSpecs(schemas: ReadonlyMap<string, ObjectTypeSpec>, endpoints: readonly EndpointModel[], diags: Diagnostics): void {
  const seen = new Set<string>();
  const report = (issues: readonly SchemaIssue[], path: readonly string[]): void => {
    for (const issue of issues) {
      const site = issue.range ? fieldSites.get(issue.range) : undefined;
      if (site?.reported) continue;
      const key = `${issue.range ? `${issue.range.filename}:${issue.range.start.byte}` : issue.field}|${issue.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const subject = (site && subjectOf(issue.message, site)) ?? issue.range;
      diags.add({
        severity: 'error',
        summary: 'Invalid field declaration',
        detail: `${issue.field}: ${issue.message}.`,
        ...(subject ? { subject } : {}),
        path: site?.path ?? path,
      });
    }
  };
  for (const [name, schema] of schemas) report(checkObjectType(schema), [`schema ${JSON.stringify(name)}`]);
  for (const e of endpoints) {
    // A named body was checked as its schema above; only the endpoint's own coordinates remain.
    const request = e.request.body?.name !== undefined ? { ...e.request, body: undefined } : e.request;
    report(checkRequestSpec(request), e.blockPath);
  }
}

/**
 * The attribute an issue of src/schema/check.ts is about, read from its wording (a SchemaIssue names
 * the field, not the attribute): `the default ...`, `enum value ...`, `unknown format ...`, a type
 * that cannot arrive as text, or a `keyword` in backquotes. Undefined when the field itself is meant
 * (a reserved name, a duplicate), or when the attribute is not written (a default-less `required`).
 */
function subjectOf(message: string, site: FieldSite): Range | undefined {
  const attr = /^the default\b/.test(message)
    ? 'default'
    : /^enum value\b/.test(message)
      ? 'enum'
      : /^unknown format\b/.test(message)
        ? 'format'
        : /arrives as text/.test(message)
          ? 'type'
          : /^`(\w+)`/.exec(message)?.[1];
  const a = attr !== undefined ? site.attrs.get(attr) : undefined;
  if (!a) return undefined;
  // "applies to" points at the name, as the decoder's "Constraint does not apply" does; values at the value.
  return /applies to/.test(message) ? a.nameRange : a.expr.range;
}
