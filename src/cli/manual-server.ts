/**
 * The HTTP server of `svc docs`: the package's Markdown (the manual, README, bench and example
 * READMEs) rendered on each request, so an edit shows on reload. URLs mirror the package's layout so
 * the manual's relative links work as written. A local reading aid: plain node:http, GET and HEAD,
 * only `.md` files inside the package root (real path, links resolved), no dot segments.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile, realpath, stat } from 'node:fs/promises';
import { sep } from 'node:path';
import { manualPage } from '../docs/index.js';

/** Where the table of contents is, from the package root. */
const TOC = '/docs/README.md';
/** No page of the manual comes near this; a larger file is not one. */
const MAX_PAGE_BYTES = 4 * 1024 * 1024;

export interface ManualServer {
  /** `http://host:port` with the port actually bound. */
  readonly url: string;
  close(): Promise<void>;
}

export interface ManualServerOptions {
  /** The package root: the directory holding docs/. */
  readonly root: string;
  readonly host: string;
  readonly port: number;
  /** Where a page that cannot be rendered is reported (a bug: the text is Markdown). */
  readonly onError: (message: string) => void;
}

export async function startManualServer(options: ManualServerOptions): Promise<ManualServer> {
  const root = await realpath(options.root);
  const server = createServer((request, response) => {
    answer(root, request, response).catch((error: unknown) => {
      options.onError(`${request.url}: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) send(response, 500, 'The page could not be rendered', request.method === 'HEAD');
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function answer(root: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const head = request.method === 'HEAD';
  if (request.method !== 'GET' && !head) {
    response.setHeader('Allow', 'GET, HEAD');
    return send(response, 405, 'Only GET and HEAD', false);
  }
  const path = pathOf(request.url ?? '/');
  if (path === undefined) return send(response, 400, 'Not a valid path', head);
  if (path === '/') {
    response.writeHead(302, { Location: TOC, 'Content-Length': 0 });
    response.end();
    return;
  }
  const file = await markdownFile(root, path);
  if (file === undefined) return send(response, 404, `No page of the manual at ${path}`, head);
  const html = manualPage(await readFile(file, 'utf8'), path === TOC ? undefined : TOC);
  response.writeHead(200, headers('text/html; charset=utf-8', Buffer.byteLength(html)));
  response.end(head ? undefined : html);
}

/** The request's path, decoded; undefined for one that does not decode or holds a NUL. */
function pathOf(url: string): string | undefined {
  try {
    const path = decodeURIComponent(new URL(url, 'http://manual.invalid').pathname);
    return path.includes('\0') ? undefined : path;
  } catch {
    return undefined;
  }
}

/** The `.md` file a path names inside the root, or undefined when there is none to show. */
async function markdownFile(root: string, path: string): Promise<string | undefined> {
  const segments = path.split('/').filter((s) => s !== '');
  if (segments.length === 0 || segments.some((s) => s.startsWith('.') || s.includes('\\'))) return undefined;
  if (!segments.at(-1)!.endsWith('.md')) return undefined;
  try {
    const file = await realpath(root + sep + segments.join(sep));
    if (!file.startsWith(root + sep)) return undefined;
    const info = await stat(file);
    return info.isFile() && info.size <= MAX_PAGE_BYTES ? file : undefined;
  } catch {
    return undefined;
  }
}

function headers(type: string, length: number): Record<string, string | number> {
  return {
    'Content-Type': type,
    'Content-Length': length,
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
    // The pages are rendered Markdown and a stylesheet: nothing else may load or run.
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'",
  };
}

function send(response: ServerResponse, status: number, message: string, head: boolean): void {
  const escaped = message.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const html = `<!doctype html>\n<title>${status}</title>\n<p>${escaped}. <a href="${TOC}">The svc manual</a></p>\n`;
  response.writeHead(status, headers('text/html; charset=utf-8', Buffer.byteLength(html)));
  response.end(head ? undefined : html);
}
