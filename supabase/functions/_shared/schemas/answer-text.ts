// An answer's value as a person reads it, for the CSV exports and the PDF report (docs/reports.md):
// "Pass", "Yes", "3.5 °C", "Wet floor; Blocked exit", "Signed by Mia Manager". No zod, no web code.

/** What of an item the wording needs: its kind and, for numbers, its unit. */
export interface ItemForText {
  kind: string;
  unit?: string | null;
}

const PASS_FAIL_TEXT: Record<string, string> = { pass: 'Pass', fail: 'Fail', na: 'N/A' };
const YES_NO_TEXT: Record<string, string> = { yes: 'Yes', no: 'No' };

/**
 * The value in words; '' when there is none (unanswered, cleared, or a photo item, whose photos
 * are counted apart). Choices of a multiple choice are joined with "; " because options may
 * themselves contain commas.
 */
export function answerText(item: ItemForText, value: unknown): string {
  if (value === null || value === undefined) return '';
  switch (item.kind) {
    case 'pass_fail':
      return PASS_FAIL_TEXT[String(value)] ?? String(value);
    case 'yes_no':
      return YES_NO_TEXT[String(value)] ?? String(value);
    case 'number':
      return item.unit ? `${String(value)} ${item.unit}` : String(value);
    case 'multi_choice':
      return Array.isArray(value) ? value.map(String).join('; ') : String(value);
    case 'signature': {
      const signer = (value as { signer?: unknown }).signer;
      return typeof signer === 'string' ? `Signed by ${signer}` : 'Signed';
    }
    case 'photo':
      return '';
    default:
      return typeof value === 'string' ? value : JSON.stringify(value);
  }
}
