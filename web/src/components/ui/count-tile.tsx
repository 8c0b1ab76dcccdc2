import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import './count-tile.css';

// Counts shown as tiles (the dashboard's, and the week's compliance figures): each a link to the
// list it counts, filtered the same way. They go in a `<ul className="count-tiles">`.

interface CountTileProps {
  to: string;
  /** The figure: a count, or a rate ("92%"). */
  count: ReactNode;
  /** Shown in the danger colour: the caller says when (a count above zero of something overdue or missed). */
  alert?: boolean;
  /** The label, with its icon if it has one. */
  children: ReactNode;
}

export function CountTile({ to, count, alert = false, children }: CountTileProps) {
  return (
    <li>
      <Link to={to} className={`count-tile${alert ? ' count-tile-alert' : ''}`}>
        <span className="count-tile-number">{count}</span>
        <span className="count-tile-label">{children}</span>
      </Link>
    </li>
  );
}

/** A tile's place while its count loads, of the same size, so nothing jumps when it arrives. */
function CountTileLoading() {
  return (
    <li>
      <span className="count-tile count-tile-loading">
        <span className="count-tile-number">–</span>
        <span className="count-tile-label">Loading…</span>
      </span>
    </li>
  );
}

/** While counts load, tiles of the same size hold their place, so nothing jumps when they arrive. */
export function CountTilesLoading({ count, label }: { count: number; label: string }) {
  return (
    <ul className="count-tiles" aria-label={label} aria-busy="true">
      {Array.from({ length: count }, (_, i) => (
        <CountTileLoading key={i} />
      ))}
    </ul>
  );
}
