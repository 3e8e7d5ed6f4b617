/**
 * src/schema's boot checks of field specs (what ajv would refuse or silently ignore: reserved field
 * names, non-scalar path parameters, defaults that break their own constraints...), turned into
 * diagnostics at the attribute each issue names (`SchemaIssue.attribute`; the field when none is at
 * fault), with the field's block path and the issue's severity (a `pattern` that may backtrack
 * catastrophically is a warning). Issues of fields the decoder already reported are skipped, and a schema
 * used as a body is checked once, as a schema.
 */
import type { Diagnostics } from '../../diag/index.js';
import { fieldSites } from '../../manifest/index.js';
import { checkObjectType, checkRequestSpec, type SchemaIssue, type ObjectTypeSpec } from '../../schema/index.js';
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
      const a = site && issue.attribute !== undefined ? site.attrs.get(issue.attribute) : undefined;
      // An attribute that does not apply points at its name, as the decoder's "Constraint does not
      // apply" does; a wrong value at the value; an issue of the field itself at the field.
      const subject = a ? (issue.inapplicable ? a.nameRange : a.expr.range) : issue.range;
      diags.add({
        severity: issue.severity,
        summary: issue.severity === 'error' ? 'Invalid field declaration' : 'Questionable field declaration',
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
