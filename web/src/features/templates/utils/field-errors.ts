// Where the editor shows each problem of a save: beside the field its path names
// (`definition.sections.0.items.3.options`), or at the nearest part of the template that is shown.

/** A rule's own places: the rule, all or any, each condition and its fields. */
const RULE = String.raw`\.show_when(\.(match|conditions(\.\d+(\.(item|op|value|values|min|max))?)?))?`;

/** The paths the editor has a place for, with indexes as `\d+`. */
const PLACED_PATH = new RegExp(
  String.raw`^(name|description|definition\.sections(\.\d+(\.title|${RULE}|\.items(\.\d+(\.(label|help|required|weight|fail_on|min|max|unit|max_photos|options(\.\d+)?)|${RULE})?)?)?)?)$`,
);

export interface PlacedErrors {
  /** Message by the path of the field or part that shows it. */
  byPath: Record<string, string>;
  /** Problems with no place in the editor, for the message above it. */
  elsewhere: string[];
}

function placeOf(field: string): string | null {
  // A failing option that isn't an option is a problem of the option list.
  let path = field.replace(/\.failing_options(\.\d+)?$/, '.options');
  // A condition's answers are one list of checkboxes.
  path = path.replace(/(\.show_when\.conditions\.\d+\.values)\.\d+$/, '$1');
  // A section's or item's key is generated, so its problem belongs to the section or item.
  path = path.replace(/\.(key|kind)$/, '');
  while (path !== '') {
    if (PLACED_PATH.test(path)) return path;
    const cut = path.lastIndexOf('.');
    path = cut === -1 ? '' : path.slice(0, cut);
  }
  return null;
}

export function placeErrors(fieldErrors: Record<string, string>): PlacedErrors {
  const byPath: Record<string, string> = {};
  const elsewhere: string[] = [];
  for (const [field, message] of Object.entries(fieldErrors)) {
    const place = placeOf(field);
    if (place === null) {
      if (!elsewhere.includes(message)) elsewhere.push(message);
    } else if (byPath[place] === undefined) {
      byPath[place] = message;
    } else if (!byPath[place].includes(message)) {
      byPath[place] = `${byPath[place]} ${message}`;
    }
  }
  return { byPath, elsewhere };
}

/** Section indexes that hold a problem, to open them. */
export function sectionsWithErrors(byPath: Record<string, string>): Set<number> {
  const indexes = new Set<number>();
  for (const path of Object.keys(byPath)) {
    const match = /^definition\.sections\.(\d+)/.exec(path);
    if (match) indexes.add(Number(match[1]));
  }
  return indexes;
}
