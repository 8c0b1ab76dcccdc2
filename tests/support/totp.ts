// TOTP codes for tests, with the parameters GoTrue uses (RFC 6238: SHA-1, 6 digits, 30 s).
import * as OTPAuth from 'otpauth';

export function totpFor(secret: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
}

/** A code that is wrong in every time step the server accepts (now ± 1 step). */
export function wrongCode(secret: string): string {
  const totp = totpFor(secret);
  const valid = new Set([-30_000, 0, 30_000].map((offset) => totp.generate({ timestamp: Date.now() + offset })));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, '0');
    if (!valid.has(candidate)) return candidate;
  }
}
