/**
 * Problem details (RFC 9457) as SPEC.md §2.6 and DECISIONS.md §2-3 define them.
 * Imports nothing: the expression function `problem()` and the HTTP adapter both build on it.
 */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export interface InvalidParam {
  name: string;
  reason: string;
  in?: 'path' | 'query' | 'header' | 'body';
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  invalid_params?: InvalidParam[];
  [extension: string]: unknown;
}

const REASON_PHRASES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  407: 'Proxy Authentication Required',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  411: 'Length Required',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  417: 'Expectation Failed',
  418: "I'm a teapot",
  421: 'Misdirected Request',
  422: 'Unprocessable Entity',
  423: 'Locked',
  424: 'Failed Dependency',
  425: 'Too Early',
  426: 'Upgrade Required',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  505: 'HTTP Version Not Supported',
  507: 'Insufficient Storage',
  508: 'Loop Detected',
  511: 'Network Authentication Required',
};

/** Kinds that DECISIONS.md §3 names differently from the kebab-cased reason phrase. */
const KIND_OVERRIDES: Readonly<Record<number, string>> = {
  400: 'bad-request',
  422: 'validation-error',
  500: 'internal',
  503: 'dependency-unavailable',
  504: 'timeout',
};

export function reasonPhrase(status: number): string {
  return REASON_PHRASES[status] ?? (status >= 500 ? 'Server Error' : status >= 400 ? 'Client Error' : 'Status ' + status);
}

/** `urn:svc:error:<kind>`, the kind being the reason phrase in kebab case unless decided otherwise. */
export function problemType(status: number): string {
  const kind = KIND_OVERRIDES[status] ?? kebab(reasonPhrase(status));
  return `urn:svc:error:${kind}`;
}

export function problem(status: number, title?: string, detail?: string, instance?: string): Problem {
  return {
    type: problemType(status),
    title: title ?? reasonPhrase(status),
    status,
    ...(detail !== undefined ? { detail } : {}),
    ...(instance !== undefined ? { instance } : {}),
  };
}

/** Marks values built by `problem()` so the adapter sends them as application/problem+json. */
export const PROBLEM_MARK: unique symbol = Symbol.for('svc.problem');

export function markProblem<T extends object>(value: T): T {
  Object.defineProperty(value, PROBLEM_MARK, { value: true, enumerable: false });
  return value;
}

export function isMarkedProblem(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[PROBLEM_MARK] === true;
}

function kebab(phrase: string): string {
  return phrase
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
