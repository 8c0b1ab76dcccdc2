import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router-dom';

/** The frame of the signed-in app: a header with navigation, then the page. */
export function AppLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="app-shell">
      <header className="app-header">
        <Link to="/" className="brand-link">
          Fieldcheck
        </Link>
        <nav aria-label="Main">
          <NavLink to="/" end>
            Home
          </NavLink>
          <NavLink to="/account">Account</NavLink>
        </nav>
      </header>
      <main className="app-main">
        <h1>{title}</h1>
        {children}
      </main>
    </div>
  );
}
