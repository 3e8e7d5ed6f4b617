/**
 * src/schema's boot checks of field specs (what ajv would refuse or silently ignore: reserved field
 * names, non-scalar path parameters, defaults that break their own constraints...), turned into
 * diagnostics at the field's declaration. Issues of fields the decoder already reported are skipped,
 * and a schema used as a body is checked once, as a schema.
 */
import type { Diagnostics } from '../../diag/diagnostic.js';
import { fieldsWithErrors } from '../../manifest/field.js';
import { checkObjectType, checkRequestSpec, type SchemaIssue } from '../../schema/check.js';
import type { ObjectTypeSpec } from '../../schema/field.js';
import type { EndpointModel } from '../types.js';

export function checkFieldSpecs(schemas: ReadonlyMap<string, ObjectTypeSpec>, endpoints: readonly EndpointModel[], diags: Diagnostics): void {
  const seen = new Set<string>();
  const report = (issues: readonly SchemaIssue[], path: readonly string[]): void => {
    for (const issue of issues) {
      if (issue.range && fieldsWithErrors.has(issue.range)) continue;
      const key = `${issue.range ? `${issue.range.filename}:${issue.range.start.byte}` : issue.field}|${issue.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      diags.add({
        severity: 'error',
        summary: 'Invalid field declaration',
        detail: `${issue.field}: ${issue.message}.`,
        ...(issue.range ? { subject: issue.range } : {}),
        path,
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
