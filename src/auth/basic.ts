/**
 * `type = "basic"` (RFC 7617): `Authorization: Basic base64(user-id ":" password)`, the text UTF-8
 * (the challenge says `charset="UTF-8"`), split at the first colon, so a password may contain one.
 * The user name and the password are both compared in constant time, both always (./secrets.ts).
 */
import type { BasicAuthModel } from '../model/index.js';
import { credentialsOf } from './schemes.js';
import { SecretSet } from './secrets.js';
import { NO_CLAIMS, Refusal, type AuthContext, type GuardCheck } from './types.js';

/** Standard base64 with its padding, nothing else (Buffer.from would skip what it cannot read). */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

export const MISSING_DETAIL = 'this endpoint requires credentials';
export const INVALID_DETAIL = 'the credentials are not valid';

export function basicGuard(guard: BasicAuthModel): GuardCheck {
  const username = new SecretSet([guard.username]);
  const password = new SecretSet([guard.password]);
  const admitted: AuthContext = Object.freeze({ guard: guard.name, type: 'basic', principal: guard.username, claims: NO_CLAIMS });
  const refuse = (reason: string, presented: boolean): Refusal => new Refusal(401, guard.name, reason, presented ? INVALID_DETAIL : MISSING_DETAIL, presented);
  const missing = refuse('no Basic credentials', false);
  const malformed = refuse('malformed Basic credentials', true);
  const wrong = refuse('wrong user name or password', true);

  return (input) => {
    const credentials = credentialsOf(input, 'basic');
    if (credentials.kind === 'none' || credentials.kind === 'other') return missing;
    if (credentials.kind === 'malformed' || !BASE64.test(credentials.value)) return malformed;
    let text: string;
    try {
      text = UTF8.decode(Buffer.from(credentials.value, 'base64'));
    } catch {
      return malformed;
    }
    const colon = text.indexOf(':');
    if (colon < 0) return malformed;
    // Both comparisons run whatever the first found: `&&` would skip the password on a wrong name.
    const userOk = username.has(text.slice(0, colon));
    const passwordOk = password.has(text.slice(colon + 1));
    return userOk && passwordOk ? admitted : wrong;
  };
}
