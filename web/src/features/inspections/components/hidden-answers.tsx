interface HiddenAnswersProps {
  /** Items hidden by the template's rules that were answered while they showed: label and answer in words. */
  entries: Array<{ key: string; text: string }>;
}

/** Answers kept but not counted: their items were answered, then later answers hid them (docs/inspections.md, "Logic"). */
export function HiddenAnswers({ entries }: HiddenAnswersProps) {
  return (
    <section className="panel" aria-labelledby="hidden-answers-heading">
      <h2 id="hidden-answers-heading">Answers not counted</h2>
      <p className="muted">
        These items were answered while they applied. Later answers hid them, so their answers are kept but not scored, required or followed
        up.
      </p>
      <ul>
        {entries.map((entry) => (
          <li key={entry.key}>{entry.text}</li>
        ))}
      </ul>
    </section>
  );
}
