import { ArrowDown, ArrowUp } from 'lucide-react';
import { Button } from '@/components/ui/button';

interface MoveButtonsProps {
  /** What moves, in the buttons' names: "Move {name} up". */
  name: string;
  /** Marks the buttons `{focusKey}:up` / `{focusKey}:down` for the editor's focus after a move. */
  focusKey: string;
  first: boolean;
  last: boolean;
  onMove: (delta: -1 | 1) => void;
}

/** The up and down buttons of a section or an item in the editor. */
export function MoveButtons({ name, focusKey, first, last, onMove }: MoveButtonsProps) {
  return (
    <>
      <Button
        variant="secondary"
        className="button-icon"
        aria-label={`Move ${name} up`}
        data-focus={`${focusKey}:up`}
        disabled={first}
        onClick={() => onMove(-1)}
      >
        <ArrowUp aria-hidden="true" size={18} />
      </Button>
      <Button
        variant="secondary"
        className="button-icon"
        aria-label={`Move ${name} down`}
        data-focus={`${focusKey}:down`}
        disabled={last}
        onClick={() => onMove(1)}
      >
        <ArrowDown aria-hidden="true" size={18} />
      </Button>
    </>
  );
}
