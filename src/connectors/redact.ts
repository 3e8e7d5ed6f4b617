/**
 * A URL as it may appear in a log line or a boot error: the password of its userinfo and any
 * `password=` query parameter are replaced by `***`. Written on the text, not through `new URL`, so a
 * URL the WHATWG parser would reject (or re-encode) is still shown as the user wrote it.
 */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/?#]*):[^/?#]*@/i, '$1:***@').replace(/([?&]password=)[^&#]*/gi, '$1***');
}

/**
 * `text` with the URL's password replaced by `***` wherever it appears (a driver may quote its
 * connection string in a message). Passwords shorter than 4 characters are left alone: replacing
 * every "ab" of a message would garble it more than it protects.
 */
export function scrubSecret(text: string, url: string): string {
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^:@/?#]*:([^/?#]*)@/i.exec(url) ?? /[?&]password=([^&#]*)/i.exec(url);
  const secret = match?.[1];
  if (secret === undefined || secret.length < 4) return text;
  let decoded = secret;
  try {
    decoded = decodeURIComponent(secret);
  } catch {
    // kept as written
  }
  let out = text;
  for (const s of new Set([secret, decoded])) if (s.length >= 4) out = out.split(s).join('***');
  return out;
}
