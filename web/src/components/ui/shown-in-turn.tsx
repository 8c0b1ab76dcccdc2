import { Fragment, useEffect, useMemo, useState, type ReactNode } from 'react';

interface ShownInTurnProps<Item> {
  items: readonly Item[];
  /** How many show in the first render. */
  first: number;
  /** How many more show in each of the following tasks. */
  step: number;
  /** One item's element, keyed. */
  children: (item: Item, index: number) => ReactNode;
}

/**
 * A long list mounted a part at a time: `first` items in the first render, then `step` more in each
 * following task (a timer between them lets the browser paint and answer input), until all show;
 * after that every render shows all of them. A page of hundreds of elements is then never one long
 * task (docs/offline.md, "Weight": the run page of a 500-item template).
 *
 * Written here, in a few lines, rather than taken from a library: React's transitions slice a
 * render by themselves but fall back to one blocking render whenever a store the page reads
 * (react-query's cache, the outbox) changes meanwhile — on a page that is loading, most of the
 * time; list virtualisers take what is scrolled away out of the page, which changes find-in-page,
 * focus, and the tests that scroll to an item.
 */
export function ShownInTurn<Item>({ items, first, step, children }: ShownInTurnProps<Item>) {
  const [shown, setShown] = useState(first);
  const total = items.length;
  useEffect(() => {
    if (shown >= total) return;
    const timer = setTimeout(() => setShown((count) => count + step), 0);
    return () => clearTimeout(timer);
  }, [shown, total, step]);
  // A turn adds elements and keeps those made before (the same objects, which React does not render
  // again); a render of the page around it (new items or a new `children`) makes them all anew.
  const elements = useMemo<ReactNode[]>(() => [], [items, children]);
  for (let index = elements.length; index < Math.min(shown, total); index++) elements.push(children(items[index], index));
  return <Fragment>{elements.slice(0, shown)}</Fragment>;
}
