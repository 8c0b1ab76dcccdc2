// The webhook delivery worker (docs/webhooks.md), a deployable of its own: woken every few
// seconds (pg_cron + pg_net on Supabase, the local stack's scheduler here) by a POST carrying the
// project's service-role or secret key. Each wake claims due deliveries from the outbox, sends them
// signed the Standard Webhooks way, and records every attempt; the database decides retries.
import { database } from '../_shared/db.ts';
import { deliverDue, workerKeyAccepted } from './worker.ts';

Deno.serve(async (req) => {
  if (req.method !== 'POST') return new Response(null, { status: 405, headers: { allow: 'POST' } });
  if (!workerKeyAccepted(req)) return Response.json({ code: 'unauthenticated' }, { status: 401 });
  const summary = await deliverDue(database());
  return Response.json(summary);
});
