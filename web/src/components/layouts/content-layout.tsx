import type { ReactNode } from 'react';

interface ContentLayoutProps {
  title: string;
  /** Shown under the heading, e.g. the organization's name. */
  description?: ReactNode;
  /** Buttons or links beside the heading ("Add site"). */
  actions?: ReactNode;
  children?: ReactNode;
  /** Use more of a wide screen (charts beside their tables). */
  wide?: boolean;
}

/** The main area of a signed-in page: its one h1, an optional line and actions, then the content. */
export function ContentLayout({ title, description, actions, children, wide = false }: ContentLayoutProps) {
  return (
    <main className={wide ? 'app-main app-main-wide' : 'app-main'} id="main">
      <div className="page-heading">
        <div>
          <h1>{title}</h1>
          {description ? <p className="lede">{description}</p> : null}
        </div>
        {actions ? <div className="page-actions">{actions}</div> : null}
      </div>
      {children}
    </main>
  );
}
