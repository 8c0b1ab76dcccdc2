// The editor's preview expansion, off the page's thread (occurrence-expansion.ts says why): one
// message in, the occurrences of each input out. It says when it is ready, so that the time it
// takes to load is not counted against a rule.
import { nextOccurrences, type ExpansionInput, type PreviewOccurrence } from './occurrence-expansion';

export interface PreviewRequest {
  id: number;
  inputs: ExpansionInput[];
}

export type PreviewResponse = { ready: true } | { id: number; results: PreviewOccurrence[][] } | { id: number; failed: true };

const scope = self as unknown as { onmessage: ((event: MessageEvent<PreviewRequest>) => void) | null; postMessage: (message: PreviewResponse) => void };

scope.onmessage = (event) => {
  const { id, inputs } = event.data;
  try {
    scope.postMessage({ id, results: inputs.map(nextOccurrences) });
  } catch {
    scope.postMessage({ id, failed: true });
  }
};
scope.postMessage({ ready: true });
