import type { TemplateDefinition } from '@schemas/templates';
import type { Visibility } from '@schemas/visibility';
import { useEffect, useState } from 'react';

type Evaluate = (definition: TemplateDefinition, answerOf: (key: string) => unknown) => Visibility;

let evaluate: Evaluate | null = null;
let loading: Promise<Evaluate> | null = null;

/**
 * Until the evaluator is here (a moment, once per visit; the service worker keeps it for offline
 * use): every section and item with a rule is hidden, so nothing shows that the rules might hide,
 * and items only ever appear once it has loaded.
 */
function provisional(definition: TemplateDefinition): Visibility {
  const hiddenSections = definition.sections.filter((section) => section.show_when).map((section) => section.key);
  const hiddenItems = definition.sections.flatMap((section) =>
    section.items.filter((item) => section.show_when || item.show_when).map((item) => item.key),
  );
  return { hiddenSections, hiddenItems };
}

/**
 * Which sections and items the template's rules hide for the answers `answerOf` gives (docs/
 * templates.md, "Logic"): the same evaluator (@schemas/visibility) as the editor's preview and,
 * in SQL, submit and scoring. Most templates have no rule; their run page never loads it, which
 * keeps it out of the page's first load (docs/offline.md, "Weight").
 */
export function useVisibility(definition: TemplateDefinition, answerOf: (key: string) => unknown): Visibility {
  const needed = definition.sections.some((section) => section.show_when || section.items.some((item) => item.show_when));
  const [, setLoaded] = useState(evaluate !== null);
  useEffect(() => {
    if (!needed || evaluate) return;
    let mounted = true;
    loading ??= import('@schemas/visibility').then((module) => (evaluate = module.evaluateVisibility));
    loading.then(
      () => mounted && setLoaded(true),
      () => {
        // Offline before it was ever fetched: try again on the next visit.
        loading = null;
      },
    );
    return () => {
      mounted = false;
    };
  }, [needed]);
  if (!needed) return { hiddenSections: [], hiddenItems: [] };
  return evaluate ? evaluate(definition, answerOf) : provisional(definition);
}
