// The web's names for the shared response types; the answers batch types follow the contract.
import type { InspectionAnswer, Inspection } from '@schemas/inspections';

export type { Inspection, InspectionAttachment as Attachment, InspectionCreate, InspectionDetail, InspectionStatus } from '@schemas/inspections';
export type { TemplateItem, TemplateVersion } from '@schemas/templates';

/** One answer row, as the detail, the answers route and stale_version's `current` carry it. */
export type Answer = InspectionAnswer;

/** One entry of `PUT …/answers`. */
export interface AnswerInput {
  item_key: string;
  value: unknown;
  note: string | null;
  /** The answer version this change was made from; null when there was no answer yet. */
  base_version: number | null;
}

/** The answer of `PUT …/answers`. */
export interface SavedAnswers {
  answers: Answer[];
  inspection: Pick<Inspection, 'id' | 'score' | 'max_score' | 'failed_count' | 'version'>;
}
