// The SQL of saving answers (answers.ts), as statements with their values written in as literals
// (sql-literal.ts), so they go to Postgres in one message. Apart from the route so that the answer
// bench (tests/bench/answer-save.ts) runs these very statements as its direct-SQL reference.
// Imports nothing but sql-literal.ts, so Node can load it too.
import { inline, type InlineSql } from '../_shared/sql-literal.ts';

/** An AnswerRow's columns of answers rows named `a`, with their author's profile as `p`. */
export const ANSWER_COLUMNS = inline`
  a.item_key, a.value, a.note, a.failed, a.answered_by, p.display_name as answered_by_name, a.answered_at, a.version
`;

/** Answers with their author's name; also the `answers` of an inspection's detail (inspections.ts reads it in one round trip). */
export const SELECT_ANSWERS = inline`select ${ANSWER_COLUMNS} from public.answers a left join public.profiles p on p.user_id = a.answered_by`;

/** What a batch is checked against: the inspection `l` and its pinned version `v`. */
export const CHECKED_INSPECTION_COLUMNS = inline`select l.status, private.inspection_status_label(l.status) as status_label, l.assignee_id, v.definition`;

/** The inspection and its pinned version's definition, locked until the transaction ends; no row outside `orgId`. */
export function lockInspectionStatement(orgId: string, id: string): InlineSql {
  return inline`
    ${CHECKED_INSPECTION_COLUMNS}
    from private.lock_inspection(${id}) l
    join public.template_versions v on v.id = l.template_version_id
    where l.org_id = ${orgId}
  `;
}

/** The inspection's current answers to `keys`. */
export function currentAnswersStatement(inspectionId: string, keys: string[]): InlineSql {
  return inline`${SELECT_ANSWERS} where a.inspection_id = ${inspectionId} and a.item_key in ${keys}`;
}

/** One answer of a checked batch: its value and note to write, and the version it has (null: a new answer). */
export interface AnswerToSave {
  item_key: string;
  value: unknown;
  note: string | null;
  version: number | null;
}

/**
 * The batch's one statement and the totals it leaves. Existing answers are updated and new ones
 * inserted, rather than one `insert … on conflict do update`: an upsert runs every before-row
 * trigger twice for a row that exists (insert, then update), which was half the batch's SQL time
 * (issue 15). The statement triggers still see one batch: one answers_saved message and one
 * score update after both parts (private.finish_answers_statement in supabase/schema.sql). Sent
 * together, the totals are read after the save's statement triggers have scored it.
 */
export function saveStatements(params: { org: string; id: string }, batch: AnswerToSave[]): [save: InlineSql, totals: InlineSql] {
  // A row exists when it has a version (versions start at 1).
  const rows = JSON.stringify(batch.map(({ item_key, value, note, version }) => ({ item_key, value, note, exists: version !== null })));
  return [
    inline`
      with input as (
        select e ->> 'item_key' as item_key, e -> 'value' as value, e ->> 'note' as note, (e ->> 'exists')::boolean as known, n
        from jsonb_array_elements(${rows}::jsonb) with ordinality as t (e, n)
      ), updated as (
        update public.answers a set value = i.value, note = i.note
        from input i
        where i.known and a.inspection_id = ${params.id} and a.item_key = i.item_key
        returning a.*
      ), inserted as (
        insert into public.answers (org_id, inspection_id, item_key, value, note)
        select ${params.org}, ${params.id}, item_key, value, note from input where not known order by n
        returning *
      ), saved as (
        select * from updated union all select * from inserted
      )
      select ${ANSWER_COLUMNS} from saved a left join public.profiles p on p.user_id = a.answered_by
    `,
    inline`select id, score, max_score, failed_count, version from public.inspections where id = ${params.id}`,
  ];
}
