// The background workers (webhook-deliveries, reminder-mails) are woken by a POST carrying one of
// the project's own keys: the service-role key, or a secret key (sb_secret_…, not a JWT, so the
// gateway's verify_jwt is off for them and they check it here).

/** Only the project's own keys wake a worker (the service-role key, or a secret key). */
export function workerKeyAccepted(req: Request): boolean {
  const header = req.headers.get('authorization') ?? '';
  const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  if (!token) return false;
  const accepted = [Deno.env.get('SUPABASE_SERVICE_ROLE_KEY')];
  try {
    accepted.push(...Object.values(JSON.parse(Deno.env.get('SUPABASE_SECRET_KEYS') ?? '{}') as Record<string, string>));
  } catch {
    // No secret keys configured: the service-role key alone.
  }
  return accepted.some((key) => typeof key === 'string' && key.length > 0 && key === token);
}
