import { useMemo, useRef } from 'react';

/** A random v4 UUID; crypto.randomUUID exists only in secure contexts (https or localhost). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface IdempotencyKeys {
  /** The key for submitting `body`: the same key while the same body is retried, a new one otherwise. */
  keyFor: (body: unknown) => string;
  /** Forgets the key after a success, so the next submit is a new request even with equal fields. */
  reset: () => void;
}

/** One Idempotency-Key per submit of a form, reused when that submit is retried after a failure. */
export function useIdempotencyKey(): IdempotencyKeys {
  const last = useRef<{ fingerprint: string; key: string } | null>(null);
  return useMemo(
    () => ({
      keyFor(body: unknown) {
        const fingerprint = JSON.stringify(body ?? null);
        if (last.current?.fingerprint !== fingerprint) last.current = { fingerprint, key: newIdempotencyKey() };
        return last.current.key;
      },
      reset() {
        last.current = null;
      },
    }),
    [],
  );
}
