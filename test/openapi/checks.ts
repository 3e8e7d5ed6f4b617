/**
 * The two judges every document must satisfy: a strict OpenAPI 3.1 schema validator
 * (@seriousme/openapi-schema-validator, the specification's own JSON Schema) and a linter
 * (Redocly's `recommended` rules, the engine behind `redocly lint`, run in-process and offline).
 */
import { BaseResolver, createConfig, lintDocument, makeDocumentFromString } from '@redocly/openapi-core';
import { Validator } from '@seriousme/openapi-schema-validator';

/** Every way the document departs from the OpenAPI 3.1 schema (unknown members included). */
export async function validationErrors(document: unknown): Promise<string[]> {
  const result = await new Validator().validate(document as Record<string, unknown>);
  if (result.valid) return [];
  if (typeof result.errors === 'string') return [result.errors];
  return (result.errors ?? []).map((e) => `${e.instancePath}: ${e.message ?? JSON.stringify(e)}`);
}

export interface LintProblem {
  readonly ruleId: string;
  readonly severity: string;
  readonly message: string;
  readonly where: string;
}

export async function lintProblems(document: unknown): Promise<LintProblem[]> {
  const config = await createConfig({ extends: ['recommended'] });
  const source = makeDocumentFromString(JSON.stringify(document), 'openapi.json');
  const problems = await lintDocument({ document: source, config, externalRefResolver: new BaseResolver() });
  return problems.map((p) => ({
    ruleId: p.ruleId,
    severity: p.severity,
    message: p.message,
    where: p.location.map((l) => l.pointer ?? '').join(' '),
  }));
}
