// The editor's preview expansion, off the page's thread (occurrence-expansion.ts says why): one
// message in, the occurrences of each input out.
import { nextOccurrences, type ExpansionInput, type PreviewOccurrence } from './occurrence-expansion';

export interface PreviewRequest {
  id: number;
  inputs: ExpansionInput[];
}

export type PreviewResponse = { id: number; results: PreviewOccurrence[][] } | { id: number; failed: true };

const scope = self as unknown as { onmessage: ((event: MessageEvent<PreviewRequest>) => void) | null; postMessage: (message: PreviewResponse) => void };

scope.onmessage = (event) => {
  const { id, inputs } = event.data;
  try {
    scope.postMessage({ id, results: inputs.map(nextOccurrences) });
  } catch {
    scope.postMessage({ id, failed: true });
  }
};
