// What became of a schedule's occurrence (docs/schedules.md, "Missed, late, on time"), as SQL over
// inspections `i`: the one statement of it that the inspections list's filters, compliance, the
// dashboard and analytics share; and, beside it, when an action missed its due time (the actions
// list's filter and analytics' overdue). Its own module, without the routes' imports, so the
// analytics bench (Node) can build the same statements the api runs.
import { inline } from '../_shared/sql-literal.ts';

/**
 * Missed is derived (docs/schedules.md): a schedule's occurrence, not canceled, due and never
 * submitted. The same function as compliance and the background run ask (private.occurrence_missed).
 */
export const MISSED = inline`private.occurrence_missed(i.schedule_id, i.status, i.due_at, i.first_submitted_at, now())`;

/**
 * Compliance's figures as list filters: on time, late (by the first submission), missed. The
 * compliance counts filter by the same (COMPLIANCE_COUNTS in schedules.ts), so the two agree.
 */
export const OUTCOMES = {
  on_time: inline`(i.schedule_id is not null and i.status <> 'canceled' and i.first_submitted_at <= i.due_at)`,
  late: inline`(i.schedule_id is not null and i.status <> 'canceled' and i.first_submitted_at > i.due_at)`,
  missed: MISSED,
};

/**
 * An action missed its due time: past due and not resolved by then, over actions `a` — analytics'
 * overdue (docs/analytics.md) and the actions list's `missed_due`, which its figures link to.
 * Whether canceled actions count is the caller's to say (analytics leaves them out).
 */
export const MISSED_DUE = inline`(a.due_at <= now() and (a.resolved_at is null or a.resolved_at > a.due_at))`;
